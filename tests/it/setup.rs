//! `install/install.sh` and `install/release.sh` as a user runs them, with `sh`, in a temp HOME:
//! a release tarball made by `release.sh` installs on a machine without Rust after its SHA-256
//! is checked (and a tampered one does not), and the clone route installs with cargo, then
//! registers the hook, writes completions and man pages.
//!
//! cargo itself is replaced by a stand-in that copies the askhook binary under test where
//! `cargo build --release` / `cargo install` would put it: what is tested is the scripts, not a
//! second release build of askhook.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::harness::{bin, World};

fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A folder holding a stand-in `cargo` (see the module doc) and nothing else.
fn fake_cargo(dir: &Path) -> PathBuf {
    let folder = dir.join("fake-cargo");
    std::fs::create_dir_all(&folder).unwrap();
    let script = format!(
        "#!/bin/sh\n\
         set -eu\n\
         case \"$1\" in\n\
           build) mkdir -p \"$CARGO_TARGET_DIR/release\"; cp '{bin}' \"$CARGO_TARGET_DIR/release/askhook\" ;;\n\
           install) root=\"${{CARGO_INSTALL_ROOT:-$HOME/.cargo}}\"; mkdir -p \"$root/bin\"; cp '{bin}' \"$root/bin/askhook\" ;;\n\
           *) echo \"fake cargo: $*\" >&2; exit 1 ;;\n\
         esac\n",
        bin = bin()
    );
    let cargo = folder.join("cargo");
    std::fs::write(&cargo, script).unwrap();
    make_executable(&cargo);
    folder
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `sh script args` in `world`'s HOME with only `path` on PATH (no cargo unless it is there).
fn sh(world: &World, script: &Path, args: &[&str], path: &str) -> Output {
    Command::new("sh")
        .arg(script)
        .args(args)
        .env_clear()
        .env("HOME", &world.home)
        .env("ASKHOOK_HOME", &world.askhook_home)
        .env("CLAUDE_CONFIG_DIR", &world.claude_config)
        .env("PATH", path)
        .env("TZ", "UTC")
        .current_dir(&world.project)
        .output()
        .expect("run sh")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The system folders of sh, tar, gzip, sha256sum and friends, without cargo.
const SYSTEM_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

#[test]
fn a_release_installs_without_rust_after_its_checksum() {
    let world = World::new();
    let dir = world.tmp.path();
    let dist = dir.join("dist");
    let cargo = fake_cargo(dir);
    let release = Command::new("sh")
        .arg(repo_file("install/release.sh"))
        .args(["--out", dist.to_str().unwrap()])
        .env(
            "PATH",
            format!(
                "{}:{}",
                cargo.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .unwrap();
    assert!(release.status.success(), "{}", text(&release));
    let tarballs: Vec<PathBuf> = std::fs::read_dir(&dist)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .collect();
    assert_eq!(tarballs.len(), 1, "{tarballs:?}");
    let tarball = &tarballs[0];
    let check = Command::new("sha256sum")
        .args(["-c", &format!("{}.sha256", tarball.display())])
        .current_dir(&dist)
        .output();
    if let Ok(check) = check {
        assert!(check.status.success(), "sha256sum -c: {}", text(&check));
    }

    // A tampered tarball is refused before anything is installed or registered.
    let good = std::fs::read(tarball).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(tarball, &bad).unwrap();
    let out = sh(&world, &dist.join("install.sh"), &[], SYSTEM_PATH);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("does not match"), "{}", text(&out));
    assert!(!world.home.join(".local/bin/askhook").exists());
    assert!(!world.claude_config.join("settings.json").exists());

    // The real one installs with no cargo on PATH, and registers the hook.
    std::fs::write(tarball, &good).unwrap();
    let out = sh(&world, &dist.join("install.sh"), &[], SYSTEM_PATH);
    assert!(out.status.success(), "{}", text(&out));
    let installed = world.home.join(".local/bin/askhook");
    assert!(text(&out).contains("checked the SHA-256"), "{}", text(&out));
    let settings = std::fs::read_to_string(world.claude_config.join("settings.json")).unwrap();
    assert!(
        settings.contains(&installed.display().to_string()),
        "{settings}"
    );
    assert!(world.home.join(".local/share/man/man1/askhook.1").exists());

    // Without its checksum file a tarball is not installed.
    std::fs::remove_file(format!("{}.sha256", tarball.display())).unwrap();
    let out = sh(&world, &dist.join("install.sh"), &[], SYSTEM_PATH);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains(".sha256 not found"), "{}", text(&out));
}

#[test]
fn the_clone_route_installs_with_cargo_then_registers_and_adds_completions() {
    let world = World::new();
    let cargo = fake_cargo(world.tmp.path());
    // Shells whose folders exist get completions; the others are left alone.
    std::fs::create_dir_all(world.home.join(".config/fish")).unwrap();
    std::fs::create_dir_all(world.home.join(".zfunc")).unwrap();
    let path = format!("{}:{SYSTEM_PATH}", cargo.display());
    let out = sh(&world, &repo_file("install/install.sh"), &[], &path);
    assert!(out.status.success(), "{}", text(&out));
    let installed = world.home.join(".cargo/bin/askhook");
    assert!(installed.exists());
    let status = text(&out);
    assert!(status.contains("next: nothing to do"), "{status}");
    for file in [
        ".config/fish/completions/askhook.fish",
        ".zfunc/_askhook",
        ".cargo/share/man/man1/askhook.1",
        ".cargo/share/man/man1/askhook-log.1",
    ] {
        assert!(world.home.join(file).exists(), "{file}\n{status}");
    }
    // Without cargo and without a tarball it says what to do, and changes nothing.
    let fresh = World::new();
    let out = sh(&fresh, &repo_file("install/install.sh"), &[], SYSTEM_PATH);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("https://rustup.rs"), "{}", text(&out));
    assert!(!fresh.claude_config.join("settings.json").exists());
}
