//! Registry tests: the embedded tables, the raise-only merge with a user registry.

use super::*;

/// The embedded registry files as written (`build.rs` turns them into [`EMBEDDED`], in order).
const EMBEDDED_TEXTS: [&str; 2] = [
    include_str!("../../../../registry/questions.json"),
    include_str!("../../../../registry/gstack.json"),
];

fn user(json: &str) -> Registry {
    Registry::with_user_text(json).expect("user registry parses")
}

#[test]
fn the_embedded_registry_covers_the_common_questions() {
    let count = EMBEDDED.len();
    let own = EMBEDDED.iter().filter(|e| e.origin == "askhook").count();
    assert!((30..=60).contains(&own), "{own} of askhook's own entries");
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
fn gstack_registry_and_rules_are_embedded() {
    let gstack: Vec<&Embedded> = EMBEDDED.iter().filter(|e| e.origin == "gstack").collect();
    assert_eq!(gstack.len(), 53);
    assert_eq!(gstack.iter().filter(|e| e.door == Door::OneWay).count(), 12);
    let registry = Registry::embedded();
    for (id, door) in [
        ("land-and-deploy-merge-confirm", Some(Door::OneWay)),
        ("ship-release-pipeline-missing", Some(Door::TwoWay)),
        // Unregistered ids of a skill whose approvals gstack treats as one-way.
        ("cso-rotate-everything", Some(Door::OneWay)),
        ("land-and-deploy-something-new", Some(Door::OneWay)),
        ("cseither-not-a-skill", None),
    ] {
        assert_eq!(registry.door(id), door, "{id}");
    }
    assert!(is_always_asked("plan-ceo-review-split-add-cache"));
    assert!(!is_always_asked("qa-splitscreen-test"));
}

#[test]
fn the_static_tables_agree_with_the_file() {
    let list: Vec<Value> = EMBEDDED_TEXTS
        .iter()
        .flat_map(|text| {
            let root: Value = serde_json::from_str(text).unwrap();
            root["questions"].as_array().unwrap().clone()
        })
        .collect();
    assert_eq!(list.len(), EMBEDDED.len());
    for (item, e) in list.iter().zip(EMBEDDED) {
        assert_eq!(item["id"], e.id);
        assert_eq!(item["door_type"], e.door.as_str(), "{}", e.id);
        assert_eq!(item["description"], e.description, "{}", e.id);
        assert_eq!(embedded_door(e.id), Some(e.door), "{}", e.id);
    }
    // One entry per line, each line starting with its id, so `registry check` line numbers
    // point at entries.
    let lines: Vec<&str> = EMBEDDED_TEXTS
        .iter()
        .flat_map(|text| text.lines())
        .filter(|l| l.contains("\"id\""))
        .collect();
    assert_eq!(lines.len(), EMBEDDED.len());
    for (line, e) in lines.iter().zip(EMBEDDED) {
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
    // gstack's one-way ids are its judgement calls (architecture forks, scope), not
    // destructive text: only askhook's own entries are held to this.
    for e in EMBEDDED
        .iter()
        .filter(|e| e.door == Door::OneWay && e.origin == "askhook")
    {
        let c = crate::classify::classify_text(e.description);
        assert_eq!(c.door, Door::OneWay, "{}: {}", e.id, e.description);
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
fn an_unparsable_user_text_is_an_error() {
    assert!(Registry::with_user_text("{not json").is_err());
    assert!(Registry::with_user_text(r#"{"entries": []}"#).is_err());
    assert!(Registry::embedded().user_file().is_none());
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
