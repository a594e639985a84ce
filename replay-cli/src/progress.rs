//! Progress for long work (import, export, backup, restore, migrate, a
//! whole-store verify, bench), drawn by indicatif on stderr for a person at
//! a terminal and for nobody else: piped, redirected or `--json`, nothing
//! is drawn and the output is as before.
//!
//! The journal's calls stream, so progress is counted at the stream: a
//! reader counts the bytes it hands on (of a file whose size is known), a
//! writer counts the lines it is given (one per event in JSON Lines).

use std::io::{self, BufRead, IsTerminal, Read, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether to draw at all: stderr is a terminal and the output is for a
/// person (not `--json`).
pub fn wanted(json: bool) -> bool {
    !json && io::stderr().is_terminal()
}

fn target(json: bool) -> ProgressDrawTarget {
    if wanted(json) {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// A count of things without a known end (events written, games checked):
/// how many so far and how fast.
pub fn counter(json: bool, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, target(json));
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {msg}: {human_pos} {prefix} ({per_sec}, {elapsed})",
        )
        .expect("a valid template"),
    );
    bar.set_message(what.to_string());
    bar.tick();
    bar
}

/// Bytes of an input of known size: how far, how fast, how long to go.
pub fn bytes(json: bool, what: &str, total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), target(json));
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:30}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar.tick();
    bar
}

/// A known number of steps (games to verify).
pub fn steps(json: bool, what: &str, total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), target(json));
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:30}] {human_pos}/{human_len} ({per_sec}, {eta} left)",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar.tick();
    bar
}

/// A reader that moves `bar` by the bytes it hands on.
pub struct Reading<R> {
    inner: R,
    bar: ProgressBar,
}

impl<R> Reading<R> {
    pub fn new(inner: R, bar: ProgressBar) -> Self {
        Reading { inner, bar }
    }
}

impl<R: Read> Read for Reading<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Reading<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.bar.inc(amt as u64);
        self.inner.consume(amt);
    }
}

/// A writer that moves `bar` by the lines it is given.
pub struct Writing<W> {
    inner: W,
    bar: ProgressBar,
}

impl<W> Writing<W> {
    pub fn new(inner: W, bar: ProgressBar) -> Self {
        Writing { inner, bar }
    }

    /// The writer written to (a file to sync).
    pub fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: Write> Write for Writing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        // memchr-fast enough: the buffers are the journal's encoded events.
        let lines = buf[..n].iter().filter(|&&b| b == b'\n').count();
        if lines > 0 {
            self.bar.inc(lines as u64);
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
