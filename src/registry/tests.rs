//! Registry tests: the embedded file, the raise-only merge, and `check`'s line numbers.

use super::*;

fn user(json: &str) -> Registry {
    Registry::with_user_text(json).expect("user registry parses")
}

#[test]
fn the_embedded_registry_is_valid_and_covers_the_common_questions() {
    let (count, problems) = check(EMBEDDED);
    assert!(problems.is_empty(), "{problems:#?}");
    assert!((30..=60).contains(&count), "{count} entries");
    let registry = Registry::embedded();
    assert_eq!(registry.entries().len(), count);
    for (id, door) in [
        ("commit-message-style", Door::TwoWay),
        ("test-framework", Door::TwoWay),
        ("package-manager", Door::TwoWay),
        ("run-tests-now", Door::TwoWay),
        ("create-pr", Door::TwoWay),
        ("push-branch", Door::TwoWay),
        ("force-push-branch", Door::OneWay),
        ("delete-branch", Door::OneWay),
        ("run-migrations", Door::OneWay),
        ("deploy-production", Door::OneWay),
        ("publish-package", Door::OneWay),
    ] {
        assert_eq!(registry.door(id), Some(door), "{id}");
    }
    assert_eq!(registry.door("not-a-known-id"), None);
}

#[test]
fn the_fast_embedded_lookup_agrees_with_the_parsed_file() {
    let entries = embedded_entries();
    assert_eq!(parse_embedded_uncached(), entries.len());
    for e in entries {
        assert_eq!(embedded_door(&e.id), Some(e.door_type), "{}", e.id);
    }
    // One entry per line, each line starting with its id, so the substring search is exact.
    let lines: Vec<&str> = EMBEDDED.lines().filter(|l| l.contains("\"id\"")).collect();
    assert_eq!(lines.len(), entries.len());
    for (line, e) in lines.iter().zip(entries) {
        assert!(
            line.trim_start()
                .starts_with(&format!("{{\"id\": \"{}\", ", e.id)),
            "{line}"
        );
    }
    assert_eq!(
        embedded_door("force-push"),
        None,
        "a prefix of an id is not the id"
    );
    assert_eq!(embedded_door("force-push-branch\", \"skill"), None);
}

#[test]
fn embedded_one_way_entries_also_read_one_way_to_the_classifier() {
    // The registry and the classifier should agree on the obvious ones: a one-way entry's
    // own description is destructive text.
    for e in embedded_entries()
        .iter()
        .filter(|e| e.door_type == Door::OneWay)
    {
        let d = e.description.as_deref().unwrap_or("");
        let c = crate::classify::classify(&[d]);
        assert_eq!(c.door, Door::OneWay, "{}: {d}", e.id);
    }
}

/// (name, user registry, id, effective door).
const MERGE: &[(&str, &str, &str, Option<Door>)] = &[
    (
        "user raises a two-way id",
        r#"{"questions":[{"id":"push-branch","door_type":"one-way"}]}"#,
        "push-branch",
        Some(Door::OneWay),
    ),
    (
        "user lowering without i_know is ignored",
        r#"{"questions":[{"id":"force-push-branch","door_type":"two-way"}]}"#,
        "force-push-branch",
        Some(Door::OneWay),
    ),
    (
        "user lowering with i_know is honoured",
        r#"{"questions":[{"id":"force-push-branch","door_type":"two-way","i_know":true}]}"#,
        "force-push-branch",
        Some(Door::TwoWay),
    ),
    (
        "i_know must be true, not a string",
        r#"{"questions":[{"id":"force-push-branch","door_type":"two-way","i_know":"yes"}]}"#,
        "force-push-branch",
        Some(Door::OneWay),
    ),
    (
        "one-way wins over i_know in another entry",
        r#"{"questions":[{"id":"create-pr","door_type":"two-way","i_know":true},{"id":"create-pr","door_type":"one-way"}]}"#,
        "create-pr",
        Some(Door::OneWay),
    ),
    (
        "user adds a new two-way id",
        r#"{"questions":[{"id":"my-question","door_type":"two-way"}]}"#,
        "my-question",
        Some(Door::TwoWay),
    ),
    (
        "user adds a new one-way id",
        r#"{"questions":[{"id":"wipe-staging","door_type":"one-way"}]}"#,
        "wipe-staging",
        Some(Door::OneWay),
    ),
    (
        "unknown door type reads one-way",
        r#"{"questions":[{"id":"create-pr","door_type":"twoway"}]}"#,
        "create-pr",
        Some(Door::OneWay),
    ),
    (
        "missing door type reads one-way",
        r#"{"questions":[{"id":"my-question"}]}"#,
        "my-question",
        Some(Door::OneWay),
    ),
    (
        "other ids are untouched",
        r#"{"questions":[{"id":"push-branch","door_type":"one-way"}]}"#,
        "create-pr",
        Some(Door::TwoWay),
    ),
];

#[test]
fn the_user_registry_only_raises_safety_unless_i_know() {
    for (name, text, id, want) in MERGE {
        let registry = user(text);
        assert_eq!(registry.door(id), *want, "{name}");
        let listed = registry
            .entries()
            .iter()
            .find(|e| e.id == *id)
            .map(|e| e.door_type);
        assert_eq!(listed, *want, "{name}: entries() agrees with door()");
    }
}

#[test]
fn overrides_report_lowered_and_ignored_doors() {
    let registry = user(
        r#"{"questions":[
            {"id":"force-push-branch","door_type":"two-way","i_know":true},
            {"id":"deploy-production","door_type":"two-way"},
            {"id":"push-branch","door_type":"one-way"},
            {"id":"create-pr","door_type":"two-way"}
        ]}"#,
    );
    let mut got = registry.overrides();
    got.sort_by(|a, b| a.id.cmp(&b.id));
    let summary: Vec<(&str, Door, bool)> = got
        .iter()
        .map(|o| (o.id.as_str(), o.user, o.honoured))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("deploy-production", Door::TwoWay, false),
            ("force-push-branch", Door::TwoWay, true),
            ("push-branch", Door::OneWay, true),
        ]
    );
}

#[test]
fn an_unparsable_user_file_is_an_error_and_a_missing_one_is_not() {
    assert!(Registry::with_user_text("{not json").is_err());
    assert!(Registry::with_user_text(r#"{"entries": []}"#).is_err());
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::load(&dir.path().join("missing.json")).unwrap();
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

#[test]
fn kebab_ids() {
    for ok in ["a", "force-push", "x1-2y", "hook-0123456789"] {
        assert!(is_kebab_id(ok), "{ok}");
    }
    for bad in ["", "-a", "a-", "a--b", "A", "a_b", "a b", &"a".repeat(65)] {
        assert!(!is_kebab_id(bad), "{bad}");
    }
}
