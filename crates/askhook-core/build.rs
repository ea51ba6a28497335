//! Build-time data for the core: the embedded question registry, the door classifier's
//! lexicons and the family matcher's word lists become static tables, so the hook never parses
//! data at start-up (a fresh process runs on every question).
//!
//! Each registry file (see [`REGISTRY_FILES`]) is checked here: an id that is not kebab-case, a
//! duplicate id (within or across files), a `door_type` other than `one-way` / `two-way` or a
//! field of the wrong type fails the build, so a typo can never lower safety at run time.
//!
//! Generated (in `$OUT_DIR`):
//! - `registry.rs`, included by `src/registry.rs`: `EMBEDDED: &[Embedded]`, every entry in file
//!   order (files in list order), and `BY_ID: &[(&str, u16)]`, the ids sorted, each with its
//!   index in `EMBEDDED`;
//! - `door_tables.rs` and `door_examples.rs`, included by `src/classify/lexicon.rs` and the
//!   classifier's tests: the door lexicons of `data/doors/*.txt` (see `build/doors.rs` and
//!   `data/doors/README.md`);
//! - `t2s_table.rs`, included by `src/classify/t2s.rs`: Traditional → Simplified Chinese
//!   characters (see `build/t2s.rs`), which the classifier's fold applies to terms and words;
//! - `family_tables.rs`, included by `src/family/lexicon.rs`: the family matcher's word lists
//!   of `data/families/*.txt` (see `build/families.rs` and `data/families/README.md`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "build/doors.rs"]
mod doors;
#[path = "build/families.rs"]
mod families;
#[path = "src/classify/fold.rs"]
mod fold;
#[path = "src/registry/id.rs"]
mod id;
#[path = "build/t2s.rs"]
mod t2s;
use id::is_kebab_id;

/// The registry files embedded in the binary, relative to the workspace root, in order.
///
/// askhook's own registry, then gstack's (`registry/gstack.json`: gstack's question ids, so its
/// `<gstack-qid:…>` markers and imported preferences get gstack's door types); an id may appear in
/// one file only. Each entry's origin is the file's: `askhook` or `gstack`.
const REGISTRY_FILES: &[(&str, &str)] = &[
    ("registry/questions.json", "askhook"),
    ("registry/gstack.json", "gstack"),
];

fn main() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    // `registry/` in this crate links to the workspace's `registry/`: the build reads only files
    // inside the crate, so `cargo package` carries them and the published crate builds alone.
    let root = manifest.to_path_buf();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    registry(&root, &out.join("registry.rs"));
    t2s::write_table(&out);
    doors::compile(&manifest.join("data/doors"), &out);
    families::compile(&manifest.join("data/families"), &out);
}

/// One checked registry entry.
struct Entry {
    origin: &'static str,
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
    let mut rules = String::new();
    for &(file, origin) in REGISTRY_FILES {
        let path = root.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let value: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: not valid JSON: {e}"));
        let list = value["questions"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: no `questions` array"));
        rules.push_str(&gstack_rules(file, &value["rules"]));
        for item in list {
            let mut entry = entry(file, item);
            entry.origin = origin;
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
            "    Embedded {{ origin: {:?}, id: {:?}, skill: {:?}, category: {:?}, door: Door::{door}, options: &{:?}, signal_key: {:?}, description: {:?} }},",
            e.origin, e.id, e.skill, e.category, e.options, e.signal_key, e.description
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
    code.push_str(&rules);
    std::fs::write(out, code).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

/// gstack's rules as constants (empty for a file without `rules`): the skills whose `approval`
/// questions are one-way (`"cso:approval"` → `cso`), and the id patterns always asked
/// (`"*-split-*"` → `-split-`).
fn gstack_rules(file: &str, rules: &Value) -> String {
    if rules.is_null() {
        return String::new();
    }
    let list = |key: &str| -> Vec<String> {
        rules[key]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: rules.{key} must be an array"))
            .iter()
            .map(|v| {
                v.as_str()
                    .unwrap_or_else(|| panic!("{file}: rules.{key}: strings only"))
                    .to_owned()
            })
            .collect()
    };
    let skills: Vec<String> = list("one_way_skill_categories")
        .iter()
        .map(|s| {
            let (skill, category) = s
                .split_once(':')
                .unwrap_or_else(|| panic!("{file}: {s:?} is not skill:category"));
            assert_eq!(
                category, "approval",
                "{file}: only approval categories are one-way ({s:?})"
            );
            skill.to_owned()
        })
        .collect();
    let infixes: Vec<String> = list("always_ask_patterns")
        .iter()
        .map(|p| {
            p.strip_prefix('*')
                .and_then(|p| p.strip_suffix('*'))
                .filter(|p| !p.contains('*'))
                .unwrap_or_else(|| panic!("{file}: always-ask pattern {p:?} must be *text*"))
                .to_owned()
        })
        .collect();
    format!(
        "\n/// gstack's skills whose `approval` questions are one-way ({file}).\npub static ONE_WAY_APPROVAL_SKILLS: &[&str] = &{skills:?};\n\n/// Parts of gstack ids that are always asked: split chains ({file}).\npub static ALWAYS_ASK_INFIXES: &[&str] = &{infixes:?};\n"
    )
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
        origin: "",
        skill: text("skill"),
        category: text("category"),
        signal_key: text("signal_key"),
        description: text("description"),
        id,
        one_way,
        options,
    }
}
