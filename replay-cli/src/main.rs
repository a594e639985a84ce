//! `tabletape`: the command line over a local journal.
//!
//! Parses the command line (clap, in `cli`), opens the sled store (or, while
//! `tabletape serve` holds it, reaches that server: `remote`), runs one
//! subcommand (`commands`) and maps every error to an exit code: 0 ok, 1 the
//! rules or a concurrent writer said no, 2 the input or the machine did. The
//! CLI on a local store acts as the game's owner, so it needs no tokens; a
//! read given `--as SEAT` (or `--as public`) shows only what that seat (or
//! anyone) may see, as the HTTP API does for a seat's token.
//! Only this crate knows clap; the journal and engine know nothing of it.

mod args;
mod bench;
mod cli;
mod commands;
mod error;
mod paint;
mod peers;
mod progress;
mod remote;
mod served;
mod show;
mod table;
mod wire;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

use crate::cli::{Cli, Command, LogFormat};

/// See the allocator's entry in Cargo.toml for why.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    // A panic the engine catches (a forged or damaged log) is answered as
    // an error naming the event; only a panic nothing catches is printed.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !tabletape_engine::guard::guarded_here() {
            report(info);
        }
    }));
    // Known before parsing, so even a usage error can answer in JSON.
    let json = std::env::args_os().skip(1).any(|a| a == "--json");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let usage = e.use_stderr();
            if usage && json {
                println!(
                    "{}",
                    serde_json::json!({"error": "usage", "message": usage_message(&e.to_string())})
                );
            }
            // Help and version go to stdout with success; real usage errors exit 2.
            let _ = e.print();
            return if usage {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match &cli.command {
        Command::Serve(a) => init_logging(true, a.log_format),
        _ => init_logging(false, LogFormat::Text),
    }
    let json = cli.json;
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            if json {
                let mut body = serde_json::json!({"error": e.code(), "message": e.to_string()});
                if let Some(rule) = e.rule() {
                    body["rule"] = rule.into();
                }
                let mut stdout = std::io::stdout();
                let _ = writeln!(stdout, "{body}");
                let _ = stdout.flush();
            }
            eprintln!("{} {e}", paint::err(paint::BAD, "error:"));
            ExitCode::from(e.exit_code())
        }
    }
}

/// Clap's error as one sentence: the part before the usage block, on one line.
fn usage_message(rendered: &str) -> String {
    let head = rendered.split("\n\n").next().unwrap_or_default();
    let words: Vec<&str> = head.split_whitespace().collect();
    words.join(" ").trim_start_matches("error: ").to_string()
}

/// Logs go to stderr, filtered by RUST_LOG; quiet (warn) by default, but a
/// server says where it listens, what it serves and each request (info).
/// `json` writes one object per line, the request's fields at its top level.
fn init_logging(serving: bool, format: LogFormat) {
    let default = if serving { "info" } else { "warn" };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Json => logs.json().flatten_event(true).try_init(),
        // Colour only for a person watching, not in log files or test captures.
        LogFormat::Text => logs
            .with_ansi(std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none())
            .try_init(),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_errors_read_as_one_sentence() {
        let e = Cli::try_parse_from(["tabletape", "log"]).unwrap_err();
        assert_eq!(
            usage_message(&e.to_string()),
            "the following required arguments were not provided: <GAME>"
        );
    }
}
