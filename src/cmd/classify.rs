//! `askhook classify`: the door of a question as the hook sees it — one-way, two-way or unknown
//! — and why: the question's language, each piece of evidence (the rule, the words, the lexicon
//! line), and what was found but set aside (negated, a preview, harmless objects).
//!
//! The question is given as text (`TEXT [--header H] [--option LABEL [--description D]]…`) or
//! as a PreToolUse payload (`--payload FILE|-`), whose every question is classified with its id,
//! so the registry applies as in the hook (a registry id can only raise safety).
//!
//! ## `classify --json`
//! One object per question (an array of them with `--payload`):
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `door_type` | `"one-way"` \| `"two-way"` \| `"unknown"` | the door the hook would record |
//! | `rule` | string \| null | the deciding rule (`drop:database`, `force-push`, `unknown-language:it`, `registry`) |
//! | `matched` | string \| null | the words of the first piece of evidence |
//! | `language` | string | the question's language (`en`, `ja` …; `-` when unclear) |
//! | `question_id` | string | the question's id (marker or hash) |
//! | `question_index` | int | its position in the call |
//! | `fields` | `[{part, option, language}]` | each field read: `part` is `question`, `header`, `label` or `description`, `option` the option's number (from 1) or null |
//! | `evidence` | `[{door, rule, part, option, words, lexicon, source}]` | what makes it one-way or unknown; `source` is the lexicon line (`en.txt:42`) |
//! | `set_aside` | same shape | what was found and did not count, with why in `rule` (`delete:data: negated`) |
//! | `normalized` | string | the folded text of every field, one per line |

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use askhook_core::classify::{fold::fold_key, Evidence, Role, Verdict};
use askhook_core::question::{Choice, Question};
use askhook_core::{policy, registry::Registry};
use serde_json::{json, Value};

use crate::cli::ClassifyArgs;
use crate::error::{Error, Result};
use crate::sys::ui;
use crate::Context;

use super::Run;

impl Run for ClassifyArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        let questions = match &self.payload {
            Some(path) => payload_questions(path)?,
            None => vec![self.question()],
        };
        let registry = crate::registry::load(&ctx.paths.user_registry).unwrap_or_else(|e| {
            ui::eprintln_warning(&format!("warning: user registry ignored: {e}"));
            Registry::embedded()
        });
        let reports: Vec<Value> = questions.iter().map(|q| report(q, &registry)).collect();
        if self.json {
            let value = if self.payload.is_some() {
                Value::Array(reports)
            } else {
                reports.into_iter().next().unwrap_or_default()
            };
            ui::println(&serde_json::to_string(&value).unwrap_or_else(|_| "{}".into()))?;
        } else {
            for (i, r) in reports.iter().enumerate() {
                if i > 0 {
                    ui::println("")?;
                }
                ui::print(&render(r))?;
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

impl ClassifyArgs {
    /// The question given on the command line, read like a PreToolUse question.
    fn question(&self) -> Question {
        let options = self
            .options
            .iter()
            .enumerate()
            .map(|(i, label)| Choice {
                label: label.clone(),
                description: self.descriptions.get(i).cloned().unwrap_or_default(),
            })
            .collect();
        Question::new(
            0,
            self.text.clone().unwrap_or_default(),
            self.header.clone(),
            options,
            false,
        )
    }
}

/// The questions of a PreToolUse payload (or of a bare `tool_input`) in a file or on stdin.
fn payload_questions(path: &Path) -> Result<Vec<Question>> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    let name = path.display().to_string();
    read.map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let bad = |why: String| {
        Error::Usage(format!(
            "{name}: {why}; expected a PreToolUse payload of AskUserQuestion (or its tool_input)"
        ))
    };
    let value: Value =
        serde_json::from_slice(&bytes).map_err(|e| bad(format!("not JSON ({e})")))?;
    let input = value.get("tool_input").cloned().unwrap_or(value);
    let list: crate::hook::wire::Questions =
        serde_json::from_value(input.get("questions").cloned().unwrap_or(Value::Null))
            .map_err(|e| bad(format!("unreadable questions ({e})")))?;
    crate::hook::event::questions_of(&list).map_err(bad)
}

/// One question's verdict as the `--json` object.
fn report(q: &Question, registry: &Registry) -> Value {
    let verdict = policy::classify_question(q);
    let (door, rule) = policy::door_of(registry.door(&q.id), &verdict);
    let texts = field_texts(q);
    let pieces = |list: &[Evidence]| -> Vec<Value> {
        list.iter().map(|e| evidence(e, &verdict, &texts)).collect()
    };
    let evidence_list = pieces(&verdict.evidence);
    let matched = evidence_list
        .first()
        .and_then(|e| e.get("words"))
        .cloned()
        .unwrap_or(Value::Null);
    json!({
        "door_type": door.as_str(),
        "rule": rule,
        "matched": matched,
        "language": verdict.language,
        "question_id": q.id,
        "question_index": q.index,
        "fields": verdict.fields.iter().map(|(role, lang)| {
            let (part, option) = part(*role);
            json!({"part": part, "option": option, "language": lang})
        }).collect::<Vec<_>>(),
        "evidence": evidence_list,
        "set_aside": pieces(&verdict.cleared),
        "normalized": texts.iter().map(|t| fold_key(t)).collect::<Vec<_>>().join("\n"),
    })
}

/// The text of every field in the classifier's order: question, header, then each option's
/// label and description.
fn field_texts(q: &Question) -> Vec<&str> {
    let mut texts = vec![q.text.as_str(), q.header.as_deref().unwrap_or("")];
    for o in &q.options {
        texts.push(&o.label);
        texts.push(&o.description);
    }
    texts
}

fn part(role: Role) -> (&'static str, Option<u16>) {
    match role {
        Role::Question => ("question", None),
        Role::Header => ("header", None),
        Role::Label(i) => ("label", Some(u16::from(i) + 1)),
        Role::Description(i) => ("description", Some(u16::from(i) + 1)),
    }
}

fn evidence(e: &Evidence, verdict: &Verdict, texts: &[&str]) -> Value {
    let role = verdict
        .fields
        .get(usize::from(e.field))
        .map_or(Role::Question, |f| f.0);
    let (part, option) = part(role);
    let text = texts.get(usize::from(e.field)).copied().unwrap_or("");
    let words = text
        .get(e.start as usize..e.end as usize)
        .filter(|w| !w.is_empty());
    json!({
        "door": e.door.as_str(),
        "rule": e.rule,
        "part": part,
        "option": option,
        "words": words,
        "lexicon": e.lang,
        "source": e.source,
    })
}

/// The text view: the verdict on one line, then each piece of evidence and what was set aside.
fn render(r: &Value) -> String {
    let s = |v: &Value| ui::sanitize(v.as_str().unwrap_or(""), false);
    let mut out = s(&r["door_type"]);
    if let Some(rule) = r["rule"].as_str() {
        out.push_str(&format!("  {}", ui::sanitize(rule, false)));
    } else {
        out.push_str("  (no one-way evidence)");
    }
    out.push_str(&format!("  [language: {}]\n", s(&r["language"])));
    let line = |out: &mut String, e: &Value| {
        let place = match e["option"].as_u64() {
            Some(n) => format!("option {n} {}", s(&e["part"])),
            None => s(&e["part"]),
        };
        let words = e["words"]
            .as_str()
            .map(|w| format!(" \"{}\"", ui::sanitize(w, false)))
            .unwrap_or_default();
        let source = e["source"]
            .as_str()
            .filter(|s| !s.is_empty())
            .map(|src| format!("  ({src})"))
            .unwrap_or_default();
        out.push_str(&format!("  {place}:{words} → {}{source}\n", s(&e["rule"])));
    };
    for e in r["evidence"].as_array().into_iter().flatten() {
        line(&mut out, e);
    }
    let aside = r["set_aside"].as_array().filter(|a| !a.is_empty());
    if let Some(aside) = aside {
        out.push_str("  set aside:\n");
        for e in aside {
            line(&mut out, e);
        }
    }
    out
}
