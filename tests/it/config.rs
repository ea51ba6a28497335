//! `askhook config show | path | edit` and the config keys the hook reads, through the real
//! binary. (What answer mode and an invalid file do to the hook: `decide.rs`.)

use serde_json::Value;

use crate::harness::{stderr, stdout, World};

fn shown(world: &World, env: &[(&str, &str)]) -> Value {
    let mut run = world.run(&["config", "show", "--json"]);
    for (k, v) in env {
        run = run.env(k, v);
    }
    serde_json::from_slice(&run.output().stdout).expect("config show --json")
}

#[test]
fn the_path_follows_askhook_home_and_the_flag() {
    let world = World::new();
    let path = stdout(&world.run(&["config", "path"]).success());
    assert_eq!(
        path.trim(),
        world.askhook_home.join("config.toml").to_string_lossy()
    );
    let other = world.project.join("my.toml");
    let path = stdout(
        &world
            .run(&["config", "path", "--config", &other.to_string_lossy()])
            .success(),
    );
    assert_eq!(path.trim(), other.to_string_lossy());
    let path = stdout(
        &world
            .run(&["config", "path"])
            .env("ASKHOOK_CONFIG", &other)
            .success(),
    );
    assert_eq!(path.trim(), other.to_string_lossy());
}

#[test]
fn show_says_every_value_and_where_it_comes_from() {
    let world = World::new();
    let v = shown(&world, &[]);
    assert_eq!(
        (v["exists"].clone(), v["valid"].clone()),
        (false.into(), true.into())
    );
    for key in [
        "decide_with",
        "context_from_history",
        "deadline_ms",
        "busy_timeout_ms",
        "redact",
        "record_filter.cwd",
        "record_filter.question",
    ] {
        assert_eq!(v["keys"][key]["source"], "default", "{key}");
    }
    assert_eq!(v["keys"]["decide_with"]["value"], "deny");
    std::fs::create_dir_all(&world.askhook_home).unwrap();
    std::fs::write(
        world.askhook_home.join("config.toml"),
        "decide_with = \"answer\"\ndeadline_ms = 2000\n[record_filter]\nquestion = [\"salary\"]\n",
    )
    .unwrap();
    let v = shown(&world, &[("ASKHOOK_DEADLINE_MS", "1500")]);
    assert_eq!(v["keys"]["decide_with"]["value"], "answer");
    assert_eq!(v["keys"]["decide_with"]["source"], "file");
    assert_eq!(v["keys"]["deadline_ms"]["value"], 1500);
    assert_eq!(v["keys"]["deadline_ms"]["source"], "env");
    assert_eq!(v["keys"]["record_filter.question"]["value"][0], "salary");
    let v = shown(&world, &[("ASKHOOK_DECIDE_WITH", "deny")]);
    assert_eq!(v["keys"]["decide_with"]["source"], "env");
    let text = stdout(&world.run(&["config", "show"]).success());
    assert!(
        text.contains("(valid)") && text.contains("decide_with"),
        "{text}"
    );
}

#[test]
fn edit_creates_the_template_runs_the_editor_and_checks_the_result() {
    let world = World::new();
    let editor = world.project.join("editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf 'decide_with = \"answer\"\\n' >> \"$1\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&editor, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    world
        .run(&["config", "edit"])
        .env("EDITOR", &editor)
        .success();
    let text = std::fs::read_to_string(world.askhook_home.join("config.toml")).unwrap();
    assert!(
        text.contains("# decide_with = \"deny\""),
        "the template: {text}"
    );
    assert_eq!(shown(&world, &[])["keys"]["decide_with"]["value"], "answer");
    // A second edit that breaks it is reported, and the file is kept as the editor left it.
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf 'decide_with = 3\\n' >> \"$1\"\n",
    )
    .unwrap();
    let out = world
        .run(&["config", "edit"])
        .env("VISUAL", &editor)
        .code(3);
    assert!(stderr(&out).contains("decide_with"), "{}", stderr(&out));
    assert_eq!(shown(&world, &[])["valid"], false);
    let help = stdout(&world.run(&["config", "--help"]).success());
    for key in [
        "decide_with",
        "context_from_history",
        "deadline_ms",
        "busy_timeout_ms",
        "redact",
        "record_filter",
    ] {
        assert!(help.contains(key), "{key} not in --help");
    }
}
