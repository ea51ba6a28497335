//! The door corpora (`tests/corpus/doors/*.jsonl`, format in `tests/corpus/README.md`) and the
//! confusion table they are reported in. Shared by `tests/it/corpus.rs` (through the real hook)
//! and `benches/classify.rs` (the classifier alone), which includes this file by path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// One realistic question and the truth about it.
pub struct Case {
    pub id: String,
    /// The language, or `other` for the languages askhook has no lexicon for.
    pub lang: String,
    pub one_way: bool,
    pub category: String,
    /// The question exactly as in an `AskUserQuestion` call.
    pub question: Value,
}

impl Case {
    pub fn text(&self, key: &str) -> &str {
        self.question[key].as_str().unwrap_or("")
    }

    /// `(label, description)` of each option.
    pub fn options(&self) -> Vec<(&str, &str)> {
        self.question["options"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|o| {
                (
                    o["label"].as_str().unwrap_or(""),
                    o["description"].as_str().unwrap_or(""),
                )
            })
            .collect()
    }
}

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/doors")
}

/// Every case of every `*.jsonl` in `dir`, files in name order. Panics on a malformed line:
/// the corpus is test data.
pub fn load(dir: &Path) -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("read_dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        let other = file.file_stem().is_some_and(|s| s == "other");
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = || format!("{}:{}", file.display(), n + 1);
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{}: {e}", at()));
            let field = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("{}: no {k}", at()))
                    .to_owned()
            };
            let question = serde_json::json!({
                "question": v["question"], "header": v["header"],
                "multiSelect": v["multiSelect"], "options": v["options"],
            });
            cases.push(Case {
                id: field("id"),
                lang: if other {
                    "other".to_owned()
                } else {
                    field("lang")
                },
                one_way: field("expect") == "one-way",
                category: field("category"),
                question,
            });
        }
    }
    cases
}

/// How one case came out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    OneWay,
    TwoWay,
    Unknown,
}

/// Counts per (language, truth): classified one-way, two-way, unknown.
#[derive(Default)]
pub struct Table {
    rows: BTreeMap<(String, bool), [u32; 3]>,
    by_category: BTreeMap<(String, bool), [u32; 3]>,
}

impl Table {
    pub fn add(&mut self, case: &Case, outcome: Outcome) {
        let col = match outcome {
            Outcome::OneWay => 0,
            Outcome::TwoWay => 1,
            Outcome::Unknown => 2,
        };
        self.rows
            .entry((case.lang.clone(), case.one_way))
            .or_default()[col] += 1;
        self.by_category
            .entry((case.category.clone(), case.one_way))
            .or_default()[col] += 1;
    }

    /// Destructive questions read as two-way (auto-decidable): must be none.
    pub fn missed(&self) -> u32 {
        self.rows
            .iter()
            .filter(|((_, one), _)| *one)
            .map(|(_, c)| c[1])
            .sum()
    }

    /// Questions in languages without a lexicon read as two-way: must be none.
    pub fn uncovered_two_way(&self) -> u32 {
        self.rows
            .iter()
            .filter(|((lang, _), _)| lang == "other")
            .map(|(_, c)| c[1])
            .sum()
    }

    /// Per covered language, the share of reversible questions not read as two-way.
    pub fn flagged(&self) -> Vec<(String, f64)> {
        self.rows
            .iter()
            .filter(|((lang, one), _)| !*one && lang != "other")
            .map(|((lang, _), c)| {
                let total = f64::from(c.iter().sum::<u32>().max(1));
                (lang.clone(), f64::from(c[0] + c[2]) / total)
            })
            .collect()
    }

    /// The report as two markdown tables: by language, then by category.
    pub fn markdown(&self, two_way_col: &str) -> String {
        let mut out = format!(
            "| language | one-way cases | read one-way | read unknown | {two_way_col} (missed) | two-way cases | {two_way_col} | flagged |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
        );
        let langs: Vec<&String> = self
            .rows
            .keys()
            .map(|(l, _)| l)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for lang in langs {
            let one = self
                .rows
                .get(&(lang.clone(), true))
                .copied()
                .unwrap_or_default();
            let two = self
                .rows
                .get(&(lang.clone(), false))
                .copied()
                .unwrap_or_default();
            let two_total = two.iter().sum::<u32>();
            let flagged = if two_total == 0 {
                "—".to_owned()
            } else {
                format!(
                    "{:.0}%",
                    100.0 * f64::from(two[0] + two[2]) / f64::from(two_total)
                )
            };
            out.push_str(&format!(
                "| {lang} | {} | {} | {} | {} | {two_total} | {} | {flagged} |\n",
                one.iter().sum::<u32>(),
                one[0],
                one[2],
                one[1],
                two[1]
            ));
        }
        out.push_str("\n| category | side | cases | read one-way | read two-way | read unknown |\n|---|---|---:|---:|---:|---:|\n");
        for ((category, one), c) in &self.by_category {
            let side = if *one { "one-way" } else { "two-way" };
            out.push_str(&format!(
                "| {category} | {side} | {} | {} | {} | {} |\n",
                c.iter().sum::<u32>(),
                c[0],
                c[1],
                c[2]
            ));
        }
        out
    }
}
