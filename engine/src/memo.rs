//! What a state works out from its own content, kept once worked out.

use std::sync::{Arc, OnceLock};

/// A value a state works out from content it never changes (a board read
/// from its plan, a map from its scenario), kept from the first time it is
/// asked for. It is not stored (a state read back works it out again),
/// clones of the state share it (they share that content unchanged), and it
/// plays no part in what makes two states equal, since it follows from what
/// does.
#[derive(Debug)]
pub struct Memo<T>(Arc<OnceLock<T>>);

impl<T> Memo<T> {
    pub fn get_or_init(&self, work_out: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(work_out)
    }
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo(Arc::default())
    }
}

impl<T> Clone for Memo<T> {
    fn clone(&self) -> Self {
        Memo(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}
