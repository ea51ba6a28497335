//! `askhook classify TEXT [--option LABEL]… [--json]`: the door type of a question and the rule
//! that matched, straight from the classifier (no registry, no size cap).
//!
//! ## `classify --json`
//! One object: `{"door_type": "one-way"|"two-way", "rule": string|null, "matched": string|null,
//! "normalized": string}`. `rule` names the rule that matched, `matched` is the folded text it
//! matched, `normalized` the whole folded text the rules saw (fields joined by newlines).

use std::process::ExitCode;

use crate::cli::ClassifyArgs;
use crate::error::Result;
use crate::Context;

use super::Run;

/// `askhook classify TEXT [--option LABEL]… [--json]`.
impl Run for ClassifyArgs {
    fn run(&self, _ctx: &Context) -> Result<ExitCode> {
        classify(self)
    }
}

fn classify(args: &ClassifyArgs) -> Result<ExitCode> {
    let mut fields: Vec<&str> = vec![args.text.as_str()];
    fields.extend(args.options.iter().map(String::as_str));
    let explanation = askhook_core::classify::explain(&fields);
    if args.json {
        let json = serde_json::to_string(&explanation).unwrap_or_else(|_| "{}".into());
        crate::sys::ui::println(&json)?;
    } else {
        let safe = |s: &str| crate::sys::ui::sanitize(s, false);
        match (explanation.rule, &explanation.matched) {
            (Some(rule), Some(matched)) => crate::sys::ui::println(&format!(
                "one-way (rule: {rule}; matched: \"{}\")",
                safe(matched)
            ))?,
            _ => crate::sys::ui::println("two-way (no rule matched)")?,
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}
