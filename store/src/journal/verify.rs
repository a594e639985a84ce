//! Checking a store: every hash and link, and every stored action decided
//! again to the same facts and draws (for the owner, or anyone once the
//! game is over); the chain as a seat sees it otherwise.

use std::ops::ControlFlow;

use super::*;
use crate::log::read_ahead;
use tabletape_engine::Recheck;
use tabletape_events::{FactText, FoldForm};

/// The outcome of verifying one branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct VerifyReport {
    pub game: String,
    pub branch: String,
    /// Events checked (the branch's whole history, or up to the problem).
    pub events: u64,
    pub problem: Option<Problem>,
    /// Which check was made.
    #[serde(default)]
    pub check: Check,
    /// For a game recorded under an earlier version of its kind's rules:
    /// the events today's rules would decide differently. They are not
    /// faults: the stored facts are the record, and fold as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earlier_rules: Option<EarlierRules>,
}

/// What `verify` found of a game recorded under earlier rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EarlierRules {
    /// The rules version the game was recorded under.
    pub recorded: u32,
    /// The version this build decides by.
    pub today: u32,
    /// Each event today's rules would decide differently, and how.
    pub decided_differently: Vec<Problem>,
}

/// One branch's check: how many events held, the first fault, and what
/// earlier rules account for.
pub(super) struct BranchCheck {
    pub(super) events: u64,
    pub(super) problem: Option<Problem>,
    pub(super) earlier_rules: Option<EarlierRules>,
}

/// How far a verification could go for its viewer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// Every hash and link, and every action re-decided to the same facts
    /// and draws: the owner's check, and anyone's once the game is over.
    #[default]
    Full,
    /// The chain a seat or the public sees: every part it may see against
    /// its commitment, every hash, every link.
    VisibleChain,
}

/// The first bad event of a branch and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Problem {
    pub seq: u64,
    pub what: String,
}

impl Journal {
    /// Checks every branch of one game (or of all games): the hash of each
    /// event, each `prev_hash` link, and a strict replay that re-decides every
    /// stored action and compares the facts and chance draws it yields.
    pub fn verify(&self, game: Option<&str>) -> Result<Vec<VerifyReport>, JournalError> {
        let games = match game {
            Some(g) => vec![self.meta(g)?],
            None => self.shared.log.games()?,
        };
        let mut reports = Vec::new();
        for meta in games {
            let mut whole = Whole::default();
            for branch in self.shared.log.branches(&meta.game)? {
                let checked = self.verify_branch(&meta.game, &branch, &mut whole)?;
                reports.push(VerifyReport {
                    game: meta.game.clone(),
                    branch: branch.name,
                    events: checked.events,
                    problem: checked.problem,
                    check: Check::Full,
                    earlier_rules: checked.earlier_rules,
                });
            }
        }
        Ok(reports)
    }

    /// [`Journal::verify`] for one game as `viewer` may check it. The owner,
    /// and anyone on a branch whose game is over, gets the full check. A seat
    /// or the public checks the chain it can see: every visible part against
    /// its commitment, every hash against its envelope and seals, every link
    /// (re-deciding needs the secrets, so that is the owner's check).
    pub fn verify_as(&self, game: &str, viewer: Viewer) -> Result<Vec<VerifyReport>, JournalError> {
        let meta = self.meta(game)?;
        let mut reports = Vec::new();
        let mut whole = Whole::default();
        for branch in self.shared.log.branches(&meta.game)? {
            let full = self.effective_viewer(game, viewer)? == Viewer::Owner;
            let checked = if full {
                self.verify_branch(&meta.game, &branch, &mut whole)?
            } else {
                let (events, problem) = self.verify_shown(&meta.game, &branch, viewer)?;
                BranchCheck {
                    events,
                    problem,
                    earlier_rules: None,
                }
            };
            reports.push(VerifyReport {
                game: meta.game.clone(),
                branch: branch.name,
                events: checked.events,
                problem: checked.problem,
                earlier_rules: checked.earlier_rules,
                check: if full {
                    Check::Full
                } else {
                    Check::VisibleChain
                },
            });
        }
        Ok(reports)
    }

    /// The visible chain of one branch, a chunk of events at a time.
    fn verify_shown(
        &self,
        game: &str,
        branch: &BranchRecord,
        viewer: Viewer,
    ) -> Result<(u64, Option<Problem>), JournalError> {
        let mut next = 1;
        let mut last: Option<ShownEvent> = None;
        while next <= branch.head_seq {
            let upto = branch.head_seq.min(next + self.read_chunk - 1);
            let shown = match self.events_as(game, &branch.name, next, Some(upto), viewer) {
                Ok(shown) => shown,
                Err(JournalError::Store(StoreError::BadEvent { seq, why, .. })) => {
                    return Ok((seq.saturating_sub(1), Some(Problem { seq, what: why })))
                }
                Err(e) => return Err(e),
            };
            // The link into this chunk is checked with the chunk before's last event.
            let chunk: Vec<ShownEvent> = last.take().into_iter().chain(shown).collect();
            if let Err(brk) = check_shown(&chunk) {
                return Ok((
                    brk.seq.saturating_sub(1),
                    Some(Problem {
                        seq: brk.seq,
                        what: brk.what,
                    }),
                ));
            }
            last = chunk.into_iter().last();
            next = upto + 1;
        }
        if last.is_some_and(|e| e.hash != branch.head_hash) {
            return Ok((
                branch.head_seq,
                Some(Problem {
                    seq: branch.head_seq,
                    what: "the branch head's recorded hash differs from its last event's".into(),
                }),
            ));
        }
        Ok((branch.head_seq, None))
    }

    /// Returns how many events checked out, and the first problem. A game
    /// recorded under earlier rules folds its stored facts where today's
    /// rules decide otherwise; each such event is listed, not a fault.
    pub(super) fn verify_branch(
        &self,
        game: &str,
        branch: &BranchRecord,
        whole: &mut Whole,
    ) -> Result<BranchCheck, JournalError> {
        let mut earlier_rules = None;
        let (events, problem) = self.check_branch(game, branch, &mut earlier_rules, whole)?;
        Ok(BranchCheck {
            events,
            problem,
            earlier_rules,
        })
    }

    /// [`Journal::verify_branch`], listing in `earlier` what earlier rules
    /// account for as it goes.
    fn check_branch(
        &self,
        game: &str,
        branch: &BranchRecord,
        earlier: &mut Option<EarlierRules>,
        whole: &mut Whole,
    ) -> Result<(u64, Option<Problem>), JournalError> {
        let mut line = LineCheck::new(game);
        let checked = self.check_line(game, branch, &mut line, whole);
        *earlier = line.earlier.take();
        checked
    }

    fn check_line(
        &self,
        game: &str,
        branch: &BranchRecord,
        line: &mut LineCheck,
        whole: &mut Whole,
    ) -> Result<(u64, Option<Problem>), JournalError> {
        let mut found = None;
        read_ahead(
            (1, branch.head_seq, self.read_chunk),
            |lo, hi| self.shared.log.read(game, &branch.name, lo, Some(hi)),
            |events| -> Result<_, JournalError> {
                found = match events {
                    Ok(events) => events.iter().find_map(|e| line.check(e, whole).err()),
                    Err(StoreError::BadEvent { seq, why, .. }) => Some(Problem { seq, what: why }),
                    Err(e) => return Err(e.into()),
                };
                Ok(match found {
                    Some(_) => ControlFlow::Break(()),
                    None => ControlFlow::Continue(()),
                })
            },
        )?;
        if let Some(problem) = found {
            return Ok(fault(problem));
        }
        Ok(match line.end(branch) {
            Ok(()) => (branch.head_seq, None),
            Err(problem) => fault(problem),
        })
    }
}

/// How far a line that met `problem` checked out, and the problem.
fn fault(problem: Problem) -> (u64, Option<Problem>) {
    (problem.seq.saturating_sub(1), Some(problem))
}

/// One line's check, an event at a time from seq 1: each hash and link,
/// what its history allows, and each action decided again and folded. A
/// verify feeds it what it reads back; an import, each line as it comes in.
pub(super) struct LineCheck {
    game: String,
    folded: Option<Game>,
    prev_hash: String,
    history: History,
    /// What earlier rules account for, so far.
    pub(super) earlier: Option<EarlierRules>,
}

impl LineCheck {
    pub(super) fn new(game: &str) -> LineCheck {
        LineCheck {
            game: game.to_string(),
            folded: None,
            prev_hash: String::new(),
            history: History::default(),
            earlier: None,
        }
    }

    /// The line folded so far (none before its creation is checked).
    pub(super) fn folded(&self) -> Option<&Game> {
        self.folded.as_ref()
    }

    /// The line's fold, once every event is checked (none before its
    /// creation is).
    pub(super) fn into_folded(self) -> Option<Game> {
        self.folded
    }

    /// Checks and folds the next event; the first fault is the line's.
    /// Returns the compact form of an accepted action's facts as the rules
    /// decided them again (none when it was not decided here), for an
    /// import to store beside them.
    pub(super) fn check(&mut self, event: &Event, whole: &mut Whole) -> Result<FoldForm, Problem> {
        let seq = event.seq;
        let problem = |what: String| Err(Problem { seq, what });
        if event.game != self.game {
            return problem(format!("the event names game `{}`", event.game));
        }
        if event.prev_hash != self.prev_hash {
            return problem("prev_hash does not match the hash of the event before it".into());
        }
        // An event a line shares with one checked before (a fork's past)
        // was hashed and decided again there.
        let digest = digest(&event.hash);
        let checked_before = digest.is_some_and(|d| whole.checked.contains(&d));
        let hashed = checked_before || whole.hashed_on_the_way_in;
        if !hashed && event_hash(event) != event.hash {
            return problem(
                "the hash does not match the event's content (tampered or corrupt)".into(),
            );
        }
        self.prev_hash.clone_from(&event.hash);
        if let Some(why) = self.history.fault(event) {
            return problem(why);
        }
        let Some(g) = self.folded.as_mut() else {
            match Game::from_first(event) {
                Ok(g) => self.folded = Some(g),
                Err(e) => return problem(format!("the game cannot be laid out again: {e}")),
            }
            if !checked_before {
                if let Some(why) = created_of(event).ok().and_then(uncanonical_creation) {
                    return problem(why);
                }
                whole.checked.extend(digest);
            }
            return Ok(FoldForm::default());
        };
        if let Some(why) = annotation_fault(event, g.created().players.len()) {
            return problem(why);
        }
        if let Some(why) = actor_fault(g, event) {
            return problem(why);
        }
        let mut found_whole = true;
        let mut folded = None;
        if let Body::ActionAccepted(stored) = &event.body {
            if !checked_before {
                let what = match g.recheck(event) {
                    Ok(Recheck::Folded(form)) => {
                        folded = Some(form);
                        None
                    }
                    Ok(Recheck::Differs(decided)) => Some(difference(stored, &decided)),
                    Ok(Recheck::Refused(r)) => {
                        Some(format!("the rules now reject the stored action: {r}"))
                    }
                    Err(e) => return problem(format!("cannot be folded: {e}")),
                };
                if let Some(what) = what {
                    found_whole = false;
                    match g.earlier_rules() {
                        Some((recorded, today)) => self
                            .earlier
                            .get_or_insert_with(|| EarlierRules {
                                recorded,
                                today,
                                decided_differently: Vec::new(),
                            })
                            .decided_differently
                            .push(Problem { seq, what }),
                        None => return problem(what),
                    }
                }
            }
        }
        if folded.is_none() {
            if let Err(e) = g.apply(event) {
                return problem(format!("cannot be folded: {e}"));
            }
        }
        // Listed only whole: what earlier rules decided otherwise is
        // listed again on every branch that holds it.
        if found_whole && !checked_before {
            whole.checked.extend(digest);
        }
        Ok(folded.unwrap_or_default())
    }

    /// Checks that the line ends where its record says its head is.
    pub(super) fn end(&self, branch: &BranchRecord) -> Result<(), Problem> {
        if self.prev_hash == branch.head_hash {
            return Ok(());
        }
        Err(Problem {
            seq: branch.head_seq,
            what: "the branch head's recorded hash differs from its last event's".into(),
        })
    }
}

/// The events of one game found whole so far, by hash (a hash covers the
/// event's branch and seq): hashed right, and decided again to what is
/// stored. A fork's past is its parent's events, checked once.
#[derive(Default)]
pub(super) struct Whole {
    /// Each event's hash as its 32 bytes, not its hex text: an import keeps
    /// one per event of the game, and as text each took a 64-byte
    /// allocation and its 24-byte handle.
    checked: HashSet<[u8; 32]>,
    /// Every event's hash was checked against its content as it came in
    /// (an import hashes each line before it writes it), so reading them
    /// back checks the rest: links, history, decisions.
    hashed_on_the_way_in: bool,
}

impl Whole {
    /// For an import: its events were hashed as they were read.
    pub(super) fn hashed_on_the_way_in() -> Whole {
        Whole {
            hashed_on_the_way_in: true,
            ..Whole::default()
        }
    }
}

/// What a line's history so far says of the events that may follow it: no
/// event is recorded before the one it follows, an idempotency key names one
/// append, a line once salted stays salted (the older, unsalted schema
/// hides nothing). A history rewritten and hashed anew still breaks these.
#[derive(Default)]
struct History {
    recorded_at_ms: u64,
    keys: HashMap<String, u64>,
    salted: bool,
}

impl History {
    fn fault(&mut self, event: &Event) -> Option<String> {
        if event.recorded_at_ms < self.recorded_at_ms {
            return Some(format!(
                "recorded at {} ms, before the event it follows ({} ms): times go backwards (rule history.time)",
                event.recorded_at_ms, self.recorded_at_ms
            ));
        }
        self.recorded_at_ms = event.recorded_at_ms;
        if let Some(key) = &event.idempotency_key {
            if let Some(first) = self.keys.get(key) {
                // One append may write several events under one key.
                if *first + 1 != event.seq {
                    return Some(format!(
                        "idempotency key `{key}` names seq {first} too: a key names one append (rule history.idempotency)"
                    ));
                }
            }
            self.keys.insert(key.clone(), event.seq);
        }
        let salted = !event.salt.is_empty();
        if !salted && (self.salted || event.schema_version >= 2) {
            return Some(
                "an event without its salt in a history of salted events (rule history.schema)"
                    .into(),
            );
        }
        self.salted |= salted;
        None
    }
}

/// Whether the seat that recorded an action could act for the seat the
/// action names: only for itself, or for the pieces the rules give it
/// (`Game::acts_for`). Checked whatever the rules version, since a log
/// under earlier rules may be decided otherwise and still be kept.
fn actor_fault(g: &Game, event: &Event) -> Option<String> {
    let (Actor::Seat(s), Body::ActionAccepted(accepted)) = (event.actor, &event.body) else {
        return None;
    };
    let named = accepted.action.get("seat")?.as_u64()?;
    let acts = Seat::try_from(named).is_ok_and(|n| g.acts_for(s, n));
    (!acts).then(|| {
        format!(
            "seat {s} recorded an action for seat {named}, which it does not play: a seat acts only for its own (rule history.actor)"
        )
    })
}

/// Why a stored note or branch name could not have been written, if it
/// could not: the checks made when one is written, and its author at a
/// table of `players`.
fn annotation_fault(event: &Event, players: usize) -> Option<String> {
    let checked = match &event.body {
        Body::Noted(note) => tabletape_engine::notes::check_note(note, event.seq),
        Body::BranchNamed(name) => tabletape_engine::notes::check_name(name),
        _ => return None,
    };
    if let Err(rejection) = checked {
        return Some(format!("the annotation could not be written: {rejection}"));
    }
    match seat_of(event.actor) {
        Some(s) if s as usize >= players => Some(format!(
            "the annotation names seat {s}, who is not at the table"
        )),
        _ => None,
    }
}

/// An event's hash as bytes; a hash that is not 64 hex digits has none (it
/// cannot be checked whole, and is hashed again wherever it is met).
fn digest(hash: &str) -> Option<[u8; 32]> {
    let mut bytes = [0; 32];
    hex::decode_to_slice(hash, &mut bytes).ok()?;
    Some(bytes)
}

/// How today's rules decide a stored action otherwise than it is stored:
/// read in another form, other facts or other draws.
fn difference(
    stored: &tabletape_events::ActionAccepted,
    decided: &tabletape_events::ActionAccepted,
) -> String {
    if decided.action != stored.action {
        return format!(
            "the stored action is not in the form the rules store it: {}",
            diff(&stored.action, &decided.action).join("; ")
        );
    }
    if decided.facts != stored.facts {
        return fact_difference(&stored.facts, &decided.facts);
    }
    if decided.chance == stored.chance {
        return "the facts' fold form (their compact copy) does not match them".into();
    }
    format!(
        "chance differs: stored {}, recomputed {}",
        serde_json::to_string(&stored.chance).expect("draws serialize"),
        serde_json::to_string(&decided.chance).expect("draws serialize")
    )
}

/// Why a creation's options or pack are not in the form the kind stores
/// them (written by an older build, or by hand), if they are not.
fn uncanonical_creation(created: &GameCreated) -> Option<String> {
    let kind = tabletape_engine::kind(&created.kind)?;
    match kind.canonical_options(&created.options) {
        Ok(options) if options == created.options => {}
        Ok(_) => {
            return Some("the creation's options are not in the form the kind stores them".into())
        }
        Err(e) => return Some(format!("the creation's options: {e}")),
    }
    match kind.canonical_pack(&created.pack, "<game pack>") {
        Ok(pack) if pack == created.pack => None,
        Ok(_) => Some("the creation's content pack is not in the form the kind stores it".into()),
        Err(e) => Some(format!("the creation's content pack: {e}")),
    }
}

/// Where re-decided facts part from the stored ones.
fn fact_difference(stored: &[FactText], decided: &[FactText]) -> String {
    if stored.len() != decided.len() {
        return format!(
            "decide now yields {} facts where {} are stored",
            decided.len(),
            stored.len()
        );
    }
    for (i, (s, d)) in stored.iter().zip(decided).enumerate() {
        if s != d {
            let (Ok(stored), Ok(decided)) = (s.value(), d.value()) else {
                return format!(
                    "fact {} differs from what decide yields now (nested too deeply to show how)",
                    i + 1
                );
            };
            let changes = diff(&stored, &decided);
            if changes.is_empty() {
                return format!(
                    "fact {} is not written in its canonical form (keys in order, no spaces)",
                    i + 1
                );
            }
            return format!(
                "fact {} differs from what decide yields now: {}",
                i + 1,
                changes.join("; ")
            );
        }
    }
    "facts differ".into()
}
