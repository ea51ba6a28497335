//! Fuzz the hook on arbitrary stdin bytes: never a panic, and the output is empty or one
//! JSON decision object line that is never `defer` or `allow`. Seed the corpus with
//! `cp ../tests/fixtures/captured/*.json corpus/hook/`.
#![no_main]

use std::sync::OnceLock;
use std::time::Instant;

use libfuzzer_sys::fuzz_target;

fn dir() -> &'static std::path::Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("temp dir")).path()
}

fuzz_target!(|data: &[u8]| {
    let home = dir().to_path_buf();
    let paths = askhook::sys::paths::Paths::resolve(&askhook::cli::PathFlags::default(), &|name| {
        (name == "ASKHOOK_HOME" || name == "HOME").then(|| home.clone().into_os_string())
    });
    let ctx = askhook::hook::HookContext {
        paths,
        budget: askhook::sys::paths::Budget::default(),
        config: Ok(askhook::config::Config::default()),
        now_ms: 1_700_000_000_000,
        started: Instant::now(),
    };
    let handled = askhook::hook::handle(data, &ctx);
    let bytes = askhook::hook::render::render(&handled.output);
    if bytes.is_empty() {
        return;
    }
    assert!(bytes.ends_with(b"\n") && bytes.iter().filter(|b| **b == b'\n').count() == 1);
    let v: serde_json::Value = serde_json::from_slice(&bytes).expect("one JSON object");
    let out = &v["hookSpecificOutput"];
    assert!(out["hookEventName"].is_string());
    if let Some(d) = out.get("permissionDecision") {
        assert_eq!(d, "deny");
    }
});
