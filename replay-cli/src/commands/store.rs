//! The store as a whole: serve it, migrate it to another backend, back it
//! up and restore it.

use super::*;

pub(super) fn serve(store: &Location, a: ServeArgs) -> Result<()> {
    let journal = Journal::open_at(store)?;
    match &a.admin_token_file {
        Some(file) => {
            let token = std::fs::read_to_string(file).map_err(|e| CliError::file(file, e))?;
            journal.set_admin_token(&token)?;
            println!("admin token: read from {}", file.display());
        }
        None => match journal.ensure_admin_token()? {
            Some(token) => {
                println!("admin token (shown once; the store keeps only its hash): {token}");
                println!("  it may import, list every game and take a backup");
            }
            None => println!(
                "admin token: set earlier (only its hash is kept); --admin-token-file replaces it"
            ),
        },
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(CliError::Serve)?;
    runtime.block_on(async move {
        // Bound first, so `--addr 127.0.0.1:0` is told and noted as the port
        // the system chose.
        let listener = tabletape_api::bind(a.addr).await.map_err(CliError::Serve)?;
        let addr = listener.local_addr().map_err(CliError::Serve)?;
        let (operator, token) = tabletape_api::Operator::draw().map_err(CliError::Serve)?;
        let pid = std::process::id();
        let Some(dir) = store.dir() else {
            // A database: other processes open it themselves, and other
            // servers may share it.
            println!("listening on http://{addr}");
            println!(
                "  on the database {store}, which other `tabletape serve` processes may share"
            );
            let app = tabletape_api::app_with_operator(journal, operator);
            return tabletape_api::serve_on(listener, app)
                .await
                .map_err(CliError::Serve);
        };
        // Another process that finds the store locked can then say who holds it,
        // and the CLI on this machine can go through the server instead.
        let holder = format!("tabletape serve, pid {pid}, on {addr}");
        tabletape_store::note_holder(dir, &holder).map_err(JournalError::from)?;
        if let Err(e) = served::write(dir, &ServeNote { pid, addr, token }) {
            tabletape_store::clear_holder(dir);
            return Err(CliError::file(&served::note_path(dir), e));
        }
        println!("listening on http://{addr}");
        println!(
            "  `tabletape --store {}` commands go through this server while it runs",
            dir.display()
        );
        let app = tabletape_api::app_with_operator(journal, operator);
        let served = tabletape_api::serve_on(listener, app)
            .await
            .map_err(CliError::Serve);
        served::remove(dir);
        tabletape_store::clear_holder(dir);
        served
    })
}

/// Moves every game from one store to another: a backup of the one streamed
/// into a restore of the other, so every token and hash comes through as it
/// was; then each game's branch heads are compared.
pub(super) fn migrate(
    store: &Location,
    a: MigrateArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let from = a.from.unwrap_or_else(|| store.clone());
    if from == a.to {
        return Err(CliError::Served(format!(
            "--from and --to are the same store ({from})"
        )));
    }
    let opened = |at: &Location| -> Result<Journal> {
        if let Some(remote) = at.dir().and_then(Remote::find) {
            return Err(CliError::Served(format!(
                "the store at {at} is served by {}: stop it (Ctrl-C) before a migration",
                remote.server()
            )));
        }
        Ok(Journal::open_at(at)?)
    };
    let source = opened(&from)?;
    let destination = opened(&a.to)?;
    let bar = progress::counter(json, "migrating");
    bar.set_prefix("lines");
    let (restored, backed_up) = std::thread::scope(|scope| {
        let (sent, received) = std::sync::mpsc::sync_channel(16);
        let source = &source;
        let shown = bar.clone();
        let backup = scope.spawn(move || {
            let mut pipe =
                BufWriter::with_capacity(64 * 1024, progress::Writing::new(Pipe(sent), shown));
            source.backup(&mut pipe)
        });
        let restored = destination.restore(&mut BufReader::new(Piped {
            chunks: received,
            chunk: Vec::new(),
            at: 0,
        }));
        let backed_up = backup.join().expect("the backup thread does not panic");
        (restored, backed_up)
    });
    bar.finish_and_clear();
    // A failed restore stops reading, which fails the backup: its error is the one.
    let restored = restored?;
    backed_up?;
    for game in &restored.games {
        let heads = |j: &Journal| -> Result<Vec<(String, u64, String)>> {
            Ok(j.log()
                .branches(game)
                .map_err(JournalError::from)?
                .into_iter()
                .map(|b| (b.name, b.head_seq, b.head_hash))
                .collect())
        };
        let moved = heads(&destination)?;
        let kept = heads(&source)?;
        if moved.iter().any(|b| !kept.contains(b)) {
            return Err(CliError::Served(format!(
                "game `{game}` did not arrive whole: its branch heads differ ({kept:?} there, {moved:?} here)"
            )));
        }
    }
    if json {
        return print_json(
            out,
            &json!({"games": restored.games, "events": restored.events, "skipped": restored.skipped,
                    "from": from.to_string(), "to": a.to.to_string()}),
        );
    }
    writeln!(
        out,
        "moved {} ({}) from {from} to {}, every hash and token as it was",
        counted(restored.games.len() as u64, "game"),
        counted(restored.events, "event"),
        a.to
    )?;
    if !restored.skipped.is_empty() {
        writeln!(
            out,
            "skipped {} {} has already: {}",
            counted(restored.skipped.len() as u64, "game"),
            a.to,
            restored.skipped.join(", ")
        )?;
    }
    Ok(())
}

/// The writing end of a migration's stream: chunks to the restoring side.
struct Pipe(std::sync::mpsc::SyncSender<Vec<u8>>);

impl Write for Pipe {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the restore stopped"))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The reading end of a migration's stream.
struct Piped {
    chunks: std::sync::mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl io::Read for Piped {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.chunks.recv() {
                Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                Err(_) => return Ok(0), // the backup is done (or failed: it says so)
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

pub(super) fn backup(
    table: &dyn Table,
    a: BackupArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let bar = progress::counter(json, "backing up");
    bar.set_prefix("lines");
    let Some(path) = &a.out else {
        let mut buffered = BufWriter::new(progress::Writing::new(out, bar.clone()));
        let done = table.backup(&mut buffered);
        bar.finish_and_clear();
        done?;
        buffered.flush()?;
        return Ok(());
    };
    let file = private_file(path)?;
    let mut writer = BufWriter::new(progress::Writing::new(file, bar.clone()));
    let done = table.backup(&mut writer);
    bar.finish_and_clear();
    let done = done?;
    let file = writer
        .into_inner()
        .map_err(|e| CliError::file(path, e.into_error()))?
        .into_inner();
    file.sync_all().map_err(|e| CliError::file(path, e))?;
    if json {
        return print_json(
            out,
            &json!({"games": done.games, "events": done.events, "out": path}),
        );
    }
    writeln!(
        out,
        "backed up {} ({}) to {}",
        counted(done.games, "game"),
        counted(done.events, "event"),
        path.display()
    )?;
    Ok(())
}

pub(super) fn restore(
    table: &dyn Table,
    a: RestoreArgs,
    out: &mut dyn Write,
    json: bool,
) -> Result<()> {
    let (mut read, bar) = input_shown(&a.file, json, "restoring")?;
    let restored = table.restore(&mut *read);
    bar.finish_and_clear();
    let restored = restored?;
    if json {
        return print_json(out, &restored);
    }
    writeln!(
        out,
        "restored {} ({}), every token as it was",
        counted(restored.games.len() as u64, "game"),
        counted(restored.events, "event")
    )?;
    if !restored.skipped.is_empty() {
        writeln!(
            out,
            "skipped {} the store has already: {}",
            counted(restored.skipped.len() as u64, "game"),
            restored.skipped.join(", ")
        )?;
    }
    Ok(())
}
