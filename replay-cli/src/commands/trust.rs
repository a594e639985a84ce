//! Dice nobody chose: `contribute` (a seat's share of the dice) and
//! `verify --public` (a finished game's export checked with no store and no
//! token).

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;

use serde::Serialize;
use tabletape_engine::dice::DiceMakers;
use tabletape_engine::Viewer;
use tabletape_store::{commitment_to, new_share, Access, DiceReport, Journal, ShareRequest};

use super::{print_json, viewer_of};
use crate::cli::ContributeArgs;
use crate::error::CliError;
use crate::table::Table;

type Result<T> = std::result::Result<T, CliError>;

/// What `contribute` did, for `--json`.
#[derive(Serialize)]
struct Contributed {
    seq: u64,
    narration: Vec<String>,
    /// The value committed to: the seat keeps it to reveal later.
    #[serde(skip_serializing_if = "Option::is_none")]
    keep: Option<String>,
}

/// Commits a seat's share (a fresh random value, or `--value`), or reveals
/// it (`--reveal`).
pub(crate) fn contribute(
    table: &dyn Table,
    a: ContributeArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let by = match viewer_of(table, &a.game, Some(&a.viewer))? {
        Viewer::Seat(s) => Access::Seat(s),
        _ => {
            return Err(CliError::Served(
                "a share of the dice is a seat's: name the seat with --as".into(),
            ))
        }
    };
    let branch = Some(table.line(&a.game, a.branch)?);
    let (req, keep) = match (a.reveal, a.value) {
        (Some(value), _) => (
            ShareRequest {
                branch,
                commitment: None,
                contribution: Some(value),
                expect_seq: None,
                idempotency_key: None,
            },
            None,
        ),
        (None, given) => {
            let (value, commitment) = match given {
                Some(value) => {
                    let commitment = commitment_to(&value)?;
                    (value, commitment)
                }
                None => new_share()?,
            };
            (
                ShareRequest {
                    branch,
                    commitment: Some(commitment),
                    contribution: None,
                    expect_seq: None,
                    idempotency_key: None,
                },
                Some(value),
            )
        }
    };
    let acted = table.share(&a.game, req, by)?;
    if json {
        return print_json(
            out,
            &Contributed {
                seq: acted.seq,
                narration: acted.narration,
                keep,
            },
        );
    }
    writeln!(out, "seq {}", acted.seq)?;
    for line in &acted.narration {
        writeln!(out, "  {line}")?;
    }
    if let Some(value) = keep {
        writeln!(
            out,
            "Keep this value to reveal once every seat has committed:\n  tabletape contribute {} --as {} --reveal {value}",
            a.game, a.viewer
        )?;
    }
    Ok(())
}

/// What `verify --public` found, for `--json`.
#[derive(Serialize)]
struct Checked {
    game: String,
    over: bool,
    /// Each branch with the events checked on it.
    branches: Vec<(String, u64)>,
    dice: Option<DiceReport>,
}

/// Checks a game's export with no store of the caller's and no token: it is
/// imported into a scratch store, which checks every hash and link (the
/// seed against the commitment the creation made, each part against its
/// salt), each seat's share against its commitment, and decides every
/// action again, so a roll or draw that its dice do not give is refused.
pub(crate) fn verify_public(file: &Path, out: &mut dyn Write, json: bool) -> Result<()> {
    let scratch = tempfile::tempdir().map_err(|e| CliError::file(file, e))?;
    let journal = Journal::open(scratch.path())?;
    let read = File::open(file).map_err(|e| CliError::file(file, e))?;
    let imported = match journal.import(&mut BufReader::new(read)) {
        Ok(imported) => imported,
        Err(e) => {
            if !json {
                writeln!(out, "{}: BAD: {e}", file.display())?;
            }
            return Err(CliError::Verify {
                problems: 1,
                branches: 1,
            });
        }
    };
    let reports = journal.verify(Some(&imported.game))?;
    let summary = journal.summary(&imported.game, Viewer::Public)?;
    let problems = reports.iter().filter(|r| r.problem.is_some()).count();
    if json {
        print_json(
            out,
            &Checked {
                game: imported.game.clone(),
                over: summary.over,
                branches: reports
                    .iter()
                    .map(|r| (r.branch.clone(), r.events))
                    .collect(),
                dice: summary.dice.clone(),
            },
        )?;
    } else {
        for r in &reports {
            match &r.problem {
                None => writeln!(out, "{} {}: ok ({} events)", r.game, r.branch, r.events)?,
                Some(p) => writeln!(
                    out,
                    "{} {}: BAD at seq {}: {}",
                    r.game, r.branch, p.seq, p.what
                )?,
            }
        }
        if problems == 0 {
            writeln!(
                out,
                "Every hash and link holds, the seed opens the commitment made when the game was created, and every action decides again to what was recorded, each roll and draw included."
            )?;
            let dice = summary.dice.as_ref().map(|d| d.made_by);
            let made = match dice {
                Some(DiceMakers::Everyone) => "Dice: made by every seat's share and the owner's seed together; no one chose them.",
                Some(DiceMakers::OwnerOnly) | Some(DiceMakers::Gathering) => {
                    "Dice: chosen by the owner only (not every seat added its share before the first action)."
                }
                Some(DiceMakers::Table) | None => "Dice: the table's own (Tabletape drew no chance).",
            };
            writeln!(out, "{made}")?;
            if !summary.over {
                writeln!(
                    out,
                    "The game is still in play: this export is its owner's, not yet everyone's."
                )?;
            }
        }
    }
    if problems > 0 {
        return Err(CliError::Verify {
            problems,
            branches: reports.len(),
        });
    }
    Ok(())
}
