//! From lexicon hits to evidence: what each action touches, where, and whether it is negated,
//! a preview, or talk about code.
//!
//! Scope rules, each kept inside one clause of one field:
//! - a negation (`not`, `nothing`, `without`, `不`, `しない` …) cancels the action, object,
//!   place or effect it stands next to (before it, or after it for `negate-after` words);
//! - a preview (`--dry-run`, `plan`, `read-only`) cancels every action and effect of its clause;
//! - talk about code (`implement`, `add a button to`, `write a test that`) cancels the action
//!   it leads to, unless another action stands between them;
//! - `soft`-delete and the like cancel the action they qualify.
//!
//! An action's objects and places are those of its clause; a clause with none borrows them from
//! its field, then from the question and header, then from every field. Danger in a place
//! (production, a remote, the public, everyone) always counts; an object after `in`/`from`
//! (or before `の`/`的`) is where the action happens, and counts only when nothing else says
//! what is touched.

use super::lexicon::{concept, ActionRule, Hit, Kind, Qualifier, Weight};
use super::text::{Kind as TokKind, Token};
use super::{Door, Evidence, Role};

/// `or` in the languages askhook reads: what follows it is another alternative. Spanish `o`
/// is Portuguese `the`, so it counts only in a field read as Spanish ([`Ctx::is_or`]).
/// `how` in the languages that write a comma before it (folded).
const HOW_WORDS: &[&str] = &["как", "wie", "comment", "como", "how"];

/// Words that open a clause saying what an action would touch, after a look and a comma.
const WHAT_WORDS: &[&str] = &[
    "что",
    "сколько",
    "какие",
    "was",
    "welche",
    "wieviele",
    "what",
    "which",
];

/// Words that ask for a target (`which`, `where`, `to whom`), folded; a question asking one
/// offers its options as where its action happens ([`chosen_target`]).
const TARGET_WORDS: &[&str] = &[
    "which",
    "where",
    "whom",
    "cual",
    "cuales",
    "donde",
    "adonde",
    "quien",
    "quienes",
    "qual",
    "quais",
    "onde",
    "quem",
    "quel",
    "quelle",
    "quels",
    "quelles",
    "lequel",
    "laquelle",
    "welche",
    "welcher",
    "welches",
    "welchen",
    "welchem",
    "wohin",
    "wo",
    "wem",
    "wen",
    "какой",
    "какую",
    "какие",
    "какая",
    "каком",
    "каким",
    "какому",
    "куда",
    "где",
    "кому",
];

/// The same in scripts written without spaces: a token that contains one asks.
const TARGET_PARTS: &[&str] = &[
    "哪",
    "什么",
    "谁",
    "どの",
    "どこ",
    "どれ",
    "どちら",
    "誰",
    "어느",
    "어떤",
    "어디",
    "누구",
];

/// Prepositions before a folded `que` that make it `which` (`con qué filtro`, `em que base`).
const TARGET_PREPOSITIONS: &[&str] =
    &["con", "en", "a", "de", "para", "por", "contra", "com", "em"];

/// How far after the comma's `what` a look reaches.
const REACH_AFTER_COMMA: u8 = 6;

const OR_WORDS: [&str; 12] = [
    "or",
    "ou",
    "oder",
    "или",
    "либо",
    "还是",
    "或者",
    "或",
    "それとも",
    "または",
    "아니면",
    "또는",
];

/// Branch-name prefixes (`feat/…`): see [`Ctx::in_branch_name`].
const BRANCH_PREFIXES: &[&str] = &[
    "feat",
    "feature",
    "fix",
    "bugfix",
    "hotfix",
    "chore",
    "tmp",
    "temp",
    "exp",
    "wip",
    "spike",
    "refactor",
    "experiment",
];

/// Words that name a branch right before its name, in the lexicons' languages.
const BRANCH_WORDS: &[&str] = &[
    "branch",
    "ветку",
    "ветка",
    "ブランチ",
    "브랜치",
    "rama",
    "branche",
    "分支",
    "zweig",
];

/// English modal words before an action that make it a hypothetical (`would destroy`, `wants
/// to replace`): see [`Ctx::joins_actions`].
const MODAL_WORDS: &[&str] = &["would", "will", "could", "might", "wants", "want"];

pub struct Ctx<'a> {
    pub tokens: &'a [Token],
    pub hits: &'a [Hit],
    pub roles: &'a [Role],
    /// Whether each field is read as Spanish (where `o` is `or`).
    spanish: Vec<bool>,
    negated: Vec<bool>,
    /// For each hit: why it does not count ([`Ctx::cancelled`], computed once).
    cancelled: Vec<Option<&'static str>>,
    /// For each hit: a place after a cancelled action or after `with` (see [`gather`]), and
    /// a place or object after `to` (computed once: every action's scope reads them).
    set_aside_place: Vec<bool>,
    destination: Vec<bool>,
    /// For each hit, the range of hits in its clause (hits are in token order, so a clause's
    /// hits are contiguous): every qualifier's scope is inside a clause.
    clause_of: Vec<std::ops::Range<usize>>,
    /// For each hit: whether it stands inside a statement that something is rebuilt on a
    /// schedule (`rebuilt from main every night`): it describes that rebuild.
    in_rebuild: Vec<bool>,
    /// The question is about a staging or local place rebuilt on a schedule, and names nothing
    /// dangerous anywhere else ([`Ctx::find_rebuilt_env`]).
    rebuilt_env: bool,
    /// Dangerous places a sentence of the question says are untouched (`production isn't
    /// touched`, `线上不受影响`): named elsewhere, they are where something comes from.
    untouched: Vec<u16>,
}

impl Ctx<'_> {
    /// A piece of interface (button, modal: some lexicons list them as code) in a field that
    /// says to press something.
    fn is_pressed_interface(&self, h: &Hit) -> bool {
        let interface = |u: &Hit| concept(u.concept).name == "interface";
        let names_interface = interface(h)
            || concept(h.concept).name == "code"
                && self
                    .hits
                    .iter()
                    .any(|u| interface(u) && u.start <= h.start && h.end <= u.end);
        names_interface
            && self
                .hits
                .iter()
                .any(|p| concept(p.concept).name == "press" && self.field(p) == self.field(h))
    }
}

impl<'a> Ctx<'a> {
    /// `spanish`: whether each field is read as Spanish.
    pub fn new(
        tokens: &'a [Token],
        hits: &'a [Hit],
        roles: &'a [Role],
        spanish: Vec<bool>,
    ) -> Ctx<'a> {
        let mut clause_of = vec![0..0; hits.len()];
        let mut start = 0;
        for i in 1..=hits.len() {
            let key = |h: &Hit| {
                let t = &tokens[h.start as usize];
                (t.field, t.clause)
            };
            if i == hits.len() || key(&hits[i]) != key(&hits[start]) {
                for r in &mut clause_of[start..i] {
                    *r = start..i;
                }
                start = i;
            }
        }
        let mut ctx = Ctx {
            tokens,
            hits,
            roles,
            spanish,
            negated: vec![false; hits.len()],
            cancelled: Vec::new(),
            set_aside_place: Vec::new(),
            destination: Vec::new(),
            clause_of,
            in_rebuild: Vec::new(),
            rebuilt_env: false,
            untouched: Vec::new(),
        };
        ctx.negated = (0..hits.len()).map(|i| ctx.is_negated(i)).collect();
        ctx.in_rebuild = (0..hits.len()).map(|i| ctx.find_in_rebuild(i)).collect();
        ctx.rebuilt_env = ctx.find_rebuilt_env();
        ctx.untouched = ctx.find_untouched();
        ctx.cancelled = (0..hits.len()).map(|i| ctx.find_cancelled(i)).collect();
        // Backwards, so a whole list (`订阅过期、退款、恢复购买三种场景的单元测试`) follows
        // its last item.
        for i in (0..hits.len()).rev() {
            if ctx.cancelled[i].is_none() && ctx.listed_before_talk(i) {
                ctx.cancelled[i] = Some("code-talk");
            }
        }
        for i in 0..hits.len() {
            if ctx.cancelled[i].is_none() {
                ctx.cancelled[i] = ctx.echoes_set_aside_question(i);
            }
        }
        ctx.set_aside_place = (0..hits.len())
            .map(|j| {
                ctx.follows_cancelled(j) || ctx.is_source(&hits[j]) || ctx.copied_from(&hits[j])
            })
            .collect();
        ctx.destination = hits.iter().map(|h| ctx.is_destination(h)).collect();
        ctx
    }

    /// `Run the schema diff against prod? It only reads the catalog. || Run`: a bare label that
    /// only repeats the question's verb is that action, previewed (or made reversible) as the
    /// question's is. So is a bare header (`[Undo commit]` over ``Undo it with `git reset
    /// --soft HEAD~1`?``). An option or header that names anything of its own (an object, a
    /// place) stands on its own.
    fn echoes_set_aside_question(&self, i: usize) -> Option<&'static str> {
        let h = &self.hits[i];
        if !matches!(h.kind(), Kind::Action(_)) {
            return None;
        }
        let role = self.roles[self.field(h) as usize];
        let own = |o: &Hit| match role {
            Role::Label(n) => self.option_of(o) == Some(n),
            Role::Header => self.roles[self.field(o) as usize] == Role::Header,
            _ => false,
        };
        if !matches!(role, Role::Label(_) | Role::Header) {
            return None;
        }
        let asked: Vec<usize> = (0..self.hits.len())
            .filter(|&q| {
                self.hits[q].concept == h.concept
                    && matches!(self.hits[q].kind(), Kind::Action(_))
                    && self.roles[self.field(&self.hits[q]) as usize] == Role::Question
            })
            .collect();
        let why = self.cancelled[*asked.first()?]?;
        // What a header names that the question names too (`[Undo commit]`) is the same thing.
        let in_question = |o: &Hit| {
            role == Role::Header
                && self.hits.iter().any(|q| {
                    q.concept == o.concept && self.roles[self.field(q) as usize] == Role::Question
                })
        };
        (matches!(why, "preview" | "reversible")
            && asked.iter().all(|&q| self.cancelled[q] == Some(why))
            && !self.hits.iter().any(|o| {
                own(o)
                    && matches!(o.kind(), Kind::Object(_) | Kind::Place(_) | Kind::Effect(_))
                    && !in_question(o)
            }))
        .then_some(why)
    }

    /// The hits of hit `i`'s clause, with their indices.
    /// `already merged into main and deleted on origin`: the action is joined by `and` to a word
    /// the past word covers, in the same form (the same last two letters: `merged` / `deleted`,
    /// `смёржены` / `удалены`), so it is done too. `merged and delete it` is not.
    fn past_chain(&self, i: usize) -> bool {
        const AND: [&str; 8] = ["and", "и", "et", "und", "y", "e", "а", "или"];
        let h = &self.hits[i];
        if !matches!(h.kind(), Kind::Action(_)) {
            return false;
        }
        let key = |at: u32| self.tokens[at as usize].key.as_str();
        let ending = |w: &str| {
            let chars: Vec<char> = w.chars().collect();
            (chars.len() >= 5 && chars.iter().all(|c| c.is_alphabetic()))
                .then(|| chars[chars.len() - 2..].iter().collect::<String>())
        };
        let Some(end) = ending(key(h.start)) else {
            return false;
        };
        let field = self.field(h);
        self.hits.iter().any(|q| {
            if qualifier(q) != Some(Qualifier::Past) || self.field(q) != field || q.end >= h.start {
                return false;
            }
            let reach = (q.end + 1 + u32::from(q.term().window)).min(h.start - 1);
            (q.end + 1..=reach).any(|b| {
                h.start - b - 1 <= 4
                    && ending(key(b)).as_deref() == Some(end.as_str())
                    && (b + 1..h.start).any(|t| AND.contains(&key(t)))
            })
        })
    }

    /// A word of doing what a procedure says (`follow the runbook`, `run the steps`) stands
    /// before this talk in its field: the procedure talked about is being done.
    fn performed(&self, talk: &Hit) -> bool {
        self.hits.iter().any(|p| {
            qualifier(p) == Some(Qualifier::Perform)
                && self.field(p) == self.field(talk)
                && p.start <= talk.start
        })
    }

    /// Both hits stand inside one short quotation.
    fn one_quotation(&self, a: &Hit, b: &Hit) -> bool {
        let quote = |h: &Hit| self.tokens[h.start as usize].quote;
        quote(a) != 0
            && quote(a) == quote(b)
            && self.tokens[a.start as usize].field == self.tokens[b.start as usize].field
    }

    /// The hit stands wholly inside one short quotation.
    fn quoted(&self, h: &Hit) -> bool {
        let first = &self.tokens[h.start as usize];
        first.quote != 0
            && self.tokens[h.start as usize..=h.end as usize]
                .iter()
                .all(|t| t.quote == first.quote && t.field == first.field)
    }

    /// The hit stands inside a quotation that labels a piece of interface next to it (`a
    /// 'Send push to ALL players' button`), in a field that presses nothing: the words name
    /// the button, they reach no one.
    fn labels_interface(&self, h: &Hit) -> bool {
        if !self.quoted(h) {
            return false;
        }
        let (quote, field) = (self.tokens[h.start as usize].quote, self.field(h));
        let inside = |t: usize| {
            self.tokens
                .get(t)
                .is_some_and(|t| t.quote == quote && t.field == field)
        };
        let first = (0..=h.start as usize)
            .rev()
            .take_while(|&t| inside(t))
            .last()
            .unwrap_or(h.start as usize);
        let last = (h.end as usize..self.tokens.len())
            .take_while(|&t| inside(t))
            .last()
            .unwrap_or(h.end as usize);
        let next_to = |u: &Hit| {
            let (start, end) = (u.start as usize, u.end as usize);
            start > last && start <= last + 2 || end < first && first <= end + 2
        };
        let named = |u: &Hit, c: &str| concept(u.concept).name == c && self.field(u) == field;
        self.hits
            .iter()
            .any(|u| named(u, "interface") && next_to(u))
            && !self.hits.iter().any(|p| named(p, "press"))
    }

    fn clause_hits(&self, i: usize) -> impl Iterator<Item = (usize, &'a Hit)> + '_ {
        let range = self.clause_of[i].clone();
        range.clone().zip(&self.hits[range])
    }

    fn index_of(&self, h: &Hit) -> usize {
        // Hits are borrowed from `self.hits`: their address gives their index.
        (std::ptr::from_ref(h) as usize - self.hits.as_ptr() as usize) / std::mem::size_of::<Hit>()
    }

    /// Whether a hit is in an option's description.
    fn in_description(&self, h: &Hit) -> bool {
        matches!(self.roles[self.field(h) as usize], Role::Description(_))
    }

    fn field(&self, h: &Hit) -> u16 {
        self.tokens[h.start as usize].field
    }

    /// Whether an action stands in the header or an option label: a short name for what is
    /// done, its objects said elsewhere. (A description tells what happened too: `nothing
    /// was sent`.)
    fn names_answer(&self, i: usize) -> bool {
        matches!(
            self.roles[self.field(&self.hits[i]) as usize],
            Role::Header | Role::Label(_)
        )
    }

    fn clause(&self, h: &Hit) -> (u16, u16) {
        let t = &self.tokens[h.start as usize];
        (t.field, t.clause)
    }

    fn is_negated(&self, i: usize) -> bool {
        let h = &self.hits[i];
        if !matches!(
            h.kind(),
            Kind::Action(_) | Kind::Object(_) | Kind::Place(_) | Kind::Effect(_)
        ) && !matches!(qualifier(h), Some(Qualifier::Preview | Qualifier::Rebuilt))
        {
            return false;
        }
        // A comma inside the clause (a list) is as far as a negation reaches.
        let unbroken = |from: u32, to: u32| {
            !self.tokens[from as usize + 1..=to as usize]
                .iter()
                .any(|t| t.boundary)
        };
        // `Sem 2FA` (pt, "without 2FA") is a protection switched off: a negation in front of an
        // object inside an action's own words is that action, not a negation of the object.
        let one_action = |n: &Hit| {
            self.hits.iter().any(|a| {
                matches!(a.kind(), Kind::Action(_))
                    && a.start <= n.start.min(h.start)
                    && a.end >= n.end.max(h.end)
            })
        };
        self.clause_hits(i).any(|(_, n)| {
            let window = u32::from(n.term().window);
            match qualifier(n) {
                Some(Qualifier::Negate)
                    if !matches!(h.kind(), Kind::Action(_)) && one_action(n) =>
                {
                    false
                }
                Some(Qualifier::Negate) => {
                    // `without --doit to see what it would change`: a negated flag is all the
                    // negation is about.
                    let flag_only = self
                        .tokens
                        .get(n.end as usize + 1)
                        .is_some_and(|t| t.dashes == 2)
                        && h.start > n.end + 1;
                    n.end < h.start
                        && h.start - n.end - 1 <= window
                        && unbroken(n.end, h.start)
                        && !flag_only
                        && !self.and_another_action(n, h)
                        && !self.says_own_negation(h)
                }
                Some(Qualifier::NegateAfter) => {
                    n.start > h.end && n.start - h.end - 1 <= window && unbroken(h.end, n.start)
                }
                _ => false,
            }
        })
    }

    /// `No hay ninguna otra copia`, `Não existe nenhuma outra cópia`: a term that starts with
    /// a negative word of a negative-concord language (`ninguna otra copia`) already says
    /// "none"; a negation in front of it agrees with it, it does not undo it. (`nicht ohne
    /// Authentifizierung` is a double negation: `ohne` is not such a word.)
    fn says_own_negation(&self, h: &Hit) -> bool {
        const CONCORD: &[&str] = &[
            "ningun",
            "ninguna",
            "ninguno",
            "ningunas",
            "ningunos",
            "nenhum",
            "nenhuma",
            "nenhuns",
            "nenhumas",
            "aucun",
            "aucune",
            "nada",
            "nadie",
            "ninguem",
            "rien",
            "ни",
            "нигде",
            "никаких",
            "никакой",
            "никакого",
            "никакая",
            "ничего",
        ];
        !matches!(h.kind(), Kind::Action(_))
            && h.end > h.start
            && CONCORD.contains(&self.tokens[h.start as usize].key.as_str())
    }

    /// `не переносятся и удаляются`, `aren't migrated and are deleted`: a negation covers the
    /// action right after it; a second action joined by `and` is said of its own.
    fn and_another_action(&self, negation: &Hit, h: &Hit) -> bool {
        const AND_WORDS: &[&str] = &["and", "и", "und", "et", "y", "e"];
        matches!(h.kind(), Kind::Action(_))
            && self.hits.iter().any(|a| {
                matches!(a.kind(), Kind::Action(_))
                    && a.start > negation.end
                    && a.end < h.start
                    && self.tokens[a.end as usize + 1..h.start as usize]
                        .iter()
                        .any(|t| AND_WORDS.contains(&t.key.as_str()))
            })
    }

    fn find_in_rebuild(&self, i: usize) -> bool {
        let h = &self.hits[i];
        self.hits.iter().enumerate().any(|(r, s)| {
            r != i
                && qualifier(s) == Some(Qualifier::Rebuilt)
                && !self.negated[r]
                && self.field(s) == self.field(h)
                && s.start <= h.start
                && (h.end <= s.end
                    // What it is rebuilt from, later in the clause (`à partir d'un dump`).
                    || concept(h.concept).name == "backup" && self.clause(s) == self.clause(h))
        })
    }

    /// A longer term that holds a dangerous place word (`base de datos de producción`): the
    /// place is dropped as part of the term, but it still says where the thing lives.
    fn hides_danger_place(&self, h: &Hit) -> bool {
        h.end > h.start
            && (h.start..=h.end).any(|k| {
                let k = k as usize;
                super::lexicon::find_hits(&self.tokens[k..=k])
                    .iter()
                    .any(|p| matches!(p.kind(), Kind::Place(w) if w >= Weight::Shared))
            })
    }

    /// A word that only says which harmless thing follows it: `subscription fixtures`,
    /// `customer seed data`.
    fn names_harmless(&self, h: &Hit) -> bool {
        self.clause_hits(self.index_of(h)).any(|(_, n)| {
            n.start == h.end + 1
                && match n.kind() {
                    Kind::Place(w) => w == Weight::Safe,
                    Kind::Object(w) => matches!(w, Weight::Disposable | Weight::Benign),
                    _ => false,
                }
        })
    }

    /// A payment word that only names the code right after it (`the refund logic`,
    /// `Überweisungs-Logik`, `payout handler tests`): a feature, not money moving.
    fn names_code(&self, i: usize) -> bool {
        let h = &self.hits[i];
        concept(h.concept).name == "pay"
            && self.clause_hits(i).any(|(_, n)| {
                n.start == h.end + 1
                    && !self.tokens[n.start as usize].boundary
                    && matches!(n.kind(), Kind::Object(Weight::Benign))
            })
    }

    /// An action read only inside identifiers (`purgeCache()`, `wipe_device()`) in a field
    /// that edits code by name (`inline it`, `split them out`, `rename it`) and runs nothing:
    /// the identifier is the code edited, not an order.
    fn edited_identifier(&self, i: usize) -> bool {
        let h = &self.hits[i];
        let field = self.field(h);
        let in_identifier = self.tokens[h.start as usize..=h.end as usize]
            .iter()
            .all(|t| t.kind == TokKind::Ident);
        let runs = |b: &Hit| {
            matches!(
                concept(b.concept).name,
                "execute" | "deploy" | "rollback" | "run-migration" | "kill" | "perform"
            ) && !self.tokens[b.start as usize..=b.end as usize]
                .iter()
                .all(|t| t.kind == TokKind::Ident)
        };
        in_identifier
            && self.hits.iter().enumerate().any(|(j, q)| {
                qualifier(q) == Some(Qualifier::EditsCode)
                    && !self.negated[j]
                    && self.field(q) == field
            })
            && !self
                .hits
                .iter()
                .enumerate()
                .any(|(j, b)| self.field(b) == field && !self.negated[j] && runs(b))
    }

    /// `Which tests should I add for /ban? || Edge cases : banning the owner`, `Which baseline
    /// should the policy draft propose? || Forced rotation`: under a question that chooses what
    /// to write down, an option is a test case or a design, whatever it does, unless the
    /// question or the option names a dangerous place (`against production`) or the option
    /// chains a real step after it (`then publish`).
    fn proposed_option(&self, i: usize) -> bool {
        let (Role::Label(n) | Role::Description(n)) =
            self.roles[self.field(&self.hits[i]) as usize]
        else {
            return false;
        };
        let role = |h: &Hit| self.roles[self.field(h) as usize];
        let of_option =
            |h: &Hit| matches!(role(h), Role::Label(m) | Role::Description(m) if m == n);
        let asked = |h: &Hit| matches!(role(h), Role::Question | Role::Header);
        self.hits
            .iter()
            .enumerate()
            .any(|(j, q)| qualifier(q) == Some(Qualifier::Proposes) && !self.negated[j] && asked(q))
            && !self.hits.iter().enumerate().any(|(j, b)| {
                (of_option(b) || asked(b))
                    && !self.negated[j]
                    && (matches!(b.kind(), Kind::Place(Weight::Danger))
                        || of_option(b) && qualifier(b) == Some(Qualifier::Break))
            })
    }

    /// `Staging is rebuilt from seed every night. Reset it now?`: a statement that something
    /// is rebuilt on a schedule, a staging or local place, and nothing else that would make a
    /// reset costly: no production, remote, public or fleet, no people, money, accounts,
    /// credentials, backups, storage or history, outside the statement itself.
    fn find_rebuilt_env(&self) -> bool {
        let live = |j: usize| !self.negated[j] && !self.in_rebuild[j];
        let stated = self
            .hits
            .iter()
            .enumerate()
            .any(|(j, h)| qualifier(h) == Some(Qualifier::Rebuilt) && !self.negated[j]);
        let in_staging = self.hits.iter().enumerate().any(|(j, h)| {
            live(j) && matches!(h.kind(), Kind::Place(_)) && {
                let name = concept(h.concept).name;
                name == "staging" || name == "local"
            }
        });
        let dangerous = self.hits.iter().enumerate().any(|(j, h)| {
            live(j)
                && match h.kind() {
                    Kind::Place(w) => w >= Weight::Shared,
                    Kind::Object(w) => {
                        w >= Weight::Danger && !rebuildable(h) && !self.names_harmless(h)
                            || rebuildable(h) && self.hides_danger_place(h)
                    }
                    _ => false,
                }
        });
        stated && in_staging && !dangerous
    }

    /// An action listed before another (`退款、恢复购买 … 的单元测试`, only list separators
    /// between them) whose talk about code comes after the list: the talk covers every item,
    /// not only the last.
    fn listed_before_talk(&self, i: usize) -> bool {
        let h = &self.hits[i];
        if !matches!(h.kind(), Kind::Action(_)) || self.negated[i] {
            return false;
        }
        let Some((k, next)) = self.hits.iter().enumerate().find(|(_, b)| {
            matches!(b.kind(), Kind::Action(_)) && b.start > h.end && self.field(b) == self.field(h)
        }) else {
            return false;
        };
        let between = &self.tokens[h.end as usize + 1..=next.start as usize];
        let listed =
            between.iter().any(|t| t.boundary) && between.iter().all(|t| !t.boundary || t.soft);
        listed
            && self.cancelled[k] == Some("code-talk")
            && self
                .clause_hits(k)
                .any(|(_, q)| qualifier(q) == Some(Qualifier::MetaAfter) && q.start > next.end)
    }

    /// Why an action or effect does not count, if it doesn't.
    fn cancelled(&self, i: usize) -> Option<&'static str> {
        self.cancelled[i]
    }

    fn find_cancelled(&self, i: usize) -> Option<&'static str> {
        let h = &self.hits[i];
        if self.negated[i] {
            return Some("negated");
        }
        for (j, q) in self.clause_hits(i) {
            if j == i {
                continue;
            }
            let window = u32::from(q.term().window);
            match qualifier(q) {
                // A preview inside the action's own words is its object (`apply the terraform
                // plan`), not a preview of it.
                Some(Qualifier::Preview)
                    if !(self.negated[j] || q.start >= h.start && q.end <= h.end)
                        && (q.start.abs_diff(h.end) <= window + 1
                            || h.start.abs_diff(q.end) <= window + 1)
                        && !self.alternative_between(q, h) =>
                {
                    return Some("preview")
                }
                // ``Run `helm upgrade … -n prod --dry-run=server` ``: a preview inside the
                // command the action runs covers it, however long the command is.
                Some(Qualifier::Preview) if !self.negated[j] && self.in_command_after(h, q) => {
                    return Some("preview")
                }
                // `soft delete` as one phrase covers the action it qualifies.
                Some(Qualifier::Soft)
                    if q.start < h.start && (q.end >= h.start || h.start - q.end - 1 <= window) =>
                {
                    return Some("reversible")
                }
                Some(Qualifier::SoftAfter) if q.start > h.end && q.start - h.end - 1 <= window => {
                    return Some("reversible")
                }
                Some(Qualifier::MetaAfter)
                    if q.start > h.end
                        && q.start - h.end - 1 <= window
                        && !self.clause_hits(i).any(|(_, b)| {
                            matches!(b.kind(), Kind::Action(_))
                                && b.start > h.end
                                && b.end < q.start
                        }) =>
                {
                    return Some("code-talk")
                }
                // A past inside a quotation is the name it quotes (`set them to “已关闭”`).
                Some(Qualifier::Past)
                    if q.end < h.start
                        && h.start - q.end - 1 <= window
                        && (!self.quoted(q) || self.one_quotation(q, h)) =>
                {
                    return Some("already done")
                }
                // Another action between ends the talk, unless both stand in one quotation
                // (the title of a procedure: `'destruir e recriar o ambiente'`).
                Some(Qualifier::Meta)
                    if q.end < h.start
                        && h.start - q.end - 1 <= window
                        && !self.performed(q)
                        && !self.clause_hits(i).any(|(_, b)| {
                            matches!(b.kind(), Kind::Action(_))
                                && b.start > q.end
                                && b.end < h.start
                                && !self.one_quotation(b, h)
                        }) =>
                {
                    return Some("code-talk")
                }
                _ => {}
            }
        }
        if self.past_chain(i) {
            return Some("already done");
        }
        if self.names_code(i) || self.edited_identifier(i) {
            return Some("names code");
        }
        if self.proposed_option(i) {
            return Some("a proposal");
        }
        if self.before_comma(i, Qualifier::Meta, HOW_WORDS) {
            return Some("code-talk");
        }
        if self.before_comma(i, Qualifier::Look, WHAT_WORDS) {
            return Some("preview");
        }
        None
    }

    /// Talk about code that ends right before a comma and a `how` reaches the action just after it:
    /// languages that put a comma before the complement (`раздел о том, как сбросить …`,
    /// `einen Abschnitt dazu, wie man … löscht`) would otherwise split the talk from what it
    /// talks about.
    ///
    /// So does a look before a comma and a `what`: `Посмотреть, что удалит rsync?`, `Prüfen,
    /// was rsync löschen würde?` ask to see what an action would do, not to do it.
    fn before_comma(&self, i: usize, kind: Qualifier, words: &[&str]) -> bool {
        let h = &self.hits[i];
        if !matches!(h.kind(), Kind::Action(_)) {
            return false;
        }
        let (field, clause) = self.clause(h);
        // A look reaches a fixed way past its `what`, and stands right before the comma.
        let look = kind == Qualifier::Look;
        let reach = |q: &Hit| {
            if look {
                REACH_AFTER_COMMA
            } else {
                q.term().window
            }
        };
        self.hits.iter().enumerate().any(|(j, q)| {
            qualifier(q) == Some(kind)
                && !self.negated[j]
                && self.clause(q) == (field, clause.wrapping_sub(1))
                && q.end < h.start
                && {
                    // The comma comes at most one word after the talk (a German verb: `einen
                    // Abschnitt dazu ergänzen, wie …`), the action within the talk's window
                    // after the `how`.
                    let at = (q.end + 1..=h.start.min(q.end + if look { 1 } else { 2 }))
                        .find(|&k| self.tokens[k as usize].boundary);
                    at.is_some_and(|k| {
                        let how = &self.tokens[k as usize];
                        how.soft
                            && words.contains(&how.key.as_str())
                            && h.start - k <= u32::from(reach(q)) + 1
                    })
                }
                && !self.performed(q)
                && !self.hits.iter().any(|b| {
                    matches!(b.kind(), Kind::Action(_)) && b.start > q.end && b.end < h.start
                })
        })
    }

    /// An action whose clause names nothing it touches reads its context from its field, its
    /// option's other half and the question: a preview there (`It's read-only`) covers it too.
    fn previewed_context(&self, i: usize) -> Option<&'static str> {
        let h = &self.hits[i];
        if !matches!(h.kind(), Kind::Action(_)) {
            return None;
        }
        let clause = self.clause(h);
        let own = self.hits.iter().enumerate().any(|(j, o)| {
            j != i
                && !self.negated[j]
                && self.clause(o) == clause
                && matches!(o.kind(), Kind::Object(_) | Kind::Place(_))
        });
        let field = self.field(h);
        if own {
            return (self.said_read_only(i) || self.runs_the_previewed_run(i)).then_some("preview");
        }
        let near = |f: u16| {
            f == field
                || matches!(self.roles[f as usize], Role::Question | Role::Header)
                || matches!((self.roles[field as usize], self.roles[f as usize]),
                    (Role::Label(a), Role::Description(b)) | (Role::Description(a), Role::Label(b)) if a == b)
        };
        // `Dry-run it first, or delete it right away?`: a preview offered as one alternative
        // covers no option.
        // (An `or` in another sentence, `Nothing is pushed or pulled.`, offers nothing.)
        let offered = |q: &Hit| {
            let f = self.field(q);
            let sentence = self.tokens[q.start as usize].sentence;
            self.tokens
                .iter()
                .any(|t| t.field == f && t.sentence == sentence && self.is_or(t))
        };
        // `The Terraform plan is ready. … || Apply the plan`: a preview told in the question's
        // background has been done; an option that does what it planned is not previewed.
        let performs = self.hits.iter().any(|p| {
            qualifier(p) == Some(Qualifier::Perform)
                && matches!((self.roles[field as usize], self.roles[self.field(p) as usize]),
                    (Role::Label(a) | Role::Description(a), Role::Label(b) | Role::Description(b)) if a == b)
        });
        let background = |q: &Hit| {
            let f = self.field(q);
            performs
                && f != field
                && self.roles[f as usize] == Role::Question
                && self.tokens[q.start as usize].sentence != self.asking_sentence(f)
        };
        // `… funcionan bien en la vista previa. ¿Lo activo?`, `模板在预览主题里测过了。现在切换吗？`:
        // a preview the background says something was tried in (a state: its clause does
        // nothing) was that try; the go-ahead is the real thing.
        let tried_in = |q: &Hit| {
            let f = self.field(q);
            let j = self.index_of(q);
            self.roles[f as usize] == Role::Question
                && self.tokens[q.start as usize].sentence < self.asking_sentence(f)
                && self.clause_hits(j).any(|(_, c)| match qualifier(c) {
                    Some(Qualifier::Container) => c.end < q.start && q.start - c.end <= 3,
                    Some(Qualifier::ContainerAfter) => c.start > q.end && c.start - q.end <= 1,
                    _ => false,
                })
                && !self
                    .clause_hits(j)
                    .any(|(k, c)| matches!(c.kind(), Kind::Action(_)) && !self.negated[k])
        };
        let offered_elsewhere = |q: &Hit| self.field(q) != field && offered(q);
        let done_before = |q: &Hit| background(q) || tried_in(q);
        self.hits
            .iter()
            .enumerate()
            .any(|(j, q)| {
                qualifier(q) == Some(Qualifier::Preview)
                    && !self.negated[j]
                    && near(self.field(q))
                    && !offered_elsewhere(q)
                    && !done_before(q)
            })
            .then_some("preview")
    }

    /// `Run a read-only check against production? || Run the check`: an option that runs, when
    /// the question's own run is a preview in its clause (`read-only`, `without --broadcast`),
    /// runs that preview. An option that says it does it for real (a perform qualifier, a
    /// negated preview) is not covered.
    fn runs_the_previewed_run(&self, i: usize) -> bool {
        let h = &self.hits[i];
        let Kind::Action(rule) = h.kind() else {
            return false;
        };
        let (Role::Label(option) | Role::Description(option)) = self.roles[self.field(h) as usize]
        else {
            return false;
        };
        let in_option = |x: &Hit| {
            matches!(self.roles[self.field(x) as usize],
                Role::Label(o) | Role::Description(o) if o == option)
        };
        let says_for_real = self.hits.iter().enumerate().any(|(j, q)| {
            in_option(q)
                && match qualifier(q) {
                    Some(Qualifier::Perform) => true,
                    Some(Qualifier::Preview) => self.negated[j],
                    _ => false,
                }
        });
        let is_run = |x: &Hit| concept(x.concept).name == "execute";
        let question_previews_its_run = self.hits.iter().enumerate().any(|(j, run)| {
            matches!(run.kind(), Kind::Action(_))
                && is_run(run)
                && !self.negated[j]
                && self.roles[self.field(run) as usize] == Role::Question
                && self
                    .clause_hits(j)
                    .any(|(k, q)| qualifier(q) == Some(Qualifier::Preview) && !self.negated[k])
        });
        is_run(h) && !destroys(rule) && !says_for_real && question_previews_its_run
    }

    /// `Run wp db size on the production database? It's read-only.`: a sentence of the
    /// question that says nothing but that it is read-only (or a dry run) covers the command
    /// the question runs, whatever it names, code aside (`It's a read-only search request.`).
    /// (Only a run: `Grant admin on prod? Read-only first.` grants something else first.)
    fn said_read_only(&self, i: usize) -> bool {
        let h = &self.hits[i];
        let Kind::Action(rule) = h.kind() else {
            return false;
        };
        let field = self.field(h);
        // `… It only reads. || Run the check`: an option that runs what the question runs is
        // covered by the same sentence (strictly: one that names nothing at all).
        let label = matches!(self.roles[field as usize], Role::Label(_));
        if destroys(rule)
            || concept(h.concept).name != "execute"
            || !(self.roles[field as usize] == Role::Question || label)
        {
            return false;
        }
        let sentence_of = |x: &Hit| self.tokens[x.start as usize].sentence;
        let own_sentence = sentence_of(h);
        let says_field = |q: &Hit| {
            let f = self.field(q);
            if label {
                self.roles[f as usize] == Role::Question
            } else {
                f == field && sentence_of(q) != own_sentence
            }
        };
        self.hits.iter().enumerate().any(|(j, q)| {
            qualifier(q) == Some(Qualifier::Preview)
                && !self.negated[j]
                && says_field(q)
                && !self.hits.iter().any(|o| {
                    self.field(o) == self.field(q)
                        && sentence_of(o) == sentence_of(q)
                        && match o.kind() {
                            // `It's a plain read-only search request.`: naming the command
                            // as code still says only that it reads.
                            // (Said after the run: before it, `I ran the script with
                            // --dry-run.` tells what was done.)
                            Kind::Object(w) => {
                                w > Weight::Benign || label || sentence_of(q) < own_sentence
                            }
                            Kind::Action(_) | Kind::Place(_) => true,
                            _ => false,
                        }
                })
        })
    }

    /// Whether `q` stands later in the command the action `h` runs: the code span that begins
    /// right after `h`, or the one `h` stands in (every token after `h` up to `q` inside
    /// backticks, and no `|`, `&&` or `;` starting another command between).
    fn in_command_after(&self, h: &Hit, q: &Hit) -> bool {
        q.start > h.end + 1
            && (h.end + 1..=q.start).all(|t| {
                let t = &self.tokens[t as usize];
                t.in_code && !matches!(t.key.as_str(), "|" | "||" | "&&" | "&" | ";")
            })
    }

    /// An `or` of some language between a preview and an action: the action is the other
    /// alternative (`a dry run, or the real delete`), not what is previewed.
    fn alternative_between(&self, a: &Hit, b: &Hit) -> bool {
        let (from, to) = if a.end < b.start {
            (a.end + 1, b.start)
        } else if b.end < a.start {
            (b.end + 1, a.start)
        } else {
            return false;
        };
        (from..to).any(|t| self.is_or(&self.tokens[t as usize]) && !self.joins_actions(t))
    }

    /// `… what the change would destroy or replace`: an `or` standing right between two actions,
    /// the first after a `would`, joins two things one hypothetical does; it offers no
    /// alternative to the preview.
    fn joins_actions(&self, t: u32) -> bool {
        let is_action = |h: &&Hit| matches!(h.kind(), Kind::Action(_));
        let before = self.hits.iter().filter(is_action).find(|h| h.end + 1 == t);
        let after = self.hits.iter().filter(is_action).any(|h| h.start == t + 1);
        after
            && before.is_some_and(|a| {
                (a.start.saturating_sub(2)..a.start)
                    .any(|k| MODAL_WORDS.contains(&self.tokens[k as usize].key.as_str()))
            })
    }

    /// A message to everyone, named without a verb, in a sentence that previews it and says
    /// nothing is sent (`See which of the 58 customers would get the email, without sending
    /// anything?`): the send is what the preview shows, not what it does.
    fn send_withheld(&self, i: usize) -> bool {
        let h = &self.hits[i];
        let here = |q: &Hit| {
            self.field(q) == self.field(h)
                && self.tokens[q.start as usize].sentence == self.tokens[h.start as usize].sentence
        };
        let previewed =
            self.hits.iter().enumerate().any(|(j, q)| {
                qualifier(q) == Some(Qualifier::Preview) && !self.negated[j] && here(q)
            });
        previewed
            && self.hits.iter().enumerate().any(|(j, q)| {
                matches!(q.kind(), Kind::Action(_))
                    && concept(q.concept).name == "send"
                    && self.negated[j]
                    && here(q)
            })
    }

    /// Whether a word is `or` ([`OR_WORDS`], or `o` in a Spanish field).
    fn is_or(&self, t: &Token) -> bool {
        OR_WORDS.contains(&t.key.as_str())
            || t.key == "o" && self.spanish.get(usize::from(t.field)) == Some(&true)
    }

    /// Whether the question says its actions only edit files (`I'm only editing the file, not
    /// applying it`): such a statement in the action's field, its option's other half, or the
    /// question covers it.
    fn edit_only(&self, i: usize) -> bool {
        let field = self.field(&self.hits[i]);
        let near = |f: u16| {
            f == field
                || matches!(self.roles[f as usize], Role::Question | Role::Header)
                || matches!((self.roles[field as usize], self.roles[f as usize]),
                    (Role::Label(a), Role::Description(b)) | (Role::Description(a), Role::Label(b)) if a == b)
        };
        // (`런북 3단계 그대로 진행할까요?`: a runbook whose step is carried out is not being
        // written.)
        self.hits.iter().enumerate().any(|(j, q)| {
            qualifier(q) == Some(Qualifier::EditOnly)
                && !self.negated[j]
                && near(self.field(q))
                && !self.performed(q)
        })
    }

    /// An action told in a background sentence of a question that says it only edits text:
    /// `The README still tells people to run X to flush the production CDN … I'd only change
    /// the documentation text. How should I update that section?`. The sentence is the
    /// question's, before the asking one, not an order (it does not open with the action), and
    /// the statement that only text changes comes in it or after it. So is a topic listed in
    /// parentheses after such a statement ([`Ctx::listed_topic`]).
    fn background_of_edit(&self, i: usize) -> bool {
        if self.listed_topic(i) {
            return true;
        }
        let h = &self.hits[i];
        let field = self.field(h);
        if self.roles[field as usize] != Role::Question || !matches!(h.kind(), Kind::Action(_)) {
            return false;
        }
        let at = &self.tokens[h.start as usize];
        let last = self.asking_sentence(field);
        let opens = h.start == 0 || {
            let before = &self.tokens[h.start as usize - 1];
            before.field != field || before.sentence != at.sentence
        };
        at.sentence < last
            && !opens
            && self.hits.iter().enumerate().any(|(j, q)| {
                qualifier(q) == Some(Qualifier::EditOnly)
                    && !self.negated[j]
                    && self.field(q) == field
                    && self.tokens[q.start as usize].sentence >= at.sentence
            })
    }

    /// A topic listed in parentheses after a statement that only text is written, in the
    /// same sentence: `write up our release checklist (TestFlight, halting a rollout) in
    /// RELEASING.md`. What the text will cover is not done.
    fn listed_topic(&self, i: usize) -> bool {
        // (`… (and then push it with --force)` goes on to do something.)
        const GOES_ON: &[&str] = &[
            "and", "then", "plus", "und", "dann", "et", "puis", "y", "e", "и",
        ];
        let h = &self.hits[i];
        let at = &self.tokens[h.start as usize];
        let opens = self.tokens[..=h.start as usize]
            .iter()
            .rev()
            .take_while(|t| t.aside && t.field == at.field)
            .last();
        at.aside
            && opens.is_some_and(|t| !GOES_ON.contains(&t.key.as_str()))
            && self.hits.iter().enumerate().any(|(j, q)| {
                let by = &self.tokens[q.start as usize];
                qualifier(q) == Some(Qualifier::EditOnly)
                    && !self.negated[j]
                    && !by.aside
                    && by.field == at.field
                    && by.sentence == at.sentence
                    && q.end < h.start
            })
    }

    /// Where the step an action belongs to starts, when a `then` of the same sentence comes
    /// before it. A later step that names what it touches (`je régénère les migrations en
    /// local puis je réinitialise la base de recette`) happens where its own clause says, not
    /// in the safe place of the step before it; one that names nothing (`дропнуть таблицу в
    /// моей локальной базе и прогнать заново`) goes on with the same thing, in the same place.
    fn next_step_at(&self, i: usize) -> Option<u32> {
        let h = &self.hits[i];
        let at = &self.tokens[h.start as usize];
        self.hits
            .iter()
            .enumerate()
            .filter(|&(j, q)| {
                let by = &self.tokens[q.start as usize];
                qualifier(q) == Some(Qualifier::Break)
                    && !self.negated[j]
                    && by.field == at.field
                    && by.sentence == at.sentence
                    && q.end <= h.start
            })
            .map(|(_, q)| q.start)
            .max()
    }

    /// The action is only told, not done: words quoted in a question that only edits text are
    /// a title, wherever they point (`Add a section 'When DROP DATABASE ran on prod by
    /// mistake'?`), and what a text an edit removes says is not done (`… a commented-out
    /// `-- DROP TABLE payroll;` line. Remove the comment?`).
    fn only_told(&self, i: usize) -> bool {
        self.edit_only(i) && self.quoted(&self.hits[i]) || self.background_of_text_edit(i)
    }

    /// An action told in a background sentence of a question whose asking sentence only edits
    /// text: ``migrate.sql` still has a commented-out `-- DROP TABLE payroll;` line. Remove
    /// the comment?``. The sentence is the question's, before the asking one, and does not open
    /// with the action; every action of the asking sentence touches code or a piece of text
    /// and nothing weightier in its own clause.
    fn background_of_text_edit(&self, i: usize) -> bool {
        let h = &self.hits[i];
        let field = self.field(h);
        if self.roles[field as usize] != Role::Question || !matches!(h.kind(), Kind::Action(_)) {
            return false;
        }
        let at = &self.tokens[h.start as usize];
        let asking = self.asking_sentence(field);
        let opens = h.start == 0 || {
            let before = &self.tokens[h.start as usize - 1];
            before.field != field || before.sentence != at.sentence
        };
        at.sentence < asking && !opens && self.asking_edits_text()
    }

    /// The question's own action, in its asking sentence, edits only code or a piece of text;
    /// or a label or the header answers such a question.
    fn asks_text_edit(&self, i: usize) -> bool {
        let h = &self.hits[i];
        let field = self.field(h);
        match self.roles[field as usize] {
            Role::Question => {
                self.tokens[h.start as usize].sentence == self.asking_sentence(field)
                    && self.edits_text_only(i)
            }
            // An option (`Remove it`, `Remove the comment`) or a header (`[Cleanup]`) naming
            // nothing else answers what the question asks.
            Role::Label(_) | Role::Header => {
                (self.names_nothing(i) || self.edits_text_only(i)) && self.asking_edits_text()
            }
            Role::Description(_) => false,
        }
    }

    /// The action's clause names no object and no place.
    fn names_nothing(&self, i: usize) -> bool {
        self.clause_hits(i)
            .all(|(j, o)| j == i || !matches!(o.kind(), Kind::Object(_) | Kind::Place(_)))
    }

    /// The question's asking sentence has an action, and each of its actions edits only code
    /// or a piece of text.
    fn asking_edits_text(&self) -> bool {
        let Some(field) = (0..self.roles.len()).find(|&f| self.roles[f] == Role::Question) else {
            return false;
        };
        let field = field as u16;
        let asking = self.asking_sentence(field);
        let mut asked = self
            .hits
            .iter()
            .enumerate()
            .filter(|&(j, a)| {
                self.field(a) == field
                    && self.tokens[a.start as usize].sentence == asking
                    && matches!(a.kind(), Kind::Action(_))
                    && !self.negated[j]
            })
            .peekable();
        asked.peek().is_some() && asked.all(|(j, _)| self.edits_text_only(j))
    }

    /// The action's own clause names code or a piece of text (a comment, a section) and no
    /// weightier object, no shared or dangerous place and no effect.
    fn edits_text_only(&self, i: usize) -> bool {
        if !EDITS.contains(&concept(self.hits[i].concept).name) {
            return false;
        }
        let mut text = false;
        for (j, h) in self.clause_hits(i) {
            if j == i || self.negated[j] {
                continue;
            }
            match h.kind() {
                Kind::Object(Weight::Benign) => text = true,
                Kind::Object(w) if w > Weight::Benign => return false,
                Kind::Place(w) if w >= Weight::Shared => return false,
                Kind::Effect(_) => return false,
                _ => {}
            }
        }
        text
    }

    /// A sentence of the question renames a function by name (`Shall I rename it to
    /// hide_former_staff()?`, `I'm renaming deleteSubscriber() to removeFromListView(); update
    /// the call sites too?`): what the function's words or the story around it name (former
    /// staff, customers) is not what a renaming changes.
    fn renames_code(&self) -> bool {
        let Some(field) = (0..self.roles.len()).find(|&f| self.roles[f] == Role::Question) else {
            return false;
        };
        let field = field as u16;
        self.hits.iter().enumerate().any(|(j, q)| {
            let sentence = self.tokens[q.start as usize].sentence;
            qualifier(q) == Some(Qualifier::EditsCode)
                && !self.negated[j]
                && self.tokens[q.start as usize].field == field
                && self
                    .tokens
                    .iter()
                    .any(|t| t.field == field && t.sentence == sentence && t.call)
        })
    }

    /// The action's own clause names no place and nothing weighty but inside identifiers
    /// (`rename it to hide_former_staff()`, not `rename the customers table`).
    fn clause_names_only_code(&self, i: usize) -> bool {
        self.clause_hits(i).all(|(j, h)| {
            j == i
                || self.negated[j]
                || match h.kind() {
                    Kind::Place(_) => false,
                    Kind::Object(w) if w >= Weight::Danger => self.tokens
                        [h.start as usize..=h.end as usize]
                        .iter()
                        .all(|t| t.kind == TokKind::Ident),
                    _ => true,
                }
        })
    }

    /// The action's own clause names where something happens.
    fn clause_names_place(&self, i: usize) -> bool {
        self.clause_hits(i)
            .any(|(j, h)| j != i && !self.negated[j] && matches!(h.kind(), Kind::Place(_)))
    }

    /// The sentence of a field that asks: the last one ending with `?`, else the last one.
    fn asking_sentence(&self, field: u16) -> u16 {
        let sentences = || self.tokens.iter().filter(|t| t.field == field);
        sentences()
            .filter(|t| t.asks)
            .map(|t| t.sentence)
            .max()
            .or_else(|| sentences().map(|t| t.sentence).max())
            .unwrap_or(0)
    }

    /// Every dangerous place the question names stands in a background sentence of a question
    /// that says it only edits text (see [`Self::background_of_edit`]): an action that borrows
    /// its place borrows what the text is about.
    fn danger_told_in_background(&self) -> bool {
        let Some(field) = (0..self.roles.len()).find(|&f| self.roles[f] == Role::Question) else {
            return false;
        };
        let field = field as u16;
        let asking = self.asking_sentence(field);
        let edit_at = self
            .hits
            .iter()
            .enumerate()
            .filter(|&(j, q)| {
                qualifier(q) == Some(Qualifier::EditOnly)
                    && !self.negated[j]
                    && self.field(q) == field
            })
            .map(|(_, q)| self.tokens[q.start as usize].sentence)
            .max();
        let Some(edit_at) = edit_at else {
            return false;
        };
        let mut places = self.hits.iter().enumerate().filter(|&(j, h)| {
            !self.negated[j] && matches!(h.kind(), Kind::Place(w) if w >= Weight::Shared)
        });
        let mut any = false;
        places.all(|(_, h)| {
            any = true;
            let sentence = self.tokens[h.start as usize].sentence;
            self.field(h) == field && sentence < asking && sentence <= edit_at
        }) && any
    }

    /// Words that are parts of a hyphenated name in code (`acme-dev-old`, `dev-contractor`).
    fn in_code_name(&self, h: &Hit) -> bool {
        let t = &self.tokens[h.start as usize];
        let next_joined = self
            .tokens
            .get(h.end as usize + 1)
            .is_some_and(|n| n.joined && n.field == t.field);
        t.in_code && (t.joined || next_joined)
    }

    /// The option (1-based) whose label or description a hit stands in.
    fn option_of(&self, h: &Hit) -> Option<u8> {
        match self.roles[self.field(h) as usize] {
            Role::Label(n) | Role::Description(n) => Some(n),
            _ => None,
        }
    }

    /// Option `n` does something of its own: its label or description holds an action.
    fn option_acts(&self, n: u8) -> bool {
        self.hits.iter().enumerate().any(|(j, h)| {
            self.option_of(h) == Some(n) && !self.negated[j] && matches!(h.kind(), Kind::Action(_))
        })
    }

    /// Option `n`'s label says what it does (`Delete local branch`), not only which one (what
    /// is lost by it is a consequence, not a doing).
    fn label_acts(&self, n: u8) -> bool {
        self.hits.iter().enumerate().any(|(j, h)| {
            self.roles[self.field(h) as usize] == Role::Label(n)
                && !self.negated[j]
                && matches!(h.kind(), Kind::Action(_))
                && concept(h.concept).name != "loss"
        })
    }

    /// A destination an action already reached (`was merged into main`, `已经合并进 main`): an
    /// action of its clause before it, or inside its words, is done.
    fn landed_in_past(&self, j: usize) -> bool {
        let place = &self.hits[j];
        self.clause_hits(j).any(|(k, h)| {
            let within = h.start >= place.start && h.end <= place.end;
            matches!(h.kind(), Kind::Action(_))
                && (self.destination[j] && h.start < place.start || within)
                && self.cancelled(k) == Some("already done")
        })
    }

    /// The header names a dangerous place (`[Tema en vivo]`, `[Prod DB]`).
    fn header_names_danger_place(&self) -> bool {
        self.hits.iter().enumerate().any(|(k, h)| {
            matches!(h.kind(), Kind::Place(w) if w >= Weight::Danger)
                && self.roles[self.field(h) as usize] == Role::Header
                && !self.negated[k]
        })
    }

    /// A safe or staging place told in a background sentence of the question, a state with no
    /// action of its own (`ya funciona en tu móvil`, `在预览主题里测过了`), is where things are
    /// or were tried, not where the asked thing happens:
    /// - for an action that goes out (a publish, a send, a deploy) named only by the header or
    ///   an option's label: `[Publicar app] La app ya funciona en tu móvil. ¿Seguimos?`
    ///   publishes the app, and `Pousser et publier` under `le tag existe en local` pushes the
    ///   tag, to where they go;
    /// - for the asking sentence's action when the header names a dangerous place: `[Tema en
    ///   vivo] … funcionan bien en la vista previa. ¿Lo activo?` activates the live theme.
    ///
    /// A place the background sends things to (`to localhost`), or where another action of the
    /// background happens (`the tests run in the local docker-compose environment`), still
    /// counts.
    fn told_as_background_state(&self, j: usize, action: &Hit) -> bool {
        let place = &self.hits[j];
        let field = self.field(place);
        if self.roles[field as usize] != Role::Question || self.destination[j] {
            return false;
        }
        let asking = self.asking_sentence(field);
        let outward = matches!(
            concept(action.concept).name,
            "publish" | "send" | "deploy" | "make-public" | "expose" | "share"
        ) && matches!(
            self.roles[self.field(action) as usize],
            Role::Header | Role::Label(_)
        );
        let under_dangerous_header = self.field(action) == field
            && self.tokens[action.start as usize].sentence == asking
            && self.header_names_danger_place();
        (outward || under_dangerous_header)
            && self.tokens[place.start as usize].sentence < asking
            && !self
                .clause_hits(j)
                .any(|(k, h)| matches!(h.kind(), Kind::Action(_)) && !self.negated[k])
    }

    /// A sentence that says what hit `j` names was already carried somewhere: an action
    /// already done in it lands in a place (`was merged into main`, `cherry-picked into
    /// feature/y`).
    fn carried_elsewhere(&self, j: usize) -> bool {
        let h = &self.hits[j];
        let sentence = |x: &Hit| (self.field(x), self.tokens[x.start as usize].sentence);
        self.hits.iter().enumerate().any(|(k, a)| {
            matches!(a.kind(), Kind::Action(_))
                && sentence(a) == sentence(h)
                && self.cancelled(k) == Some("already done")
                && self.clause_hits(k).any(|(d, q)| {
                    q.start > a.end
                        && (self.destination[d]
                            && matches!(q.kind(), Kind::Place(_) | Kind::Object(_))
                            || qualifier(q) == Some(Qualifier::Destination))
                })
        })
    }

    /// The dangerous places a statement after the question's asking sentence says are
    /// untouched, in a sentence that does nothing else (`production isn't touched`,
    /// `本番には一切触れません`). (Before it, `Сервис ещё не в проде` tells a state, not what the
    /// action spares.)
    fn find_untouched(&self) -> Vec<u16> {
        let sentence = |x: &Hit| (self.field(x), self.tokens[x.start as usize].sentence);
        self.hits
            .iter()
            .enumerate()
            .filter(|&(j, h)| {
                let field = self.field(h);
                let here = sentence(h);
                let in_sentence = || {
                    self.hits
                        .iter()
                        .enumerate()
                        .filter(|(_, x)| sentence(x) == here)
                };
                matches!(h.kind(), Kind::Place(w) if w >= Weight::Shared)
                    && self.roles[field as usize] == Role::Question
                    && here.1 > self.asking_sentence(field)
                    && self.negated[j]
                    && !in_sentence()
                        .any(|(k, a)| matches!(a.kind(), Kind::Action(_)) && !self.negated[k])
            })
            .map(|(_, h)| h.concept)
            .collect()
    }

    /// A word inside a channel or tag name (`#dev-chat`, `#логи-модерации`): it names the
    /// channel, not a place or what the action touches.
    fn in_channel_name(&self, h: &Hit) -> bool {
        let mut first = h.start as usize;
        while first > 0 && self.tokens[first].joined {
            first -= 1;
        }
        self.tokens[first].prefix == b'#'
            && self.tokens[first].field == self.tokens[h.start as usize].field
    }

    /// A word inside a branch name written in code: a hyphenated name right after a branch
    /// word (the local branch `tmp-kill-switch`), or one under a branch prefix (`feat/…`).
    fn in_branch_name(&self, h: &Hit) -> bool {
        if !self.in_code_name(h) {
            return false;
        }
        let t = &self.tokens[h.start as usize];
        let mut first = h.start as usize;
        while first > 0 {
            let here = &self.tokens[first];
            let before = &self.tokens[first - 1];
            if !(here.joined || BRANCH_PREFIXES.contains(&before.key.as_str()))
                || !before.in_code
                || before.field != t.field
            {
                break;
            }
            first -= 1;
        }
        let head = &self.tokens[first];
        BRANCH_PREFIXES.contains(&head.key.as_str()) && first < h.start as usize
            || first > 0 && {
                let word = &self.tokens[first - 1];
                word.field == t.field && !word.in_code && BRANCH_WORDS.contains(&word.key.as_str())
            }
    }

    /// An object that is a file: taking something out of it is editing it.
    fn is_file(&self, h: &Hit) -> bool {
        let t = &self.tokens[h.start as usize];
        let named_file =
            concept(h.concept).name == "file" && matches!(t.key.as_str(), "file" | "files");
        named_file || self.is_file_path(h)
    }

    /// An object named only by a file's path or name with an extension (`drop_all.sql`).
    fn is_file_path(&self, h: &Hit) -> bool {
        let t = &self.tokens[h.start as usize];
        h.start == h.end
            && t.kind == super::text::Kind::Path
            && t.key
                .rsplit(['/', '\\'])
                .next()
                .is_some_and(|name| name.rfind('.').is_some_and(|dot| dot > 0))
    }

    /// A place right after an action that is not happening (`already merged into main`): it
    /// says where that action went, not where another one goes.
    fn follows_cancelled(&self, place: usize) -> bool {
        let p = &self.hits[place];
        self.clause_hits(place).any(|(j, a)| {
            matches!(a.kind(), Kind::Action(_))
                && a.end < p.start
                && p.start <= a.end + 3
                && self.cancelled(j).is_some()
        })
    }

    /// An object or place right after `to`/`into`: where the action lands.
    fn is_destination(&self, h: &Hit) -> bool {
        self.clause_hits(self.index_of(h)).any(|(_, q)| {
            qualifier(q) == Some(Qualifier::Destination)
                && q.end < h.start
                && h.start - q.end - 1 <= u32::from(q.term().window)
        })
    }

    /// A place a change moves away from: `from production to sandbox`, `de prod para dev`,
    /// `从 production 改成 sandbox`, `本番から`; `Some(true)` when it is named as what is not
    /// used (`en lugar del de producción`, `instead of prod`).
    fn left_behind(&self, h: &Hit) -> Option<bool> {
        const FROM: &[&str] = &[
            "from", "de", "del", "do", "da", "du", "von", "vom", "с", "со", "из", "从", "由",
        ];
        const INSTEAD: &[&str] = &[
            "instead",
            "lugar",
            "vez",
            "lieu",
            "statt",
            "anstatt",
            "вместо",
            "而不是",
        ];
        const AFTER: &[&str] = &["から", "에서", "代わりに", "대신"];
        let (start, end) = (h.start as usize, h.end as usize);
        let field = self.tokens[start].field;
        let key = |k: usize| {
            self.tokens
                .get(k)
                .filter(|t| t.field == field)
                .map_or("", |t| t.key.as_str())
        };
        let before = |n: usize| start.checked_sub(n).map_or("", key);
        if (1..=4).any(|n| INSTEAD.contains(&before(n))) || key(end + 1) == "代わりに" {
            return Some(true);
        }
        let from = FROM.contains(&before(1))
            || end > start && FROM.contains(&key(start))
            || AFTER.contains(&key(end + 1));
        from.then_some(false)
    }

    /// The action's clause sends it to a local place (`switch it to the docker database`) and
    /// names no shared, dangerous or precious place, nor such a thing other than the one a
    /// local place right before it qualifies.
    fn repoints_to_safe_place(&self, i: usize) -> bool {
        let safe = |h: &Hit| matches!(h.kind(), Kind::Place(Weight::Safe));
        let mut landing = false;
        // A staging place is a landing for a local setting (`PUSH_ENV in .env.local from
        // production to sandbox`), not for a live one.
        let local_setting = self
            .clause_hits(i)
            .any(|(j, h)| safe(h) && !self.destination[j] && !self.negated[j]);
        // What a place left behind is left for: the place said right after it (`from prod to
        // dev`), or any local one when it is named as not used.
        let left: Vec<(u32, bool)> = self
            .clause_hits(i)
            .filter(|(j, h)| {
                !self.negated[*j] && matches!(h.kind(), Kind::Place(w) if w >= Weight::Shared)
            })
            .filter_map(|(_, h)| self.left_behind(h).map(|instead| (h.end, instead)))
            .collect();
        let follows_left = |h: &Hit| {
            left.iter()
                .any(|&(end, instead)| instead || h.start > end && h.start - end <= 3)
        };
        for (j, h) in self.clause_hits(i) {
            if self.negated[j] || self.left_behind(h).is_some() {
                continue;
            }
            let lands = self.destination[j] || follows_left(h);
            match h.kind() {
                Kind::Place(Weight::Safe) if lands => landing = true,
                Kind::Place(Weight::Neutral) if lands && local_setting => {
                    landing = true;
                }
                Kind::Place(w) if w >= Weight::Shared => return false,
                Kind::Object(w)
                    if w >= Weight::Shared
                        && !self
                            .clause_hits(i)
                            .any(|(_, p)| safe(p) && p.end + 1 == h.start) =>
                {
                    return false
                }
                _ => {}
            }
        }
        landing
    }

    /// Servers a deploy lands on, named by a place that is not dangerous (`the staging
    /// cluster`, `le cluster de test`): where the deploy goes, and that place says how much
    /// it matters. (Unnamed, `to the cluster` stays dangerous.)
    fn is_harmless_landing(&self, h: &Hit, action: &Hit) -> bool {
        concept(action.concept).name == "deploy"
            && concept(h.concept).name == "infrastructure"
            && self.clause_hits(self.index_of(h)).any(|(_, p)| {
                matches!(p.kind(), Kind::Place(w) if w < Weight::Danger && w != Weight::Shared)
                    && (p.end + 1 == h.start || h.end < p.start && p.start <= h.end + 2)
            })
    }

    /// A path inside the home folder (`~/.kube/config`), not the folder itself: a file to
    /// edit, move or copy like any other.
    fn is_home_path(&self, h: &Hit) -> bool {
        let t = &self.tokens[h.start as usize];
        h.start == h.end
            && t.kind == super::text::Kind::Path
            && t.key
                .strip_prefix("~/")
                .is_some_and(|rest| !rest.is_empty())
    }

    /// A place named as where something comes from (`with the local file`), not where it goes.
    fn is_source(&self, place: &Hit) -> bool {
        self.clause_hits(self.index_of(place)).any(|(_, q)| {
            qualifier(q) == Some(Qualifier::Source)
                && q.end < place.start
                && place.start - q.end - 1 <= u32::from(q.term().window)
        })
    }

    /// `the practice copy of the HR database`, `clones of the live sites`: what a copy was made
    /// from, named right after `copy of`.
    /// (`your copy of the site` is the user's own working copy: what it holds is their work.)
    fn copied_from(&self, h: &Hit) -> bool {
        // `your copy`, and a working copy (`в рабочей копии незакоммиченные правки`): the
        // user's own checkout, where what follows lives, not what it was made from.
        const OWNERS: &[&str] = &[
            "your",
            "my",
            "our",
            "ta",
            "ma",
            "notre",
            "votre",
            "tu",
            "mi",
            "nuestra",
            "sua",
            "tua",
            "minha",
            "nossa",
            "deine",
            "meine",
            "unsere",
            "ihre",
            "твоя",
            "моя",
            "наша",
            "ваша",
            "working",
            "рабочеи",
            "рабочая",
            "рабочую",
        ];
        self.clause_hits(self.index_of(h)).any(|(j, q)| {
            qualifier(q) == Some(Qualifier::CopyOf)
                && !self.negated[j]
                && !(q.start > 0
                    && OWNERS.contains(&self.tokens[q.start as usize - 1].key.as_str()))
                && q.end < h.start
                && h.start - q.end - 1 <= u32::from(q.term().window)
        })
    }

    fn contained(&self, o: &Hit, action: &Hit) -> bool {
        self.clause_hits(self.index_of(o))
            .any(|(_, c)| match qualifier(c) {
                Some(Qualifier::Container) => {
                    c.end < o.start
                        && o.start <= c.end + 4
                        && (action.end < c.start || action.start > o.end)
                }
                Some(Qualifier::ContainerAfter) => c.start > o.end && c.start <= o.end + 2,
                _ => false,
            })
    }
}

/// What a scheduled rebuild recreates: a database, its data, the servers it runs on.
fn rebuildable(h: &Hit) -> bool {
    matches!(
        concept(h.concept).name,
        "database" | "data" | "infrastructure"
    )
}

fn qualifier(h: &Hit) -> Option<Qualifier> {
    match h.kind() {
        Kind::Qualifier(q) => Some(q),
        _ => None,
    }
}

/// What an action touches, and where.
#[derive(Default)]
#[cfg_attr(debug_assertions, derive(Debug))]
struct Scope {
    danger_place: Option<u16>,
    safe_place: bool,
    /// The one kind of safe place named, when every safe place is of one kind.
    only_safe_place: Option<u16>,
    any_place: bool,
    /// The object that decides, with its weight.
    object: Option<(Weight, u16)>,
    /// How far from the action its object was said (the levels of [`place_distance`]: 0 its
    /// clause, 1 its field, 2 its option's other half, 3 the question or header, 4 anywhere).
    object_distance: Option<u8>,
    /// The action takes something out of a file or puts it in: an edit.
    edits_file: bool,
    /// How far from an option's action its places were said: 0 its clause, 1 its field, 2 its
    /// option's other half, 3 the question or header, 4 another option; `None` for an action
    /// of the question itself.
    place_distance: Option<u8>,
}

/// Objects and places found at one level of text around an action.
#[derive(Default)]
struct Found {
    places: Vec<(Weight, u16)>,
    /// Objects the action is about, and objects only named as where it happens.
    free: Vec<(Weight, u16)>,
    held: Vec<(Weight, u16)>,
    /// Something is taken out of or put into a file: the action edits that file.
    edits_file: bool,
    /// Something dangerous is named as where the action lands (`to prod`, `into the bucket`).
    danger_target: bool,
}

fn heaviest(list: &[(Weight, u16)]) -> Option<(Weight, u16)> {
    list.iter().copied().max_by_key(|(w, _)| *w)
}

/// Neutral words (a file, a folder, a branch) take their weight from what names them: "the
/// cache folder" is harmless, "the uploads folder" is not.
fn named(list: &[(Weight, u16)]) -> Option<(Weight, u16)> {
    let weighty: Vec<(Weight, u16)> = list
        .iter()
        .copied()
        .filter(|(w, _)| *w != Weight::Neutral)
        .collect();
    heaviest(&weighty).or_else(|| heaviest(list))
}

impl Found {
    fn names_anything(&self) -> bool {
        !(self.free.is_empty() && self.held.is_empty() && self.places.is_empty())
    }

    fn object(&self) -> Option<(Weight, u16)> {
        match named(&self.free) {
            Some((w, c)) if w >= Weight::Danger => Some((w, c)),
            Some((w, c)) if w <= Weight::Benign => Some((w, c)),
            _ => named(&[self.free.as_slice(), self.held.as_slice()].concat()),
        }
    }
}

fn gather(
    ctx: &Ctx,
    action_index: usize,
    in_level: &dyn Fn(&Hit) -> bool,
    destructive: bool,
) -> Found {
    let action = &ctx.hits[action_index];
    let mut found = Found::default();
    // A shared place or thing (a remote, everything) is dangerous to destroy, normal to change.
    let weigh = |w: Weight| match w {
        Weight::Shared if destructive => Weight::Danger,
        Weight::Shared => Weight::Neutral,
        w => w,
    };
    for (j, h) in ctx.hits.iter().enumerate() {
        if j == action_index || ctx.negated[j] || !in_level(h) {
            continue;
        }
        // What a scheduled rebuild recreates is disposable; the rebuild's own words (`from
        // main`, `from a snapshot`) say where it comes from, not what the action touches.
        if ctx.rebuilt_env {
            if ctx.in_rebuild[j] {
                continue;
            }
            let disposable = rebuildable(h)
                || matches!(h.kind(), Kind::Object(Weight::Neutral))
                || ctx.names_harmless(h);
            if matches!(h.kind(), Kind::Object(_)) && disposable {
                found.free.push((Weight::Disposable, h.concept));
                continue;
            }
        }
        // The action's own words, read as something else too, say nothing more about what it
        // touches; but a phrase naming a send to everyone (`mass push`, `Rundmail`) says where
        // it goes (a single word read both ways, like `publico`, is one or the other).
        let says_reach = matches!(h.kind(), Kind::Place(w) if w >= Weight::Danger)
            && (h.end > h.start || concept(h.concept).name == "fleet");
        if h.start == action.start && h.end == action.end && !says_reach {
            continue;
        }
        match h.kind() {
            Kind::Place(Weight::Inert) | Kind::Object(Weight::Inert) => {}
            // Where an action that is not happening went, or where something comes from.
            Kind::Place(_) if ctx.set_aside_place[j] => {}
            // What the action fills things with (`mit Seeds füllen`, `with the fixtures`) is
            // not what it touches.
            Kind::Object(w) if w <= Weight::Benign && ctx.is_source(h) => {}
            // What a copy was made from is not what an action on the copy touches.
            Kind::Object(_) if ctx.copied_from(h) => {}
            // A name in code (`acme-dev-old`, `experiment-ml`) says nothing safe about where
            // it lives or what it holds.
            Kind::Place(w) | Kind::Object(w) if w <= Weight::Safe && ctx.in_code_name(h) => {}
            // Nor a channel's (`#dev-chat`, `#логи-модерации`): the channel is what it is,
            // whatever its name says (`#incidents` is still a channel, harmless to mute).
            Kind::Place(w) if w <= Weight::Safe && ctx.in_channel_name(h) => {}
            Kind::Place(_) if ctx.untouched.contains(&h.concept) => {}
            Kind::Place(_) if ctx.labels_interface(h) => {}
            Kind::Place(w) if w <= Weight::Neutral && ctx.told_as_background_state(j, action) => {}
            Kind::Object(Weight::Disposable) if ctx.in_channel_name(h) => {}
            // Nor does a branch's name say anything dangerous (`git branch -D force-public-acl`,
            // `7 commits on feat/drop-legacy-tables`): it names work, not what the work touches.
            Kind::Place(_) | Kind::Object(_) if ctx.in_branch_name(h) => {}
            // Changing, moving or renaming a file (`rename drop_all.sql`, `edit prod.env`)
            // edits what git keeps: what its name says it holds matters when it is destroyed.
            Kind::Object(w)
                if !destructive
                    && w >= Weight::Danger
                    && (ctx.is_file_path(h) || ctx.is_home_path(h))
                    && !ctx.contained(h, action) =>
            {
                found.free.push((Weight::Neutral, h.concept));
            }
            // Where something already went (`was merged into main an hour ago`) is where that
            // happened, not where another action of the question happens.
            Kind::Place(_) if ctx.clause(h) != ctx.clause(action) && ctx.landed_in_past(j) => {}
            Kind::Object(_) if ctx.destination[j] && ctx.is_harmless_landing(h, action) => {}
            // Work never pushed but already carried elsewhere (`never pushed, and it's fully
            // merged into your local main`, `cherry-picked into feature/y`) is kept there.
            Kind::Object(Weight::Precious)
                if concept(h.concept).name == "work" && ctx.carried_elsewhere(j) => {}
            // A backup something is copied or saved to (`copy config to config.bak before
            // editing it`) is being made, not touched.
            Kind::Object(_)
                if !destructive && ctx.destination[j] && concept(h.concept).name == "backup" => {}
            Kind::Place(w) | Kind::Object(w)
                if weigh(w) >= Weight::Danger && ctx.destination[j] =>
            {
                found.danger_target = true;
                if matches!(h.kind(), Kind::Place(_)) {
                    found.places.push((weigh(w), h.concept));
                } else {
                    found.free.push((weigh(w), h.concept));
                }
            }
            Kind::Place(w) => found.places.push((weigh(w), h.concept)),
            // Pressing a button is doing what it does: "click the button that deletes all
            // data" is about the data, not the button.
            Kind::Object(_) if ctx.is_pressed_interface(h) => {}
            Kind::Object(w) if ctx.contained(h, action) => {
                found.edits_file |= ctx.is_file(h);
                found.held.push((weigh(w), h.concept));
            }
            Kind::Object(w) => found.free.push((weigh(w), h.concept)),
            _ => {}
        }
    }
    found
}

/// The scope of an action: objects from the nearest level that names any (a clause with only
/// neutral ones borrows a weightier one from its field or its option's other half), places from
/// the nearest level that names any.
/// The question's own action of the same concept as `action`, if it has one.
fn asked_echo(ctx: &Ctx, action: &Hit) -> Option<usize> {
    ctx.hits.iter().position(|q| {
        matches!(q.kind(), Kind::Action(_))
            && q.concept == action.concept
            && matches!(ctx.roles[ctx.field(q) as usize], Role::Question)
    })
}

/// `Delete all three` under `… merged on origin. Delete the local copies?`: an option doing
/// what the question's action does, and naming no place of its own, happens where that action
/// happens (when that action's own clause says where), not wherever another sentence of the
/// question points. The scope of the question's action, if so.
fn echoed_place(ctx: &Ctx, action_index: usize, destructive: bool) -> Option<Scope> {
    let q = asked_echo(ctx, &ctx.hits[action_index])?;
    let clause = ctx.clause(&ctx.hits[q]);
    let own = gather(ctx, q, &|h| ctx.clause(h) == clause, destructive);
    (!own.places.is_empty()).then(|| scope_of(ctx, q, destructive))
}

/// What an action borrows from beyond its own clause (`levels[1..]`, the last one every field)
/// that says nothing about what it touches:
/// - personal files another clause names beside something regenerable (`temporary files from
///   when I resized the photos. Clear them?`, `The editor's cache takes 30 GB … the source
///   videos stay`): what that was made from;
/// - another option's harmless words (`check it comes back`, a cache), for a vague action of
///   the question: from every field, only weighty objects count.
fn prune_borrowed(levels: &mut [Found]) {
    let personal = |&(w, c): &(Weight, u16)| w == Weight::Precious && concept(c).name == "personal";
    for f in &mut levels[1..] {
        let regenerable = f
            .free
            .iter()
            .chain(&f.held)
            .any(|(w, _)| matches!(w, Weight::Disposable | Weight::Benign));
        if regenerable {
            f.free.retain(|o| !personal(o));
            f.held.retain(|o| !personal(o));
        }
    }
    if let Some(everywhere) = levels.last_mut() {
        everywhere.free.retain(|(w, _)| *w >= Weight::Neutral);
        everywhere.held.retain(|(w, _)| *w >= Weight::Neutral);
    }
}

fn is_safe_place(h: &Hit) -> bool {
    matches!(h.kind(), Kind::Place(w) if w <= Weight::Safe)
}

/// Whether the action is a later step that names what it touches ([`Ctx::next_step_at`]).
fn later_step_named(ctx: &Ctx, action_index: usize, destructive: bool) -> bool {
    let clause = ctx.clause(&ctx.hits[action_index]);
    ctx.next_step_at(action_index).is_some()
        && gather(ctx, action_index, &|h| ctx.clause(h) == clause, destructive).names_anything()
}

fn scope_of(ctx: &Ctx, action_index: usize, destructive: bool) -> Scope {
    let action = &ctx.hits[action_index];
    let (field, clause) = ctx.clause(action);
    let sibling = |f: u16| match (ctx.roles[field as usize], ctx.roles[f as usize]) {
        (Role::Label(a), Role::Description(b)) | (Role::Description(a), Role::Label(b)) => a == b,
        _ => false,
    };
    let later_step = later_step_named(ctx, action_index, destructive);
    let levels: [&dyn Fn(&Hit) -> bool; 5] = [
        &|h| ctx.clause(h) == (field, clause),
        &|h| ctx.field(h) == field && !(later_step && is_safe_place(h)),
        &|h| sibling(ctx.field(h)),
        &|h| {
            matches!(
                ctx.roles[ctx.field(h) as usize],
                Role::Question | Role::Header
            )
        },
        &|_| true,
    ];
    let mut found: Vec<Found> = levels
        .iter()
        .map(|l| gather(ctx, action_index, *l, destructive))
        .collect();
    // A label that only repeats the question's verb (`Remove` for `Remove the old comment?`,
    // its option naming nothing) is that action: it touches what the question's does.
    let bare = found[..3]
        .iter()
        .all(|f| f.free.is_empty() && f.held.is_empty() && f.places.is_empty());
    if bare && matches!(ctx.roles[field as usize], Role::Label(_)) {
        if let Some(q) = asked_echo(ctx, action) {
            return scope_of(ctx, q, destructive);
        }
    }
    prune_borrowed(&mut found);
    let mut scope = Scope::default();
    // Places come from the action's own option or the question, never from another option.
    let asked = matches!(ctx.roles[field as usize], Role::Question | Role::Header);
    let nearest = found[..4].iter().find(|f| !f.places.is_empty());
    let first = found
        .iter()
        .position(|f| !f.free.is_empty() || !f.held.is_empty());
    let object = first.and_then(|i| found[i].object());
    scope.edits_file = first.is_some_and(|i| found[i].edits_file);
    let danger_target = found[..1].iter().any(|f| f.danger_target);
    // An action of the question itself that names nothing weighty happens wherever the chosen
    // option says: a dangerous place in any option counts for it.
    // (What the action's own clause names decides: `The build finished. Where do I deploy?`
    // deploys to whichever place is chosen, whatever the other sentence names.)
    let vague = matches!(found[0].object(), None | Some((Weight::Neutral, _)));
    let choices = (asked && vague).then(|| option_places(ctx, action_index, destructive));
    let options = choices
        .as_ref()
        .filter(|f| f.places.iter().any(|(w, _)| *w >= Weight::Danger));
    scope.place_distance = place_distance(&found, asked);
    if let Some(level) = nearest.or(options) {
        weigh_places(&mut scope, &level.places, action);
    }
    if asked && scope.danger_place.is_none() && asks_for_target(ctx) {
        scope.danger_place = chosen_target(ctx, action_index, destructive);
    }
    scope.object = object;
    scope.object_distance = first.map(|i| i as u8);
    if let Some(named) = header_object(ctx, action_index, destructive, &found) {
        scope.object = Some(named);
        scope.object_distance = Some(3);
    }
    // `Sync the local folder to the prod bucket`: the local folder is the source.
    if danger_target && destructive {
        scope.safe_place = false;
    }
    if !asked && found[..3].iter().all(|f| f.places.is_empty()) {
        if let Some(asked_scope) = echoed_place(ctx, action_index, destructive) {
            scope.danger_place = asked_scope.danger_place;
            scope.safe_place = asked_scope.safe_place;
            scope.any_place = asked_scope.any_place;
        }
    }
    scope.object = message_of_send(ctx, action_index, scope.object).or(scope.object);
    if let (Some(i), Some((Weight::Neutral, _))) = (first, scope.object) {
        // A file, a branch, "them": what it is may be said nearby.
        if let Some(weightier) = found[i + 1..4.max(i + 1)]
            .iter()
            .filter_map(Found::object)
            .find(|(w, _)| *w != Weight::Neutral)
        {
            scope.object = Some(weightier);
        }
    }
    scope
}

/// `[Рассылка] шаблон поправил, отправляем?`, `[Enviar email] Texto revisado. Posso mandar?`:
/// what a send the question asks for sends is the message it or the header names (a mailing,
/// an email); the template or text it was made from is that message's content, not code.
fn message_of_send(
    ctx: &Ctx,
    action_index: usize,
    object: Option<(Weight, u16)>,
) -> Option<(Weight, u16)> {
    let action = &ctx.hits[action_index];
    let content = object.is_some_and(|(w, c)| w == Weight::Benign && concept(c).name == "code");
    let asked = |h: &Hit| {
        matches!(
            ctx.roles[ctx.field(h) as usize],
            Role::Question | Role::Header
        )
    };
    if concept(action.concept).name != "send" || !content || !asked(action) {
        return None;
    }
    ctx.hits.iter().enumerate().find_map(|(j, h)| {
        let message = match h.kind() {
            Kind::Object(w) if concept(h.concept).name == "outreach" => Some((w, h.concept)),
            _ => None,
        };
        message.filter(|_| asked(h) && !ctx.negated[j])
    })
}

/// What the question and its options name, but an option whose label does something of its
/// own: that says where its own doing happens (`Delete local branch : the commits are in
/// main`).
fn option_places(ctx: &Ctx, action_index: usize, destructive: bool) -> Found {
    gather(
        ctx,
        action_index,
        &|h| ctx.option_of(h).is_none_or(|n| !ctx.label_acts(n)),
        destructive,
    )
}

/// `[Права админа] … просит доступ к админке. Выдать как у Сергея?`: an asked action that
/// destroys nothing and whose own clause names nothing acts on what the header names, when that
/// is weightier than what the rest of the question mentions (and nothing is said to be
/// disposable).
fn header_object(
    ctx: &Ctx,
    action_index: usize,
    destructive: bool,
    found: &[Found],
) -> Option<(Weight, u16)> {
    let action = &ctx.hits[action_index];
    let asked = matches!(ctx.roles[ctx.field(action) as usize], Role::Question);
    if destructive || !asked || concept(action.concept).name == "change" {
        return None;
    }
    if found[0].object().is_some() {
        return None;
    }
    let said = found.iter().find_map(Found::object);
    if said.is_some_and(|(w, _)| w == Weight::Disposable) {
        return None;
    }
    let header = gather(
        ctx,
        action_index,
        &|h| matches!(ctx.roles[ctx.field(h) as usize], Role::Header),
        destructive,
    );
    header
        .object()
        .filter(|&(w, _)| w >= Weight::Danger && said.is_none_or(|(o, _)| o < w))
}

/// The question's asking sentence asks for a target: which one, where, to whom.
fn asks_for_target(ctx: &Ctx) -> bool {
    let Some(q) = ctx.roles.iter().position(|r| *r == Role::Question) else {
        return false;
    };
    let field = q as u16;
    let sentence = ctx.asking_sentence(field);
    let asking: Vec<&str> = ctx
        .tokens
        .iter()
        .filter(|t| t.field == field && t.sentence == sentence)
        .map(|t| t.key.as_str())
        .collect();
    asking.iter().enumerate().any(|(k, key)| {
        TARGET_WORDS.contains(key)
            || TARGET_PARTS.iter().any(|part| key.contains(part))
            || *key == "que" && k > 0 && TARGET_PREPOSITIONS.contains(&asking[k - 1])
    })
}

/// "Which context should I run `kubectl delete namespace loadtest` against? || kind-local ||
/// gke_prod-eu : serves all EU customers": an option that names only where the question's
/// action would happen, with no action of its own, is that action done there. A dangerous
/// place any such option names, if one does: the user may choose it, whatever safe place the
/// question's background names.
fn chosen_target(ctx: &Ctx, action_index: usize, destructive: bool) -> Option<u16> {
    let mut options: Vec<u8> = ctx.hits.iter().filter_map(|h| ctx.option_of(h)).collect();
    options.dedup();
    options.into_iter().find_map(|n| {
        if ctx.option_acts(n) {
            return None;
        }
        let found = gather(
            ctx,
            action_index,
            &|h| ctx.option_of(h) == Some(n),
            destructive,
        );
        found
            .places
            .iter()
            .find(|&&(w, c)| {
                w >= Weight::Danger && matches!(concept(c).name, "production" | "fleet" | "public")
            })
            .map(|&(_, c)| c)
    })
}

/// The places said nearest an action decide where it happens.
fn weigh_places(scope: &mut Scope, places: &[(Weight, u16)], action: &Hit) {
    scope.any_place = true;
    for &(w, c) in places {
        match w {
            Weight::Danger | Weight::Precious => {
                scope.danger_place.get_or_insert(c);
            }
            // The user's own computer or phone is safe to work on, not to erase to its factory
            // state, and a session or key revoked there is revoked all the same.
            Weight::Safe | Weight::Benign
                if !(matches!(concept(action.concept).name, "factory-reset" | "revoke")
                    && concept(c).name == "machine") =>
            {
                scope.only_safe_place = match scope.only_safe_place {
                    None if !scope.safe_place => Some(c),
                    Some(o) if o == c => Some(c),
                    _ => None,
                };
                scope.safe_place = true;
            }
            _ => {}
        }
    }
}

/// How far from an option's action its places were said (see [`Scope::place_distance`]).
fn place_distance(found: &[Found], asked: bool) -> Option<u8> {
    (!asked).then(|| {
        found[..3]
            .iter()
            .position(|f| !f.places.is_empty())
            .map_or(3, |d| d as u8)
    })
}

/// Anything in the whole question that says where the action happens (a state told in the
/// background, `validée en recette` under `[Déploiement] … On lance ?`, says where things were
/// tried, not where the action goes).
fn placed_anywhere(ctx: &Ctx, action: &Hit) -> bool {
    ctx.hits.iter().enumerate().any(|(j, h)| {
        !ctx.negated[j]
            && matches!(h.kind(), Kind::Place(_))
            && !ctx.told_as_background_state(j, action)
    })
}

fn evidence(ctx: &Ctx, hit: &Hit, door: Door, rule: String) -> Evidence {
    let tokens = &ctx.tokens[hit.start as usize..=hit.end as usize];
    Evidence {
        door,
        rule,
        field: tokens[0].field,
        start: tokens[0].start,
        end: tokens[tokens.len() - 1].end,
        lang: super::lexicon::LEXICON_LANGS[hit.term().lang as usize],
        source: hit.term().source(),
    }
}

/// Every piece of one-way or unknown evidence, and what was found but set aside.
pub fn evaluate(ctx: &Ctx) -> (Vec<Evidence>, Vec<Evidence>) {
    let mut found = Vec::new();
    let mut cleared = Vec::new();
    for (i, hit) in ctx.hits.iter().enumerate() {
        let name = concept(hit.concept).name;
        let verdict = match hit.kind() {
            // `The draft says 'we force-pushed main'. Keep that wording?`: a quoted text being
            // reworded is talk, whatever it says.
            Kind::Effect(_) if ctx.quoted(hit) && ctx.edit_only(i) || ctx.listed_topic(i) => None,
            Kind::Effect(door) => Some((door, name.to_owned())),
            // `La base est réinitialisée chaque nuit`: the scheduled rebuild itself, stated.
            Kind::Action(_) if ctx.rebuilt_env && ctx.in_rebuild[i] => {
                cleared.push(evidence(
                    ctx,
                    hit,
                    Door::TwoWay,
                    format!("{name}: rebuilt on schedule"),
                ));
                continue;
            }
            Kind::Action(rule) => decide_action(ctx, i, rule).map(|r| (Door::OneWay, r)),
            Kind::Object(_) if name == "outreach" => match mass_send(ctx, i) {
                Some(rule) if ctx.send_withheld(i) => {
                    cleared.push(evidence(ctx, hit, Door::TwoWay, format!("{rule}: preview")));
                    continue;
                }
                Some(rule) => Some((Door::OneWay, rule)),
                None => continue,
            },
            Kind::Place(Weight::Danger) if name == "fleet" && reached_by_outreach(ctx, i) => {
                if ctx.send_withheld(i) {
                    cleared.push(evidence(
                        ctx,
                        hit,
                        Door::TwoWay,
                        "send:fleet: preview".into(),
                    ));
                    continue;
                }
                Some((Door::OneWay, "send:fleet".to_owned()))
            }
            Kind::Object(Weight::Danger) if name == "privilege" && granted_by_choice(ctx, i) => {
                Some((Door::OneWay, "grant:privilege".to_owned()))
            }
            _ => continue,
        };
        let Some((door, rule)) = verdict else {
            cleared.push(evidence(
                ctx,
                hit,
                Door::TwoWay,
                format!("{name}: harmless here"),
            ));
            continue;
        };
        match ctx.cancelled(i).or_else(|| ctx.previewed_context(i)) {
            Some(why) => cleared.push(evidence(ctx, hit, Door::TwoWay, format!("{rule}: {why}"))),
            None => found.push(evidence(ctx, hit, door, rule)),
        }
    }
    (found, cleared)
}

/// A message named with everyone it reaches and no verb (`SMS a todos los clientes`, `Email
/// blast to all users`, an option label): a send to the fleet or the public.
fn mass_send(ctx: &Ctx, i: usize) -> Option<String> {
    let mut reach = None;
    for (j, h) in ctx.clause_hits(i) {
        match h.kind() {
            Kind::Action(_) => return None,
            Kind::Place(Weight::Danger) if !ctx.negated[j] => {
                let place = concept(h.concept).name;
                if matches!(place, "fleet" | "public") {
                    reach = Some(format!("send:{place}"));
                }
            }
            _ => {}
        }
    }
    reach
}

/// `What role should I give the qa team? || Write || Admin : full control`: an option that
/// names a privilege, with no verb of its own, under a question that grants something: choosing
/// it grants that privilege, whatever the question's context sentence was about.
fn granted_by_choice(ctx: &Ctx, i: usize) -> bool {
    let in_option = |h: &Hit| {
        matches!(
            ctx.roles[ctx.field(h) as usize],
            Role::Label(_) | Role::Description(_)
        )
    };
    in_option(&ctx.hits[i])
        && !ctx.negated[i]
        && !ctx
            .clause_hits(i)
            .any(|(_, h)| matches!(h.kind(), Kind::Action(_)))
        && ctx.hits.iter().enumerate().any(|(j, h)| {
            concept(h.concept).name == "grant"
                && matches!(
                    ctx.roles[ctx.field(h) as usize],
                    Role::Question | Role::Header
                )
                && !ctx.negated[j]
                && ctx.cancelled(j).is_none()
                && !sentence_says_harmless(ctx, h)
        })
}

/// The sentence of `h` names a safe place or a harmless object (`the local test user`, `the
/// seed data`): what it does happens there.
fn sentence_says_harmless(ctx: &Ctx, h: &Hit) -> bool {
    let at = |x: &Hit| {
        let t = &ctx.tokens[x.start as usize];
        (t.field, t.sentence)
    };
    ctx.hits.iter().any(|o| {
        at(o) == at(h)
            && matches!(
                o.kind(),
                Kind::Place(Weight::Safe) | Kind::Object(Weight::Disposable | Weight::Benign)
            )
    })
}

/// `Schedule for 09:00 : all 48,312 subscribers get it`: an option that names everyone a
/// message reaches, with no verb of its own, under a question about that message (a campaign,
/// a newsletter): choosing it sends the message to them. So does a header that names them
/// (`All clients` over `The letter is written and the client list is loaded. Go ahead?`).
fn reached_by_outreach(ctx: &Ctx, i: usize) -> bool {
    let in_option = |h: &Hit| {
        matches!(
            ctx.roles[ctx.field(h) as usize],
            Role::Label(_) | Role::Description(_) | Role::Header
        )
    };
    let asked = |h: &Hit| {
        matches!(
            ctx.roles[ctx.field(h) as usize],
            Role::Question | Role::Header
        )
    };
    in_option(&ctx.hits[i])
        && !ctx.negated[i]
        && !ctx
            .clause_hits(i)
            .any(|(_, h)| matches!(h.kind(), Kind::Action(_)))
        && ctx.hits.iter().enumerate().any(|(j, h)| {
            concept(h.concept).name == "outreach"
                && asked(h)
                && !ctx.negated[j]
                && ctx.cancelled(j).is_none()
        })
}

/// The actions that carry what they touch to other people.
/// Actions that edit what they touch: on code or a piece of text, an edit (running, sending
/// or deploying code is not).
const EDITS: &[&str] = &[
    "delete",
    "wipe",
    "remove",
    "clear",
    "replace",
    "change",
    "drop",
    "overwrite",
];

const OUTWARD: &[&str] = &["send", "share", "grant", "expose", "make-public", "publish"];

/// A send in the header or a label, or a revocation written there with what it revokes
/// (`[Отзыв ключа] Ключ засветился в логах Sentry. Делаем?`: the logs are where the key
/// leaked, not what is revoked).
fn names_what_it_acts_on(ctx: &Ctx, i: usize, action: &str) -> bool {
    let hit = &ctx.hits[i];
    let revokes_named = action == "revoke" && hit.end > hit.start;
    (action == "send" || revokes_named) && ctx.names_answer(i)
}

/// The action's object, said by the question, is a file or something generated: the text of
/// a message, not code or a screen it is about.
fn borrowed_harmless(scope: &Scope) -> bool {
    scope.object_distance == Some(3)
        && (scope.edits_file || scope.object.is_some_and(|(w, _)| w == Weight::Disposable))
}

/// Whether an action of this rule destroys what it touches (shared things weigh as dangerous).
fn destroys(rule: ActionRule) -> bool {
    matches!(
        rule,
        ActionRule::Always
            | ActionRule::UnlessBenign
            | ActionRule::UnlessDisposable
            | ActionRule::UnlessSafe
            | ActionRule::IfDanger
            | ActionRule::IfUnplaced
    )
}

/// The user's own computer is a safe place for work, not for what guards it or them: a key
/// deleted from it is gone like one revoked there, and a firewall, disk encryption or its
/// backups switched off there, or admin rights granted on it, expose it and everything it
/// holds.
fn unsafe_on_machine(scope: &Scope, action: &str, object: u16) -> bool {
    let on_machine = scope
        .only_safe_place
        .is_some_and(|c| concept(c).name == "machine");
    on_machine
        && match concept(object).name {
            "credential" => matches!(action, "delete" | "wipe" | "rm" | "remove"),
            "security" | "backup" => action == "disable",
            "privilege" => action == "grant",
            _ => false,
        }
}

/// A change that touches something else than the question's weighty words: `Your .env still
/// points at production. Switch it to the local Postgres?` lands on a local place, naming
/// nothing weighty there, and moves away from the production the question tells of; `rename it
/// to hide_former_staff()` renames code.
fn changes_elsewhere(ctx: &Ctx, i: usize) -> bool {
    ctx.repoints_to_safe_place(i) || ctx.renames_code() && ctx.clause_names_only_code(i)
}

/// The scope of an action (traced in debug builds, see [`trace`]).
fn traced_scope(ctx: &Ctx, i: usize, destructive: bool) -> Scope {
    let scope = scope_of(ctx, i, destructive);
    #[cfg(debug_assertions)]
    trace(ctx, i, &scope);
    scope
}

/// Debug builds only: with `ASKHOOK_TRACE` set, print every hit and the scope an action got.
#[cfg(debug_assertions)]
fn trace(ctx: &Ctx, i: usize, scope: &Scope) {
    if std::env::var_os("ASKHOOK_TRACE").is_none() {
        return;
    }
    let words = |h: &Hit| {
        ctx.tokens[h.start as usize..=h.end as usize]
            .iter()
            .map(|t| t.key.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if i == ctx
        .hits
        .iter()
        .position(|h| matches!(h.kind(), Kind::Action(_)))
        .unwrap_or(i)
    {
        for (j, h) in ctx.hits.iter().enumerate() {
            let (field, clause) = ctx.clause(h);
            eprintln!(
                "hit {j} [{field}.{clause}] {:?} {} `{}` negated={}",
                h.kind(),
                concept(h.concept).name,
                words(h),
                ctx.negated[j]
            );
        }
    }
    let named = |o: Option<(Weight, u16)>| o.map(|(w, c)| format!("{w:?} {}", concept(c).name));
    eprintln!(
        "action {i} `{}`: object {:?} {scope:?}",
        words(&ctx.hits[i]),
        named(scope.object)
    );
}

fn decide_action(ctx: &Ctx, i: usize, rule: ActionRule) -> Option<String> {
    let action = concept(ctx.hits[i].concept).name;
    let destructive = destroys(rule);
    if ctx.only_told(i) || action == "change" && changes_elsewhere(ctx, i) {
        return None;
    }
    let mut scope = traced_scope(ctx, i, destructive);
    let named = |c: u16| format!("{action}:{}", concept(c).name);
    // A send named by the header or a label reaches whoever it goes to: the harmless thing
    // the question names (a file, generated letters) is what is sent, not who receives it
    // (`[Mail clients] The text is ready in annonce.md. Go?`). So with a key revoked there.
    if names_what_it_acts_on(ctx, i, action) && borrowed_harmless(&scope) {
        scope.object = None;
        scope.edits_file = false;
    }
    if let Some(place) = scope.danger_place {
        // In a question that only edits text, a dangerous place the action borrows from
        // elsewhere is what the text is about (`… flush the production CDN. I'd only change
        // the text. How should I update that section?`); one its own clause names is where it
        // happens (`Fix the wording and deploy it to production?`). So is one borrowed by an
        // action on code or a piece of text (`… titled DELETE ALL CUSTOMERS. Remove that
        // comment block?`).
        if rule != ActionRule::Always
            && (ctx.background_of_edit(i)
                || !ctx.clause_names_place(i)
                    && (ctx.danger_told_in_background() || ctx.asks_text_edit(i)))
        {
            return None;
        }
        return Some(named(place));
    }
    if ctx.edit_only(i) && rule != ActionRule::Always {
        return None;
    }
    // `Staging is rebuilt every night. Reset it now?`: what it resets is what is rebuilt.
    if ctx.rebuilt_env && destructive && scope.object.is_none() && rule != ActionRule::Always {
        return None;
    }
    // Personal files (photos, a home folder) are the only copy to destroy, wherever they are,
    // and safe to rename or sort like any work; sent, shared or made public they are someone's
    // data like any other.
    let object = match scope.object {
        Some((Weight::Precious, c))
            if concept(c).name == "personal" && OUTWARD.contains(&action) =>
        {
            Some((Weight::Danger, c))
        }
        object => object,
    };
    match (object, rule) {
        (_, ActionRule::IfPlace) => None,
        // Taking something out of a file is editing it, unless the edit would lose work. (A
        // key revoked is revoked where it works, whichever file it was found in.)
        (object, _)
            if scope.edits_file
                && action != "revoke"
                && object.is_none_or(|(w, _)| w < Weight::Precious)
                && !matches!(rule, ActionRule::Always | ActionRule::UnlessDisposable) =>
        {
            None
        }
        (_, ActionRule::UnlessSafe) => (!scope.safe_place).then(|| action.to_owned()),
        (Some((Weight::Precious, _)), ActionRule::Modifies) => None,
        // Rewriting commits that never left this machine keeps them in the reflog.
        (Some((Weight::Precious, _)), _) if action == "history-rewrite" && scope.safe_place => None,
        (Some((Weight::Precious, c)), ActionRule::UnlessDisposable) => Some(named(c)),
        (Some((Weight::Precious, c)), _) => Some(named(c)),
        (_, ActionRule::Always) => Some(action.to_owned()),
        // `Get it in now: I'll untick 'Require status checks'` after a question that mentions
        // simulator timeouts: a protection turned off in an option is turned off where the
        // option says, not wherever the question's story happened. So is anything weighty revoked
        // (`Wind-down for Dev … the deploy key CI still uses?` / `Revoke key now`).
        (Some((Weight::Danger, c)), _)
            if matches!(
                (action, concept(c).name),
                ("disable", "security") | ("revoke", _)
            ) && scope.place_distance >= Some(3) =>
        {
            Some(named(c))
        }
        (Some((Weight::Danger, c)), _) => {
            (!scope.safe_place || unsafe_on_machine(&scope, action, c)).then(|| named(c))
        }
        // A build is what a deploy ships: disposable to delete, not harmless to put live.
        (Some((Weight::Disposable, c)), _)
            if action != "deploy" || concept(c).name != "generated" =>
        {
            None
        }
        (_, ActionRule::UnlessDisposable) => (!scope.safe_place).then(|| action.to_owned()),
        // What is deployed is code: `Deploy the booking form fix?` ships it wherever deploys
        // go, harmless as a form is. (An option's description that only says how it would
        // later be deployed, `needs a redeploy`, asks nothing.)
        (_, ActionRule::IfUnplaced)
            if !matches!(scope.object, Some((Weight::Benign, _)))
                || action == "deploy" && !ctx.in_description(&ctx.hits[i]) =>
        {
            (!scope.any_place && !placed_anywhere(ctx, &ctx.hits[i]))
                .then(|| format!("{action}:unplaced"))
        }
        (Some((Weight::Benign, _)), _) => None,
        (Some((_, c)), ActionRule::UnlessBenign) => (!scope.safe_place).then(|| named(c)),
        (None, ActionRule::UnlessBenign) => (!scope.safe_place).then(|| action.to_owned()),
        _ => None,
    }
}
