//! `askhook doctor`: paths in use, schema version, row counts, install state of every scope,
//! the last lines of the error log, and a timed self-test of the hook. (Placeholder.)

use std::process::ExitCode;

use crate::cli::DoctorArgs;
use crate::error::{Error, Result};
use crate::Context;

pub fn run(_args: &DoctorArgs, _ctx: &Context) -> Result<ExitCode> {
    Err(Error::Refused(
        "`askhook doctor` is not available in this build yet".into(),
    ))
}
