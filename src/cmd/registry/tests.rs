//! Registry file tests: `check`'s line numbers, reading the user file, rendering it back.

use super::*;
use crate::registry::load;

/// askhook's own embedded registry file as written.
const EMBEDDED_TEXT: &str = include_str!("../../../registry/questions.json");
/// gstack's registry, copied as gstack ships it (its `signal_key`s may be empty, so `check`,
/// which holds user files to askhook's own rules, is not the judge of it).
const GSTACK_TEXT: &str = include_str!("../../../registry/gstack.json");

#[test]
fn the_embedded_registry_file_checks_clean_and_every_entry_is_embedded() {
    let (count, problems) = check(EMBEDDED_TEXT);
    assert!(problems.is_empty(), "{problems:#?}");
    let gstack: serde_json::Value = serde_json::from_str(GSTACK_TEXT).unwrap();
    let gstack_count = gstack["questions"].as_array().unwrap().len();
    assert!(gstack_count > 0);
    assert_eq!(Registry::embedded().entries().len(), count + gstack_count);
}

#[test]
fn an_unparsable_user_file_is_an_error_and_a_missing_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{not json").unwrap();
    assert!(load(&bad).is_err());
    let registry = load(&dir.path().join("missing.json")).unwrap();
    assert_eq!(registry.door("force-push-branch"), Some(Door::OneWay));
    assert!(registry.user_file().is_none());
}

const BAD: &str = r#"{
  "questions": [
    {"id": "ok-one", "skill": "git", "category": "git", "door_type": "two-way", "options": ["A"], "signal_key": "ok", "description": "Fine."},
    {"id": "Bad_Id", "skill": "git", "category": "git", "door_type": "two-way", "options": [], "signal_key": "x", "description": "Bad id."},
    {"id": "ok-one", "skill": "git", "category": "git", "door_type": "two-way", "options": [], "signal_key": "x", "description": "Duplicate."},
    {"id": "cat", "skill": "git", "category": "nonsense", "door_type": "two-way", "options": [], "signal_key": "x", "description": "Bad category."},
    {"id": "door", "skill": "git", "category": "git", "door_type": "maybe", "options": [], "signal_key": "x", "description": "Bad door."},
    {"id": "missing", "skill": "git", "category": "git", "door_type": "one-way", "options": []},
    {"id": "force-push-branch", "skill": "git", "category": "git", "door_type": "two-way", "options": [], "signal_key": "x", "description": "Lowered."},
    {
      "id": "multi-line",
      "skill": "git",
      "category": "git",
      "door_type": "two-way",
      "options": [1],
      "signal_key": "x",
      "description": "Option not a string.",
      "extra": true
    }
  ]
}
"#;

#[test]
fn check_reports_each_problem_on_its_line() {
    let (count, problems) = check(BAD);
    assert_eq!(count, 8);
    let got: Vec<(usize, Severity, &str)> = problems
        .iter()
        .map(|p| (p.line, p.severity, p.message.as_str()))
        .collect();
    let expect: &[(usize, Severity, &str)] = &[
        (4, Severity::Error, "not kebab-case"),
        (
            5,
            Severity::Error,
            "duplicate id `ok-one` (first on line 3)",
        ),
        (6, Severity::Error, "unknown category `nonsense`"),
        (7, Severity::Error, "unknown door_type `maybe`"),
        (8, Severity::Error, "missing required field `signal_key`"),
        (8, Severity::Error, "missing required field `description`"),
        (9, Severity::Warning, "this two-way entry is ignored"),
        (15, Severity::Error, "every option must be a string"),
        (18, Severity::Warning, "unknown field `extra`"),
    ];
    assert_eq!(got.len(), expect.len(), "{got:#?}");
    for ((line, sev, msg), (want_line, want_sev, want_msg)) in got.iter().zip(expect) {
        assert_eq!((line, sev), (want_line, want_sev), "{msg}");
        assert!(
            msg.contains(want_msg),
            "line {line}: {msg} lacks {want_msg}"
        );
    }
}

#[test]
fn check_reports_the_line_of_a_syntax_error() {
    let (_, problems) = check("{\n  \"questions\": [\n    {\"id\": \"a\",}\n  ]\n}\n");
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].line, 3);
    assert!(problems[0].message.contains("not valid JSON"));
    let (_, problems) = check("[]");
    assert!(problems[0].message.contains("top level"));
    let (_, problems) = check("{\"questions\": {}}");
    assert!(problems[0].message.contains("must be an array"));
}

#[test]
fn rendered_user_files_parse_back_and_check_clean() {
    let root = json!({"questions": [
        {"id": "a-b", "skill": "user", "category": "general", "door_type": "one-way", "options": ["Yes"], "signal_key": "a_b", "description": "x"},
        {"id": "c", "skill": "user", "category": "git", "door_type": "two-way", "options": [], "signal_key": "c", "description": "y", "i_know": true, "added_at": "2026-01-01T00:00:00Z"}
    ]});
    let text = render_registry(&root);
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), root);
    let (count, problems) = check(&text);
    assert_eq!((count, problems), (2, vec![]));
    assert_eq!(text.lines().count(), 6, "one entry per line:\n{text}");
}
