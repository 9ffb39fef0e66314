//! `ketama migrate` from the command line: the verb run, its output printed, its exit status.

use super::args::{MigrateArgs, MigrateCommand};
use super::{plan, report, run, verify};
use crate::output::Format;
use crate::shared::Fail;

/// Runs the verb; prints; returns the exit status.
pub(crate) fn main(a: &MigrateArgs, f: Option<Format>) -> i32 {
    let f = f.unwrap_or(Format::Table);
    if f == Format::Csv {
        eprintln!("ketama: migrate: --format csv is not available; use table or json");
        return 2;
    }
    let r = match &a.command {
        MigrateCommand::Plan(p) => plan::run(p, f),
        MigrateCommand::Run(r) => run::run(r, f),
        MigrateCommand::Verify(v) => verify::run(v, f),
        MigrateCommand::Report(r) => report::run(r, f),
    };
    match r {
        Ok((out, code)) => {
            let c = crate::shared::emit(&out);
            if c != 0 {
                c
            } else {
                code
            }
        }
        Err(Fail(msg)) => {
            eprintln!("ketama: migrate: {msg}");
            2
        }
    }
}
