//! The installer: merges askhook's hook registrations into Claude Code settings files without
//! ever damaging what is already there. (Placeholder; the full installer replaces it.)

use std::process::ExitCode;

use crate::cli::{InstallArgs, RollbackArgs, StatusArgs, UninstallArgs};
use crate::error::{Error, Result};
use crate::Context;

fn not_yet(name: &str) -> Result<ExitCode> {
    Err(Error::Refused(format!(
        "`askhook {name}` is not available in this build yet"
    )))
}

pub fn install(_args: &InstallArgs, _ctx: &Context) -> Result<ExitCode> {
    not_yet("install")
}

pub fn uninstall(_args: &UninstallArgs, _ctx: &Context) -> Result<ExitCode> {
    not_yet("uninstall")
}

pub fn status(_args: &StatusArgs, _ctx: &Context) -> Result<ExitCode> {
    not_yet("status")
}

pub fn rollback(_args: &RollbackArgs, _ctx: &Context) -> Result<ExitCode> {
    not_yet("rollback")
}
