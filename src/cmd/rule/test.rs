//! `askhook rule test PAYLOAD-OR-TEXT`: everything the hook would consult for a question — its
//! door, recommendation, the preferences on its id and family, every rule that matches — and
//! what the hook would do with the call. Unlike the hook it evaluates every rule for every
//! question, so it can say why.
//!
//! ## `rule test --json`
//! `{"project", "questions": [{"index", "question", "question_id", "family", "door_type",
//! "door_rule", "recommended", "id_preference", "family_preference", "rules": [{"name",
//! "value"}], "applies": {"value", "source" ("id" | "family" | "rule:<name>")} | null,
//! "answer": label | null, "why_not": text | null}], "decision": "auto-decide" | "ask"}`.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;
use serde_json::Value;

use askhook_core::classify::Door;
use askhook_core::policy::{self, Assessed, Decision, Ineligible, Preference};
use askhook_core::question::{Choice, Question};

use crate::cli::RuleTestArgs;
use crate::error::{Error, Result};
use crate::hook::prefer::family_key;
use crate::rules::Matcher;
use crate::store::Store;
use crate::sys::{project, ui};
use crate::Context;

/// A question's verdict.
#[derive(Debug, Serialize)]
struct Explained {
    index: usize,
    question: String,
    question_id: String,
    family: Option<String>,
    door_type: Door,
    door_rule: Option<String>,
    recommended: Option<String>,
    id_preference: Option<&'static str>,
    family_preference: Option<&'static str>,
    rules: Vec<RuleHit>,
    applies: Option<Applies>,
    answer: Option<String>,
    why_not: Option<String>,
}

#[derive(Debug, Serialize)]
struct RuleHit {
    name: String,
    value: &'static str,
}

#[derive(Debug, Serialize)]
struct Applies {
    value: &'static str,
    source: String,
}

#[derive(Debug, Serialize)]
struct Report {
    project: Option<String>,
    questions: Vec<Explained>,
    decision: &'static str,
}

pub fn run(args: &RuleTestArgs, ctx: &Context) -> Result<ExitCode> {
    let (questions, cwd) = input_questions(args)?;
    let project = args
        .project
        .as_deref()
        .or(cwd.as_deref().map(Path::new))
        .map(|dir| {
            let dir = if dir.is_absolute() {
                dir.to_path_buf()
            } else {
                ctx.cwd.join(dir)
            };
            project::project_root(&dir).to_string_lossy().into_owned()
        })
        .or_else(|| {
            Some(
                project::project_root(&ctx.cwd)
                    .to_string_lossy()
                    .into_owned(),
            )
        });
    let registry = super::super::load_registry(ctx)?;
    let store = super::super::open_for_query(ctx)?;
    let (explained, decision) = explain(store.as_ref(), &registry, &questions, project.as_deref())?;
    let report = Report {
        project,
        questions: explained,
        decision: match decision {
            Decision::AutoDecide(_) => "auto-decide",
            Decision::Abstain => "ask",
        },
    };
    if args.json {
        ui::println(&serde_json::to_string_pretty(&report).unwrap_or_default())?;
    } else {
        let mode = crate::config::load(&ctx.paths.config)
            .config()
            .map(|c| crate::sys::paths::config_with_env(c).decide_with)
            .unwrap_or_default();
        ui::print(&render(&report, mode))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The questions named by the input, and the payload's `cwd` when it was a payload.
fn input_questions(args: &RuleTestArgs) -> Result<(Vec<Question>, Option<String>)> {
    let text = if args.input == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| Error::Usage(format!("reading stdin: {e}")))?;
        s
    } else if !args.input.trim_start().starts_with('{') && Path::new(&args.input).is_file() {
        std::fs::read_to_string(&args.input)
            .map_err(|e| Error::Usage(format!("{}: {e}", args.input)))?
    } else {
        args.input.clone()
    };
    if !text.trim_start().starts_with('{') {
        let q = Question::new(
            0,
            text.trim().to_owned(),
            args.header.clone(),
            Choice::labelled(&args.options),
            false,
        );
        return Ok((vec![q], None));
    }
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| Error::Usage(format!("the input is not JSON: {e}")))?;
    let cwd = v.get("cwd").and_then(Value::as_str).map(str::to_owned);
    let tool_input = match (v.get("tool_input"), v.get("questions"), v.get("question")) {
        (Some(input), _, _) => input.clone(),
        (None, Some(_), _) => v.clone(),
        (None, None, Some(_)) => serde_json::json!({ "questions": [v] }),
        _ => {
            return Err(Error::Usage(
                "the JSON is neither a hook payload, a tool_input nor a question".into(),
            ))
        }
    };
    let input: crate::hook::wire::ToolInput =
        serde_json::from_value(tool_input).map_err(|e| Error::Usage(format!("tool_input: {e}")))?;
    let list = input
        .questions
        .ok_or_else(|| Error::Usage("the tool_input has no questions".into()))?;
    let questions = crate::hook::event::questions_of(&list).map_err(Error::Usage)?;
    Ok((questions, cwd))
}

/// Each question's verdict and the call's decision.
fn explain(
    store: Option<&Store>,
    registry: &askhook_core::registry::Registry,
    questions: &[Question],
    project: Option<&str>,
) -> Result<(Vec<Explained>, Decision)> {
    let db = |s: &Store| {
        let path = s.path().to_path_buf();
        move |e| Error::db(&path, e)
    };
    let mut keys: Vec<String> = questions.iter().map(|q| q.id.clone()).collect();
    keys.extend(questions.iter().filter_map(family_key));
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let (prefs, rules) = match store {
        Some(s) => (
            s.preferences_for(&keys, project).map_err(db(s))?,
            s.rules_for(project).map_err(db(s))?,
        ),
        None => Default::default(),
    };
    let mut matcher = Matcher::new(&rules);
    let mut explained = Vec::new();
    let mut assessed = Vec::new();
    for q in questions {
        let (door, door_rule) =
            policy::door_of(registry.door(&q.id), &policy::classify_question(q));
        let id_pref = prefs.get(&q.id).copied();
        let family_pref = family_key(q).and_then(|k| prefs.get(&k).copied());
        let hits = matcher.matching(q);
        let applies = policy::resolve(id_pref, family_pref, &hits);
        let a = Assessed {
            question: q,
            door,
            preference: applies.clone(),
        };
        let verdict = policy::eligibility(&a);
        explained.push(Explained {
            index: q.index,
            question: q.text.clone(),
            question_id: q.id.clone(),
            family: q.family.clone(),
            door_type: door,
            door_rule,
            recommended: q.recommended_label().map(str::to_owned),
            id_preference: id_pref.map(Preference::as_str),
            family_preference: family_pref.map(Preference::as_str),
            rules: hits
                .iter()
                .map(|(name, p)| RuleHit {
                    name: (*name).to_owned(),
                    value: p.as_str(),
                })
                .collect(),
            applies: applies.as_ref().map(|r| Applies {
                value: r.preference.as_str(),
                source: r.source.label(),
            }),
            answer: verdict.as_ref().ok().cloned(),
            // The door settles it first, whatever is stored.
            why_not: verdict.err().map(|e| match door {
                Door::OneWay => why_not(Ineligible::OneWay, &a),
                Door::Unknown => why_not(Ineligible::UnknownDoor, &a),
                Door::TwoWay => why_not(e, &a),
            }),
        });
        assessed.push(a);
    }
    let decision = policy::decide(&assessed);
    Ok((explained, decision))
}

fn why_not(e: Ineligible, a: &Assessed<'_>) -> String {
    match e {
        Ineligible::NoPreference => "no preference or rule applies to it".into(),
        Ineligible::AlwaysAsk => match &a.preference {
            Some(r) => format!("always-ask ({})", r.source.label()),
            None => "always-ask".into(),
        },
        Ineligible::OneWay => "a one-way door: always asked".into(),
        Ineligible::UnknownDoor => "an unknown door (the classifier could not read it)".into(),
        Ineligible::SplitChain => "a gstack split chain: always asked".into(),
        Ineligible::NoRecommendation => {
            "no single recommended option: askhook only answers with the recommendation".into()
        }
    }
}

fn render(r: &Report, mode: crate::config::DecideWith) -> String {
    let s = |t: &str| ui::sanitize(t, false);
    let mut out = String::new();
    for q in &r.questions {
        out.push_str(&format!(
            "question {}: \"{}\"\n  id {}{}\n  door {}{}, recommended: {}\n",
            q.index + 1,
            s(&super::explain::clip(&q.question, 100)),
            s(&q.question_id),
            q.family
                .as_deref()
                .map(|f| format!(", family {}", s(f)))
                .unwrap_or_default(),
            q.door_type.as_str(),
            q.door_rule
                .as_deref()
                .map(|d| format!(" ({})", s(d)))
                .unwrap_or_default(),
            q.recommended
                .as_deref()
                .map_or_else(|| "none".into(), |l| format!("\"{}\"", s(l))),
        ));
        let rules: Vec<String> = q
            .rules
            .iter()
            .map(|h| format!("{} ({})", s(&h.name), h.value))
            .collect();
        out.push_str(&format!(
            "  id preference: {} · family preference: {} · rules: {}\n",
            q.id_preference.unwrap_or("-"),
            q.family_preference.unwrap_or("-"),
            if rules.is_empty() {
                "-".into()
            } else {
                rules.join(", ")
            },
        ));
        match (&q.answer, &q.why_not) {
            (Some(label), _) => out.push_str(&format!(
                "  → would answer \"{}\" ({} from {})\n",
                s(label),
                q.applies.as_ref().map_or("", |a| a.value),
                q.applies.as_ref().map_or(String::new(), |a| s(&a.source))
            )),
            (None, why) => out.push_str(&format!(
                "  → would ask: {}\n",
                why.as_deref().unwrap_or("")
            )),
        }
    }
    out.push_str(match (r.decision, mode) {
        ("auto-decide", crate::config::DecideWith::Deny) => {
            "the hook would answer this call for you (every question is eligible): a deny naming the answers\n"
        }
        ("auto-decide", crate::config::DecideWith::Answer) => {
            "the hook would answer this call for you (every question is eligible): an allow with every answer (answer mode)\n"
        }
        _ => "the hook would let you answer this call (a call is answered only when every question is eligible)\n",
    });
    out
}
