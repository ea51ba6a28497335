//! Build-time data for the core: the embedded question registry and the look-alike characters
//! of the text fold become static tables, so the hook never parses data at start-up (a fresh
//! process runs on every question).
//!
//! Each registry file (see [`REGISTRY_FILES`]) is checked here: an id that is not kebab-case, a
//! duplicate id (within or across files), a `door_type` other than `one-way` / `two-way` or a
//! field of the wrong type fails the build, so a typo can never lower safety at run time.
//!
//! Generated (in `$OUT_DIR`):
//! - `registry.rs`, included by `src/registry.rs`: `EMBEDDED: &[Embedded]`, every entry in file
//!   order (files in list order), and `BY_ID: &[(&str, u16)]`, the ids sorted, each with its
//!   index in `EMBEDDED`;
//! - `look_alikes.rs`, included by `src/normalize.rs`: `LOOK_ALIKES: &[(char, &str)]` from
//!   `data/look-alikes.txt`, sorted by character.
//!
//! Data the door classifier needs at build time (rules, lexicons) gets its own function beside
//! [`registry`] and [`look_alikes`], called from [`main`].

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "src/registry/id.rs"]
mod id;
use id::is_kebab_id;

/// The registry files embedded in the binary, relative to the workspace root, in order.
///
/// gstack's own question registry (`registry/gstack.json`) joins this list when it lands; an id
/// may appear in one file only.
const REGISTRY_FILES: &[&str] = &["registry/questions.json"];

fn main() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    // `registry/` in this crate links to the workspace's `registry/`: the build reads only files
    // inside the crate, so `cargo package` carries them and the published crate builds alone.
    let root = manifest.to_path_buf();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    registry(&root, &out.join("registry.rs"));
    look_alikes(
        &manifest.join("data/look-alikes.txt"),
        &out.join("look_alikes.rs"),
    );
}

/// `data/look-alikes.txt` → `LOOK_ALIKES: &[(char, &str)]`, sorted by character, for the
/// classifier's text fold (`src/normalize.rs`). A character listed twice fails the build.
fn look_alikes(file: &Path, out: &Path) {
    println!("cargo:rerun-if-changed={}", file.display());
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut table: Vec<(char, String)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", file.display(), n + 1);
        // The replacement is a JSON string; the characters follow it.
        let mut stream = serde_json::Deserializer::from_str(line).into_iter::<String>();
        let replacement = stream
            .next()
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("{at}: no replacement string"));
        let rest = &line[stream.byte_offset()..];
        for token in rest.split_whitespace() {
            for c in characters(token, &at) {
                assert!(
                    !table.iter().any(|(k, _)| *k == c),
                    "{at}: U+{:04X} is listed twice",
                    c as u32
                );
                table.push((c, replacement.clone()));
            }
        }
    }
    table.sort_unstable_by_key(|(c, _)| *c);
    let mut code = String::from(
        "/// Look-alike characters and their plain spelling, sorted (from `data/look-alikes.txt`).\n\
         static LOOK_ALIKES: &[(char, &str)] = &[\n",
    );
    for (c, r) in &table {
        let _ = writeln!(code, "    ({c:?}, {r:?}),");
    }
    code.push_str("];\n");
    std::fs::write(out, code).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

/// The characters a token of `data/look-alikes.txt` names: itself, `U+XXXX`, or a range.
fn characters(token: &str, at: &str) -> Vec<char> {
    let code = |t: &str| -> u32 {
        let hex = t
            .strip_prefix("U+")
            .unwrap_or_else(|| panic!("{at}: `{t}`"));
        u32::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("{at}: `{t}`: {e}"))
    };
    let range = match token.split_once("..") {
        Some((a, b)) => code(a)..=code(b),
        None if token.starts_with("U+") => code(token)..=code(token),
        None => {
            let mut chars = token.chars();
            let c = chars.next().unwrap_or_else(|| panic!("{at}: empty token"));
            assert!(
                chars.next().is_none(),
                "{at}: `{token}` is more than one character"
            );
            return vec![c];
        }
    };
    range
        .map(|u| char::from_u32(u).unwrap_or_else(|| panic!("{at}: U+{u:04X} is no character")))
        .collect()
}

/// One checked registry entry.
struct Entry {
    id: String,
    skill: String,
    category: String,
    one_way: bool,
    options: Vec<String>,
    signal_key: String,
    description: String,
}

fn registry(root: &Path, out: &Path) {
    let mut entries: Vec<Entry> = Vec::new();
    for file in REGISTRY_FILES {
        let path = root.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let value: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: not valid JSON: {e}"));
        let list = value["questions"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: no `questions` array"));
        for item in list {
            let entry = entry(file, item);
            assert!(
                !entries.iter().any(|e| e.id == entry.id),
                "{file}: duplicate id `{}`",
                entry.id
            );
            entries.push(entry);
        }
    }
    let mut code = String::from(
        "/// Every embedded entry, in file order.\npub static EMBEDDED: &[Embedded] = &[\n",
    );
    for e in &entries {
        let door = if e.one_way { "OneWay" } else { "TwoWay" };
        let _ = writeln!(
            code,
            "    Embedded {{ id: {:?}, skill: {:?}, category: {:?}, door: Door::{door}, options: &{:?}, signal_key: {:?}, description: {:?} }},",
            e.id, e.skill, e.category, e.options, e.signal_key, e.description
        );
    }
    code.push_str("];\n\n/// The embedded ids, sorted, each with its index in [`EMBEDDED`].\nstatic BY_ID: &[(&str, u16)] = &[\n");
    let mut sorted: Vec<(&str, usize)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    sorted.sort_unstable();
    for (id, i) in sorted {
        let _ = writeln!(code, "    ({id:?}, {i}),");
    }
    code.push_str("];\n");
    std::fs::write(out, code).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

/// Check one entry of `file` and read it.
fn entry(file: &str, item: &Value) -> Entry {
    let text = |key: &str| -> String {
        item[key]
            .as_str()
            .unwrap_or_else(|| panic!("{file}: {item}: `{key}` must be a string"))
            .to_owned()
    };
    let id = text("id");
    assert!(is_kebab_id(&id), "{file}: id `{id}` is not kebab-case");
    let one_way = match text("door_type").as_str() {
        "one-way" => true,
        "two-way" => false,
        other => panic!("{file}: `{id}`: door_type `{other}` (use one-way or two-way)"),
    };
    let options = item["options"]
        .as_array()
        .unwrap_or_else(|| panic!("{file}: `{id}`: `options` must be an array"))
        .iter()
        .map(|o| {
            o.as_str()
                .unwrap_or_else(|| panic!("{file}: `{id}`: every option must be a string"))
                .to_owned()
        })
        .collect();
    Entry {
        skill: text("skill"),
        category: text("category"),
        signal_key: text("signal_key"),
        description: text("description"),
        id,
        one_way,
        options,
    }
}
