//! `askhook man [--dir DIR]`: the man page, generated from the clap definition
//! ([`crate::cli::Cli`]) so it always matches the flags of this binary. Without `--dir` it
//! prints `askhook.1` (roff; `askhook man | man -l -`); with it, it writes `askhook.1` and one
//! `askhook-<command>.1` per subcommand into DIR (`install/install.sh` uses
//! `<prefix>/share/man/man1` beside `<prefix>/bin/askhook`, which `man` searches while
//! `<prefix>/bin` is on `PATH`).

use std::process::ExitCode;

use clap::CommandFactory;

use crate::cli::{Cli, ManArgs};
use crate::error::{Error, Result};
use crate::sys::ui;
use crate::Context;

use super::Run;

impl Run for ManArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        let Some(dir) = &self.dir else {
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .map_err(|e| Error::io("stdout", e))?;
            ui::print(&String::from_utf8_lossy(&page))?;
            return Ok(ExitCode::SUCCESS);
        };
        let dir = ctx.cwd.join(dir);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        clap_mangen::generate_to(Cli::command(), &dir).map_err(|e| Error::io(&dir, e))?;
        ui::println(&format!(
            "wrote askhook.1 and a page per command into {}",
            dir.display()
        ))?;
        Ok(ExitCode::SUCCESS)
    }
}
