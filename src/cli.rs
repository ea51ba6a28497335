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

    #[command(subcommand)]
    pub command: Command,
}

/// Overrides for every file askhook reads or writes. Each flag has an env var twin.
#[derive(Debug, Default, Clone, Args)]
#[command(next_help_heading = "Paths (each also an env var)")]
pub struct PathFlags {
    /// Folder for the database, spool, error log and user registry.
    #[arg(long, global = true, env = "ASKHOOK_HOME", value_name = "DIR")]
    pub home: Option<PathBuf>,

    /// The SQLite answer log (default: <home>/askhook.db).
    #[arg(long, global = true, env = "ASKHOOK_DB", value_name = "FILE")]
    pub db: Option<PathBuf>,

    /// The hook's error log (default: <home>/errors.log).
    #[arg(long, global = true, env = "ASKHOOK_ERROR_LOG", value_name = "FILE")]
    pub error_log: Option<PathBuf>,

    /// The user question registry (default: <home>/registry.json, else the config dir).
    #[arg(long, global = true, env = "ASKHOOK_REGISTRY", value_name = "FILE")]
    pub registry: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run as a Claude Code hook: one JSON payload on stdin, a decision (or nothing) on stdout.
    Hook,

    /// Print the recorded questions, oldest first.
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

    /// Only this project (bare `--project` = the current one).
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = ".")]
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
    /// Machine-readable JSON output (schema in the README).
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

    /// Poll interval in milliseconds.
    #[arg(long, default_value_t = 500, value_name = "MS")]
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

    /// Minimum times asked.
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub min_asked: u64,

    /// Minimum follow-the-recommendation rate, in percent.
    #[arg(long, default_value_t = 90.0, value_name = "PCT")]
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
    /// The gstack projects folder (default: ~/.gstack/projects).
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

#[derive(Debug, Clone, Args)]
pub struct PrefSetArgs {
    /// The question id (see `askhook log`).
    pub id: String,
    /// The preference.
    #[arg(value_enum)]
    pub value: PreferenceArg,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Scope {
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
pub struct InstallArgs {
    #[command(flatten)]
    pub target: SettingsTarget,

    /// Print a unified diff of what would change; write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// The hook timeout written into settings, in seconds.
    #[arg(long, default_value_t = 5, value_name = "SECS")]
    pub timeout: u64,

    /// Write `"command": "'<path>' hook"` (shell form) for Claude Code older than 2.1.139.
    #[arg(long)]
    pub shell_form: bool,

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

    /// Never prompt.
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
