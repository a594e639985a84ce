//! A game in and out of the store: export (JSON Lines or a play record),
//! import, and verify (a stored game, or an export with `--public`).

use super::*;

/// Refuses an export for anyone but the owner while any branch it would
/// hold is still in play (see `Journal::check_export`, which the HTTP API
/// applies to a seat's token too).
fn check_export(table: &dyn Table, a: &ExportArgs) -> Result<()> {
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    table.check_export(&a.game, a.branch.as_deref(), viewer)
}

/// A finished game's line as one play, for `--format bgstats` or `bgg`
/// (to a seat, only once the game is over, as for the log itself).
fn play_of(table: &dyn Table, a: &ExportArgs) -> Result<tabletape_api::plays::Play> {
    let branch = table.line(&a.game, a.branch.clone())?;
    let viewer = viewer_of(table, &a.game, a.viewer.as_deref())?;
    table.check_export(&a.game, Some(&branch), viewer)?;
    let play = tabletape_api::plays::Play::of(
        &a.game,
        &branch,
        table.title(&a.game)?,
        table.players(&a.game)?,
        table.state(&a.game, &branch, None, viewer)?,
        &table.events_as(&a.game, &branch, viewer)?,
    )?;
    Ok(tabletape_api::plays::Play {
        bgg_id: a.bgg_id,
        ..play
    })
}

pub(super) fn export(
    table: &dyn Table,
    a: ExportArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    if a.format != ExportFormat::Jsonl {
        let play = play_of(table, &a)?;
        let text = match a.format {
            ExportFormat::Bgstats => {
                serde_json::to_string_pretty(&tabletape_api::plays::bgstats(&play)).expect("JSON")
                    + "\n"
            }
            _ => tabletape_api::plays::bgg(&play),
        };
        return match &a.out {
            None => Ok(out.write_all(text.as_bytes())?),
            Some(path) => {
                std::fs::write(path, text).map_err(|e| CliError::file(path, e))?;
                if json {
                    print_json(out, &json!({"game": a.game, "out": path}))
                } else {
                    writeln!(out, "wrote the play of {} to {}", a.game, path.display())?;
                    Ok(())
                }
            }
        };
    }
    // Checked before any file is created, so a refusal leaves nothing behind.
    check_export(table, &a)?;
    let bar = progress::counter(json, "exporting");
    bar.set_prefix("events");
    let Some(path) = &a.out else {
        // The JSON Lines are the output, so `--json` changes nothing here.
        let mut buffered = BufWriter::new(progress::Writing::new(out, bar.clone()));
        let done = table.export(&a.game, a.branch.as_deref(), &mut buffered);
        bar.finish_and_clear();
        done?;
        buffered.flush()?;
        return Ok(());
    };
    let file = private_file(path)?;
    let mut writer = BufWriter::new(progress::Writing::new(file, bar.clone()));
    let events = table.export(&a.game, a.branch.as_deref(), &mut writer);
    bar.finish_and_clear();
    let events = events?;
    let file = writer
        .into_inner()
        .map_err(|e| CliError::file(path, e.into_error()))?
        .into_inner();
    file.sync_all().map_err(|e| CliError::file(path, e))?;
    if json {
        print_json(out, &json!({"game": a.game, "events": events, "out": path}))
    } else {
        writeln!(
            out,
            "exported {events} events of {} to {}",
            a.game,
            path.display()
        )?;
        Ok(())
    }
}

pub(super) fn import(
    table: &dyn Table,
    a: ImportArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let (mut read, bar) = input_shown(&a.file, json, "importing")?;
    let imported = table.import(&mut *read);
    bar.finish_and_clear();
    let imported = imported?;
    if json {
        return print_json(out, &imported);
    }
    writeln!(
        out,
        "imported game {}: {} events, branches {}",
        imported.game,
        imported.events,
        imported.branches.join(", ")
    )?;
    writeln!(out, "owner token: {}", imported.owner_token)?;
    writeln!(out, "seat tokens (new; the old ones do not travel):")?;
    for s in &imported.seats {
        writeln!(out, "  seat {} {}: {}", s.seat, s.player, s.token)?;
    }
    Ok(())
}

pub(super) fn verify(
    table: &dyn Table,
    a: VerifyArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let (reports, viewer) = match (&a.game, &a.viewer) {
        (Some(game), Some(given)) => {
            let viewer = viewer_of(table, game, Some(given))?;
            (table.verify_as(game, viewer)?, viewer)
        }
        (Some(game), None) => (table.verify(Some(game))?, Viewer::Owner),
        // The whole store, game by game, so a terminal can show how far.
        (None, _) => {
            let games = table.games()?;
            let bar = progress::steps(json, "verifying", games.len() as u64);
            let mut reports = Vec::new();
            for g in &games {
                match table.verify(Some(&g.game)) {
                    Ok(found) => reports.extend(found),
                    Err(e) => {
                        bar.finish_and_clear();
                        return Err(e);
                    }
                }
                bar.inc(1);
            }
            bar.finish_and_clear();
            (reports, Viewer::Owner)
        }
    };
    // Which check each branch got: the full one (every hash, link and a strict
    // re-decision of every action) is the owner's, and anyone's on a branch
    // whose game is over; others check the chain they can see.
    let full: Vec<bool> = reports.iter().map(|r| r.check == Check::Full).collect();
    if json {
        print_json(out, &reports)?;
    } else {
        if reports.is_empty() {
            writeln!(out, "no games to verify")?;
        }
        let who = match &a.game {
            Some(game) if viewer != Viewer::Owner => show::viewer(viewer, &players(table, game)?),
            _ => String::new(),
        };
        for (r, &full) in reports.iter().zip(&full) {
            let check = if full {
                String::new()
            } else {
                format!("  (the visible chain, as {who})")
            };
            match &r.problem {
                None => writeln!(
                    out,
                    "{} {}: {} ({} events){check}",
                    r.game,
                    r.branch,
                    paint::out(paint::GOOD, "ok"),
                    r.events
                )?,
                Some(p) => writeln!(
                    out,
                    "{} {}: {} at seq {}: {}{check}",
                    r.game,
                    r.branch,
                    paint::out(paint::BAD, "BAD"),
                    p.seq,
                    p.what
                )?,
            }
            if let Some(earlier) = &r.earlier_rules {
                writeln!(
                    out,
                    "  recorded under rules version {} (today's: {}); the stored facts are the record. Today's rules would decide {} event(s) differently:",
                    earlier.recorded,
                    earlier.today,
                    earlier.decided_differently.len()
                )?;
                for d in &earlier.decided_differently {
                    writeln!(out, "    seq {}: {}", d.seq, d.what)?;
                }
            }
        }
        if full.iter().any(|f| !f) {
            writeln!(
                out,
                "As {who}: the visible chain was checked: every part {who} may see against its seal, every hash and every link. Re-deciding the actions needs the hidden parts: that check is the owner's, and anyone's once the game is over."
            )?;
        }
    }
    let problems = reports.iter().filter(|r| r.problem.is_some()).count();
    if problems > 0 {
        return Err(CliError::Verify {
            problems,
            branches: reports.len(),
        });
    }
    Ok(())
}
