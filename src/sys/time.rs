//! Time as askhook stores and prints it: milliseconds since the Unix epoch in the database,
//! RFC 3339 UTC (`2026-12-02T13:46:41.123Z`) on the wire, local time in tables for people
//! ([`local_zone`], [`format_local_minute`]), and the `--since` / `--until` forms (RFC 3339, a
//! bare date, or a relative span like `90s`, `2h`, `7d`, `2w`). The calendar and the time zones
//! are `jiff`'s; pure but for the clock in [`now_ms`] and the local zone.

use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use jiff::civil::Date;
use jiff::fmt::temporal::DateTimePrinter;
use jiff::tz::TimeZone;
use jiff::Timestamp;

/// The current time in milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The instant of `ms`, clamped to what the calendar can show (years -9999 to 9999).
fn timestamp(ms: i64) -> Timestamp {
    Timestamp::from_millisecond(ms).unwrap_or(if ms < 0 {
        Timestamp::MIN
    } else {
        Timestamp::MAX
    })
}

/// Format milliseconds since the epoch as RFC 3339 UTC with millisecond precision.
pub fn format_rfc3339(ms: i64) -> String {
    DateTimePrinter::new()
        .precision(Some(3))
        .timestamp_to_string(&timestamp(ms))
}

/// Parse an RFC 3339 date-time (`Z` or `±hh:mm` offset, optional fraction) or a bare
/// `YYYY-MM-DD` (midnight UTC) into milliseconds since the epoch. The date must exist:
/// `2026-02-31` is no date.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let t = text.trim();
    if !rfc3339_shape(t.as_bytes()) {
        return None;
    }
    let instant = if t.len() == 10 {
        let date: Date = t.parse().ok()?;
        TimeZone::UTC
            .to_timestamp(date.to_datetime(jiff::civil::Time::midnight()))
            .ok()?
    } else {
        t.parse::<Timestamp>().ok()?
    };
    Some(instant.as_millisecond())
}

/// The forms askhook accepts, checked before the calendar: `YYYY-MM-DD`, optionally followed by
/// `T`, `t` or a space, `HH:MM:SS`, an optional `.fraction`, and `Z`, `z` or `±hh:mm`.
fn rfc3339_shape(b: &[u8]) -> bool {
    let digits = |range: std::ops::Range<usize>| {
        b.get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    if !(digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10))
    {
        return false;
    }
    if b.len() == 10 {
        return true;
    }
    if !(matches!(b.get(10), Some(b'T' | b't' | b' '))
        && digits(11..13)
        && b.get(13) == Some(&b':')
        && digits(14..16)
        && b.get(16) == Some(&b':')
        && digits(17..19))
    {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match &b[i..] {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit()),
        _ => false,
    }
}

/// Parse a relative span (`30s`, `15m`, `2h`, `7d`, `2w`) into milliseconds.
pub fn parse_span(text: &str) -> Option<i64> {
    let t = text.trim();
    let unit_at = t.find(|c: char| !c.is_ascii_digit())?;
    let (n, unit) = t.split_at(unit_at);
    let n: i64 = n.parse().ok()?;
    let unit_ms = match unit {
        "s" => 1000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        "w" => 7 * 86_400_000,
        _ => return None,
    };
    n.checked_mul(unit_ms)
}

/// Parse a `--since` / `--until` value: RFC 3339, a date, or a span before `now_ms`.
pub fn parse_when(text: &str, now_ms: i64) -> Option<i64> {
    parse_rfc3339(text).or_else(|| parse_span(text).map(|span| now_ms - span))
}

/// The local time zone: `TZ` (a zone name, a POSIX rule such as `IST-5:30`, or a file), else
/// `/etc/localtime`; UTC when neither says. Read once per process.
fn local() -> &'static TimeZone {
    static ZONE: OnceLock<TimeZone> = OnceLock::new();
    ZONE.get_or_init(|| TimeZone::try_system().unwrap_or(TimeZone::UTC))
}

/// The local time zone at `at_ms`: its offset from UTC in seconds and its abbreviation (`CET`,
/// `IST`, `UTC`).
pub fn local_zone(at_ms: i64) -> (i64, String) {
    let info = local().to_offset_info(timestamp(at_ms));
    (
        i64::from(info.offset().seconds()),
        info.abbreviation().to_owned(),
    )
}

/// `YYYY-MM-DD HH:MM:SS` in local time.
pub fn format_local(ms: i64) -> String {
    local()
        .to_datetime(timestamp(ms))
        .strftime("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// `YYYY-MM-DD HH:MM` in local time.
pub fn format_local_minute(ms: i64) -> String {
    let mut local = format_local(ms);
    local.truncate(16);
    local
}

/// A short human age: `42s`, `5m`, `3h`, `2d`.
pub fn format_age(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m", s / 60),
        3600..=86_399 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_parses_round_trip() {
        for ms in [
            0,
            1,
            999,
            86_399_999,
            1_796_219_201_123,
            951_782_400_000, /* 2000-02-29 */
        ] {
            assert_eq!(parse_rfc3339(&format_rfc3339(ms)), Some(ms), "{ms}");
        }
        assert_eq!(format_rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn parses_offsets_dates_and_fractions() {
        let z = parse_rfc3339("2026-12-02T13:00:00Z").unwrap();
        assert_eq!(parse_rfc3339("2026-12-02T14:00:00+01:00"), Some(z));
        assert_eq!(parse_rfc3339("2026-12-02T13:00:00.5Z"), Some(z + 500));
        assert_eq!(parse_rfc3339("2026-12-02"), Some(z - 13 * 3_600_000));
        for bad in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-12-02T25:00:00Z",
            "2026-12-02T13:00:00",
            "2026-12-02T13:00:00+0100",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn dates_that_do_not_exist_are_refused() {
        // The hand-written parser read 2026-02-31 as 2026-03-03.
        for bad in [
            "2026-02-31",
            "2026-02-29",
            "2026-04-31",
            "2026-02-30T10:00:00Z",
            "2026-00-10",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
        assert_eq!(
            parse_rfc3339("2024-02-29"),
            Some(1_709_164_800_000),
            "a leap day"
        );
        assert_eq!(parse_when("2026-02-31", 0), None);
    }

    #[test]
    fn parses_spans() {
        assert_eq!(parse_span("90s"), Some(90_000));
        assert_eq!(parse_span("2h"), Some(7_200_000));
        assert_eq!(parse_span("7d"), Some(604_800_000));
        assert_eq!(parse_span("2w"), Some(1_209_600_000));
        assert_eq!(parse_span("7"), None);
        assert_eq!(parse_span("d"), None);
        assert_eq!(parse_span("3y"), None);
        assert_eq!(parse_when("1h", 10_000_000), Some(10_000_000 - 3_600_000));
    }

    #[test]
    fn ages_are_short() {
        assert_eq!(format_age(5_000), "5s");
        assert_eq!(format_age(300_000), "5m");
        assert_eq!(format_age(3 * 3_600_000), "3h");
        assert_eq!(format_age(2 * 86_400_000), "2d");
    }
}
