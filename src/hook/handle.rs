//! One payload through the hook: parse (wire → event), assess each question (project, registry,
//! classifier), decide (the core policy), record (one transaction, or the spool), and the
//! output to print. Pure but for the store and the spool.

use std::collections::HashMap;
use std::time::Duration;

use askhook_core::answer::{Answer, Response};
use askhook_core::classify::Door;
use askhook_core::policy::{self, Assessed, Decision};
use askhook_core::question::Question;
use askhook_core::registry::Registry;

use crate::store::{self, spool, Batch, Outcome, Row, Store};
use crate::sys::project::project_root;

use super::event::{event_of, Call, Event, HookEvent};
use super::render::Output;
use super::wire;
use super::{Handled, HookContext};

/// The whole hook on one payload: parse, record, decide. Pure but for the store and spool.
pub fn handle(input: &[u8], ctx: &HookContext) -> Handled {
    if input.iter().all(u8::is_ascii_whitespace) {
        return Handled::abstain_because("stdin is empty; abstained");
    }
    // serde would accept a JSON array as a struct in sequence form: only an object is a payload.
    if input.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Handled::abstain_because("stdin is not a JSON object; abstained");
    }
    let payload: wire::Payload = match serde_json::from_slice(input) {
        Ok(p) => p,
        Err(e) => {
            return Handled::abstain_because(format!(
                "stdin is not a JSON hook payload ({e}); abstained"
            ))
        }
    };
    let event = match event_of(payload) {
        Ok(Some(event)) => event,
        Ok(None) => return Handled::abstain(),
        Err(e) => return Handled::abstain_because(format!("{e}; abstained")),
    };
    match event {
        Event::Asked { call, questions } => on_asked(&call, &questions, ctx),
        Event::Answered {
            call,
            questions,
            response,
        } => on_answered(&call, &questions, response, ctx),
        Event::Failed {
            call,
            questions,
            error,
        } => on_failed(&call, &questions, &error, ctx),
        Event::TurnEnded { session_id, event } => on_turn_ended(session_id, event, ctx),
    }
}

/// The facts computed once per question: project, door, registry.
struct Assessment {
    project: Option<String>,
    doors: Vec<(Door, Option<String>)>,
}

fn assess(
    call: &Call,
    questions: &[Question],
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> Assessment {
    let project = call.cwd.as_deref().filter(|c| !c.is_empty()).map(|cwd| {
        project_root(std::path::Path::new(cwd))
            .to_string_lossy()
            .into_owned()
    });
    let registry = crate::registry::load(&ctx.paths.user_registry).unwrap_or_else(|e| {
        errors.push(format!("user registry ignored: {e}"));
        Registry::embedded()
    });
    let doors = questions
        .iter()
        .map(|q| {
            let (door, rule) = policy::door_of(registry.door(&q.id), &policy::classify_question(q));
            (door, split_chain_note(&q.id, rule))
        })
        .collect();
    Assessment { project, doors }
}

/// gstack's split-chain questions are always asked: the log says so beside the door's rule.
fn split_chain_note(id: &str, rule: Option<String>) -> Option<String> {
    if !askhook_core::registry::is_always_asked(id) {
        return rule;
    }
    let note = "gstack split chain: always asked";
    Some(rule.map_or_else(|| note.to_owned(), |r| format!("{r}; {note}")))
}

/// The assessment of a call and one pending record per question.
fn assessed_records(
    call: &Call,
    questions: &[Question],
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> (Assessment, Vec<Row>) {
    let assessment = assess(call, questions, ctx, errors);
    let records = questions
        .iter()
        .map(|q| base_record(call, q, &assessment, ctx.now_ms))
        .collect();
    (assessment, records)
}

fn base_record(call: &Call, q: &Question, a: &Assessment, now_ms: i64) -> Row {
    let (door, rule) = &a.doors[q.index.min(a.doors.len().saturating_sub(1))];
    Row {
        session_id: call.session_id.clone(),
        tool_use_id: call.tool_use_id.clone(),
        question_index: i64::try_from(q.index).unwrap_or(i64::MAX),
        question_id: q.id.clone(),
        id_source: q.id_source,
        question: q.text.clone(),
        header: q.header.clone(),
        options: q.options.clone(),
        multi_select: q.multi_select,
        recommended: q.recommended_label().map(str::to_owned),
        door_type: *door,
        door_rule: rule.clone(),
        tool_name: call.tool_name.clone(),
        project: a.project.clone(),
        cwd: call.cwd.clone(),
        permission_mode: call.permission_mode.clone(),
        agent_id: call.agent_id.clone(),
        prompt_id: call.prompt_id.clone(),
        outcome: Outcome::Pending,
        reply: Answer::default(),
        error: None,
        asked_at: now_ms,
        settled_at: None,
        row_id: 0,
    }
}

fn open_store(ctx: &HookContext, errors: &mut Vec<String>) -> Option<Store> {
    match Store::open_for_hook(&ctx.paths.db, ctx.busy_timeout()) {
        Ok(store) => {
            if let Some(problem) = &store.spool_problem {
                errors.push(problem.clone());
            }
            Some(store)
        }
        Err(e) => {
            errors.push(format!(
                "{}: {}{}",
                ctx.paths.db.display(),
                e,
                busy_hint(&e)
            ));
            None
        }
    }
}

fn busy_hint(e: &store::Error) -> &'static str {
    if e.is_busy() {
        " (database busy past its budget; raise ASKHOOK_BUSY_TIMEOUT_MS if this repeats)"
    } else {
        ""
    }
}

/// The write for `records`, every stored text scrubbed of secrets first.
fn records_write(mut records: Vec<Row>) -> Batch {
    records.iter_mut().for_each(Row::scrub);
    Batch::Records { records }
}

/// Commit `write`, or spool it when the database cannot take it now.
fn persist(store: Option<&mut Store>, write: &Batch, ctx: &HookContext, errors: &mut Vec<String>) {
    if let Some(store) = store.filter(|s| !s.found_busy) {
        match store.apply(write) {
            Ok(()) => return,
            Err(e) => errors.push(format!(
                "database write failed: {e}{}; spooled",
                busy_hint(&e)
            )),
        }
    } else {
        errors.push("the event was spooled".into());
    }
    let budget = ctx.remaining().max(Duration::from_millis(50));
    if let Err(e) = spool::append(&ctx.paths.spool(), write, budget) {
        errors.push(format!(
            "spool write to {} failed: {e}; this event is lost",
            ctx.paths.spool().display()
        ));
    }
}

fn on_asked(call: &Call, questions: &[Question], ctx: &HookContext) -> Handled {
    let mut errors = Vec::new();
    let (assessment, mut records) = assessed_records(call, questions, ctx, &mut errors);
    let mut store = open_store(ctx, &mut errors);
    let ids: Vec<&str> = questions.iter().map(|q| q.id.as_str()).collect();
    let preferences = match store
        .as_ref()
        .map(|s| s.preferences_for(&ids, assessment.project.as_deref()))
    {
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            errors.push(format!(
                "reading preferences failed: {e}{}; asking the human",
                busy_hint(&e)
            ));
            HashMap::default()
        }
        None => HashMap::default(),
    };
    let assessed: Vec<Assessed<'_>> = questions
        .iter()
        .zip(&assessment.doors)
        .map(|(q, (door, _))| Assessed {
            question: q,
            door: *door,
            preference: preferences.get(&q.id).copied(),
        })
        .collect();
    let decision = policy::decide(&assessed);
    let output = match &decision {
        Decision::Abstain => Output::Abstain,
        Decision::AutoDecide(choices) => {
            for (record, choice) in records.iter_mut().zip(choices) {
                record.outcome = Outcome::AutoDecided;
                record.reply.answer = Some(choice.label.clone());
                record.settled_at = Some(ctx.now_ms);
            }
            Output::Deny {
                reason: policy::deny_reason(choices),
            }
        }
    };
    persist(store.as_mut(), &records_write(records), ctx, &mut errors);
    Handled { output, errors }
}

fn settle(record: &mut Row, answer: Answer, now_ms: i64) {
    record.outcome = Outcome::Answered;
    record.reply = answer;
    record.settled_at = Some(now_ms);
}

fn fail(record: &mut Row, error: &str, now_ms: i64) {
    record.outcome = Outcome::Failed;
    record.error = Some(error.to_owned());
    record.settled_at = Some(now_ms);
}

fn on_answered(
    call: &Call,
    questions: &[Question],
    response: Response,
    ctx: &HookContext,
) -> Handled {
    let mut errors = Vec::new();
    let (_, mut records) = assessed_records(call, questions, ctx, &mut errors);
    let output = match response {
        Response::Answers(answers) => {
            for (record, answer) in records.iter_mut().zip(answers) {
                settle(record, answer, ctx.now_ms);
            }
            Output::Abstain
        }
        Response::Unrecognised(why) => {
            errors.push(format!(
                "{} ({}): {why}; recorded with no answer",
                call.tool_use_id, call.tool_name
            ));
            for record in &mut records {
                settle(record, Answer::default(), ctx.now_ms);
            }
            Output::Abstain
        }
        Response::Failed(error) => {
            for record in &mut records {
                fail(record, &error, ctx.now_ms);
            }
            Output::Context {
                event: HookEvent::PostToolUse,
                text: policy::failure_context(&error),
            }
        }
    };
    let mut store = open_store(ctx, &mut errors);
    persist(store.as_mut(), &records_write(records), ctx, &mut errors);
    Handled { output, errors }
}

fn on_failed(call: &Call, questions: &[Question], error: &str, ctx: &HookContext) -> Handled {
    let mut errors = Vec::new();
    let (_, mut records) = assessed_records(call, questions, ctx, &mut errors);
    for record in &mut records {
        fail(record, error, ctx.now_ms);
    }
    let mut store = open_store(ctx, &mut errors);
    persist(store.as_mut(), &records_write(records), ctx, &mut errors);
    Handled {
        output: Output::Context {
            event: HookEvent::PostToolUseFailure,
            text: policy::failure_context(error),
        },
        errors,
    }
}

fn on_turn_ended(session_id: String, _event: HookEvent, ctx: &HookContext) -> Handled {
    // Nothing was ever recorded: do not create a database for a session that asked nothing.
    if !ctx.paths.db.exists() && !ctx.paths.spool().exists() {
        return Handled::abstain();
    }
    let mut errors = Vec::new();
    let mut store = open_store(ctx, &mut errors);
    persist(
        store.as_mut(),
        &Batch::Decline {
            session_id,
            at: ctx.now_ms,
        },
        ctx,
        &mut errors,
    );
    Handled {
        output: Output::Abstain,
        errors,
    }
}
