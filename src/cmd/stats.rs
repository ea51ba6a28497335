//! `askhook stats`: what the log says in aggregate, from one narrow pass over the filtered
//! rows ([`Store::for_each_stat`]) folded in memory by [`Tally`].
//!
//! ## `stats --json`
//! ```json
//! {"total": 12,
//!  "outcomes": {"pending": 0, "answered": 8, "auto-decided": 1, "failed": 1, "declined": 1, "abandoned": 1},
//!  "human_answers": 8, "with_recommendation": 6, "followed": 5, "follow_rate": 0.833,
//!  "time_to_answer_ms": {"median": 9000, "p90": 41000},
//!  "auto_decided": 1,
//!  "auto_decided_by": {"id": 1, "family": 0, "rule": 0, "rules": {}},
//!  "human_minutes_saved": 0.2,
//!  "busiest_projects": [{"project": "/home/u/shop", "asked": 12}],
//!  "busiest_hours_utc": [{"hour": 13, "asked": 12}],
//!  "busiest_hours_local": [{"hour": 14, "asked": 12}], "local_time_zone": "CET",
//!  "questions": [{"question_id": "enable-cache", "family": null, "asked": 3, "answered": 2,
//!                 "auto_decided": 1, "follow_rate": 1.0,
//!                 "last_asked": "2026-12-02T13:46:41.123Z",
//!                 "door_type": "two-way", "preference": "never-ask"}],
//!  "families": [{"family": "fam-6a181ab060", "asked": 4, "answered": 3, "auto_decided": 1,
//!                "follow_rate": 0.667, "question_ids": 2, "last_asked": "…",
//!                "door_type": "two-way", "preference": "never-ask"}]}
//! ```
//! - `follow_rate` counts human answers only (`answered`, not idle auto-continue) whose
//!   question had a recommendation; `null` when there were none.
//! - `time_to_answer_ms` is over human answers; `null` when there were none.
//! - `human_minutes_saved`: for each auto-decided row, the median time-to-answer of the same
//!   question id when a person answered it, else the overall median.
//! - `busiest_*` list the top 5; `questions` lists every question id, most asked first;
//!   `families` every question family (the rewordings of an unmarked question), most asked
//!   first, with how many question ids (wordings) it was asked under.
//! - `auto_decided_by`: the auto-decisions by what decided them — a preference on the id, on
//!   the family, or a rule (`rules`: per rule name).
//! - `preference` is the global preference, else `"<value> (project)"` for a project one (on
//!   the id for `questions`, on `family:<id>` for `families`).

use std::collections::HashMap;
use std::process::ExitCode;

use serde::Serialize;

use askhook_core::classify::Door;

use crate::cli::{Filters, QueryArgs};
use crate::error::{Error, Result};
use crate::store::prefs::StoredPreference;
use crate::store::read::StatRow;
use crate::store::{self, Filter, Outcome, Store};
use crate::sys::{json, ui};
use crate::Context;

use super::table;

/// Per question id counters.
#[derive(Debug, Clone, Default)]
pub struct PerQuestion {
    pub asked: u64,
    pub answered: u64,
    pub auto_decided: u64,
    pub with_recommendation: u64,
    pub followed: u64,
    pub last_asked: i64,
    /// The door type of the most recent row.
    pub door_type: Option<Door>,
    /// Whether any row was recorded as a one-way door.
    pub ever_one_way: bool,
    /// Whether any row was recorded as an unknown door (the classifier could not read it).
    pub ever_unknown: bool,
    pub answer_ms: Vec<i64>,
    /// The family of the question id (of an unmarked question).
    pub family: Option<String>,
}

impl PerQuestion {
    /// Count one row.
    fn count(&mut self, r: &StatRow<'_>) {
        self.asked += 1;
        if r.asked_at >= self.last_asked {
            self.last_asked = r.asked_at;
            self.door_type = Some(r.door_type);
        }
        self.ever_one_way |= r.door_type == Door::OneWay;
        self.ever_unknown |= r.door_type == Door::Unknown;
        match r.outcome {
            Outcome::Answered if !r.afk => {
                self.answered += 1;
                if let Some(f) = r.followed {
                    self.with_recommendation += 1;
                    self.followed += u64::from(f);
                }
                if let Some(s) = r.settled_at {
                    self.answer_ms.push((s - r.asked_at).max(0));
                }
            }
            Outcome::AutoDecided => self.auto_decided += 1,
            _ => {}
        }
    }

    /// Fold another tally's counters for the same key into this one.
    fn merge(&mut self, q: PerQuestion) {
        self.asked += q.asked;
        self.answered += q.answered;
        self.auto_decided += q.auto_decided;
        self.with_recommendation += q.with_recommendation;
        self.followed += q.followed;
        self.ever_one_way |= q.ever_one_way;
        self.ever_unknown |= q.ever_unknown;
        if q.last_asked >= self.last_asked {
            self.last_asked = q.last_asked;
            self.door_type = q.door_type;
        }
        self.answer_ms.extend(q.answer_ms);
        if self.family.is_none() {
            self.family = q.family;
        }
    }
}

/// A question family's counters, and the question ids (wordings) it was asked under.
#[derive(Debug, Clone, Default)]
pub struct PerFamily {
    pub counts: PerQuestion,
    pub question_ids: std::collections::BTreeSet<String>,
}

/// A fast, non-cryptographic hasher (the Fx mix) for the tallies' id keys, which come from
/// askhook's own database: `SipHash`'s flooding resistance buys nothing here and was about 5 % of
/// `stats` at a million rows.
#[derive(Debug, Default, Clone, Copy)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
}

/// A map keyed by ids, hashed with [`IdHasher`].
pub type IdMap<V> = HashMap<String, V, std::hash::BuildHasherDefault<IdHasher>>;

/// The fold over the stats pass.
#[derive(Debug, Default)]
pub struct Tally {
    pub total: u64,
    pub outcomes: [u64; 6],
    pub human_answers: u64,
    pub with_recommendation: u64,
    pub followed: u64,
    pub answer_ms: Vec<i64>,
    pub projects: IdMap<u64>,
    pub hours: [u64; 24],
    /// The same in local time.
    pub local_hours: [u64; 24],
    /// The local hour of the last quarter-hour seen (rows come nearly in time order, so the
    /// C library is asked once per quarter-hour of the log, not once per row).
    local_hour_of: Option<(i64, usize)>,
    pub questions: IdMap<PerQuestion>,
    /// Per question family (unmarked questions).
    pub families: IdMap<PerFamily>,
    /// Auto-decisions by what decided them: `id`, `family`, `rule:<name>`.
    pub decided_by: IdMap<u64>,
}

impl Tally {
    pub fn add(&mut self, r: &StatRow<'_>) {
        self.total += 1;
        self.outcomes[r.outcome.index()] += 1;
        match self.projects.get_mut(r.project.unwrap_or("")) {
            Some(n) => *n += 1,
            None => {
                self.projects.insert(r.project.unwrap_or("").to_owned(), 1);
            }
        }
        self.hours[(r.asked_at.rem_euclid(86_400_000) / 3_600_000) as usize] += 1;
        // Zone offsets are whole quarter-hours: every instant of one shares its local hour.
        let quarter = r.asked_at.div_euclid(900_000);
        let hour = match self.local_hour_of {
            Some((q, hour)) if q == quarter => hour,
            _ => {
                let (offset_s, _) = crate::sys::time::local_zone(r.asked_at);
                let local = r.asked_at.saturating_add(offset_s * 1000);
                let hour = (local.rem_euclid(86_400_000) / 3_600_000) as usize;
                self.local_hour_of = Some((quarter, hour));
                hour
            }
        };
        self.local_hours[hour] += 1;
        let q = match self.questions.get_mut(r.question_id) {
            Some(q) => q,
            None => self.questions.entry(r.question_id.to_owned()).or_default(),
        };
        q.count(r);
        if q.family.is_none() {
            q.family = r.family.map(str::to_owned);
        }
        if let Some(family) = r.family {
            let f = self.families.entry(family.to_owned()).or_default();
            f.counts.count(r);
            if !f.question_ids.contains(r.question_id) {
                f.question_ids.insert(r.question_id.to_owned());
            }
        }
        match r.outcome {
            Outcome::Answered if !r.afk => {
                self.human_answers += 1;
                if let Some(f) = r.followed {
                    self.with_recommendation += 1;
                    self.followed += u64::from(f);
                }
                if let Some(s) = r.settled_at {
                    self.answer_ms.push((s - r.asked_at).max(0));
                }
            }
            Outcome::AutoDecided => {
                *self
                    .decided_by
                    .entry(r.decided_by.unwrap_or("id").to_owned())
                    .or_default() += 1;
            }
            _ => {}
        }
    }
}

impl Tally {
    /// Fold another tally (of disjoint rows) into this one.
    pub fn merge(&mut self, other: Tally) {
        self.total += other.total;
        for (a, b) in self.outcomes.iter_mut().zip(other.outcomes) {
            *a += b;
        }
        self.human_answers += other.human_answers;
        self.with_recommendation += other.with_recommendation;
        self.followed += other.followed;
        self.answer_ms.extend(other.answer_ms);
        for (p, n) in other.projects {
            *self.projects.entry(p).or_default() += n;
        }
        for (a, b) in self.hours.iter_mut().zip(other.hours) {
            *a += b;
        }
        for (a, b) in self.local_hours.iter_mut().zip(other.local_hours) {
            *a += b;
        }
        for (id, q) in other.questions {
            self.questions.entry(id).or_default().merge(q);
        }
        for (family, f) in other.families {
            let mine = self.families.entry(family).or_default();
            mine.counts.merge(f.counts);
            mine.question_ids.extend(f.question_ids);
        }
        for (by, n) in other.decided_by {
            *self.decided_by.entry(by).or_default() += n;
        }
    }
}

/// Below this many rows the stats pass runs on one thread.
const PARALLEL_FROM_ROWS: i64 = 200_000;

/// Fold every row matching `query`: on a large log, one thread per core (at most 4), each
/// with its own read-only connection over a slice of the time range.
pub fn tally(store: &Store, query: &Filter) -> store::Result<Tally> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4)) as i64;
    let span = store.time_span()?;
    let big = store.max_row_id()? >= PARALLEL_FROM_ROWS;
    let (Some((lo, hi)), true, true) = (span, big, threads > 1) else {
        let mut t = Tally::default();
        store.for_each_stat(query, |r| t.add(r))?;
        return Ok(t);
    };
    let bounds: Vec<i64> = (0..=threads)
        .map(|k| lo + (i128::from(hi + 1 - lo) * i128::from(k) / i128::from(threads)) as i64)
        .collect();
    let path = store.path().to_path_buf();
    std::thread::scope(|scope| {
        let handles: Vec<_> = bounds
            .windows(2)
            .map(|w| {
                let (from, to) = (w[0], w[1]);
                let path = path.clone();
                let mut part = query.clone();
                part.since = Some(part.since.map_or(from, |s| s.max(from)));
                part.until = Some(part.until.map_or(to, |u| u.min(to)));
                scope.spawn(move || -> store::Result<Tally> {
                    let store = Store::open_read_only(&path, std::time::Duration::from_secs(5))?;
                    let _ = store.tune_for_reading();
                    let mut t = Tally::default();
                    store.for_each_stat(&part, |r| t.add(r))?;
                    Ok(t)
                })
            })
            .collect();
        let mut total = Tally::default();
        for h in handles {
            match h.join() {
                Ok(part) => total.merge(part?),
                Err(_) => {
                    return Err(store::Error::Io(std::io::Error::other(
                        "a stats thread panicked",
                    )))
                }
            }
        }
        Ok(total)
    })
}

/// The value at quantile `p` (0..=1) of `values` (reordered in place); `None` when empty.
pub fn quantile(values: &mut [i64], p: f64) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    let rank = ((values.len() - 1) as f64 * p).round() as usize;
    let (_, v, _) = values.select_nth_unstable(rank.min(values.len() - 1));
    Some(*v)
}

fn rate(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| (part as f64 / whole as f64 * 1000.0).round() / 1000.0)
}

#[derive(Debug, Serialize)]
pub struct Quantiles {
    pub median: i64,
    pub p90: i64,
}

#[derive(Debug, Serialize)]
pub struct ProjectCount {
    pub project: Option<String>,
    pub asked: u64,
}

#[derive(Debug, Serialize)]
pub struct HourCount {
    pub hour: u32,
    pub asked: u64,
}

/// Auto-decisions by what decided them.
#[derive(Debug, Default, Serialize)]
pub struct DecidedBy {
    /// A preference on the question id.
    pub id: u64,
    /// A preference on the question family.
    pub family: u64,
    /// Any rule.
    pub rule: u64,
    /// Per rule name.
    pub rules: std::collections::BTreeMap<String, u64>,
}

/// One question family: its rewordings counted together.
#[derive(Debug, Serialize)]
pub struct FamilyStats {
    pub family: String,
    pub asked: u64,
    pub answered: u64,
    pub auto_decided: u64,
    pub follow_rate: Option<f64>,
    /// How many question ids (exact wordings) it was asked under.
    pub question_ids: usize,
    pub last_asked: String,
    pub door_type: Option<Door>,
    pub preference: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct QuestionStats {
    pub question_id: String,
    /// Its family, for an unmarked question.
    pub family: Option<String>,
    pub asked: u64,
    pub answered: u64,
    pub auto_decided: u64,
    pub follow_rate: Option<f64>,
    pub last_asked: String,
    pub door_type: Option<Door>,
    pub preference: Option<String>,
}

/// The `stats --json` object.
#[derive(Debug, Serialize)]
pub struct Stats {
    pub total: u64,
    pub outcomes: serde_json::Map<String, serde_json::Value>,
    pub human_answers: u64,
    pub with_recommendation: u64,
    pub followed: u64,
    pub follow_rate: Option<f64>,
    pub time_to_answer_ms: Option<Quantiles>,
    pub auto_decided: u64,
    pub auto_decided_by: DecidedBy,
    pub human_minutes_saved: f64,
    pub busiest_projects: Vec<ProjectCount>,
    pub busiest_hours_utc: Vec<HourCount>,
    /// The same hours in local time (`local_time_zone`, as the C library has it).
    pub busiest_hours_local: Vec<HourCount>,
    pub local_time_zone: String,
    pub questions: Vec<QuestionStats>,
    /// Every question family, most asked first.
    pub families: Vec<FamilyStats>,
}

/// Turn the fold into the report; `prefs` maps question id → preference label.
pub fn summarise<S: std::hash::BuildHasher>(
    mut t: Tally,
    prefs: &HashMap<String, String, S>,
) -> Stats {
    let mut all = std::mem::take(&mut t.answer_ms);
    let overall_median = quantile(&mut all, 0.5);
    let time_to_answer_ms = overall_median.map(|median| Quantiles {
        median,
        p90: quantile(&mut all, 0.9).unwrap_or(median),
    });
    let mut saved_ms = 0i64;
    let mut questions: Vec<QuestionStats> = Vec::with_capacity(t.questions.len());
    for (id, mut q) in t.questions {
        if q.auto_decided > 0 {
            let per = quantile(&mut q.answer_ms, 0.5)
                .or(overall_median)
                .unwrap_or(0);
            saved_ms += per * q.auto_decided as i64;
        }
        questions.push(QuestionStats {
            family: q.family.clone(),
            follow_rate: rate(q.followed, q.with_recommendation),
            last_asked: crate::sys::time::format_rfc3339(q.last_asked),
            door_type: q.door_type,
            preference: prefs.get(&id).cloned(),
            asked: q.asked,
            answered: q.answered,
            auto_decided: q.auto_decided,
            question_id: id,
        });
    }
    questions.sort_by(|a, b| {
        b.asked
            .cmp(&a.asked)
            .then_with(|| a.question_id.cmp(&b.question_id))
    });
    let mut projects: Vec<ProjectCount> = t
        .projects
        .into_iter()
        .map(|(p, asked)| ProjectCount {
            project: (!p.is_empty()).then_some(p),
            asked,
        })
        .collect();
    projects.sort_by(|a, b| {
        b.asked
            .cmp(&a.asked)
            .then_with(|| a.project.cmp(&b.project))
    });
    projects.truncate(5);
    let families = family_stats(std::mem::take(&mut t.families), prefs);
    let auto_decided_by = decided_by(&t.decided_by);
    let hours = busiest_hours(&t.hours);
    let local_hours = busiest_hours(&t.local_hours);
    let outcomes = Outcome::ALL
        .iter()
        .zip(t.outcomes)
        .map(|(o, n)| (o.as_str().to_owned(), serde_json::Value::from(n)))
        .collect();
    Stats {
        total: t.total,
        outcomes,
        human_answers: t.human_answers,
        with_recommendation: t.with_recommendation,
        followed: t.followed,
        follow_rate: rate(t.followed, t.with_recommendation),
        time_to_answer_ms,
        auto_decided: t.outcomes[2],
        auto_decided_by,
        human_minutes_saved: (saved_ms as f64 / 60_000.0 * 10.0).round() / 10.0,
        busiest_projects: projects,
        busiest_hours_utc: hours,
        busiest_hours_local: local_hours,
        local_time_zone: crate::sys::time::local_zone(crate::sys::time::now_ms()).1,
        questions,
        families,
    }
}

/// The families, most asked first; `prefs` is keyed `family:<id>` for them.
fn family_stats<S: std::hash::BuildHasher>(
    families: IdMap<PerFamily>,
    prefs: &HashMap<String, String, S>,
) -> Vec<FamilyStats> {
    let mut out: Vec<FamilyStats> = families
        .into_iter()
        .map(|(family, f)| FamilyStats {
            preference: prefs
                .get(&format!(
                    "{}{family}",
                    askhook_core::family::FAMILY_KEY_PREFIX
                ))
                .cloned(),
            asked: f.counts.asked,
            answered: f.counts.answered,
            auto_decided: f.counts.auto_decided,
            follow_rate: rate(f.counts.followed, f.counts.with_recommendation),
            question_ids: f.question_ids.len(),
            last_asked: crate::sys::time::format_rfc3339(f.counts.last_asked),
            door_type: f.counts.door_type,
            family,
        })
        .collect();
    out.sort_by(|a, b| b.asked.cmp(&a.asked).then_with(|| a.family.cmp(&b.family)));
    out
}

/// The `decided_by` counts grouped: id, family, rules (each by name).
fn decided_by(counts: &IdMap<u64>) -> DecidedBy {
    let mut out = DecidedBy::default();
    for (by, n) in counts {
        match by.as_str() {
            "family" => out.family += n,
            "id" => out.id += n,
            other => {
                let name = other.strip_prefix("rule:").unwrap_or(other);
                out.rule += n;
                *out.rules.entry(name.to_owned()).or_default() += n;
            }
        }
    }
    out
}

/// The five busiest hours of a 24-hour tally, busiest first (earlier hour on a tie).
fn busiest_hours(tally: &[u64; 24]) -> Vec<HourCount> {
    let mut hours: Vec<HourCount> = tally
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(h, n)| HourCount {
            hour: h as u32,
            asked: *n,
        })
        .collect();
    hours.sort_by(|a, b| b.asked.cmp(&a.asked).then_with(|| a.hour.cmp(&b.hour)));
    hours.truncate(5);
    hours
}

/// The preference label per question id: global wins, else `"<value> (project)"`.
pub fn preference_labels(prefs: Vec<StoredPreference>) -> HashMap<String, String> {
    let mut out: HashMap<String, String> = HashMap::new();
    for p in prefs {
        if p.is_global() {
            out.insert(p.question_id, p.value);
        } else {
            let value = p.value;
            out.entry(p.question_id)
                .or_insert_with(|| format!("{value} (project)"));
        }
    }
    out
}

/// Fold every row matching the filters.
pub fn compute(filters: &Filters, ctx: &Context) -> Result<Stats> {
    let (store, query) = super::query(filters, ctx)?;
    let mut tally = Tally::default();
    let mut prefs = HashMap::new();
    if let Some(store) = store {
        let db = |e| Error::db(&ctx.paths.db, e);
        tally = self::tally(&store, &query).map_err(db)?;
        prefs = preference_labels(store.all_preferences().map_err(db)?);
    }
    Ok(summarise(tally, &prefs))
}

/// A time to answer: `9.5s`, `1m35s`, then whole units (`3h`, `2d`).
fn seconds(ms: i64) -> String {
    if ms < 60_000 {
        format!("{:.1}s", ms as f64 / 1000.0)
    } else if ms < 3_600_000 {
        let s = ms / 1000;
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        crate::sys::time::format_age(ms)
    }
}

fn percent(r: Option<f64>) -> String {
    r.map_or_else(|| "-".into(), |r| format!("{:.0}%", r * 100.0))
}

/// How many per-question lines the text report shows.
const QUESTION_LINES: usize = 25;

/// The per-question table of the text report (the first [`QUESTION_LINES`] ids), fitted to
/// `width` terminal columns: the LAST ASKED column goes first, then lines are cut.
fn question_lines(s: &Stats, width: usize) -> String {
    let mut out = String::new();
    if s.questions.is_empty() {
        return out;
    }
    let shown = &s.questions[..s.questions.len().min(QUESTION_LINES)];
    let ids: Vec<String> = shown
        .iter()
        .map(|q| ui::sanitize(&q.question_id, false))
        .collect();
    let id_w = ids
        .iter()
        .map(|id| table::columns(id))
        .max()
        .unwrap_or(2)
        .clamp(11, 32);
    let pref_w = shown
        .iter()
        .map(|q| q.preference.as_deref().map_or(1, table::columns))
        .max()
        .unwrap_or(1)
        .max(10);
    // id 2 asked(6) 1 answered(8) 1 auto(5) 1 follow(7) 2 [last(16) 2] door(8) 2 preference
    let show_last = id_w + 2 + 6 + 1 + 8 + 1 + 5 + 1 + 7 + 2 + 16 + 2 + 8 + 2 + pref_w <= width;
    let line = |cells: [&str; 8]| {
        let [id, asked, answered, auto, follow, last, door, preference] = cells;
        let last = if show_last {
            format!("{last:<16}  ")
        } else {
            String::new()
        };
        let text = format!(
            "{}  {asked:>6} {answered:>8} {auto:>5} {follow:>7}  {last}{door:<8}  {preference}",
            table::fit(id, id_w, true)
        );
        let mut text = table::fit(text.trim_end(), width, false);
        text.push('\n');
        text
    };
    out.push('\n');
    out.push_str(&line([
        "QUESTION ID",
        "ASKED",
        "ANSWERED",
        "AUTO",
        "FOLLOW",
        "LAST ASKED",
        "DOOR",
        "PREFERENCE",
    ]));
    for (q, id) in shown.iter().zip(&ids) {
        let last = crate::sys::time::parse_rfc3339(&q.last_asked)
            .map(crate::sys::time::format_local_minute)
            .unwrap_or_default();
        out.push_str(&line([
            id,
            &q.asked.to_string(),
            &q.answered.to_string(),
            &q.auto_decided.to_string(),
            &percent(q.follow_rate),
            &last,
            q.door_type.map_or("", Door::as_str),
            q.preference.as_deref().unwrap_or("-"),
        ]));
    }
    if s.questions.len() > QUESTION_LINES {
        out.push_str(&format!(
            "… {} more question id(s) (see `askhook stats --json`)\n",
            s.questions.len() - QUESTION_LINES
        ));
    }
    out
}

/// The text report.
pub fn render(s: &Stats) -> String {
    let mut out = String::new();
    out.push_str(&format!("{} question(s) recorded\n", s.total));
    let counts: Vec<String> = Outcome::ALL
        .iter()
        .map(|o| {
            format!(
                "{} {}",
                o.as_str(),
                s.outcomes
                    .get(o.as_str())
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(0)
            )
        })
        .collect();
    out.push_str(&format!("  {}\n", counts.join(" · ")));
    out.push_str(&format!(
        "followed the recommendation: {} ({} of {} human answers with a recommendation)\n",
        percent(s.follow_rate),
        s.followed,
        s.with_recommendation
    ));
    match &s.time_to_answer_ms {
        Some(q) => out.push_str(&format!(
            "time to answer: median {}, p90 {}\n",
            seconds(q.median),
            seconds(q.p90)
        )),
        None => out.push_str("time to answer: -\n"),
    }
    out.push_str(&format!(
        "auto-decided: {} (about {:.1} human minute(s) saved){}\n",
        s.auto_decided,
        s.human_minutes_saved,
        decided_by_text(&s.auto_decided_by)
    ));
    if !s.busiest_projects.is_empty() {
        let list: Vec<String> = s
            .busiest_projects
            .iter()
            .map(|p| {
                let name = p
                    .project
                    .as_deref()
                    .map_or("-", crate::sys::project::short_name);
                format!("{} {}", ui::sanitize(name, false), p.asked)
            })
            .collect();
        out.push_str(&format!("busiest projects: {}\n", list.join(", ")));
    }
    if !s.busiest_hours_local.is_empty() {
        let list: Vec<String> = s
            .busiest_hours_local
            .iter()
            .map(|h| format!("{:02}:00 {}", h.hour, h.asked))
            .collect();
        out.push_str(&format!(
            "busiest hours ({}): {}\n",
            ui::sanitize(&s.local_time_zone, false),
            list.join(", ")
        ));
    }
    out.push_str(&question_lines(s, crate::sys::term::width()));
    out.push_str(&family_lines(s));
    out
}

/// `: 2 by id, 1 by family, 3 by rule (db 2, tests 1)`, or nothing.
fn decided_by_text(d: &DecidedBy) -> String {
    let mut parts = Vec::new();
    for (n, what) in [(d.id, "id"), (d.family, "family")] {
        if n > 0 {
            parts.push(format!("{n} by {what}"));
        }
    }
    if d.rule > 0 {
        let names: Vec<String> = d
            .rules
            .iter()
            .map(|(name, n)| format!("{} {n}", ui::sanitize(name, false)))
            .collect();
        parts.push(format!("{} by rule ({})", d.rule, names.join(", ")));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(": {}", parts.join(", "))
    }
}

/// How many families the text report shows.
const FAMILY_LINES: usize = 10;

/// The families asked under more than one wording, or with a preference: the rewordings a
/// family preference (`pref set family:<id>`) covers.
fn family_lines(s: &Stats) -> String {
    let shown: Vec<&FamilyStats> = s
        .families
        .iter()
        .filter(|f| f.question_ids > 1 || f.preference.is_some())
        .take(FAMILY_LINES)
        .collect();
    if shown.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n{:<15}  {:>6} {:>8} {:>5} {:>7} {:>8}  PREFERENCE\n",
        "FAMILY", "ASKED", "ANSWERED", "AUTO", "FOLLOW", "WORDINGS"
    );
    for f in shown {
        out.push_str(
            format!(
                "{:<15}  {:>6} {:>8} {:>5} {:>7} {:>8}  {}",
                ui::sanitize(&f.family, false),
                f.asked,
                f.answered,
                f.auto_decided,
                percent(f.follow_rate),
                f.question_ids,
                f.preference.as_deref().unwrap_or("-")
            )
            .trim_end(),
        );
        out.push('\n');
    }
    out
}

/// `stats` (its arguments are the shared query arguments).
pub struct StatsCommand<'a>(pub &'a QueryArgs);

impl super::Run for StatsCommand<'_> {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        run(self.0, ctx)
    }
}

fn run(args: &QueryArgs, ctx: &Context) -> Result<ExitCode> {
    let stats = compute(&args.filters, ctx)?;
    if args.json {
        ui::println(&json::to_string_pretty(&stats))?;
    } else if stats.total == 0 {
        // Nothing recorded yet, or nothing matched: say which, not a report of zeros.
        let store = super::open_for_query(ctx)?;
        ui::println(&super::nothing_matched(store.as_ref(), ctx)?)?;
    } else {
        ui::print(&render(&stats))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_to_answer_keep_their_seconds_under_an_hour() {
        assert_eq!(seconds(9_500), "9.5s");
        assert_eq!(seconds(95_000), "1m35s");
        assert_eq!(seconds(3_599_000), "59m59s");
        assert_eq!(seconds(7_200_000), "2h");
    }

    #[test]
    fn quantiles_pick_the_ranked_value() {
        let mut v: Vec<i64> = (1..=10).collect();
        assert_eq!(quantile(&mut v, 0.5), Some(6));
        assert_eq!(quantile(&mut v, 0.9), Some(9));
        assert_eq!(quantile(&mut [], 0.5), None);
        assert_eq!(quantile(&mut [7], 0.9), Some(7));
    }

    #[test]
    fn merged_halves_equal_one_pass() {
        let ids = ["a", "b", "c"];
        let outcomes = [
            Outcome::Answered,
            Outcome::AutoDecided,
            Outcome::Declined,
            Outcome::Answered,
            Outcome::Abandoned,
        ];
        let rows: Vec<StatRow<'_>> = (0..40)
            .map(|i| StatRow {
                question_id: ids[i % 3],
                project: Some(if i % 4 == 0 { "/p" } else { "/q" }),
                outcome: outcomes[i % 5],
                door_type: if i % 7 == 0 {
                    Door::OneWay
                } else {
                    Door::TwoWay
                },
                followed: (i % 5 == 0 || i % 5 == 3).then_some(i % 2 == 0),
                afk: false,
                asked_at: i as i64 * 3_600_000,
                settled_at: Some(i as i64 * 3_600_000 + 1000 * i as i64),
                family: (i % 2 == 0).then_some("fam-0000000001"),
                decided_by: (outcomes[i % 5] == Outcome::AutoDecided).then_some("id"),
            })
            .collect();
        let mut one = Tally::default();
        for r in &rows {
            one.add(r);
        }
        let (mut left, mut right) = (Tally::default(), Tally::default());
        for r in &rows[..17] {
            left.add(r);
        }
        for r in &rows[17..] {
            right.add(r);
        }
        left.merge(right);
        let json = |t| serde_json::to_value(summarise(t, &HashMap::new())).unwrap();
        assert_eq!(json(one), json(left));
    }

    #[test]
    #[allow(clippy::float_cmp)] // rates and minutes are rounded to exact decimal places
    fn follow_rate_counts_human_answers_only() {
        let mut t = Tally::default();
        let base = StatRow {
            question_id: "q",
            project: Some("/p"),
            outcome: Outcome::Answered,
            door_type: Door::TwoWay,
            followed: Some(true),
            afk: false,
            asked_at: 0,
            settled_at: Some(10_000),
            family: None,
            decided_by: None,
        };
        t.add(&base);
        t.add(&StatRow {
            followed: Some(false),
            afk: true,
            ..base
        });
        t.add(&StatRow {
            outcome: Outcome::AutoDecided,
            followed: None,
            settled_at: Some(0),
            ..base
        });
        let s = summarise(t, &HashMap::new());
        assert_eq!(s.follow_rate, Some(1.0));
        assert_eq!(s.auto_decided, 1);
        assert_eq!(s.time_to_answer_ms.as_ref().map(|q| q.median), Some(10_000));
        // One auto-decision saved the 10 s a person took on the same question.
        assert_eq!(s.human_minutes_saved, 0.2);
    }
}
