//! `askhook completions bash|zsh|fish|powershell|elvish`: a completion script generated from
//! the clap definition ([`crate::cli::Cli`]), so it always matches the flags of this binary.
//! `install/install.sh` writes them where each shell looks.

use std::process::ExitCode;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::error::Result;
use crate::sys::ui;
use crate::Context;

use super::Run;

impl Run for CompletionsArgs {
    fn run(&self, _ctx: &Context) -> Result<ExitCode> {
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut Cli::command(), "askhook", &mut script);
        ui::print(&String::from_utf8_lossy(&script))?;
        Ok(ExitCode::SUCCESS)
    }
}
