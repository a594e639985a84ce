//! Packs already read and checked, kept by their JSON.
//!
//! A game's creation reads its pack, checks it and writes it in canonical
//! form; laying the game out reads it again, and so do a replay, a
//! verification and an import of the same game. Every game of a kind mostly
//! plays the bundled pack, and reading one (a Lost Worlds pack is dozens of
//! books, each restriction parsed) cost more than the rest of a short game.
//! A pack that read and checked once is kept here, with its canonical form,
//! for the next reader of the same JSON. Only what passed is kept: an
//! error is found again each time, so it is always said the same way.

use std::sync::{Arc, Mutex};

use serde_json::Value;

/// How many packs a kind keeps: the bundled one, and a few of a table's own.
const KEPT: usize = 8;

/// One pack as read: the JSON it was read from, its typed reading (checked)
/// and, once asked for, its canonical form.
struct Read<P> {
    given: Value,
    pack: Arc<P>,
    canonical: Option<Value>,
}

/// The packs a kind has read, the most recently used last.
pub(crate) struct ReadPacks<P> {
    packs: Mutex<Vec<Read<P>>>,
}

impl<P> ReadPacks<P> {
    pub(crate) const fn new() -> Self {
        ReadPacks {
            packs: Mutex::new(Vec::new()),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Vec<Read<P>>) -> T) -> T {
        // A panic elsewhere while holding the lock leaves the list whole
        // (every change is a push, a remove or a field set).
        let mut packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut packs)
    }

    /// The checked pack read from `given` (or from the canonical form it
    /// was written back as), if it was read before.
    pub(crate) fn get(&self, given: &Value) -> Option<Arc<P>> {
        self.with(|packs| {
            let i = packs
                .iter()
                .position(|r| r.given == *given || r.canonical.as_ref() == Some(given))?;
            let read = packs.remove(i);
            let pack = Arc::clone(&read.pack);
            packs.push(read);
            Some(pack)
        })
    }

    /// The canonical form of `given`, if it was read and written back before.
    pub(crate) fn canonical(&self, given: &Value) -> Option<Value> {
        self.with(|packs| {
            packs
                .iter()
                .find(|r| r.given == *given)
                .and_then(|r| r.canonical.clone())
        })
    }

    /// Keeps `pack`, read from `given` and checked, with its canonical form
    /// when known.
    pub(crate) fn keep(&self, given: &Value, pack: Arc<P>, canonical: Option<Value>) {
        self.with(|packs| {
            if let Some(i) = packs.iter().position(|r| r.given == *given) {
                let mut read = packs.remove(i);
                read.canonical = read.canonical.take().or(canonical);
                packs.push(read);
                return;
            }
            if packs.len() == KEPT {
                packs.remove(0);
            }
            packs.push(Read {
                given: given.clone(),
                pack,
                canonical,
            });
        })
    }
}
