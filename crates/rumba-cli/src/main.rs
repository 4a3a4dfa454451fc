//! The `rumba` command: `detect` prints the backend and its devices; `demo` runs a short tour of
//! the library on the current backend, printing what each step did and how long it took.
//!
//! Errors (for example a malformed `RUMBA_*` variable) are printed as one line naming the problem,
//! and the command exits with status 2 for configuration errors, 1 for anything else.

mod demo;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "rumba",
    version,
    about = "Numba's GPU memory model in Rust: device detection and a demo"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the backend in use (sim or cuda) and every device with its memory.
    Detect,
    /// Run a short tour of the library, timing each step.
    Demo,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Detect => rumba::detect().map(|r| println!("{r}")),
        Command::Demo => demo::run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rumba: {e}");
            match e {
                rumba::Error::InvalidConfig { .. } | rumba::Error::BackendUnavailable { .. } => {
                    ExitCode::from(2)
                }
                _ => ExitCode::FAILURE,
            }
        }
    }
}
