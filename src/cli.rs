//! The command line, as clap types only: every subcommand, flag and env var askhook accepts.
//!
//! Nothing here does any work; [`crate::cmd::run`] routes each parsed command to its file.
//! Flag names are contracts (scripts rely on them): add, never rename.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Parse a command line. `askhook hook` alone skips building the clap parser (the hot path),
/// and a hook invocation whose extra arguments do not parse still runs the hook: a usage error
/// must never become a non-zero exit that blocks the session.
pub fn parse(args: &[OsString]) -> Result<Cli, clap::Error> {
    let hook = || Cli {
        paths: PathFlags::default(),
        output: OutputFlags::default(),
        command: Command::Hook,
    };
    if args.len() == 2 && args[1] == "hook" {
        return Ok(hook());
    }
    match Cli::try_parse_from(args) {
        Err(e)
            if args.iter().skip(1).any(|a| a == "hook")
                && !matches!(
                    e.kind(),
                    clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
                ) =>
        {
            Ok(hook())
        }
        parsed => parsed,
    }
}

/// A deterministic, fast, safe policy and memory in front of the questions coding agents ask.
///
/// Register `askhook hook` as a Claude Code PreToolUse/PostToolUse hook (`askhook install` does
/// it for you), then ask the log what was asked and answered (`askhook log`, `askhook stats`).
#[derive(Debug, Parser)]
#[command(name = "askhook", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub paths: PathFlags,

    #[command(flatten)]
    pub output: OutputFlags,

    #[command(subcommand)]
    pub command: Command,
}

/// Overrides for every file askhook reads or writes. Each flag has an env var twin, read by
/// [`crate::sys::paths`] (not by clap: an empty variable means unset, and help never shows an
/// empty `[env: NAME=]`).
#[derive(Debug, Default, Clone, Args)]
#[command(next_help_heading = "Paths (each also an env var)")]
pub struct PathFlags {
    #[arg(
        long,
        global = true,
        value_name = "DIR",
        help = "Folder for the database, spool, error log and user registry [env: ASKHOOK_HOME]"
    )]
    pub home: Option<PathBuf>,

    #[arg(
        long,
        global = true,
        value_name = "FILE",
        help = "The SQLite answer log (default: <home>/askhook.db) [env: ASKHOOK_DB]"
    )]
    pub db: Option<PathBuf>,

    #[arg(
        long,
        global = true,
        value_name = "FILE",
        help = "The hook's error log (default: <home>/errors.log) [env: ASKHOOK_ERROR_LOG]"
    )]
    pub error_log: Option<PathBuf>,

    #[arg(
        long,
        global = true,
        value_name = "FILE",
        help = "The user question registry (default: <home>/registry.json, else the config \
                dir) [env: ASKHOOK_REGISTRY]"
    )]
    pub registry: Option<PathBuf>,

    #[arg(
        long,
        global = true,
        value_name = "FILE",
        help = "The config file (default: <home>/config.toml, else the config dir; see `askhook \
                config`) [env: ASKHOOK_CONFIG]"
    )]
    pub config: Option<PathBuf>,
}

/// How output reaches a terminal (see `crate::sys::term`).
#[derive(Debug, Default, Clone, Args)]
#[command(next_help_heading = "Output")]
pub struct OutputFlags {
    /// Colour: auto = only on a terminal and without `NO_COLOR`; always; never.
    #[arg(long, global = true, value_enum, default_value_t, value_name = "WHEN")]
    pub color: ColorChoice,

    #[arg(
        long,
        global = true,
        help = "Print straight to the terminal, not through the pager ($ASKHOOK_PAGER, else \
                $PAGER, else less, with LESS=FRX when unset)"
    )]
    pub no_pager: bool,
}

/// When to colour output.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run as a Claude Code hook: one JSON payload on stdin, a decision (or nothing) on stdout.
    Hook,

    /// Print the recorded questions, oldest first.
    ///
    /// One line per question, fitted to the terminal: how long ago and when it was asked
    /// (local time), the project, the question id, the header and question, the answer, the
    /// outcome, and F (followed): ✓ the person picked the recommended option, ✗ they picked
    /// another, blank when there was no recommendation or no human answer. On a terminal long
    /// output goes through the pager (`--no-pager` to print straight).
    Log(LogArgs),

    /// Everything recorded about one question id or `tool_use_id`.
    Show(ShowArgs),

    /// Counts, follow-the-recommendation rates and time saved.
    Stats(QueryArgs),

    /// Questions asked and not yet settled.
    Pending(QueryArgs),

    /// Follow the log live; one line (or JSON object) per question asked or settled.
    Watch(WatchArgs),

    /// Questions worth marking never-ask (and never-ask ones the user kept overriding).
    Suggest(SuggestArgs),

    /// Stream the filtered rows as JSONL, CSV or a JSON array.
    Export(ExportArgs),

    /// Import answer logs and preferences from other tools.
    #[command(subcommand)]
    Import(ImportCommand),

    /// Delete matching rows from the log.
    Forget(ForgetArgs),

    /// Replay a bundled session into a throwaway database, then show `log` and `stats`.
    Demo(DemoArgs),

    /// Standing preferences: which questions to stop asking.
    #[command(subcommand)]
    Pref(PrefCommand),

    /// Rules: a standing preference for every question whose header, text or options match.
    #[command(subcommand)]
    Rule(RuleCommand),

    /// The config file: how the hook decides, what it adds, what it never records.
    #[command(subcommand, long_about = CONFIG_HELP)]
    Config(ConfigCommand),

    /// Register askhook's hooks in a Claude Code settings file.
    Install(InstallArgs),

    /// Remove askhook's hooks from a Claude Code settings file.
    Uninstall(UninstallArgs),

    /// Show where askhook is registered, and whether those registrations work.
    Status(StatusArgs),

    /// Restore the settings file from askhook's latest backup.
    Rollback(RollbackArgs),

    /// Paths, schema version, row counts, install state and a hook self-test.
    Doctor(DoctorArgs),

    /// Classify a question as a one-way, two-way or unknown door, and say why.
    Classify(ClassifyArgs),

    /// The question registry: known recurring questions and their door types.
    #[command(subcommand)]
    Registry(RegistryCommand),

    /// Print a shell completion script.
    ///
    /// install/install.sh installs them where each shell looks. By hand, for example:
    /// `askhook completions bash > ~/.local/share/bash-completion/completions/askhook`,
    /// `askhook completions zsh > ~/.zfunc/_askhook` (with `fpath+=~/.zfunc` before
    /// `compinit` in ~/.zshrc), `askhook completions fish > ~/.config/fish/completions/askhook.fish`.
    Completions(CompletionsArgs),

    /// Print askhook's man page (roff), or write one page per command into a folder.
    ///
    /// `askhook man | man -l -` reads it now. install/install.sh writes the pages beside the
    /// binary (<prefix>/share/man/man1 for <prefix>/bin/askhook, e.g. ~/.cargo/share/man/man1),
    /// where `man askhook` finds them while the binary's folder is on PATH.
    Man(ManArgs),
}

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Clone, Args)]
pub struct ManArgs {
    /// Write askhook.1 and askhook-<command>.1 for every command into this folder instead of
    /// printing askhook.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Filters shared by every query command.
#[derive(Debug, Default, Clone, Args)]
#[command(next_help_heading = "Filters")]
pub struct Filters {
    /// Only rows asked at or after this time (RFC 3339, a date, or a span like 2h, 7d).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,

    /// Only rows asked before this time (RFC 3339, a date, or a span like 2h, 7d).
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,

    /// Only this project: a name as the PROJECT column shows it, a folder, or bare for the
    /// current one.
    #[arg(long, value_name = "PROJECT", num_args = 0..=1, default_missing_value = ".")]
    pub project: Option<PathBuf>,

    /// Only this Claude Code session.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,

    /// Only this question id.
    #[arg(long, value_name = "ID")]
    pub question: Option<String>,

    /// Only these outcomes (repeatable).
    #[arg(long, value_enum, value_name = "OUTCOME")]
    pub outcome: Vec<OutcomeArg>,

    /// Only one-way, two-way or unknown doors.
    #[arg(long, value_enum, value_name = "DOOR")]
    pub door: Option<DoorFilter>,

    /// Case-insensitive text search over question, header and options.
    #[arg(long, value_name = "TEXT")]
    pub grep: Option<String>,

    /// The N most recent matching rows (still printed oldest first).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutcomeArg {
    Pending,
    Answered,
    AutoDecided,
    Failed,
    Declined,
    Abandoned,
}

/// A door type a registry entry can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DoorArg {
    OneWay,
    TwoWay,
}

/// A door type to filter on (`unknown`: the classifier could not read the question).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DoorFilter {
    OneWay,
    TwoWay,
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Table,
    Json,
    Jsonl,
    Csv,
}

#[derive(Debug, Clone, Args)]
pub struct QueryArgs {
    /// Machine-readable JSON output (schemas in docs/query.md).
    #[arg(long)]
    pub json: bool,

    /// Which rows (every query command takes the same filters).
    #[command(flatten)]
    pub filters: Filters,
}

#[derive(Debug, Clone, Args)]
pub struct LogArgs {
    /// Print the documented JSON array (same as --format json).
    #[arg(long)]
    pub json: bool,

    /// Output format.
    #[arg(long, value_enum)]
    pub format: Option<LogFormat>,

    /// Show the whole question and every option, the chosen one marked.
    #[arg(long)]
    pub full: bool,

    /// Which rows (every query command takes the same filters).
    #[command(flatten)]
    pub filters: Filters,
}

#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// A question id (e.g. hook-1a2b3c4d5e) or a `tool_use_id`.
    pub id: String,

    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,

    /// Poll interval in milliseconds (10 to 60000).
    #[arg(long, default_value_t = 500, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub interval_ms: u64,

    /// Which rows (every query command takes the same filters).
    #[command(flatten)]
    pub filters: Filters,
}

#[derive(Debug, Clone, Args)]
pub struct SuggestArgs {
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,

    /// Minimum times asked (at least 1).
    #[arg(long, default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub min_asked: u64,

    /// Minimum follow-the-recommendation rate, in percent (0 to 100).
    #[arg(long, default_value_t = 90.0, value_name = "PCT", value_parser = percent)]
    pub min_follow: f64,

    /// Apply the suggestions (asks for confirmation when an agent runs it).
    #[arg(long)]
    pub apply: bool,

    /// Which rows (every query command takes the same filters).
    #[command(flatten)]
    pub filters: Filters,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Jsonl,
    Csv,
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl", conflicts_with = "json")]
    pub format: ExportFormat,

    /// The documented JSON array (same as --format json).
    #[arg(long)]
    pub json: bool,

    /// Write to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Which rows (every query command takes the same filters).
    #[command(flatten)]
    pub filters: Filters,
}

#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// Import gstack's question-log.jsonl and question-preferences.json files.
    Gstack(ImportGstackArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ImportGstackArgs {
    /// The gstack projects folder (default: ~/.gstack/projects), gstack's home (~/.gstack), or
    /// one project folder.
    pub dir: Option<PathBuf>,

    /// Machine-readable JSON report.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ForgetArgs {
    /// Delete without asking.
    #[arg(long)]
    pub yes: bool,

    /// Delete every row (without a filter, `forget` refuses unless this is given).
    #[arg(long)]
    pub all: bool,

    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,

    /// Which rows (every query command takes the same filters).
    #[command(flatten)]
    pub filters: Filters,
}

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Replay into this database instead of a throwaway one.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,

    /// One JSON object: {"events", "db", "log": [rows as `log --json`], "stats": {as `stats --json`}}.
    #[arg(long)]
    pub json: bool,
}

/// Where a preference applies.
#[derive(Debug, Default, Clone, Args)]
pub struct ScopeFlags {
    /// This project only (default: the current directory's project).
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = ".", conflicts_with = "global")]
    pub project: Option<PathBuf>,

    /// Every project (the default).
    #[arg(long)]
    pub global: bool,
}

#[derive(Debug, Subcommand)]
pub enum PrefCommand {
    /// Set a standing preference for a question id.
    Set(PrefSetArgs),
    /// List every preference and where it comes from.
    List(PrefListArgs),
    /// Remove a preference.
    Clear(PrefClearArgs),
    /// Every change made to preferences.
    History(PrefHistoryArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PreferenceArg {
    NeverAsk,
    AlwaysAsk,
    AskOnlyForOneWay,
}

/// `pref set <ID> <VALUE>`, or `pref set --last <VALUE>`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "ID is a question id from `askhook log` (a marker id or hook-<hash>), or \
family:<fam-id> for every rewording of an unmarked question. --last picks the question asked \
most recently: its marker id, else its family. Before it writes, askhook prints what will be \
chosen from now on and how you answered this question before."
)]
pub struct PrefSetArgs {
    /// `ID VALUE`, or only `VALUE` with --last. VALUE: never-ask, always-ask,
    /// ask-only-for-one-way.
    #[arg(num_args = 1..=2, value_names = ["ID", "VALUE"], required = true)]
    pub words: Vec<String>,
    /// The question asked most recently (its marker id, else its family).
    #[arg(long)]
    pub last: bool,
    /// Set it even for an id or family never seen in the log.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub scope: ScopeFlags,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct PrefListArgs {
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct PrefClearArgs {
    /// The question id.
    pub id: String,
    #[command(flatten)]
    pub scope: ScopeFlags,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct PrefHistoryArgs {
    /// Only this question id.
    pub id: Option<String>,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

/// `askhook config --help`: every key.
pub const CONFIG_HELP: &str = "The config file, config.toml: how the hook decides, what it adds, \
what it never records. It is read only when it exists; environment variables win over it.

Keys (every one optional):
  decide_with = \"deny\" | \"answer\"     (default \"deny\"; env ASKHOOK_DECIDE_WITH)
      how an auto-decision reaches Claude Code: \"deny\" refuses the call with a reason naming the
      answers; \"answer\" allows it with every answer filled in, so the picker is skipped and the
      agent gets the ordinary answer
  context_from_history = true | false   (default false; env ASKHOOK_CONTEXT_FROM_HISTORY)
      when you answer a question you answered before, tell the agent your last answers and notes
  deadline_ms = 2500                    (env ASKHOOK_DEADLINE_MS) the hook's whole budget
  busy_timeout_ms = 300                 (env ASKHOOK_BUSY_TIMEOUT_MS) wait on a busy database
  redact = [\"REGEX\", …]                more secret patterns, stored as [redacted:custom]
  [record_filter]
  cwd = [\"REGEX\", …]                   never record calls made in a matching folder
  question = [\"REGEX\", …]              … or with a matching question, header or option

Patterns are regexes (regex crate syntax), case-insensitive. A file that does not parse makes
the hook do nothing until it is fixed: `askhook config show` says why.";

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Every key with its value and where it comes from (file, env, default).
    Show {
        /// Machine-readable JSON output.
        #[arg(long)]
        json: bool,
    },
    /// Print the config file's path.
    Path,
    /// Open the config file in $VISUAL / $EDITOR (created with every key commented out), then
    /// check it.
    Edit,
}

#[derive(Debug, Subcommand)]
pub enum RuleCommand {
    /// Add or replace a rule: VALUE for every question that all the patterns match.
    Add(RuleAddArgs),
    /// Every rule.
    List {
        /// Machine-readable JSON output.
        #[arg(long)]
        json: bool,
    },
    /// One rule, with the recorded questions it matches.
    Show {
        /// The rule's name.
        name: String,
        /// Machine-readable JSON output.
        #[arg(long)]
        json: bool,
    },
    /// Remove a rule.
    Rm {
        /// The rule's name.
        name: String,
        /// Machine-readable JSON output.
        #[arg(long)]
        json: bool,
    },
    /// Which rules match a question, and what the hook would do with it.
    Test(RuleTestArgs),
}

/// `rule add NAME --question RE … VALUE`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Patterns use the regex crate's syntax (https://docs.rs/regex), are \
case-insensitive and unanchored. A rule matches a question when every pattern given matches: \
--header the chip label, --question the question text, each --option at least one option \
label. A preference on the question's id or family beats any rule; among matching rules \
always-ask beats the others; one-way and unknown doors are always asked."
)]
pub struct RuleAddArgs {
    /// The rule's name (lowercase letters, digits and dashes).
    pub name: String,
    /// The preference the rule applies.
    #[arg(value_enum)]
    pub value: PreferenceArg,
    /// A regex the question's header must match.
    #[arg(long, value_name = "REGEX")]
    pub header: Option<String>,
    /// A regex the question text must match.
    #[arg(long, value_name = "REGEX")]
    pub question: Option<String>,
    /// A regex one of the option labels must match (repeatable: each must match one).
    #[arg(long = "option", value_name = "REGEX")]
    pub options: Vec<String>,
    #[command(flatten)]
    pub scope: ScopeFlags,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

/// `rule test PAYLOAD-OR-TEXT`.
#[derive(Debug, Clone, Args)]
pub struct RuleTestArgs {
    /// A hook payload, a `tool_input` or one question as JSON (inline, a file, or `-` for
    /// stdin), or a question's text.
    pub input: String,
    /// With a question's text: an option label (repeatable).
    #[arg(long = "option", value_name = "LABEL")]
    pub options: Vec<String>,
    /// With a question's text: its header.
    #[arg(long, value_name = "TEXT")]
    pub header: Option<String>,
    /// Test as if asked in this project (default: the payload's cwd, else the current one).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Scope {
    /// `global` is the word `askhook pref` uses for the same reach.
    #[value(alias = "global")]
    User,
    Project,
    Local,
}

/// Which settings file to act on.
#[derive(Debug, Default, Clone, Args)]
pub struct SettingsTarget {
    /// user = $`CLAUDE_CONFIG_DIR/settings.json` (else ~/.claude/settings.json); project =
    /// <project>/.claude/settings.json; local = <project>/.claude/settings.local.json.
    #[arg(long, value_enum)]
    pub scope: Option<Scope>,

    /// Any settings file (wins over --scope).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
#[allow(clippy::struct_excessive_bools)] // independent command-line flags
pub struct InstallArgs {
    #[command(flatten)]
    pub target: SettingsTarget,

    /// Print a unified diff of what would change; write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// The hook timeout written into settings, in seconds (1 to 600; Claude Code's own default
    /// is 60).
    #[arg(long, default_value_t = 5, value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=600))]
    pub timeout: u64,

    /// Write `"command": "'<path>' hook"` (shell form) for Claude Code older than 2.1.139.
    #[arg(long)]
    pub shell_form: bool,

    /// Also add a short block to your CLAUDE.md asking the agent to mark recurring questions
    /// with a stable `<askhook-qid:ID>` (`uninstall` removes it).
    #[arg(long)]
    pub claude_md: bool,

    /// Never prompt (askhook never prompts without a terminal anyway).
    #[arg(long, short)]
    pub yes: bool,
}

#[derive(Debug, Clone, Args)]
pub struct UninstallArgs {
    #[command(flatten)]
    pub target: SettingsTarget,

    /// Print a unified diff of what would change; write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Also delete askhook's data: the answer log, spool, error log and settings backups, then
    /// the data folder when nothing else is in it (lists them and asks first).
    #[arg(long)]
    pub purge: bool,

    /// Never prompt (with --purge: delete without asking).
    #[arg(long, short)]
    pub yes: bool,
}

#[derive(Debug, Clone, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub target: SettingsTarget,

    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct RollbackArgs {
    #[command(flatten)]
    pub target: SettingsTarget,
}

#[derive(Debug, Clone, Args)]
pub struct DoctorArgs {
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ClassifyArgs {
    /// The question text (or use --payload).
    #[arg(required_unless_present = "payload", allow_hyphen_values = true)]
    pub text: Option<String>,

    /// The question's header (the chip label).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub header: Option<String>,

    /// An option label (repeatable, in order; a label may start with `-`).
    #[arg(long = "option", value_name = "LABEL", allow_hyphen_values = true)]
    pub options: Vec<String>,

    /// An option description (repeatable: the first goes with the first --option, and so on).
    #[arg(long = "description", value_name = "TEXT", allow_hyphen_values = true)]
    pub descriptions: Vec<String>,

    /// A PreToolUse payload (or its `tool_input`) to classify every question of, from a file
    /// or `-` for stdin: exactly what the hook would see.
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["text", "header", "options", "descriptions"])]
    pub payload: Option<PathBuf>,

    /// Machine-readable JSON output (one object, or an array with --payload).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum RegistryCommand {
    /// Every known question id with its door type.
    List {
        /// Machine-readable JSON output.
        #[arg(long)]
        json: bool,
    },
    /// One registry entry.
    Show {
        /// The question id.
        id: String,
        /// Machine-readable JSON output.
        #[arg(long)]
        json: bool,
    },
    /// Add or change an entry in the user registry file.
    Add(RegistryAddArgs),
    /// Validate a registry file, with line-precise errors.
    Check {
        /// The registry file.
        file: PathBuf,
        /// Machine-readable JSON output.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Clone, Args)]
pub struct RegistryAddArgs {
    /// The question id (kebab-case).
    pub id: String,
    /// The door type.
    #[arg(long, value_enum)]
    pub door: DoorArg,
    /// The category (see `askhook registry list`).
    #[arg(long, default_value = "general")]
    pub category: String,
    /// What the question is about.
    #[arg(long, default_value = "")]
    pub description: String,
    /// An option label (repeatable).
    #[arg(long = "option", value_name = "LABEL")]
    pub options: Vec<String>,
    /// Allow marking an embedded one-way question two-way (askhook may then answer it for you).
    #[arg(long)]
    pub i_know: bool,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

/// A percentage from 0 to 100 (`suggest --min-follow`).
fn percent(text: &str) -> Result<f64, String> {
    match text.trim().trim_end_matches('%').parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        Ok(_) => Err(format!("{text} is not in 0..=100 (a percentage)")),
        Err(_) => Err(format!("{text} is not a number from 0 to 100")),
    }
}
