//! The note a running `tabletape serve` leaves in its store: `serve.json`.
//!
//! sled lets one process hold a store, so while `serve` runs, the CLI on the
//! same store reaches it through the server. The note says where: the
//! server's pid, the address it listens on (the real one, for `--addr
//! 127.0.0.1:0`) and the operator token of this run (see
//! `tabletape_api::Operator`). Only the user who started the server may read
//! it (mode 0600); the server removes it when it stops, and a note whose
//! process is gone is ignored.

use std::fs::OpenOptions;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The note's file name in a store directory.
pub const SERVE_FILE: &str = "serve.json";

/// What a running server tells the CLI beside it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServeNote {
    pub pid: u32,
    pub addr: SocketAddr,
    /// The operator token of this run: the owner of every game and admin.
    pub token: String,
}

impl std::fmt::Debug for ServeNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeNote")
            .field("pid", &self.pid)
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

pub fn note_path(store: &Path) -> PathBuf {
    store.join(SERVE_FILE)
}

/// Writes the note for this run, readable by the user alone. It is written
/// beside and renamed into place, so a reader never sees half of it.
pub fn write(store: &Path, note: &ServeNote) -> std::io::Result<()> {
    let path = note_path(store);
    let staged = store.join(format!("{SERVE_FILE}.tmp"));
    // A left-over staging file keeps its old mode: start afresh.
    let _ = std::fs::remove_file(&staged);
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&staged)?;
    let json = serde_json::to_string(note).expect("notes serialize");
    file.write_all(json.as_bytes())?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&staged, &path)
}

/// Removes the note (when the server stops).
pub fn remove(store: &Path) {
    let _ = std::fs::remove_file(note_path(store));
}

/// The note of a server that still runs, if the store has one: a missing,
/// unreadable or unparsable note, or one whose process is gone, is none.
pub fn read_live(store: &Path) -> Option<ServeNote> {
    let text = std::fs::read_to_string(note_path(store)).ok()?;
    let note: ServeNote = serde_json::from_str(&text).ok()?;
    if note.token.is_empty() || pid_alive(note.pid) == Some(false) {
        return None;
    }
    Some(note)
}

/// Whether a process runs with this pid: known where `/proc` is mounted,
/// unknown elsewhere (then only a connection to the address tells).
fn pid_alive(pid: u32) -> Option<bool> {
    if !Path::new("/proc/self").exists() {
        return None;
    }
    Some(Path::new(&format!("/proc/{pid}")).exists())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_the_users_alone_and_a_dead_pid_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let note = ServeNote {
            pid: std::process::id(),
            addr: "127.0.0.1:7878".parse().unwrap(),
            token: "ab".repeat(32),
        };
        assert_eq!(read_live(dir.path()), None);
        write(dir.path(), &note).unwrap();
        assert_eq!(read_live(dir.path()), Some(note.clone()));
        assert!(!format!("{note:?}").contains(&note.token));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(note_path(dir.path()))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // Written again (a restart): replaced whole.
        let again = ServeNote {
            token: "cd".repeat(32),
            ..note.clone()
        };
        write(dir.path(), &again).unwrap();
        assert_eq!(read_live(dir.path()), Some(again));
        if pid_alive(u32::MAX) == Some(false) {
            let dead = ServeNote {
                pid: u32::MAX,
                ..note
            };
            write(dir.path(), &dead).unwrap();
            assert_eq!(read_live(dir.path()), None);
        }
        remove(dir.path());
        assert!(!note_path(dir.path()).exists());
    }
}
