//! `askhook install --claude-md`: askhook's block in the user's CLAUDE.md, asking agents to mark
//! recurring questions; `uninstall` removes exactly it; `doctor` reports it.

use serde_json::Value;

use crate::harness::{stdout, World};

fn claude_md(world: &World) -> Option<String> {
    std::fs::read_to_string(world.claude_config.join("CLAUDE.md")).ok()
}

fn doctor_block(world: &World) -> bool {
    let out = world.run(&["doctor", "--json"]).output();
    let v: Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    v["claude_md"]["marker_block"].as_bool().unwrap()
}

#[test]
fn install_adds_the_block_once_and_uninstall_removes_only_it() {
    let world = World::new();
    std::fs::create_dir_all(&world.claude_config).unwrap();
    let mine = "# My own rules\n\nAlways write tests first.\n";
    std::fs::write(world.claude_config.join("CLAUDE.md"), mine).unwrap();
    assert!(!doctor_block(&world));
    // --dry-run shows the diff and writes nothing.
    let dry = stdout(
        &world
            .run(&["install", "--claude-md", "--dry-run"])
            .success(),
    );
    assert!(dry.contains("+<!-- askhook:begin"), "{dry}");
    assert_eq!(claude_md(&world).as_deref(), Some(mine));
    let out = stdout(&world.run(&["install", "--claude-md"]).success());
    assert!(out.contains("added askhook's block"), "{out}");
    let text = claude_md(&world).unwrap();
    assert!(
        text.starts_with(mine) && text.contains("<askhook-qid:"),
        "{text}"
    );
    assert!(doctor_block(&world));
    let doctor = stdout(&world.run(&["doctor"]).output());
    assert!(
        doctor.contains("askhook's marker block is there"),
        "{doctor}"
    );
    // A second install changes nothing.
    let again = stdout(&world.run(&["install", "--claude-md"]).success());
    assert!(
        again.contains("already holds askhook's marker block"),
        "{again}"
    );
    assert_eq!(claude_md(&world).unwrap(), text);
    // Uninstalling a project scope keeps it; uninstalling the user scope removes exactly it.
    world.run(&["uninstall", "--scope", "project"]).success();
    assert_eq!(claude_md(&world).unwrap(), text);
    let out = stdout(&world.run(&["uninstall"]).success());
    assert!(out.contains("removed askhook's block"), "{out}");
    assert_eq!(claude_md(&world).as_deref(), Some(mine));
    assert!(!doctor_block(&world));
}

#[test]
fn install_without_the_flag_leaves_claude_md_alone_and_creates_it_only_with_it() {
    let world = World::new();
    world.run(&["install"]).success();
    assert_eq!(claude_md(&world), None);
    world.run(&["install", "--claude-md"]).success();
    assert!(claude_md(&world).unwrap().starts_with("<!-- askhook:begin"));
    world.run(&["uninstall"]).success();
    assert_eq!(claude_md(&world).as_deref(), Some(""));
}
