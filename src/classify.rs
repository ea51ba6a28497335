//! The one-way-door classifier: pure, over the normalised text of a question, its header and
//! every option label and description. (Placeholder; the full classifier replaces it.)

use serde::{Deserialize, Serialize};

/// Whether a decision can be undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Door {
    /// Destructive or hard to undo: always reaches the human.
    OneWay,
    /// Reversible.
    TwoWay,
}

impl Door {
    pub fn as_str(self) -> &'static str {
        match self {
            Door::OneWay => "one-way",
            Door::TwoWay => "two-way",
        }
    }

    pub fn parse(text: &str) -> Option<Door> {
        match text {
            "one-way" => Some(Door::OneWay),
            "two-way" => Some(Door::TwoWay),
            _ => None,
        }
    }
}

/// The classifier's verdict and the rule that decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    pub door: Door,
    /// The name of the rule that matched (for one-way), e.g. `force-push`.
    pub rule: Option<&'static str>,
}

/// Classify the text fields of one question (text, header, labels, descriptions).
pub fn classify(fields: &[&str]) -> Classification {
    const STEMS: &[(&str, &str)] = &[
        ("delet", "delete"),
        ("force-push", "force-push"),
        ("--force", "force-push"),
        ("rm -rf", "rm-rf"),
        ("drop", "drop-table"),
    ];
    for field in fields {
        let lower = field.to_lowercase();
        for (stem, rule) in STEMS {
            if lower.contains(stem) {
                return Classification {
                    door: Door::OneWay,
                    rule: Some(rule),
                };
            }
        }
    }
    Classification {
        door: Door::TwoWay,
        rule: None,
    }
}

/// `askhook classify TEXT [--option LABEL]… [--json]`.
pub fn run(
    _args: &crate::cli::ClassifyArgs,
    _ctx: &crate::Context,
) -> crate::error::Result<std::process::ExitCode> {
    Err(crate::error::Error::Refused(
        "`askhook classify` is not available in this build yet".into(),
    ))
}
