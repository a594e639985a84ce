//! Studying a game afterwards: notes and bookmarks on any moment, names for
//! branches, two lines of play compared, and a story told with its
//! variations. Notes and names are events of their branch (see
//! `tabletape_engine::notes`); comparing and telling variations only read.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabletape_engine::dice::ShareStep;
use tabletape_engine::narrative::{Variation, VARIATION_LINES};
use tabletape_engine::{notes, Narrative, PlayResult, Viewer};
use tabletape_events::{Actor, Body, BranchName, Note};

use super::{now_ms, race_attempts, Access, Acted, Journal, JournalError};
use crate::diff::differences;
use crate::error::StoreError;
use crate::log::{BranchRecord, Draft};

/// A note (or bookmark) to write on a moment of a branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteRequest {
    /// The branch to write on; the game's current line when left out.
    #[serde(default)]
    pub branch: Option<String>,
    /// The seq of the moment the note is about.
    #[serde(deserialize_with = "crate::whole::number")]
    pub at: u64,
    /// A short title makes the note a bookmark ("the turning point").
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub text: String,
    /// Kept from the other seats (and the public) until the game is over.
    #[serde(default)]
    pub private: bool,
    #[serde(default, deserialize_with = "crate::whole::optional")]
    pub expect_seq: Option<u64>,
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

/// A title and description for a branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NameRequest {
    /// The branch to name; the game's current line when left out.
    #[serde(default)]
    pub branch: Option<String>,
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
}

/// Where one of two compared lines went after they parted.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LineOutcome {
    pub branch: String,
    /// The branch's name at the table, if it was given one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub head_seq: u64,
    pub over: bool,
    /// Its story from the moment the lines part.
    pub story: Vec<String>,
    /// Its closing (the outcome once over, the standings while in play).
    pub closing: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<PlayResult>,
}

/// One place where two states differ: a path in the state view and the
/// value on each line (absent where that line has none).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Difference {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<Value>,
}

/// Two lines of one game side by side.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Comparison {
    pub game: String,
    /// The last seq the lines share, and the branch whose event it is.
    pub common_seq: u64,
    pub common_branch: String,
    /// The first seq at which they differ (`common_seq + 1`), or none when
    /// one line is the other's prefix and nothing follows on either.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts_at: Option<u64>,
    pub a: LineOutcome,
    pub b: LineOutcome,
    /// The two heads' states compared, as the reader may see them.
    pub differences: Vec<Difference>,
}

impl Journal {
    /// Writes a note on a moment of a branch, during play or after it:
    /// an event of the branch that changes nothing else. Open to the
    /// owner and every seat; the public reads but does not write.
    pub fn note(&self, game: &str, req: NoteRequest, by: Access) -> Result<Acted, JournalError> {
        let branch = self.line(game, req.branch)?;
        let note = Note {
            at: req.at,
            title: req.title,
            text: req.text,
            private: req.private,
        };
        self.annotate(
            game,
            &branch,
            Body::Noted(note),
            by,
            req.expect_seq,
            req.idempotency_key.as_deref(),
        )
    }

    /// Names a branch at the table ("Nowa jumps back") and says what it is
    /// about. The branch's own name (in every event's envelope) stays; the
    /// last naming on the branch is what lists and stories call it.
    pub fn name_branch(
        &self,
        game: &str,
        req: NameRequest,
        by: Access,
    ) -> Result<Acted, JournalError> {
        let branch = self.line(game, req.branch)?;
        let name = BranchName {
            title: req.title,
            description: req.description,
        };
        self.annotate(game, &branch, Body::BranchNamed(name), by, None, None)
    }

    /// Appends an event that is not an action (a note, a name, a share of
    /// the dice) on the branch's head, as `act` appends an action.
    pub(super) fn annotate(
        &self,
        game: &str,
        branch: &str,
        body: Body,
        by: Access,
        expect_seq: Option<u64>,
        key: Option<&str>,
    ) -> Result<Acted, JournalError> {
        let meta = self.meta(game)?;
        self.record(game, branch)?;
        let actor = match by {
            Access::Owner => Actor::Owner,
            Access::Seat(seat) => Actor::Seat(seat),
            Access::Public => {
                return Err(JournalError::Forbidden(
                    "writing a note, naming a branch or adding to the dice needs the owner's or a seat's token".into(),
                ))
            }
        };
        Self::check_seat(&meta, super::seat_of(actor))?;
        let viewer = by.viewer();
        if let Some(key) = key {
            super::check_idempotency_key(key)?;
            if let Some(receipt) = self.shared.log.receipt(game, branch, key)? {
                self.check_same_annotation(game, branch, key, &receipt, actor, &body)?;
                return self.last_acted(game, branch, &receipt, viewer);
            }
        }
        let mut lost_race = None;
        for _ in race_attempts() {
            let mut folded = self.fold_owned(game, branch, None)?;
            let head = folded.seq();
            if let Some(expected) = expect_seq.filter(|&e| e != head) {
                return Err(JournalError::Conflict { expected, head });
            }
            match &body {
                Body::Noted(note) => notes::check_note(note, head + 1),
                Body::BranchNamed(name) => notes::check_name(name),
                Body::ContributionCommitted { commitment } => {
                    folded.check_share(actor, ShareStep::Commit(commitment))
                }
                Body::ContributionRevealed { contribution } => {
                    folded.check_share(actor, ShareStep::Reveal(contribution))
                }
                _ => unreachable!("actions and forks are written elsewhere"),
            }
            .map_err(JournalError::Rejected)?;
            let draft = Draft::new(now_ms(), actor, body.clone())?;
            match self.append_counted(game, branch, head, key, vec![draft]) {
                Ok(appended) if appended.receipt.retried => {
                    let key = key.expect("only a keyed append is retried");
                    self.check_same_annotation(game, branch, key, &appended.receipt, actor, &body)?;
                    return self.last_acted(game, branch, &appended.receipt, viewer);
                }
                Ok(appended) => {
                    let event = &appended.events[0];
                    let narration = folded.apply_as(event, viewer)?;
                    if self.snapshot_due(event.seq) {
                        self.keep_snapshot(game, branch, &folded.snapshot());
                    }
                    let over = folded.is_over();
                    self.cache_put(game, branch, Arc::new(folded));
                    return Ok(Acted {
                        seq: event.seq,
                        hash: event.hash.clone(),
                        narration,
                        over,
                        retried: false,
                    });
                }
                Err(StoreError::Conflict { expected, head }) if expect_seq.is_none() => {
                    lost_race = Some(JournalError::Conflict { expected, head });
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(lost_race.expect("the loop ran at least once"))
    }

    /// A retried note must be the same note by the same hand.
    fn check_same_annotation(
        &self,
        game: &str,
        branch: &str,
        key: &str,
        receipt: &crate::log::Receipt,
        actor: Actor,
        body: &Body,
    ) -> Result<(), JournalError> {
        let stored =
            self.shared
                .log
                .read(game, branch, receipt.first_seq, Some(receipt.first_seq))?;
        if stored
            .first()
            .is_some_and(|e| e.actor == actor && &e.body == body)
        {
            return Ok(());
        }
        Err(JournalError::Rejected(tabletape_engine::Rejection::new(
            "idempotency.key_reused",
            format!(
                "idempotency key `{key}` was already used for another request (seq {}); use a new key for a new note",
                receipt.first_seq
            ),
        )))
    }

    /// The branches whose events make up `branch`'s history, oldest first,
    /// each with the last seq of the history it holds.
    fn lineage(
        &self,
        records: &[BranchRecord],
        branch: &str,
    ) -> Result<Vec<(String, u64)>, JournalError> {
        let mut out = Vec::new();
        let mut name = branch.to_string();
        let mut limit: Option<u64> = None;
        loop {
            let r = records.iter().find(|r| r.name == name).ok_or_else(|| {
                JournalError::NotFound(format!("the game has no branch `{name}`"))
            })?;
            let upto = limit.map_or(r.head_seq, |l| l.min(r.head_seq));
            // A fork of a fork made before the latter's own fork point holds
            // none of the latter's events: its past is the older line's.
            if upto > r.fork_seq.unwrap_or(0) {
                out.push((r.name.clone(), upto));
            }
            match (&r.parent, r.fork_seq) {
                (Some(parent), Some(at)) => {
                    name = parent.clone();
                    limit = Some(upto.min(at));
                }
                _ => break,
            }
        }
        out.reverse();
        Ok(out)
    }

    /// The last seq two lines share and the branch that holds it.
    fn common(
        &self,
        records: &[BranchRecord],
        a: &str,
        b: &str,
    ) -> Result<(u64, String), JournalError> {
        let (a, b) = (self.lineage(records, a)?, self.lineage(records, b)?);
        let mut common = (0, String::new());
        for ((name_a, upto_a), (name_b, upto_b)) in a.iter().zip(&b) {
            if name_a != name_b {
                break;
            }
            common = ((*upto_a).min(*upto_b), name_a.clone());
            if upto_a != upto_b {
                break;
            }
        }
        Ok(common)
    }

    /// Where a line went from seq `after` on, as `viewer` may know it.
    fn outcome(
        &self,
        game: &str,
        branch: &str,
        after: u64,
        viewer: Viewer,
    ) -> Result<LineOutcome, JournalError> {
        let head = self.fold(game, branch, None)?;
        let story = self.story_since(game, branch, after, viewer)?;
        Ok(LineOutcome {
            branch: branch.to_string(),
            title: head.line_title(branch).map(|t| t.title.clone()),
            head_seq: head.seq(),
            over: head.is_over(),
            story,
            closing: head.epilogue(),
            result: head.result(),
        })
    }

    /// A line's story after seq `after`, as `viewer` may know it: what
    /// was played and noted (its naming is its title, not its story).
    fn story_since(
        &self,
        game: &str,
        branch: &str,
        after: u64,
        viewer: Viewer,
    ) -> Result<Vec<String>, JournalError> {
        let viewer = self.effective_viewer(game, viewer)?;
        let mut folded = self.fold_owned(game, branch, Some(after.max(1)))?;
        let mut lines = Vec::new();
        for event in self.shared.log.read(game, branch, after.max(1) + 1, None)? {
            let told = folded.apply_as(&event, viewer)?;
            if !matches!(event.body, Body::BranchNamed(_)) {
                lines.extend(told);
            }
        }
        Ok(lines)
    }

    /// Two lines of a game side by side: where they part, each one's story
    /// from there and how it came out, and how their heads' states differ,
    /// all as `viewer` may know them (each line judged on its own head).
    pub fn compare(
        &self,
        game: &str,
        a: &str,
        b: &str,
        viewer: Viewer,
    ) -> Result<Comparison, JournalError> {
        self.meta(game)?;
        let records = self.shared.log.branches(game)?;
        let (common_seq, common_branch) = self.common(&records, a, b)?;
        let line_a = self.outcome(game, a, common_seq, viewer)?;
        let line_b = self.outcome(game, b, common_seq, viewer)?;
        let parts_at = (line_a.head_seq > common_seq || line_b.head_seq > common_seq)
            .then_some(common_seq + 1);
        let view_a = self.state(game, a, None, viewer)?.view;
        let view_b = self.state(game, b, None, viewer)?.view;
        let differences = differences(&view_a, &view_b)
            .into_iter()
            .map(|(path, a, b)| Difference { path, a, b })
            .collect();
        Ok(Comparison {
            game: game.to_string(),
            common_seq,
            common_branch,
            parts_at,
            a: line_a,
            b: line_b,
            differences,
        })
    }

    /// The story of `branch` with every other line of the game told as a
    /// variation beside the moment it parts from this one (a line that adds
    /// nothing after that moment is left out), as `viewer` may know each.
    pub fn narrate_with_variations(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
    ) -> Result<Narrative, JournalError> {
        let records = self.shared.log.branches(game)?;
        let mut variations = Vec::new();
        for other in records.iter().filter(|r| r.name != branch) {
            let (at, _) = self.common(&records, branch, &other.name)?;
            if other.head_seq <= at {
                continue;
            }
            let outcome = self.outcome(game, &other.name, at, viewer)?;
            let head = self.fold(game, &other.name, None)?;
            let named = head.line_title(&other.name);
            let mut lines = outcome.story;
            let more = lines.len().saturating_sub(VARIATION_LINES);
            lines.truncate(VARIATION_LINES);
            variations.push(Variation {
                branch: other.name.clone(),
                at,
                title: named.map(|n| n.title.clone()),
                description: named.and_then(|n| n.description.clone()),
                lines,
                more,
                head_seq: outcome.head_seq,
                over: outcome.over,
                outcome: if outcome.over {
                    outcome.closing
                } else {
                    Vec::new()
                },
            });
        }
        self.narrate_told(game, branch, viewer, variations)
    }
}
