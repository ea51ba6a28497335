//! One payload through the hook: parse (wire → event), assess each question (project, registry,
//! classifier), find the preference that applies ([`super::prefer`]: id, family, rules, read
//! from the copy beside the database), decide (the core policy), record (the config's record
//! filter and redactions: [`super::privacy`]), and the output to print: a `deny`, in answer
//! mode an `allow` with every answer ([`super::render::AnsweredCall`]), or, when askhook lets
//! the user answer, the history context ([`super::context`]). Pure but for the files.
//!
//! **A question never opens SQLite** (opening it parses the whole schema: it was most of a
//! hook run). PreToolUse reads the standing preferences from their copy
//! ([`crate::store::standing`]) and appends its event to the spool; PostToolUse appends its
//! answer. The database is opened only when the copy is missing (then the event is committed
//! directly, as before), for `context_from_history`, and at the end of a turn once the spool
//! has grown past [`TURN_FOLD_BYTES`]: it then commits its decline and ingests a chunk
//! ([`HOOK_INGEST`]); a smaller spool only gets the decline appended. Every CLI command
//! ingests the rest first.
//!
//! The event comes first: as soon as it is built its spool record is held for the signal
//! handler ([`deadline::hold`]), so a deadline or a `kill` spools it rather than losing it. An
//! event that reaches neither the database nor the spool is reported in [`Handled::lost`].

use std::cell::OnceCell;
use std::time::Duration;

use askhook_core::answer::{Answer, Response};
use askhook_core::classify::Door;
use askhook_core::policy::{self, Assessed, AutoAnswer, Decision};
use askhook_core::question::Question;
use askhook_core::registry::Registry;

use crate::config::DecideWith;
use crate::store::standing::{self, Loaded};
use crate::store::{self, spool, Batch, Outcome, Row, Store};
use crate::sys::deadline;
use crate::sys::project::project_root;

use super::event::{event_of, Call, Event, HookEvent};
use super::prefer::Source;
use super::render::{AnsweredCall, Output};
use super::wire;
use super::{context, prefer, privacy};
use super::{Handled, HookContext};

/// How much of an older spool a hook ingests after its own event: a little, so that a large
/// backlog never costs a hook its deadline (the CLI ingests the rest). A record larger than
/// the hook could have written itself (twice `ASKHOOK_MAX_INPUT_BYTES`, at least 8 MiB) is
/// left for the CLI.
pub const HOOK_INGEST: spool::Budget = spool::Budget {
    bytes: 1 << 20,
    time: Duration::from_millis(50),
    record_bytes: 8 << 20,
    lock_wait: Duration::from_millis(20),
};

/// The spool size from which the end of a turn ingests it (a chunk, [`HOOK_INGEST`]); below it,
/// it appends its decline, and the next command or a later turn's end applies it in order.
/// About sixty questions: a turn's end opens SQLite rarely, and the backlog any command
/// ingests stays small.
pub const TURN_FOLD_BYTES: u64 = 128 * 1024;

/// A hook ingests only when this much of its deadline is left.
const HOOK_INGEST_MIN_LEFT: Duration = Duration::from_secs(1);

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
    if let Err(why) = &ctx.config {
        return Handled::abstain_because(format!(
            "the config file cannot be used ({why}); askhook records and decides nothing until \
             it is fixed (askhook config show)"
        ));
    }
    match event {
        Event::Asked { call, questions } => on_asked(&call, &questions, input, ctx),
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

/// The facts of a call worked out once: its project, the registry, and each question's door,
/// classified only when asked for ([`Assessment::door`]): only a question a preference could
/// auto-decide needs its door now. The others are stored [`store::doors::UNCLASSIFIED`], and the next
/// CLI command classifies them (`Store::settle_doors`), off the hook's budget.
struct Assessment<'q> {
    project: Option<String>,
    registry: Registry,
    questions: &'q [Question],
    doors: Vec<OnceCell<(Door, Option<String>)>>,
}

impl Assessment<'_> {
    /// The door of question `i` (a question past the call's end reads unknown).
    fn door(&self, i: usize) -> Door {
        self.door_and_rule(i)
            .map_or(Door::Unknown, |(door, _)| *door)
    }

    fn door_and_rule(&self, i: usize) -> Option<&(Door, Option<String>)> {
        let q = self.questions.get(i)?;
        Some(self.doors[i].get_or_init(|| {
            policy::door_of_question(
                &self.registry,
                &q.id,
                &q.text,
                q.header.as_deref(),
                &q.options,
            )
        }))
    }

    /// The door to store for question `i`: the one worked out, else a one-way registry entry
    /// (final whatever the text says), else "not classified yet".
    fn stored_door(&self, i: usize) -> (Door, Option<String>) {
        if let Some(known) = self.doors.get(i).and_then(OnceCell::get) {
            return known.clone();
        }
        match self.questions.get(i) {
            Some(q) if self.registry.door(&q.id) == Some(Door::OneWay) => (
                Door::OneWay,
                policy::with_split_chain_note(&q.id, Some("registry".to_owned())),
            ),
            _ => (Door::Unknown, Some(store::doors::UNCLASSIFIED.to_owned())),
        }
    }
}

fn assess<'q>(
    call: &Call,
    questions: &'q [Question],
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> Assessment<'q> {
    let project = call.cwd.as_deref().filter(|c| !c.is_empty()).map(|cwd| {
        project_root(std::path::Path::new(cwd))
            .to_string_lossy()
            .into_owned()
    });
    let registry = crate::registry::load(&ctx.paths.user_registry).unwrap_or_else(|e| {
        errors.push(format!("user registry ignored: {e}"));
        Registry::embedded()
    });
    Assessment {
        project,
        registry,
        questions,
        doors: questions.iter().map(|_| OnceCell::new()).collect(),
    }
}

/// The assessment of a call and one pending record per question.
fn assessed_records<'q>(
    call: &Call,
    questions: &'q [Question],
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> (Assessment<'q>, Vec<Row>) {
    let assessment = assess(call, questions, ctx, errors);
    let records = questions
        .iter()
        .enumerate()
        .map(|(i, q)| base_record(call, q, assessment.stored_door(i), &assessment, ctx.now_ms))
        .collect();
    (assessment, records)
}

fn base_record(
    call: &Call,
    q: &Question,
    (door, rule): (Door, Option<String>),
    a: &Assessment<'_>,
    now_ms: i64,
) -> Row {
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
        door_type: door,
        door_rule: rule,
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
        family: q.family.clone(),
        decided_by: None,
        row_id: 0,
    }
}

/// Hand the event's spool record to the signal handler (see the module doc).
fn hold(write: &Batch, what: &str) {
    if let Ok(record) = spool::encode(write) {
        deadline::hold(record, what);
    }
}

/// How a lost event is named: its event, session and call.
fn describe(event: &str, call: &Call) -> String {
    format!(
        "{event} of session {} call {} ({})",
        call.session_id, call.tool_use_id, call.tool_name
    )
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

/// The hook's copy of the standing preferences, or why the database must be read instead.
fn load_standing(ctx: &HookContext, errors: &mut Vec<String>) -> Loaded {
    standing::load(&ctx.paths.db).unwrap_or_else(|e| {
        errors.push(format!("{e}; preferences read from the database"));
        Loaded::Missing
    })
}

/// A hook that had to open the database writes the copy of the standing preferences when it
/// is missing or unusable (a database a hook created, one from before the copy existed, a copy
/// in another version's format or damaged), under the same write lock as every writer of it
/// ([`Store::refresh_standing`]), so the next questions need no database. Once: later hooks
/// find the file.
fn restore_standing(store: Option<&mut Store>, ctx: &HookContext, errors: &mut Vec<String>) {
    let Some(store) = store else { return };
    if ctx.remaining() < HOOK_INGEST_MIN_LEFT
        || matches!(standing::load(&ctx.paths.db), Ok(Loaded::Standing(_)))
    {
        return;
    }
    if let Err(e) = store.refresh_standing() {
        errors.push(format!(
            "the preferences copy was not written ({e}); the next hooks read the database"
        ));
    }
}

/// The hook is done with the database: the process ends next ([`Store::leave_open`]).
fn done_with(store: Option<Store>) {
    if let Some(store) = store {
        store.leave_open();
    }
}

fn busy_hint(e: &store::Error) -> &'static str {
    if e.is_busy() {
        " (database busy past its budget; raise ASKHOOK_BUSY_TIMEOUT_MS if this repeats)"
    } else {
        ""
    }
}

/// The write for a call's rows — every text scrubbed of secrets, then of the config's own
/// `redact` patterns — held for the signal handler; `None` when the config's `record_filter`
/// says never to record this call.
fn records_write(
    call: &Call,
    questions: &[Question],
    mut records: Vec<Row>,
    what: &str,
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> Option<Batch> {
    let config = ctx.config.as_ref().ok();
    if config.is_some_and(|c| privacy::never_record(c, call.cwd.as_deref(), questions, errors)) {
        return None;
    }
    records.iter_mut().for_each(Row::scrub);
    if let Some(c) = config {
        privacy::redact_rows(&mut records, &privacy::redactions(c, errors));
    }
    let write = Batch::Records { records };
    hold(&write, &describe(what, call));
    Some(write)
}

/// An auto-decided answer as it is stored: scrubbed like every recorded text.
fn stored_answer(label: &str, ctx: &HookContext, errors: &mut Vec<String>) -> String {
    let scrubbed = askhook_core::scrub::scrub(label).into_owned();
    match ctx.config.as_ref() {
        Ok(c) if !c.redact.is_empty() => {
            privacy::redact(&scrubbed, &privacy::redactions(c, errors)).unwrap_or(scrubbed)
        }
        _ => scrubbed,
    }
}

/// Where the call's preferences are read from: the copy, else the open database.
fn source_of<'a>(
    standing: &'a Loaded,
    store: Option<&'a Store>,
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> Source<'a> {
    match (standing, store) {
        (Loaded::Standing(copy), _) => Source::Copy(copy),
        (_, Some(store)) => Source::Store(store),
        (Loaded::Missing, None) if ctx.paths.db.exists() => {
            errors.push("no preference could be read; asking the human".into());
            Source::Nothing
        }
        _ => Source::Nothing,
    }
}

/// What PreToolUse prints when it lets the user answer: nothing, or with
/// `context_from_history` the user's earlier answers to these questions (the database is
/// opened for them, and the spool, where this turn's answers wait, ingested first).
fn abstain_output(
    store: &mut Option<Store>,
    questions: &[Question],
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> Output {
    let Ok(config) = &ctx.config else {
        return Output::Abstain;
    };
    if !config.context_from_history {
        return Output::Abstain;
    }
    if store.is_none() {
        *store = open_store(ctx, errors);
    }
    let Some(store) = store.as_mut() else {
        return Output::Abstain;
    };
    if let Err(e) = store.ingest_spool_within(&HOOK_INGEST) {
        errors.push(format!("spool not ingested yet: {e}{}", busy_hint(&e)));
    }
    let redactions = privacy::redactions(config, errors);
    match context::history(store, questions, ctx.now_ms, &redactions, errors) {
        Some(text) => Output::Context {
            event: HookEvent::PreToolUse,
            text,
        },
        None => Output::Abstain,
    }
}

/// Commit `write` when the database is open, else — the usual way for a question, which needs
/// no database ([`crate::store::standing`]) — or when the database cannot take it now, append it
/// to the spool, which the end of the turn and every CLI command ingest. When it was
/// committed, ingest a chunk of the spool. Returns why the event was lost, if it was.
fn persist(
    store: Option<&mut Store>,
    write: &Batch,
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> Option<String> {
    if let Some(store) = store {
        match store.apply(write) {
            Ok(()) => {
                deadline::release();
                ingest_some(store, write, ctx, errors);
                return None;
            }
            Err(e) => errors.push(format!(
                "database write failed: {e}{}; spooled",
                busy_hint(&e)
            )),
        }
    } else if let Err(e) = store::diagnose::check_path(&ctx.paths.db) {
        // A database path that is no file (`/dev/null`, a folder) never ingests a spool, and
        // no marker is left beside it: the error log and `doctor` say what is wrong.
        errors.push(format!(
            "{}: {e}; the event is lost",
            ctx.paths.db.display()
        ));
        deadline::release();
        return None;
    }
    let budget = ctx.remaining().max(Duration::from_millis(50));
    let Err(e) = spool::append(&ctx.paths.spool(), write, budget) else {
        deadline::release();
        return None;
    };
    // Still held: a signal before the caller has left the trace tries the spool once more
    // (and says the event is lost when that fails too), rather than exiting in silence.
    Some(format!(
        "spool write to {} failed: {e}; this event is lost",
        ctx.paths.spool().display()
    ))
}

/// After the event is committed: ingest a small chunk of an older spool, when time allows.
fn ingest_some(store: &mut Store, write: &Batch, ctx: &HookContext, errors: &mut Vec<String>) {
    if ctx.remaining() < HOOK_INGEST_MIN_LEFT {
        return;
    }
    // A record this hook could have written itself is never too large for it.
    let budget = spool::Budget {
        record_bytes: HOOK_INGEST
            .record_bytes
            .max(2 * ctx.budget.max_input_bytes as u64),
        ..HOOK_INGEST
    };
    match store.ingest_spool_within(&budget) {
        Ok(done) => {
            errors.extend(done.problems);
            if matches!(write, Batch::Decline { .. }) {
                // A spooled question is older than this turn's end: decline it too.
                if done.applied > 0 {
                    let _ = store.apply(write);
                }
                // Records still in the spool are declined after them, when they are ingested.
                if done.backlog > 0 {
                    if let Err(e) = spool::append(&ctx.paths.spool(), write, ctx.remaining()) {
                        errors.push(format!("the end of the turn was not spooled: {e}"));
                    }
                }
            }
        }
        Err(e) => errors.push(format!("spool not ingested yet: {e}{}", busy_hint(&e))),
    }
}

/// The handled result of an event: its output, the error-log lines, and the loss if any.
fn handled(output: Output, errors: Vec<String>, lost: Option<String>) -> Handled {
    Handled {
        output,
        errors,
        lost,
    }
}

/// The output of an auto-decision: in answer mode (`decide_with = "answer"`) on the built-in
/// tool, an `allow` carrying every answer; else — the default, an MCP copy (whose
/// `updatedInput` only rewrites its arguments), or a call that cannot be answered whole — a
/// `deny` naming the answers.
fn auto_output(
    call: &Call,
    questions: &[Question],
    choices: &[AutoAnswer],
    input: &[u8],
    ctx: &HookContext,
    errors: &mut Vec<String>,
) -> Output {
    let answer_mode = ctx
        .config
        .as_ref()
        .is_ok_and(|c| c.decide_with == DecideWith::Answer);
    if answer_mode && call.tool_name == "AskUserQuestion" {
        let tool_input = serde_json::from_slice::<serde_json::Value>(input)
            .map_err(|e| e.to_string())
            .map(|mut v| {
                v.get_mut("tool_input")
                    .map(serde_json::Value::take)
                    .unwrap_or_default()
            });
        let answered = tool_input.and_then(|t| {
            AnsweredCall::new(
                &t,
                questions,
                choices,
                policy::answer_reason(choices),
                policy::answer_context(choices),
            )
        });
        match answered {
            Ok(call) => return Output::Allow(call),
            Err(why) => errors.push(format!(
                "answer mode: {why}; denied with the answers instead"
            )),
        }
    }
    Output::Deny {
        reason: policy::deny_reason(choices),
    }
}

fn on_asked(call: &Call, questions: &[Question], input: &[u8], ctx: &HookContext) -> Handled {
    let mut errors = Vec::new();
    let (assessment, records) = assessed_records(call, questions, ctx, &mut errors);
    // Held as pending: if the run is cut before it prints a decision, the human is asked.
    let write = records_write(call, questions, records, "PreToolUse", ctx, &mut errors);
    let recorded = write.is_some();
    let mut records = match write {
        Some(Batch::Records { records }) => records,
        _ => Vec::new(),
    };
    // The standing preferences: the copy beside the database, else the database itself.
    let standing = load_standing(ctx, &mut errors);
    let mut store = match standing {
        Loaded::Missing => open_store(ctx, &mut errors),
        Loaded::Standing(_) | Loaded::NoDatabase => None,
    };
    let resolved = prefer::for_call(
        source_of(&standing, store.as_ref(), ctx, &mut errors),
        questions,
        &|i| assessment.door(i),
        assessment.project.as_deref(),
        &mut errors,
    );
    // Only a question with a preference that silences it needs its door now; the decision
    // reads the others as unknown, which can only make it ask.
    let assessed: Vec<Assessed<'_>> = questions
        .iter()
        .zip(resolved)
        .enumerate()
        .map(|(i, (q, preference))| Assessed {
            question: q,
            door: match &preference {
                Some(p) if p.preference.silences() => assessment.door(i),
                _ => Door::Unknown,
            },
            preference,
        })
        .collect();
    for (i, record) in records.iter_mut().enumerate() {
        (record.door_type, record.door_rule) = assessment.stored_door(i);
    }
    let decision = policy::decide(&assessed);
    let output = match &decision {
        Decision::Abstain => abstain_output(&mut store, questions, ctx, &mut errors),
        Decision::AutoDecide(choices) => {
            for (record, choice) in records.iter_mut().zip(choices) {
                record.outcome = Outcome::AutoDecided;
                record.reply.answer = Some(stored_answer(&choice.label, ctx, &mut errors));
                record.settled_at = Some(ctx.now_ms);
                record.decided_by = Some(choice.decided_by.label());
            }
            auto_output(call, questions, choices, input, ctx, &mut errors)
        }
    };
    let lost = if recorded {
        persist(
            store.as_mut(),
            &Batch::Records { records },
            ctx,
            &mut errors,
        )
    } else {
        None
    };
    restore_standing(store.as_mut(), ctx, &mut errors);
    done_with(store);
    handled(output, errors, lost)
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
    let write = records_write(call, questions, records, "PostToolUse", ctx, &mut errors);
    let lost = write.and_then(|w| persist(None, &w, ctx, &mut errors));
    handled(output, errors, lost)
}

fn on_failed(call: &Call, questions: &[Question], error: &str, ctx: &HookContext) -> Handled {
    let mut errors = Vec::new();
    let (_, mut records) = assessed_records(call, questions, ctx, &mut errors);
    for record in &mut records {
        fail(record, error, ctx.now_ms);
    }
    let write = records_write(
        call,
        questions,
        records,
        "PostToolUseFailure",
        ctx,
        &mut errors,
    );
    let lost = write.and_then(|w| persist(None, &w, ctx, &mut errors));
    let output = Output::Context {
        event: HookEvent::PostToolUseFailure,
        text: policy::failure_context(error),
    };
    handled(output, errors, lost)
}

fn on_turn_ended(session_id: String, event: HookEvent, ctx: &HookContext) -> Handled {
    // Nothing was ever recorded: do not create a database for a session that asked nothing.
    if !ctx.paths.db.exists() && !ctx.paths.spool().exists() {
        return Handled::abstain();
    }
    let mut errors = Vec::new();
    let what = format!("{event:?} of session {session_id}");
    let write = Batch::Decline {
        session_id,
        at: ctx.now_ms,
    };
    hold(&write, &what);
    // Most turns only append their decline behind their own events; one in every few dozen
    // questions finds the spool past the mark and folds it into the database.
    let fold = std::fs::metadata(ctx.paths.spool()).is_ok_and(|m| m.len() >= TURN_FOLD_BYTES);
    let mut store = if fold {
        open_store(ctx, &mut errors)
    } else {
        None
    };
    let lost = persist(store.as_mut(), &write, ctx, &mut errors);
    restore_standing(store.as_mut(), ctx, &mut errors);
    done_with(store);
    handled(Output::Abstain, errors, lost)
}
