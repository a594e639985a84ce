//! A log that counts the calls made into it, for tests of how often the
//! journal goes to its store (a round trip each, on a networked log).

use std::sync::{Arc, Mutex};

use tabletape_engine::Snapshot;
use tabletape_events::Event;
use tabletape_store::{
    Appended, BranchRecord, Draft, FoldStep, GameMeta, Head, Log, Receipt, Staged, StoreError,
};

pub struct Counted {
    inner: Arc<dyn Log>,
    calls: Mutex<Vec<&'static str>>,
}

impl Counted {
    pub fn new(inner: Arc<dyn Log>) -> Arc<Counted> {
        Arc::new(Counted {
            inner,
            calls: Mutex::default(),
        })
    }

    /// The calls made since the last `take`, by name, in order.
    pub fn take(&self) -> Vec<&'static str> {
        std::mem::take(&mut *self.calls.lock().unwrap())
    }

    fn count(&self, call: &'static str) {
        self.calls.lock().unwrap().push(call);
    }
}

impl Log for Counted {
    fn create_game(&self, meta: &GameMeta, created: Draft) -> Result<Appended, StoreError> {
        self.count("create_game");
        self.inner.create_game(meta, created)
    }

    fn game(&self, game: &str) -> Result<Option<GameMeta>, StoreError> {
        self.count("game");
        self.inner.game(game)
    }

    fn games(&self) -> Result<Vec<GameMeta>, StoreError> {
        self.count("games");
        self.inner.games()
    }

    fn games_after(&self, after: Option<&str>, max: usize) -> Result<Vec<GameMeta>, StoreError> {
        self.count("games_after");
        self.inner.games_after(after, max)
    }

    fn admin_token_hash(&self) -> Result<Option<String>, StoreError> {
        self.count("admin_token_hash");
        self.inner.admin_token_hash()
    }

    fn set_admin_token_hash(&self, hash: &str) -> Result<(), StoreError> {
        self.count("set_admin_token_hash");
        self.inner.set_admin_token_hash(hash)
    }

    fn first_admin_token_hash(&self, hash: &str) -> Result<bool, StoreError> {
        self.count("first_admin_token_hash");
        self.inner.first_admin_token_hash(hash)
    }

    fn take_back(
        &self,
        game: &str,
        from: &str,
        head: Head<'_>,
        branch: &str,
    ) -> Result<(), StoreError> {
        self.count("take_back");
        self.inner.take_back(game, from, head, branch)
    }

    fn mark_over(&self, game: &str) -> Result<(), StoreError> {
        self.count("mark_over");
        self.inner.mark_over(game)
    }

    fn branch(&self, game: &str, branch: &str) -> Result<Option<BranchRecord>, StoreError> {
        self.count("branch");
        self.inner.branch(game, branch)
    }

    fn branches(&self, game: &str) -> Result<Vec<BranchRecord>, StoreError> {
        self.count("branches");
        self.inner.branches(game)
    }

    fn append(
        &self,
        game: &str,
        branch: &str,
        expected_seq: Option<u64>,
        idempotency_key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Appended, StoreError> {
        self.count("append");
        self.inner
            .append(game, branch, expected_seq, idempotency_key, drafts)
    }

    fn append_on(
        &self,
        game: &str,
        branch: &str,
        head: Head<'_>,
        idempotency_key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Option<Appended>, StoreError> {
        self.count("append_on");
        self.inner
            .append_on(game, branch, head, idempotency_key, drafts)
    }

    fn receipt(
        &self,
        game: &str,
        branch: &str,
        idempotency_key: &str,
    ) -> Result<Option<Receipt>, StoreError> {
        self.count("receipt");
        self.inner.receipt(game, branch, idempotency_key)
    }

    fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: &str,
        created_at_ms: u64,
        first: Option<Draft>,
    ) -> Result<BranchRecord, StoreError> {
        self.count("fork");
        self.inner.fork(game, from, at, name, created_at_ms, first)
    }

    fn read(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<Event>, StoreError> {
        self.count("read");
        self.inner.read(game, branch, from_seq, to_seq)
    }

    fn read_steps(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<FoldStep>, StoreError> {
        self.count("read_steps");
        self.inner.read_steps(game, branch, from_seq, to_seq)
    }

    fn put_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        self.count("put_snapshot");
        self.inner.put_snapshot(game, branch, snapshot)
    }

    fn snapshot_at_or_before(
        &self,
        game: &str,
        branch: &str,
        at: u64,
    ) -> Result<Option<Snapshot>, StoreError> {
        self.count("snapshot_at_or_before");
        self.inner.snapshot_at_or_before(game, branch, at)
    }

    fn drop_snapshots(&self) -> Result<u64, StoreError> {
        self.count("drop_snapshots");
        self.inner.drop_snapshots()
    }

    fn import_events(&self, game: &str, events: &[Staged]) -> Result<(), StoreError> {
        self.count("import_events");
        self.inner.import_events(game, events)
    }

    fn import_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        self.count("import_snapshot");
        self.inner.import_snapshot(game, branch, snapshot)
    }

    fn own_event(&self, game: &str, branch: &str, seq: u64) -> Result<Option<Event>, StoreError> {
        self.count("own_event");
        self.inner.own_event(game, branch, seq)
    }

    fn import_game(&self, meta: &GameMeta, branches: &[BranchRecord]) -> Result<(), StoreError> {
        self.count("import_game");
        self.inner.import_game(meta, branches)
    }

    fn import_branches(&self, game: &str, branches: &[BranchRecord]) -> Result<(), StoreError> {
        self.count("import_branches");
        self.inner.import_branches(game, branches)
    }

    fn commit_import(&self, meta: &GameMeta) -> Result<(), StoreError> {
        self.count("commit_import");
        self.inner.commit_import(meta)
    }

    fn discard_import(&self, game: &str) -> Result<(), StoreError> {
        self.count("discard_import");
        self.inner.discard_import(game)
    }

    fn watch(&self, on_change: Arc<dyn Fn(&str) + Send + Sync>) {
        self.count("watch");
        self.inner.watch(on_change)
    }

    fn healthy(&self) -> Result<(), StoreError> {
        self.count("healthy");
        self.inner.healthy()
    }
}
