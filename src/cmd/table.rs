//! Terminal rendering of log rows: the aligned one-line-per-question table of `askhook log`,
//! the full blocks of `log --full`, `show` and `pending`. Pure: rows, the clock and a
//! [`Style`] (width, colour) in, text out. Every piece of recorded text goes through
//! [`ui::sanitize`] before it is laid out, and is measured in terminal columns
//! (`unicode-width`: a CJK character or an emoji takes two).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::store::{Outcome, Row};
use crate::sys::project::short_name;
use crate::sys::ui;

/// How to lay out text: the terminal width and whether to colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub width: usize,
    pub colour: bool,
}

impl Style {
    /// The style for stdout: the terminal's width ([`crate::sys::term::width`]) and
    /// [`ui::colour_enabled`].
    pub fn for_stdout() -> Style {
        Style {
            width: crate::sys::term::width(),
            colour: ui::colour_enabled(),
        }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.colour && !code.is_empty() {
            format!("\u{1b}[{code}m{text}\u{1b}[0m")
        } else {
            text.to_owned()
        }
    }
}

/// The short label and colour of an outcome.
fn outcome_label(outcome: Outcome) -> (&'static str, &'static str) {
    match outcome {
        Outcome::Answered => ("answered", "32"),
        Outcome::AutoDecided => ("auto", "36"),
        Outcome::Pending => ("pending", "33"),
        Outcome::Failed => ("failed", "31"),
        Outcome::Declined => ("declined", "2"),
        Outcome::Abandoned => ("abandoned", "2"),
    }
}

fn followed_mark(followed: Option<bool>) -> &'static str {
    match followed {
        Some(true) => "✓",
        Some(false) => "✗",
        None => " ",
    }
}

/// The terminal columns `text` takes.
pub fn columns(text: &str) -> usize {
    text.width()
}

/// `text` cut to `width` terminal columns, with `…` when cut, padded to `width` when `pad`.
pub fn fit(text: &str, width: usize, pad: bool) -> String {
    let mut out = if columns(text) > width {
        let room = width.saturating_sub(1);
        let mut s = String::new();
        let mut used = 0;
        for c in text.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > room {
                break;
            }
            used += w;
            s.push(c);
        }
        s.push('…');
        s
    } else {
        text.to_owned()
    };
    if pad {
        let have = columns(&out);
        out.extend(std::iter::repeat_n(' ', width.saturating_sub(have)));
    }
    out
}

/// `2026-12-02 13:46` from an RFC 3339 timestamp.
/// When a row was asked, for people: local time to the minute and the zone's abbreviation.
fn local_minute(ms: i64) -> (String, String) {
    (
        crate::sys::time::format_local_minute(ms),
        crate::sys::time::local_zone(ms).1,
    )
}

fn question_line(row: &Row) -> String {
    let text = row
        .header
        .as_deref()
        .filter(|h| !h.trim().is_empty())
        .map_or_else(
            || first_line(&row.question).to_owned(),
            |h| format!("{h}: {}", first_line(&row.question)),
        );
    ui::sanitize(&text, false)
}

fn first_line(text: &str) -> &str {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

fn answer_text(row: &Row) -> String {
    match (&row.reply.answer, &row.error) {
        (Some(a), _) => ui::sanitize(a, false),
        (None, Some(e)) if row.outcome == Outcome::Failed => ui::sanitize(e, false),
        _ => "-".into(),
    }
}

fn project_of(row: &Row) -> String {
    ui::sanitize(row.project.as_deref().map_or("-", short_name), false)
}

/// The column widths of the `log` table.
struct Layout {
    show_date: bool,
    project_w: usize,
    id_w: usize,
    question_w: usize,
    answer_w: usize,
}

impl Layout {
    fn new(projects: &[String], ids: &[String], width: usize) -> Layout {
        let widest = |cells: &[String]| cells.iter().map(|c| columns(c)).max().unwrap_or(0);
        let project_w = widest(projects).clamp(7, 16);
        let id_w = widest(ids).clamp(2, 22).min((width / 5).max(8));
        // Narrow terminals drop the absolute time first.
        let show_date = width >= 90;
        let date_w = if show_date { 11 + 2 } else { 0 };
        // ago(4) 1 [date(11) 2] project 2 id 2 QUESTION 2 ANSWER 2 outcome(9) 1 mark(1)
        let fixed = 4 + 1 + date_w + project_w + 2 + id_w + 2 + 2 + 2 + 9 + 1 + 1;
        let flexible = width.saturating_sub(fixed).max(12);
        let answer_w = (flexible * 2 / 5).max(5);
        Layout {
            show_date,
            project_w,
            id_w,
            question_w: flexible.saturating_sub(answer_w).max(7),
            answer_w,
        }
    }

    /// One line: ago, date, project, id, question, answer, outcome, mark.
    fn line(&self, [ago, date, project, id, question, answer, outcome, mark]: [&str; 8]) -> String {
        let date = if self.show_date {
            format!("{}  ", fit(date, 11, true))
        } else {
            String::new()
        };
        format!(
            "{ago:>4} {date}{}  {}  {}  {}  {outcome} {mark}",
            fit(project, self.project_w, true),
            fit(id, self.id_w, true),
            fit(question, self.question_w, true),
            fit(answer, self.answer_w, true),
        )
    }
}

/// The aligned table of `askhook log`, one line per row, fitted to `style.width`.
pub fn render(rows: &[Row], now_ms: i64, style: &Style) -> String {
    if rows.is_empty() {
        return "no questions recorded yet (see `askhook demo`, or `askhook install`)\n".into();
    }
    let projects: Vec<String> = rows.iter().map(project_of).collect();
    let ids: Vec<String> = rows
        .iter()
        .map(|r| ui::sanitize(&r.question_id, false))
        .collect();
    let layout = Layout::new(&projects, &ids, style.width);
    let mut out = String::new();
    // Times are local; the header names the zone (as of now, should the rows span a change).
    let zone_now = crate::sys::time::local_zone(now_ms).1;
    let header = layout.line([
        "AGO",
        &zone_now,
        "PROJECT",
        "ID",
        "QUESTION",
        "ANSWER",
        "OUTCOME  ",
        "F",
    ]);
    out.push_str(&style.paint("1", &fit(header.trim_end(), style.width, false)));
    out.push('\n');
    for ((row, project), id) in rows.iter().zip(&projects).zip(&ids) {
        let (label, colour) = outcome_label(row.outcome);
        let ago = crate::sys::time::format_age(now_ms - row.asked_at);
        let minute = local_minute(row.asked_at).0;
        let (question, answer) = (question_line(row), answer_text(row));
        let cells = |outcome: &str| {
            layout.line([
                &ago,
                minute.get(5..).unwrap_or(""),
                project,
                id,
                &question,
                &answer,
                outcome,
                followed_mark(row.reply.followed_recommendation),
            ])
        };
        let plain = cells(&fit(label, 9, true));
        let line = if columns(plain.trim_end()) > style.width {
            fit(plain.trim_end(), style.width, false)
        } else if style.colour {
            cells(&style.paint(colour, &fit(label, 9, true)))
        } else {
            plain
        };
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Word-wrap `text` (already sanitized, newlines kept) to `width`, each line after `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let room = width.saturating_sub(columns(indent)).max(20);
    let mut out = String::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split(' ') {
            let len = columns(&line);
            if len > 0 && len + 1 + columns(word) > room {
                out.push_str(indent);
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push_str(indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn is_chosen(row: &Row, label: &str) -> bool {
    if let Some(selections) = &row.reply.selections {
        return selections.iter().any(|s| s == label);
    }
    row.reply.answer.as_deref() == Some(label)
}

/// One offered option of a row in full: its mark (chosen or not), label, recommendation and
/// description.
fn option_line(row: &Row, option: &askhook_core::question::Choice, style: &Style) -> String {
    let chosen = is_chosen(row, &option.label);
    let mark = match (row.multi_select, chosen) {
        (true, true) => "[x]",
        (true, false) => "[ ]",
        (false, true) => "(•)",
        (false, false) => "( )",
    };
    let recommended = if row.recommended.as_deref() == Some(option.label.as_str())
        && askhook_core::question::recommendation_marker(&option.label).is_none()
    {
        " (recommended)"
    } else {
        ""
    };
    let mut text = format!("{mark} {}{recommended}", ui::sanitize(&option.label, false));
    if !option.description.is_empty() {
        text.push_str(&format!(" — {}", ui::sanitize(&option.description, false)));
    }
    let text = wrap(&text, style.width, "    ");
    if chosen {
        painted(&text, "1", style)
    } else {
        text
    }
}

/// One row in full: the whole question, every option with the chosen one marked, the
/// answer, and where it was asked.
pub fn render_block(row: &Row, now_ms: i64, style: &Style) -> String {
    let (label, colour) = outcome_label(row.outcome);
    let (minute, zone) = local_minute(row.asked_at);
    let mut out = format!(
        "{minute} {zone} ({} ago)  {}  {}  {} {}",
        crate::sys::time::format_age(now_ms - row.asked_at),
        project_of(row),
        style.paint("1", &ui::sanitize(&row.question_id, false)),
        style.paint(colour, label),
        followed_mark(row.reply.followed_recommendation)
    )
    .trim_end()
    .to_owned();
    out.push('\n');
    if let Some(h) = row.header.as_deref().filter(|h| !h.is_empty()) {
        out.push_str(&format!("  [{}]\n", ui::sanitize(h, false)));
    }
    out.push_str(&wrap(&ui::sanitize(&row.question, true), style.width, "  "));
    for option in &row.options {
        out.push_str(&option_line(row, option, style));
    }
    let field = |name: &str, value: &Option<String>, out: &mut String| {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            out.push_str(&wrap(
                &format!("{name}: {}", ui::sanitize(v, true)),
                style.width,
                "  ",
            ));
        }
    };
    field("answer", &row.reply.answer, &mut out);
    field("free text", &row.reply.free_text, &mut out);
    field("notes", &row.reply.notes, &mut out);
    field("error", &row.error, &mut out);
    field("family", &row.family, &mut out);
    field("decided by", &row.decided_by, &mut out);
    let door = match &row.door_rule {
        Some(rule) => format!("{} ({})", row.door_type.as_str(), ui::sanitize(rule, false)),
        None => row.door_type.as_str().to_owned(),
    };
    let settled = row
        .settled_at
        .map(|s| {
            format!(
                ", settled after {}",
                crate::sys::time::format_age(s - row.asked_at)
            )
        })
        .unwrap_or_default();
    let meta = format!(
        "door {door}{settled}; session {} call {} #{} via {}{}",
        ui::sanitize(&row.session_id, false),
        ui::sanitize(&row.tool_use_id, false),
        row.question_index,
        ui::sanitize(&row.tool_name, false),
        if row.reply.afk {
            "; idle auto-continue"
        } else {
            ""
        }
    );
    out.push_str(&painted(&wrap(&meta, style.width, "  "), "2", style));
    out
}

/// Each line of `text` painted on its own, so a wrapped block keeps its colour per line.
fn painted(text: &str, code: &str, style: &Style) -> String {
    text.lines()
        .map(|line| style.paint(code, line) + "\n")
        .collect()
}

/// `log --full`: every row as a block, a blank line between them.
pub fn render_full(rows: &[Row], now_ms: i64, style: &Style) -> String {
    if rows.is_empty() {
        return "no questions recorded yet (see `askhook demo`, or `askhook install`)\n".into();
    }
    rows.iter()
        .map(|r| render_block(r, now_ms, style))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One pending question: its age first, then the full block.
pub fn render_pending(row: &Row, now_ms: i64, style: &Style) -> String {
    format!(
        "waiting {}  (session {}, project {})\n{}\n",
        crate::sys::time::format_age(now_ms - row.asked_at),
        ui::sanitize(&row.session_id, false),
        ui::sanitize(row.project.as_deref().unwrap_or("-"), false),
        render_block(row, now_ms, style)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_cuts_with_an_ellipsis_and_pads() {
        assert_eq!(fit("abcdef", 4, false), "abc…");
        assert_eq!(fit("ab", 4, true), "ab  ");
        assert_eq!(fit("✓✓✓", 3, true), "✓✓✓");
    }

    #[test]
    fn wide_characters_take_two_columns() {
        // CJK and emoji are two columns wide: counting chars misaligned every later column.
        for (name, text, width, want) in [
            ("cjk fits", "削除", 4, "削除"),
            ("cjk cut", "削除しますか", 5, "削除…"),
            ("cjk cut before a half", "削除しますか", 4, "削… "),
            ("emoji padded", "🚀 go", 7, "🚀 go  "),
            ("emoji cut", "🚀🚀🚀", 4, "🚀… "),
        ] {
            let got = fit(text, width, true);
            assert_eq!(got, want, "{name}");
            assert_eq!(columns(&got), width, "{name}: {got:?}");
        }
        let wrapped = wrap(&"削除 ".repeat(40), 30, "  ");
        assert!(wrapped.lines().all(|l| columns(l) <= 30), "{wrapped}");
    }

    #[test]
    fn wrap_keeps_every_word_within_the_width() {
        let text = "one two three four five six seven eight nine ten eleven twelve";
        let wrapped = wrap(text, 24, "  ");
        assert!(
            wrapped.lines().all(|l| l.chars().count() <= 24),
            "{wrapped}"
        );
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            text.split(' ').collect::<Vec<_>>()
        );
    }
}
