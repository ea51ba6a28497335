//! Time as askhook stores and prints it: milliseconds since the Unix epoch in the database,
//! RFC 3339 UTC (`2026-12-02T13:46:41.123Z`) on the wire, local time in tables for people
//! ([`local_zone`], [`format_local_minute`]), and the `--since` / `--until` forms (RFC 3339, a
//! bare date, or a relative span like `90s`, `2h`, `7d`, `2w`). Pure, but for the clock in
//! [`now_ms`] and the time zone the C library reads in [`local_zone`].

use std::time::{SystemTime, UNIX_EPOCH};

/// The current time in milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Days since 1970-01-01 for a proleptic Gregorian civil date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Format milliseconds since the epoch as RFC 3339 UTC with millisecond precision.
pub fn format_rfc3339(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    let (y, mo, d) = civil_from_days(days);
    let (h, mi, s, milli) = (
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    );
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
}

/// Parse an RFC 3339 date-time (`Z` or `±hh:mm` offset, optional fraction) or a bare
/// `YYYY-MM-DD` (midnight UTC) into milliseconds since the epoch.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let t = text.trim();
    let b = t.as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<i64> {
        let s = t.get(range)?;
        if s.bytes().all(|c| c.is_ascii_digit()) {
            s.parse().ok()
        } else {
            None
        }
    };
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)? as u32, num(8..10)? as u32);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let date_ms = days_from_civil(year, month, day) * 86_400_000;
    if b.len() == 10 {
        return Some(date_ms);
    }
    if !matches!(b[10], b'T' | b't' | b' ') || b.len() < 19 || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (h, mi, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let mut i = 19;
    let mut frac_ms = 0;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = t.get(start..i)?;
        if digits.is_empty() {
            return None;
        }
        let padded: String = digits.chars().chain("000".chars()).take(3).collect();
        frac_ms = padded.parse::<i64>().ok()?;
    }
    let offset_ms = match t.get(i..)? {
        "Z" | "z" => 0,
        off if off.len() == 6
            && (off.starts_with('+') || off.starts_with('-'))
            && &off[3..4] == ":" =>
        {
            let oh = num(i + 1..i + 3)?;
            let om = num(i + 4..i + 6)?;
            let sign = if off.starts_with('-') { -1 } else { 1 };
            sign * (oh * 3_600_000 + om * 60_000)
        }
        _ => return None,
    };
    Some(date_ms + h * 3_600_000 + mi * 60_000 + s * 1000 + frac_ms - offset_ms)
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

/// The local time zone at `at_ms`: its offset from UTC in seconds and its abbreviation (`CET`,
/// `IST`, `UTC`), as the C library has it (`TZ`, else `/etc/localtime`). UTC when it cannot say.
pub fn local_zone(at_ms: i64) -> (i64, String) {
    let t = at_ms.div_euclid(1000) as libc::time_t;
    // SAFETY: `localtime_r` writes only into `tm`, which lives on this stack; `tm_zone`, when
    // set, points at a NUL-terminated string the C library keeps for the process's life.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            return (0, "UTC".to_owned());
        }
        let zone = if tm.tm_zone.is_null() {
            String::new()
        } else {
            std::ffi::CStr::from_ptr(tm.tm_zone)
                .to_string_lossy()
                .into_owned()
        };
        (tm.tm_gmtoff as i64, zone)
    }
}

/// `YYYY-MM-DD HH:MM:SS` in local time.
pub fn format_local(ms: i64) -> String {
    let (offset_s, _) = local_zone(ms);
    let local = format_rfc3339(ms.saturating_add(offset_s * 1000));
    local.get(..19).unwrap_or(&local).replace('T', " ")
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
