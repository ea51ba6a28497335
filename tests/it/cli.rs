//! The command line itself: completions and man pages generated from it, help text, and the
//! values it refuses.

use std::process::Command;

use crate::harness::{stderr, stdout, World};

#[test]
fn completions_are_generated_for_every_shell() {
    let world = World::new();
    for (shell, marker) in [
        ("bash", "complete -F _askhook"),
        ("zsh", "#compdef askhook"),
        ("fish", "complete -c askhook"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[askhook]"),
    ] {
        let text = stdout(&world.run(&["completions", shell]).success());
        assert!(text.contains(marker), "{shell}: no {marker:?}");
        assert!(text.contains("uninstall"), "{shell}: every subcommand");
    }
    world.run(&["completions", "tcsh"]).code(2);
}

#[test]
fn the_bash_completion_completes_subcommands() {
    let world = World::new();
    let script = world.tmp.path().join("askhook.bash");
    std::fs::write(
        &script,
        world.run(&["completions", "bash"]).success().stdout,
    )
    .unwrap();
    let probe = format!(
        "source '{}'; COMP_WORDS=(askhook unin); COMP_CWORD=1; _askhook askhook unin askhook; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let out = Command::new("bash").args(["--norc", "-c", &probe]).output();
    let Ok(out) = out else {
        return; // no bash on this machine: the generation test above still ran
    };
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "uninstall");
}

#[test]
fn the_man_page_is_generated_whole_or_per_command() {
    let world = World::new();
    let page = stdout(&world.run(&["man"]).success());
    assert!(page.contains(".TH askhook 1"), "{page}");
    for section in ["SYNOPSIS", "SUBCOMMANDS", "askhook\\-uninstall(1)"] {
        assert!(page.contains(section), "no {section}");
    }
    let dir = world.tmp.path().join("man1");
    world
        .run(&["man", "--dir", dir.to_str().unwrap()])
        .success();
    for name in [
        "askhook.1",
        "askhook-log.1",
        "askhook-pref-set.1",
        "askhook-man.1",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        assert!(text.starts_with(".ie"), "{name}: {text:?}");
    }
    assert!(stderr(&world.run(&["man"]).success()).is_empty());
}
