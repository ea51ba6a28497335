//! What the config file keeps out of the log: `record_filter` (calls never recorded) and
//! `redact` (more secret patterns, applied after the built-in scrubber). Patterns are compiled
//! here, only when the config has some, once per hook process.

use askhook_core::question::Question;
use regex_automata::meta::Regex;

use crate::config::Config;
use crate::rules::compile;
use crate::store::Row;

/// What replaces a match of a `redact` pattern.
pub const CUSTOM_REDACTION: &str = "[redacted:custom]";

/// Compile `patterns` (already checked when the config was read; one that fails is reported).
fn compiled(patterns: &[String], errors: &mut Vec<String>) -> Vec<Regex> {
    patterns
        .iter()
        .filter_map(|p| match compile(p) {
            Ok(r) => Some(r),
            Err(e) => {
                errors.push(format!("config pattern {p:?} ignored: {e}"));
                None
            }
        })
        .collect()
}

/// Whether the config says never to record this call: its `cwd` matches a `record_filter.cwd`
/// pattern, or a question's text, header or an option label matches a `record_filter.question`
/// one.
pub fn never_record(
    config: &Config,
    cwd: Option<&str>,
    questions: &[Question],
    errors: &mut Vec<String>,
) -> bool {
    if !config.record_filter_cwd.is_empty() {
        let patterns = compiled(&config.record_filter_cwd, errors);
        if cwd.is_some_and(|cwd| patterns.iter().any(|p| p.is_match(cwd))) {
            return true;
        }
    }
    if config.record_filter_question.is_empty() {
        return false;
    }
    let patterns = compiled(&config.record_filter_question, errors);
    questions.iter().any(|q| {
        std::iter::once(q.text.as_str())
            .chain(q.header.as_deref())
            .chain(q.options.iter().map(|o| o.label.as_str()))
            .any(|text| patterns.iter().any(|p| p.is_match(text)))
    })
}

/// `text` with every match of `patterns` replaced by [`CUSTOM_REDACTION`]; `None` when none
/// matched.
pub fn redact(text: &str, patterns: &[Regex]) -> Option<String> {
    let mut spans: Vec<(usize, usize)> = patterns
        .iter()
        .flat_map(|p| p.find_iter(text).map(|m| (m.start(), m.end())))
        .filter(|(start, end)| end > start)
        .collect();
    if spans.is_empty() {
        return None;
    }
    spans.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in spans {
        if start >= at {
            out.push_str(&text[at..start]);
            out.push_str(CUSTOM_REDACTION);
            at = end;
        } else if end > at {
            at = end;
        }
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// The config's `redact` patterns, compiled (empty when it has none).
pub fn redactions(config: &Config, errors: &mut Vec<String>) -> Vec<Regex> {
    if config.redact.is_empty() {
        Vec::new()
    } else {
        compiled(&config.redact, errors)
    }
}

/// Apply the config's `redact` patterns to every text field of `rows`.
pub fn redact_rows(rows: &mut [Row], patterns: &[Regex]) {
    if patterns.is_empty() {
        return;
    }
    for row in rows {
        row.redact_with(&|s| redact(s, patterns));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_replaces_every_match_once() {
        let patterns = vec![
            compile("ACME-[0-9]{4}").unwrap(),
            compile("acme-12").unwrap(),
        ];
        assert_eq!(
            redact("ids acme-1234 and ACME-9999.", &patterns).as_deref(),
            Some("ids [redacted:custom] and [redacted:custom].")
        );
        assert_eq!(redact("nothing here", &patterns), None);
        assert_eq!(
            redact("x", &[compile("y*").unwrap()]),
            None,
            "empty matches"
        );
    }

    #[test]
    fn the_record_filter_reads_cwd_and_every_question_field() {
        let config = Config {
            record_filter_cwd: vec!["^/secret/".into()],
            record_filter_question: vec!["salary".into()],
            ..Config::default()
        };
        let q = |text: &str, label: &str| {
            Question::new(
                0,
                text.into(),
                Some("H".into()),
                askhook_core::question::Choice::labelled(&[label, "No"]),
                false,
            )
        };
        let mut errors = Vec::new();
        let cases = [
            (Some("/secret/x"), q("Deploy?", "Yes"), true),
            (Some("/home/x"), q("Raise the SALARY cap?", "Yes"), true),
            (Some("/home/x"), q("Which cap?", "Salary band"), true),
            (Some("/home/x"), q("Deploy?", "Yes"), false),
            (None, q("Deploy?", "Yes"), false),
        ];
        for (cwd, question, want) in cases {
            assert_eq!(
                never_record(&config, cwd, std::slice::from_ref(&question), &mut errors),
                want,
                "{cwd:?} {}",
                question.text
            );
        }
        assert!(errors.is_empty());
    }
}
