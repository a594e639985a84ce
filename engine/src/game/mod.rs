//! A game in play, whatever its kind: the fold and the decision, behind one type.
//!
//! [`Game`] erases the kind (its state lives behind `dyn Any`) so the store, the
//! CLI and the API can handle every kind alike with JSON actions and facts.

use std::any::Any;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabletape_events::{
    ActionAccepted, Actor, Body, DiceMode, Event, FactText, FoldForm, GameCreated, Seat,
};

use crate::chance::Chance;
use crate::dice::{Dice, ShareStep, DEAL_STREAM};
use crate::error::{EngineError, Rejection};
use crate::legal::LegalAction;
use crate::notes::{self, Annotations, LineTitle, NoteMark};
use crate::rng::TableRng;
use crate::rules::Viewer;

/// What `decide` made of an action: the body to store, its narration, and
/// the state it leads to.
#[derive(Debug)]
pub struct Decision {
    pub body: ActionAccepted,
    pub narration: Vec<String>,
    /// The state after the facts, already folded to narrate them; hand it to
    /// [`Game::accept`] once the event is stored instead of folding it again.
    pub next: NextState,
}

/// What [`Game::recheck`] found of a stored action.
#[derive(Debug)]
pub enum Recheck {
    /// The rules store exactly what the event holds; it is folded. With
    /// the facts' compact form, for a store to keep beside them.
    Folded(FoldForm),
    /// The rules would store this instead; nothing is folded.
    Differs(ActionAccepted),
    /// The rules refuse the action now; nothing is folded.
    Refused(Rejection),
}

/// The folded state a [`Decision`] leads to, for the event at `seq`.
pub struct NextState {
    seq: u64,
    state: Box<dyn Any + Send + Sync>,
}

impl std::fmt::Debug for NextState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NextState")
            .field("seq", &self.seq)
            .finish_non_exhaustive()
    }
}

impl NextState {
    /// The seq of the event this state follows.
    pub fn seq(&self) -> u64 {
        self.seq
    }
}

/// A folded state that can be cached and restored (a snapshot).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub seq: u64,
    pub seed: u64,
    /// The dice as folded (see [`crate::dice`]); a snapshot without them
    /// is of a game keyed by its seed alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<Dice>,
    /// The chapter heading at `seq`, for a reader of the stored snapshot;
    /// a game resumed from it works the heading out from the state.
    pub chapter: String,
    pub state: SavedState,
    /// The notes and branch names folded so far (see [`crate::notes`]).
    #[serde(default, skip_serializing_if = "Annotations::is_empty")]
    pub notes: Annotations,
}

/// A kind's state as a snapshot keeps it: its JSON text, written straight
/// from the typed state and read straight back into it. A tree of values
/// in between cost an import an eighth of its time (a Lost Worlds state
/// holds every fighter's book). The text is the state's fields in the
/// order its type declares them; a snapshot is a cache, never hashed, so
/// that order need not be canonical.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SavedState(Box<serde_json::value::RawValue>);

impl SavedState {
    /// `state`'s text.
    pub fn of<T: Serialize + ?Sized>(state: &T) -> SavedState {
        SavedState(serde_json::value::to_raw_value(state).expect("kind states serialize"))
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

/// Two saved states are equal when they hold the same values, whatever
/// the order their objects' keys were written in.
impl PartialEq for SavedState {
    fn eq(&self, other: &SavedState) -> bool {
        self.get() == other.get()
            || serde_json::from_str::<Value>(self.get()).ok()
                == serde_json::from_str::<Value>(other.get()).ok()
    }
}

mod kind;

pub use kind::{DynRules, Kind, Redecided, StoredFacts};

/// What one event tells: the story's lines, and the record's (the
/// bookkeeping a story keeps beside its prose: coordinates, page numbers,
/// dice arithmetic, tallies).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Told {
    pub story: Vec<String>,
    pub record: Vec<String>,
}

/// A creation as a game keeps it: everything but the content pack, which
/// setup has read into the state. A pack is hundreds of kilobytes in memory
/// as JSON, and every cached game would otherwise hold its own copy.
pub fn without_pack(created: &GameCreated) -> GameCreated {
    GameCreated {
        title: created.title.clone(),
        kind: created.kind.clone(),
        players: created.players.clone(),
        seed: created.seed,
        dice: created.dice,
        options: created.options.clone(),
        pack: Value::Null,
        public: created.public,
        rules_version: created.rules_version,
        chance_version: created.chance_version,
    }
}

/// The seat that acted an event, `None` when the owner did.
fn acting(event: &Event) -> Option<Seat> {
    seat_of(event.actor)
}

/// The seat an actor is, `None` for the owner.
pub(crate) fn seat_of(actor: Actor) -> Option<Seat> {
    match actor {
        Actor::Seat(s) => Some(s),
        Actor::Owner => None,
    }
}

/// One game in play: its kind, its creation, and the state folded so far.
pub struct Game {
    kind: &'static dyn DynRules,
    /// The creation, shared by every clone (it holds the whole content pack).
    created: Arc<GameCreated>,
    /// Who made the dice, the key and the next action's stream.
    dice: Dice,
    /// The whole creation, pack included, kept only while seats may still
    /// add to the dice: once they all have, the game is laid out again.
    deal: Option<Arc<GameCreated>>,
    seq: u64,
    state: Box<dyn Any + Send + Sync>,
    /// Notes and names: shared by clones until one of them folds another.
    notes: Arc<Annotations>,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("kind", &self.created.kind)
            .field("seq", &self.seq)
            .field("dice", &self.dice)
            .finish_non_exhaustive()
    }
}

impl Clone for Game {
    fn clone(&self) -> Self {
        Game {
            kind: self.kind,
            created: self.created.clone(),
            dice: self.dice.clone(),
            deal: self.deal.clone(),
            seq: self.seq,
            state: self.kind.clone_state(self.state.as_ref()),
            notes: self.notes.clone(),
        }
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        self.created == other.created
            && self.dice == other.dice
            && self.seq == other.seq
            && self.notes == other.notes
            && self
                .kind
                .state_eq(self.state.as_ref(), other.state.as_ref())
    }
}

impl Game {
    /// A new game at seq 1, laid out from its creation event.
    pub fn start(created: &GameCreated) -> Result<Game, EngineError> {
        let kind = crate::registry::kind(&created.kind)
            .ok_or_else(|| EngineError::UnknownKind(created.kind.clone()))?;
        let dice = Dice::new(created, kind.draws_chance(&created.options));
        let state = kind.setup(created, dice.key())?;
        Ok(Game {
            kind,
            created: Arc::new(without_pack(created)),
            deal: dice.open.then(|| Arc::new(created.clone())),
            dice,
            seq: 1,
            state,
            notes: Arc::default(),
        })
    }

    /// Folds a whole history (seq 1 first) into a game.
    pub fn fold<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<Game, EngineError> {
        let mut events = events.into_iter();
        let first = events.next().ok_or(EngineError::BadEvent {
            seq: 1,
            message: "an empty history has no game".into(),
        })?;
        let mut game = Game::from_first(first)?;
        for event in events {
            game.apply(event)?;
        }
        Ok(game)
    }

    /// A game from its first event, which must be the creation.
    pub fn from_first(first: &Event) -> Result<Game, EngineError> {
        match &first.body {
            Body::GameCreated(created) if first.seq == 1 => Game::start(created),
            _ => Err(EngineError::BadEvent {
                seq: first.seq,
                message: "a history must open with the game's creation at seq 1".into(),
            }),
        }
    }

    /// Restores a game from a snapshot taken at `snapshot.seq`.
    pub fn restore(created: &GameCreated, snapshot: &Snapshot) -> Result<Game, EngineError> {
        Game::resume(Arc::new(without_pack(created)), snapshot)
    }

    /// [`Game::restore`] from a creation already shared (a reader that keeps
    /// creations need not copy one per snapshot); its pack is not needed,
    /// since the snapshot holds the state (see [`without_pack`]). A snapshot
    /// taken while seats could still add to the dice cannot be resumed
    /// without the pack: the events are folded instead.
    pub fn resume(created: Arc<GameCreated>, snapshot: &Snapshot) -> Result<Game, EngineError> {
        let kind = crate::registry::kind(&created.kind)
            .ok_or_else(|| EngineError::UnknownKind(created.kind.clone()))?;
        let dice = match &snapshot.dice {
            Some(dice) if !dice.open => dice.clone(),
            None if created.chance_version() < 2 => Dice {
                seed: snapshot.seed,
                ..Dice::new(&created, false)
            },
            _ => {
                return Err(EngineError::BadEvent {
                    seq: snapshot.seq,
                    message: "a snapshot without the dice as they stood cannot be resumed".into(),
                })
            }
        };
        Ok(Game {
            kind,
            created,
            dice,
            deal: None,
            seq: snapshot.seq,
            state: kind.restore(&snapshot.state)?,
            notes: Arc::new(snapshot.notes.clone()),
        })
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            seq: self.seq,
            seed: self.dice.seed,
            dice: Some(self.dice.clone()),
            chapter: self.chapter(),
            state: self.kind.save(self.state.as_ref()),
            notes: Annotations::clone(&self.notes),
        }
    }

    /// Folds the next event, telling nothing (a fold that wants the story
    /// uses [`Game::apply_as`]). The event must be the next seq; its body
    /// is trusted (the store checks the hash chain).
    pub fn apply(&mut self, event: &Event) -> Result<(), EngineError> {
        self.fold_event(event, None).map(drop)
    }

    /// Folds the next event given as what a fold reads of an accepted
    /// action: its seq, who acted, and its facts as stored. The same
    /// as [`Game::apply`] on the whole event, for a reader of stored events
    /// that need not build the rest of it.
    pub fn apply_facts(
        &mut self,
        seq: u64,
        actor: Actor,
        facts: StoredFacts<'_>,
    ) -> Result<(), EngineError> {
        self.check_next(seq)?;
        self.kind
            .apply_stored(self.state.as_mut(), facts, seq, seat_of(actor), None)?;
        self.acted();
        self.seq = seq;
        Ok(())
    }

    /// Refuses an event that is not the next one in the history.
    fn check_next(&self, seq: u64) -> Result<(), EngineError> {
        if seq == self.seq + 1 {
            return Ok(());
        }
        Err(EngineError::BadEvent {
            seq,
            message: format!("expected seq {} next", self.seq + 1),
        })
    }

    /// Folds the next event (its real facts) and narrates it as `viewer` may
    /// know it. The viewer is taken as given: who sees everything is the
    /// caller's to judge (a game's secrets are out only once its line in
    /// play has ended, which one line cannot tell; see [`Game::effective_viewer`]).
    /// Every line is told, the story's and the record's alike (a replay
    /// step or the live stream shows what the table did in full).
    pub fn apply_as(&mut self, event: &Event, viewer: Viewer) -> Result<Vec<String>, EngineError> {
        let lines = self.fold_event(event, Some(viewer))?;
        Ok(lines.into_iter().map(crate::narrative::plain).collect())
    }

    /// [`Game::apply_as`], the record's lines kept apart from the story's
    /// (see [`crate::narrative::record`]): what a story tells, and what it
    /// keeps beside its prose.
    pub fn apply_told(&mut self, event: &Event, viewer: Viewer) -> Result<Told, EngineError> {
        let mut told = Told::default();
        for line in self.fold_event(event, Some(viewer))? {
            if crate::narrative::recorded(&line).is_some() {
                told.record.push(crate::narrative::plain(line));
            } else {
                told.story.push(line);
            }
        }
        Ok(told)
    }

    /// An action was folded: it takes its place in the line, and the game
    /// no longer waits for shares of the dice (nor keeps its pack for them).
    fn acted(&mut self) {
        self.dice.acted();
        self.deal = None;
    }

    fn fold_event(
        &mut self,
        event: &Event,
        viewer: Option<Viewer>,
    ) -> Result<Vec<String>, EngineError> {
        self.check_next(event.seq)?;
        let lines = match &event.body {
            Body::GameCreated(_) => {
                return Err(EngineError::BadEvent {
                    seq: event.seq,
                    message: "a game is created only once".into(),
                })
            }
            Body::ActionAccepted(accepted) => {
                let (state, seq, by) = (self.state.as_mut(), event.seq, acting(event));
                let lines = match accepted.fold_form.get() {
                    Some(form) => {
                        let form = StoredFacts::Compact(form);
                        self.kind.apply_stored(state, form, seq, by, viewer)?
                    }
                    None => self.kind.apply(state, &accepted.facts, seq, by, viewer)?,
                };
                self.acted();
                lines
            }
            Body::ContributionCommitted { commitment } => {
                self.fold_share(event, ShareStep::Commit(commitment), viewer)?
            }
            Body::ContributionRevealed { contribution } => {
                self.fold_share(event, ShareStep::Reveal(contribution), viewer)?
            }
            Body::Noted(note) => {
                let by = self.player_name(event.actor);
                Arc::make_mut(&mut self.notes).notes.push(notes::mark(
                    event.seq,
                    &event.branch,
                    event.actor,
                    by.clone(),
                    note,
                    event.recorded_at_ms,
                ));
                match viewer {
                    None => Vec::new(),
                    Some(viewer) => {
                        let readable = notes::readable(event.actor, note.private, viewer);
                        let shown = if readable {
                            note.clone()
                        } else {
                            notes::withheld(note)
                        };
                        vec![notes::note_line(&by, &shown, readable)]
                    }
                }
            }
            Body::BranchNamed(name) => {
                Arc::make_mut(&mut self.notes).named(&event.branch, name);
                match viewer {
                    None => Vec::new(),
                    Some(_) => vec![notes::name_line(&self.player_name(event.actor), name)],
                }
            }
            Body::Reseeded { seed } => {
                self.dice.reseed(*seed);
                self.deal = None;
                // A seat's fork is dealt anew: what the table cannot see
                // there has nothing to do with the line it left.
                if self.dice.version >= 2 && matches!(event.actor, Actor::Seat(_)) {
                    let mut rng = TableRng::keyed(self.dice.key(), DEAL_STREAM);
                    self.kind.redeal(self.state.as_mut(), &mut rng);
                }
                // A seed in play is the owner's secret: with it, every later
                // roll and draw on this branch could be worked out.
                if viewer.is_none() {
                    Vec::new()
                } else if viewer == Some(Viewer::Owner) {
                    vec![format!(
                        "Fate is reseeded ({seed}): every roll from here on is new."
                    )]
                } else {
                    vec![
                        "Fate is reseeded from sealed randomness: every roll from here on is new."
                            .to_string(),
                    ]
                }
            }
        };
        self.seq = event.seq;
        Ok(lines)
    }

    /// Folds a seat's share of the dice (checked again: an imported log is
    /// held to the same rules as a recorded one). The share that completes
    /// the key lays the game out again from it.
    fn fold_share(
        &mut self,
        event: &Event,
        step: ShareStep<'_>,
        viewer: Option<Viewer>,
    ) -> Result<Vec<String>, EngineError> {
        let bad = |r: Rejection| EngineError::BadEvent {
            seq: event.seq,
            message: format!("{}: {}", r.rule, r.message),
        };
        let seat = self.dice.check(event.actor, &step).map_err(bad)?;
        let keyed = self.dice.fold(seat, &step, event.seq);
        if keyed {
            let created = self.deal.take().ok_or_else(|| EngineError::BadEvent {
                seq: event.seq,
                message: "the game's pack is needed to lay it out again".into(),
            })?;
            self.state = self.kind.setup(&created, self.dice.key())?;
        }
        let by = self.player_name(event.actor);
        Ok(match (viewer, step) {
            (None, _) => Vec::new(),
            (Some(_), ShareStep::Commit(_)) => {
                vec![format!("{by} seals a share of the dice.")]
            }
            (Some(_), ShareStep::Reveal(_)) if keyed => vec![
                format!("{by} reveals a share of the dice."),
                "Every seat has added its share: the dice are the whole table's now, and the game is laid out again from them.".to_string(),
            ],
            (Some(_), ShareStep::Reveal(_)) => {
                vec![format!("{by} reveals a share of the dice.")]
            }
        })
    }

    /// Checks a seat's share of the dice against the game as it stands,
    /// before it is written.
    pub fn check_share(&self, actor: Actor, step: ShareStep<'_>) -> Result<(), Rejection> {
        self.dice.check(actor, &step).map(drop)
    }

    /// Who made the dice, the key and the stream the next action draws from.
    pub fn dice_state(&self) -> &Dice {
        &self.dice
    }

    /// Why the event of `facts`, folded on this state, cannot be taken back,
    /// if it cannot (see [`Rules::cannot_take_back`](crate::rules::Rules::cannot_take_back)).
    pub fn cannot_take_back(&self, facts: &[FactText]) -> Option<Rejection> {
        self.kind.cannot_take_back(self.state.as_ref(), facts)
    }

    /// Checks `action` against the rules for the event that would get seq
    /// `self.seq() + 1`, drawing chance from the stream of its place in the
    /// line (see [`crate::dice`]).
    pub fn decide(&self, by: Option<Seat>, action: &Value) -> Result<Decision, Rejection> {
        self.decide_as(by, action, Viewer::Owner)
    }

    /// [`Game::decide`] with the narration told as `viewer` may know it (the
    /// stored body is always the whole truth).
    pub fn decide_as(
        &self,
        by: Option<Seat>,
        action: &Value,
        viewer: Viewer,
    ) -> Result<Decision, Rejection> {
        self.decide_at(by, action, viewer, 0)
    }

    /// [`Game::decide_as`] for an event recorded at `at_ms` (its envelope's
    /// time, which a kind with a time limit judges by; see
    /// [`Chance::recorded_at_ms`]). The journal always decides so; the
    /// other forms stand for a time unknown (0).
    pub fn decide_at(
        &self,
        by: Option<Seat>,
        action: &Value,
        viewer: Viewer,
        at_ms: u64,
    ) -> Result<Decision, Rejection> {
        let mut chance = self.next_chance(at_ms)?;
        let decided = self.kind.decide(
            self.state.as_ref(),
            by,
            action,
            &mut chance,
            self.seq + 1,
            viewer,
        )?;
        Ok(Decision {
            body: ActionAccepted {
                action: decided.action,
                facts: decided.facts,
                chance: chance.into_draws(),
                fold_form: FoldForm::new(decided.fold_form),
            },
            narration: decided.narration,
            next: NextState {
                seq: self.seq + 1,
                state: decided.next,
            },
        })
    }

    /// What [`Game::decide_at`] would store for `action` (its stored form,
    /// the facts and the draws), deciding nothing else: no next state, no
    /// narration. For checking a stored event, which is then folded itself.
    pub fn redecide_at(
        &self,
        by: Option<Seat>,
        action: &Value,
        at_ms: u64,
    ) -> Result<ActionAccepted, Rejection> {
        let mut chance = self.next_chance(at_ms)?;
        let decided = self
            .kind
            .redecide(self.state.as_ref(), by, action, &mut chance)?;
        Ok(ActionAccepted {
            facts: self.kind.facts_json(decided.kept.as_ref()),
            action: decided.action,
            chance: chance.into_draws(),
            fold_form: FoldForm::new(decided.fold_form),
        })
    }

    /// Checks the next event, an accepted action, by deciding its action
    /// again ([`Game::redecide_at`]); when the rules store exactly what it
    /// holds, folds it with the facts just decided (equal to the stored
    /// ones, which need not be read again: a check of a long log did all
    /// its reading twice). Otherwise folds nothing.
    pub fn recheck(&mut self, event: &Event) -> Result<Recheck, EngineError> {
        self.check_next(event.seq)?;
        let Body::ActionAccepted(stored) = &event.body else {
            return Err(EngineError::BadEvent {
                seq: event.seq,
                message: "only an accepted action is decided again".into(),
            });
        };
        let by = acting(event);
        let mut chance = match self.next_chance(event.recorded_at_ms) {
            Ok(chance) => chance,
            Err(r) => return Ok(Recheck::Refused(r)),
        };
        let decided = self
            .kind
            .redecide(self.state.as_ref(), by, &stored.action, &mut chance);
        let decided = match decided {
            Ok(decided) => decided,
            Err(r) => return Ok(Recheck::Refused(r)),
        };
        let chance = chance.into_draws();
        let fold_form = FoldForm::new(decided.fold_form);
        // Equal facts have equal compact forms: a stored one that is not
        // is damaged, and would fold to something else.
        let form_differs = stored
            .fold_form
            .get()
            .is_some_and(|form| Some(form) != fold_form.get());
        // The facts are compared as the text they would be stored as, and
        // written to keep only when they differ, to show how.
        let kept = decided.kept.as_ref();
        let same = decided.action == stored.action
            && chance == stored.chance
            && !form_differs
            && self.kind.same_facts(kept, &stored.facts);
        if !same {
            return Ok(Recheck::Differs(ActionAccepted {
                facts: self.kind.facts_json(kept),
                action: decided.action,
                chance,
                fold_form,
            }));
        }
        self.kind
            .apply_decided(self.state.as_mut(), decided.kept, event.seq, by)?;
        self.acted();
        self.seq = event.seq;
        Ok(Recheck::Folded(fold_form))
    }

    /// The chance the next action draws from, at `at_ms`; none once the
    /// game is over.
    fn next_chance(&self, at_ms: u64) -> Result<Chance, Rejection> {
        if self.is_over() {
            return Err(Rejection::new(
                "game.over",
                "the game is over; fork it to play on",
            ));
        }
        let stream = self.dice.stream(self.seq + 1);
        Ok(Chance::keyed(self.created.dice, self.dice.key(), stream).at(at_ms))
    }

    /// The form `action` is stored in: the kind's typed reading of it
    /// written back, or the rejection naming what cannot be read.
    pub fn canonical_action(&self, action: &Value) -> Result<Value, Rejection> {
        self.kind.canonical_action(action)
    }

    /// Moves on to the state a decision of this game led to, once its event
    /// is stored: the same as folding that event, without folding it twice.
    pub fn accept(&mut self, next: NextState) -> Result<(), EngineError> {
        if next.seq != self.seq + 1 {
            return Err(EngineError::BadEvent {
                seq: next.seq,
                message: format!(
                    "a decision for seq {} accepted at seq {}",
                    next.seq, self.seq
                ),
            });
        }
        self.state = next.state;
        self.seq = next.seq;
        self.acted();
        Ok(())
    }

    /// Whom `seat` plays, as the box names it (see [`Rules::plays`](crate::rules::Rules::plays)).
    pub fn plays(&self, seat: Seat) -> Option<String> {
        self.kind.plays(self.state.as_ref(), seat)
    }

    /// Whether `seat` may act for the seat `named` in an action (see
    /// [`Rules::acts_for`](crate::rules::Rules::acts_for)).
    pub fn acts_for(&self, seat: Seat, named: Seat) -> bool {
        self.kind.acts_for(self.state.as_ref(), seat, named)
    }

    /// Every action open now, whatever the time (a deadline is not judged).
    pub fn legal(&self, seat: Option<Seat>) -> Vec<LegalAction> {
        if self.is_over() {
            return Vec::new();
        }
        self.kind.legal(self.state.as_ref(), seat, None)
    }

    /// Every action open at `now_ms`: what a running deadline has closed
    /// is left out (see [`Rules::legal_at`](crate::rules::Rules::legal_at)).
    pub fn legal_at(&self, seat: Option<Seat>, now_ms: u64) -> Vec<LegalAction> {
        if self.is_over() {
            return Vec::new();
        }
        self.kind.legal(self.state.as_ref(), seat, Some(now_ms))
    }

    /// The time limit running now, if any (see [`Rules::deadline`](crate::rules::Rules::deadline)).
    pub fn deadline(&self) -> Option<crate::rules::Deadline> {
        if self.is_over() {
            return None;
        }
        self.kind.deadline(self.state.as_ref())
    }

    /// The seats the game waits on now (see `Rules::to_move`); none once over.
    pub fn to_move(&self) -> Vec<Seat> {
        if self.is_over() {
            return Vec::new();
        }
        self.kind
            .to_move(self.state.as_ref(), self.created.players.len())
    }

    pub fn kind(&self) -> &'static dyn DynRules {
        self.kind
    }

    pub fn kind_name(&self) -> &str {
        &self.created.kind
    }

    /// The game's creation, without its content pack: the state holds what
    /// the game uses of it, and the pack is in the log's event 1.
    pub fn created(&self) -> &GameCreated {
        &self.created
    }

    /// The story's title drawn from the game itself, if the kind has one.
    pub fn story_title(&self) -> Option<String> {
        self.kind.title(self.state.as_ref())
    }

    /// Whether this game was recorded under an earlier version of its
    /// kind's rules than this build decides by: `Some((recorded, today))`.
    pub fn earlier_rules(&self) -> Option<(u32, u32)> {
        let recorded = self.created.rules_version();
        let today = self.kind.rules_version();
        (recorded < today).then_some((recorded, today))
    }

    pub fn dice(&self) -> DiceMode {
        self.created.dice
    }

    /// The seq of the last event folded.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The seed chance is drawn from now (changed by a reseed).
    pub fn seed(&self) -> u64 {
        self.dice.seed
    }

    /// The heading of the chapter the next event falls into (worked out
    /// when asked: a fold never needs it).
    pub fn chapter(&self) -> String {
        self.kind.chapter(self.state.as_ref())
    }

    pub fn epilogue(&self) -> Vec<String> {
        self.kind.epilogue(self.state.as_ref())
    }

    /// The paragraph the next event's lines join (see [`Rules::paragraph`](crate::rules::Rules::paragraph)).
    pub fn paragraph(&self) -> Option<String> {
        self.kind.paragraph(self.state.as_ref())
    }

    /// What the story tells before the first event (see [`Rules::prologue`](crate::rules::Rules::prologue)).
    pub fn prologue(&self) -> Vec<String> {
        self.kind.prologue(self.state.as_ref())
    }

    /// What the story says of a chapter in which nothing was told (see
    /// [`Rules::quiet_chapter`](crate::rules::Rules::quiet_chapter)).
    pub fn quiet_chapter(&self) -> Option<String> {
        self.kind.quiet_chapter(self.state.as_ref())
    }

    /// The board for the story's chapter ends: every kind draws its table
    /// (LEGEND's map, a Lost Worlds exchange's pictures, Ludovia's rooftops).
    pub fn chapter_map(&self, viewer: Viewer) -> String {
        self.render_svg(viewer)
    }

    pub fn appendix(&self) -> Vec<(String, Vec<String>)> {
        self.kind.appendix(self.state.as_ref())
    }

    pub fn is_over(&self) -> bool {
        self.kind.is_over(self.state.as_ref())
    }

    /// How the game ended, once it is over: nothing in it is secret then.
    pub fn result(&self) -> Option<crate::rules::PlayResult> {
        self.is_over()
            .then(|| self.kind.result(self.state.as_ref()))
            .flatten()
    }

    /// Who `viewer` counts as when this line is the whole game: once it has
    /// ended every secret is out and everyone sees what the owner sees. A
    /// journal with other lines judges by the game's line in play instead
    /// (a finished fork opens nothing); the reads here take the viewer as
    /// given.
    pub fn effective_viewer(&self, viewer: Viewer) -> Viewer {
        if self.is_over() {
            Viewer::Owner
        } else {
            viewer
        }
    }

    /// `event` as `viewer` may know it, judged on this game (the state the
    /// reader is looking from, normally the head of the line the event is
    /// on: a secret that later play revealed is shown). The kind is told
    /// who acted, from the event's actor. When anything was hidden, the
    /// event's chance draws are emptied too, since a physical draw names
    /// the card.
    pub fn redact_event(&self, event: &Event, viewer: Viewer) -> Result<Event, EngineError> {
        if viewer == Viewer::Owner {
            return Ok(event.clone());
        }
        let accepted = match &event.body {
            Body::ActionAccepted(accepted) => accepted,
            Body::GameCreated(created) => {
                let mut out = event.clone();
                let mut created = created.clone();
                self.kind.redact_pack(&mut created.pack, viewer);
                out.body = Body::GameCreated(created);
                return Ok(out);
            }
            Body::Reseeded { .. }
            | Body::BranchNamed(_)
            | Body::ContributionCommitted { .. }
            | Body::ContributionRevealed { .. } => return Ok(event.clone()),
            Body::Noted(note) => {
                let mut out = event.clone();
                if !notes::readable(event.actor, note.private, viewer) {
                    out.body = Body::Noted(notes::withheld(note));
                }
                return Ok(out);
            }
        };
        let by = acting(event);
        let head = self.state.as_ref();
        let facts = self
            .kind
            .redact(head, &accepted.facts, event.seq, by, viewer)?;
        let action = self
            .kind
            .redact_action(head, &accepted.action, event.seq, by, viewer);
        let hid = facts != accepted.facts || action != accepted.action;
        let mut out = event.clone();
        out.body = Body::ActionAccepted(ActionAccepted {
            action,
            facts,
            chance: if hid {
                Vec::new()
            } else {
                accepted.chance.clone()
            },
            // What the viewer may know is the JSON above; the compact form
            // of the real facts stays behind with the stored event.
            fold_form: FoldForm::default(),
        });
        Ok(out)
    }

    /// Who an actor is at this table: a player's name, or "the owner".
    pub fn player_name(&self, actor: Actor) -> String {
        match actor {
            Actor::Owner => "the owner".to_string(),
            Actor::Seat(s) => self
                .created
                .players
                .get(s as usize)
                .cloned()
                .unwrap_or_else(|| format!("seat {s}")),
        }
    }

    /// Every note of the history folded so far, whatever its privacy (the
    /// owner's view; readers go through [`Game::notes_as`]).
    pub fn notes(&self) -> &[NoteMark] {
        &self.notes.notes
    }

    /// The notes `viewer` may read: a private note only by its author and
    /// the owner, or by anyone once the game is over.
    pub fn notes_as(&self, viewer: Viewer) -> Vec<NoteMark> {
        self.notes
            .notes
            .iter()
            .filter(|n| {
                let author = n.seat.map_or(Actor::Owner, Actor::Seat);
                notes::readable(author, n.private, viewer)
            })
            .cloned()
            .collect()
    }

    /// The name `branch` was given on its own events, if any.
    pub fn line_title(&self, branch: &str) -> Option<&LineTitle> {
        self.notes.title_of(branch)
    }

    /// The kind's own state, typed; `None` when `S` is not this game's
    /// kind's state. For a caller that knows the kind and reads the state
    /// itself (the engine's tests check their invariants on it after every
    /// event) without writing it out as JSON and back.
    pub fn state_as<S: 'static>(&self) -> Option<&S> {
        self.state.downcast_ref::<S>()
    }

    pub fn view(&self, viewer: Viewer) -> Value {
        self.kind.view(self.state.as_ref(), viewer)
    }

    pub fn render(&self, viewer: Viewer) -> String {
        self.kind.render(self.state.as_ref(), viewer)
    }

    /// The state drawn as SVG for `viewer` (see [`Rules::render_svg`](crate::rules::Rules::render_svg)).
    pub fn render_svg(&self, viewer: Viewer) -> String {
        self.kind.render_svg(self.state.as_ref(), viewer)
    }
}
