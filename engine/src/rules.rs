//! The shape every game kind implements.
//!
//! A kind is a module with the same parts in the same order: options, content,
//! state, actions, decide, apply, narration. [`Rules`] is where those parts meet:
//! `decide` holds every rule and draws every chance outcome, `apply` only folds
//! the facts `decide` produced and cannot fail, `narrate` turns a fact into prose.

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabletape_events::{DiceMode, Seat};

use crate::chance::Chance;
use crate::error::{ContentError, Rejection};

/// Who is looking at a game. Kinds with hidden information show each seat
/// only what that seat may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The owner sees everything.
    Owner,
    Seat(Seat),
    /// Someone with no token on a public game.
    Public,
}

impl Viewer {
    /// Whether this viewer may see what `seat` holds back: the owner and
    /// that seat may, another seat and the public may not.
    pub fn sees(self, seat: Seat) -> bool {
        match self {
            Viewer::Owner => true,
            Viewer::Seat(s) => s == seat,
            Viewer::Public => false,
        }
    }
}

/// What the redaction hooks may consult besides the fact or action itself.
#[derive(Debug)]
pub struct Context<'a, S> {
    /// The seat that acted (the event's actor); `None` when the owner acted,
    /// so an action without a `seat` field can still be told apart.
    pub by: Option<Seat>,
    /// The seq of the event the fact or action belongs to.
    pub seq: u64,
    /// The state the reader judges from: the branch head for a stored event
    /// (`Game::redact_event`), the state just before the fact when narrating.
    /// A secret that later play has made public (an exchange since resolved)
    /// can be shown by checking it here, against `seq`.
    pub state: &'a S,
}

/// What `tabletape kinds` says about a kind.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct KindInfo {
    pub kind: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    pub min_players: usize,
    pub max_players: usize,
    /// The version of the rules this build decides by ([`Rules::RULES_VERSION`]).
    pub rules_version: u32,
    pub options: Vec<OptionInfo>,
    /// The name of the bundled content pack.
    pub default_pack: &'static str,
    /// The words the kind's actions use, explained ([`Rules::vocabulary`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vocabulary: Vec<Term>,
}

/// One word of a kind's vocabulary and what it means ("h1.2": "the street
/// along lamp-post row 1 ...").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Term {
    pub word: String,
    pub means: String,
}

impl Term {
    pub fn new(word: impl Into<String>, means: impl Into<String>) -> Term {
        Term {
            word: word.into(),
            means: means.into(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionInfo {
    pub name: String,
    pub default: String,
    pub help: String,
}

/// What a kind says of itself, for the table (`content/<kind>/about.json`):
/// its title and summary, how many play, its bundled pack's name, and the
/// options a new game takes with their defaults and help. Words, not
/// rules, so they live with the kind's other content.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct About {
    pub title: String,
    pub summary: String,
    /// The fewest and the most players.
    pub players: [usize; 2],
    pub default_pack: String,
    /// In the order a new-game form lists them.
    pub options: Vec<OptionInfo>,
}

impl About {
    /// Reads a kind's bundled `about.json`, a part of the build.
    pub fn read(text: &str) -> About {
        serde_json::from_str(text).expect("a kind's about.json reads")
    }
}

/// One value an option accepts, as a new-game form offers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct OptionValue {
    pub value: String,
    /// What the value stands for ("Nowa, Defender of the Forest").
    pub label: String,
}

impl OptionValue {
    pub fn new(value: impl Into<String>, label: impl Into<String>) -> OptionValue {
        OptionValue {
            value: value.into(),
            label: label.into(),
        }
    }
}

/// Everything a kind needs to lay out a new game.
#[derive(Debug)]
pub struct Setup<'a, O, P> {
    pub players: &'a [String],
    pub dice: DiceMode,
    pub options: O,
    pub pack: P,
    /// The version of the kind's rules the game was recorded under: a
    /// setup corrected since lays out an older game as it was laid out then.
    pub rules_version: u32,
}

/// One action open to a seat, ready to submit once `needs` is filled in.
#[derive(Debug, Clone, Serialize)]
pub struct Legal<A> {
    pub action: A,
    /// What the table must add first: physical outcomes or free text
    /// ("roll: policeman die, 1-6"). Empty when the action is ready as is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    /// The same choice made sealed: committed now, revealed later (see
    /// [`Seal`]). Only kinds with simultaneous secret choices offer it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seal: Option<Seal<A>>,
    /// Fields the table may add, as `field: what` like `needs` (a LEGEND
    /// player's explanation); the action is complete without them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub may: Vec<String>,
    /// The values a needed field can take, where the box lists them (the
    /// cards a physical draw may turn up): a page offers them as a picker.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub picks: Vec<Pick>,
    /// What the table is asked before it is recorded, in the table's
    /// words: the action ends something early for everyone (London
    /// Dread's planning cut short). A page asks; the API takes it as is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirm: Option<String>,
    /// On the reveal of a choice sealed with a nonce: how a device that
    /// holds the seat's link but not the salt finds the reveal (see
    /// [`Unseal`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unseal: Option<Unseal<A>>,
    /// The cards a needed field may take typed whole, field by field (a
    /// table recording its own box types a card it meets for the first
    /// time): a page offers a small form for each shape.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub typed: Vec<Typed>,
}

/// How to find a sealed choice again from the seat's link alone: the
/// salt is the one the sealing device made from the link and `nonce`;
/// the reveal is the one option whose `preimage` (its `<salt>` replaced by
/// that salt) hashes to `commitment`. A web page does this without knowing
/// the game.
#[derive(Debug, Clone, Serialize)]
pub struct Unseal<A> {
    pub commitment: String,
    pub nonce: String,
    pub options: Vec<Unsealed<A>>,
}

/// One choice a sealed commitment may hide, and its reveal.
#[derive(Debug, Clone, Serialize)]
pub struct Unsealed<A> {
    pub preimage: String,
    pub reveal: A,
}

/// The values one field of an action can take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Pick {
    /// The field, as a need names it (`drew`).
    pub field: String,
    pub values: Vec<String>,
    /// Whether the field takes a list of them (several cards at once).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub many: bool,
    /// How many the list takes, where that is known (one face per die
    /// rolled): a page records once that many are picked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
}

/// The shapes of the cards one field may take typed whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Typed {
    /// The field, as a need names it (`card`, `outcomes.drew`).
    pub field: String,
    /// Whether the field takes a list of cards (each typed or named).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub many: bool,
    pub shapes: Vec<CardShape>,
}

/// One kind of card a table may type: written `{"<key>": {...}}` with a
/// value for each of its fields (or, with no key, the object alone: a
/// card's reverse, which has a field of its own).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CardShape {
    /// The key the card is typed under (`dread`).
    pub key: String,
    /// What it is, in the box's words ("Dread card").
    pub label: String,
    pub fields: Vec<ShapeField>,
}

/// One field of a card's shape, and how it is filled in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ShapeField {
    pub name: String,
    /// Its name in the box's words ("Difficulty").
    pub label: String,
    pub input: ShapeInput,
    /// Whether the card may leave it out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// The parts of a field written as an object of its own (an effect),
    /// each filled in like a field and left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<ShapePart>,
}

/// A part of a field written as an object: filled in like a field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ShapePart {
    pub name: String,
    pub label: String,
    pub input: ShapeInput,
}

/// How a field is filled in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ShapeInput {
    /// Words.
    Text,
    /// A whole number from `min` to `max`.
    Number { min: i64, max: i64 },
    /// One of `values`.
    OneOf { values: Vec<String> },
    /// Any of `values`, each as often as it is shown (a card's icons).
    SomeOf { values: Vec<String> },
    /// An object made of the field's `parts`.
    Parts,
    /// A list, each entry an object made of the field's `parts`; a part
    /// named `effect.icons` is `icons` in the entry's object `effect`.
    Rows,
}

impl ShapeField {
    pub fn new(name: &str, label: &str, input: ShapeInput) -> ShapeField {
        ShapeField {
            name: name.into(),
            label: label.into(),
            input,
            optional: false,
            parts: Vec::new(),
        }
    }

    /// The same field, which the card may leave out.
    pub fn optional(mut self) -> ShapeField {
        self.optional = true;
        self
    }

    /// A field written as an object of `parts`, each left out when empty.
    pub fn parts(name: &str, label: &str, parts: Vec<ShapePart>) -> ShapeField {
        ShapeField {
            parts,
            ..ShapeField::new(name, label, ShapeInput::Parts)
        }
    }

    /// A field written as a list of objects of `parts` (see
    /// [`ShapeInput::Rows`]).
    pub fn rows(name: &str, label: &str, parts: Vec<ShapePart>) -> ShapeField {
        ShapeField {
            parts,
            ..ShapeField::new(name, label, ShapeInput::Rows)
        }
    }
}

impl Pick {
    /// One die's face, 1 to 6, as the table read it off a real die (one
    /// value: a page records it at the tap when nothing else is asked).
    pub fn die(field: &str) -> Pick {
        Pick {
            field: field.into(),
            values: (1..=6).map(|f: u8| f.to_string()).collect(),
            many: false,
            count: None,
        }
    }

    /// `dice` faces of 1 to 6, one per die rolled, in order.
    pub fn dice(field: &str, dice: usize) -> Pick {
        Pick {
            many: true,
            count: Some(dice),
            ..Pick::die(field)
        }
    }
}

/// How to make a choice without telling anyone, the server included, until
/// everyone has chosen: submit `commit` with `<hash>` replaced by the
/// lowercase hex SHA-256 of `preimage` (its `<salt>` replaced by a secret of
/// the chooser's) and `<nonce>` by a fresh random hex string (public: a
/// salt made from a secret and the nonce can be made again, see
/// [`Unseal`]), keep the salt, and submit `reveal` (its `<salt>` replaced
/// the same way) once `legal` offers an action of the reveal's type. A web
/// page can do this behind the scenes without knowing the game.
#[derive(Debug, Clone, Serialize)]
pub struct Seal<A> {
    pub commit: A,
    pub preimage: String,
    pub reveal: A,
}

impl<A> Legal<A> {
    pub fn ready(action: A) -> Self {
        Legal {
            action,
            needs: Vec::new(),
            seal: None,
            may: Vec::new(),
            picks: Vec::new(),
            confirm: None,
            unseal: None,
            typed: Vec::new(),
        }
    }

    /// An action open once the table supplies `needs`.
    pub fn needing(action: A, needs: Vec<String>) -> Self {
        Legal {
            action,
            needs,
            seal: None,
            may: Vec::new(),
            picks: Vec::new(),
            confirm: None,
            unseal: None,
            typed: Vec::new(),
        }
    }
}

/// A time limit running in a game (London Dread's planning phase), in
/// the envelope times of its events: every device counts down to the same
/// moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Deadline {
    /// What ends ("planning").
    pub what: String,
    pub started_at_ms: u64,
    pub ends_at_ms: u64,
}

/// How a finished game ended, in the terms play-logging apps keep: who won
/// and, where the game counts points, each seat's score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PlayResult {
    /// The seats that won: one, several sharing a win, every seat when a
    /// cooperative game is won, none in a draw or a cooperative loss.
    #[schema(value_type = Vec<u32>)]
    pub winners: Vec<Seat>,
    /// Each seat's final score, where the game keeps one (`None`: it
    /// decides by something other than points).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<u32>>,
    /// The seats play together against the game (win or lose as one).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cooperative: bool,
}

impl PlayResult {
    /// A game of rivals won by `winners` (several share the win), with no
    /// points kept.
    pub fn won_by(winners: Vec<Seat>) -> PlayResult {
        PlayResult {
            winners,
            scores: None,
            cooperative: false,
        }
    }

    /// The same, with each seat's final score.
    pub fn scored(self, scores: Vec<u32>) -> PlayResult {
        PlayResult {
            scores: Some(scores),
            ..self
        }
    }
}

/// What the rules make of an action: the facts it yields, or why it is refused.
pub type Ruling<F> = Result<Vec<F>, Rejection>;

/// Facts decided so far, each folded as it comes into a scratch copy of
/// the state, so that what is decided next reads the state they leave.
pub struct Out<R: Rules> {
    pub s: R::State,
    pub facts: Vec<R::Fact>,
}

impl<R: Rules> Out<R> {
    pub fn new(state: &R::State) -> Self {
        Out {
            s: state.clone(),
            facts: Vec::new(),
        }
    }

    pub fn push(&mut self, fact: R::Fact) {
        R::apply(&mut self.s, &fact);
        self.facts.push(fact);
    }
}

/// A game kind: the rules of one box.
pub trait Rules: Send + Sync + 'static {
    /// The kind's name on the command line (`lostworlds`).
    const KIND: &'static str;
    /// The version of these rules, raised by each correction that changes
    /// what `decide` or `setup` yields for some game (the kind's docs list
    /// them). New games record it; a log recorded under an earlier version
    /// is still the record: it folds from its stored facts, and `verify`
    /// tells which of its events today's rules would decide differently.
    const RULES_VERSION: u32 = 1;
    /// Whether a game with these options ever draws chance (a book duel
    /// never does, so its story does not say who rolls the dice).
    fn draws_chance(_options: &Self::Options) -> bool {
        true
    }
    type Options: Serialize + DeserializeOwned + Default + Debug;
    type Pack: Serialize + DeserializeOwned + Debug + Clone + Send + Sync + 'static;
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Action: Serialize + DeserializeOwned + Debug + Clone;
    /// What happened, in the past tense (`ManeuversRevealed`).
    type Fact: Serialize + DeserializeOwned + crate::tagged::ByTag + Debug + Clone;

    /// What the kind says of itself (see [`About`]); written by
    /// `rules_from_modules!` from the kind's `about.json`.
    fn about() -> &'static About;

    /// What `tabletape kinds` says about the kind.
    fn info() -> KindInfo {
        let about = Self::about();
        KindInfo {
            kind: Self::KIND,
            title: &about.title,
            summary: &about.summary,
            min_players: about.players[0],
            max_players: about.players[1],
            rules_version: Self::RULES_VERSION,
            options: about.options.clone(),
            default_pack: &about.default_pack,
            vocabulary: Self::vocabulary(),
        }
    }

    /// The bundled content pack, as JSON.
    fn default_pack() -> Value;

    /// Checks a pack describes a playable box; errors name the field at fault.
    fn validate_pack(pack: &Self::Pack, file: &str) -> Result<(), ContentError>;

    /// Lays out a new game. Setup may draw chance (a shuffled board); it is
    /// recomputed on every fold from the seed, so it must only draw from `chance`.
    fn setup(
        setup: Setup<'_, Self::Options, Self::Pack>,
        chance: &mut Chance,
    ) -> Result<Self::State, Rejection>;

    /// The values `option` accepts, where they can be listed (characters,
    /// block pieces, on/off): a list option takes several, comma-separated.
    fn option_values(_option: &str) -> Vec<OptionValue> {
        Vec::new()
    }

    /// The options that apply only when the table rolls its own dice
    /// (refused or meaningless with Tabletape's): a new-game form shows
    /// them only then.
    fn physical_dice_options() -> &'static [&'static str] {
        &[]
    }

    /// The words this kind's actions use that a newcomer cannot guess (how
    /// a place is written, what an Ability does), for `kinds` and `legal`.
    fn vocabulary() -> Vec<Term> {
        Vec::new()
    }

    /// Every action open now, for one seat or (with `None`) for the whole table.
    fn legal(state: &Self::State, seat: Option<Seat>) -> Vec<Legal<Self::Action>>;

    /// Whom or what `seat` plays, as the box names it (a character, a
    /// party), for the seat's own page: "you are Ada, playing Nowa".
    /// Default: none (the player is their own piece).
    fn plays(_state: &Self::State, _seat: Seat) -> Option<String> {
        None
    }

    /// Whether `seat` may act for `named`, the seat an action names in its
    /// `seat` field: by default only for itself. A kind where one player
    /// controls several pieces that each hold a seat of the rules (Lost
    /// Worlds' `controls`) says which.
    fn acts_for(_state: &Self::State, seat: Seat, named: Seat) -> bool {
        seat == named
    }

    /// What an action open now does, in the box's words, for a button
    /// ("Jump to a rooftop in the Old Mint (s4.6)" rather than `jump: s4.6`).
    /// Default: none, and a page makes do with the action's values.
    fn describe(_state: &Self::State, _action: &Self::Action) -> Option<String> {
        None
    }

    /// [`Rules::legal`] at the moment `now_ms` (the caller's clock), for a
    /// kind with a time limit: what a deadline has closed is left out. The
    /// default ignores the time.
    fn legal_at(state: &Self::State, seat: Option<Seat>, _now_ms: u64) -> Vec<Legal<Self::Action>> {
        Self::legal(state, seat)
    }

    /// The time limit running now, if any. Default: none.
    fn deadline(_state: &Self::State) -> Option<Deadline> {
        None
    }

    /// The seats the game waits on now: whose turn it is, as anyone at the
    /// table can see. By default every seat with an action open; a kind
    /// where some action is always open (an escape) says it itself.
    fn to_move(state: &Self::State, seats: usize) -> Vec<Seat> {
        (0..seats)
            .filter_map(|s| Seat::try_from(s).ok())
            .filter(|&s| !Self::legal(state, Some(s)).is_empty())
            .collect()
    }

    /// Checks an action against every rule and decides what it means.
    /// `by` is the seat acting, or `None` when the owner acts for the table.
    fn decide(
        state: &Self::State,
        by: Option<Seat>,
        action: &Self::Action,
        chance: &mut Chance,
    ) -> Ruling<Self::Fact>;

    /// Folds one fact into the state. Never fails: `decide` already checked it.
    fn apply(state: &mut Self::State, fact: &Self::Fact);

    /// Prose for one fact, given the state just before it is applied.
    fn narrate(state: &Self::State, fact: &Self::Fact) -> Vec<String>;

    /// The story's title drawn from the game itself ("Nowa against
    /// Brakka"), used when the table gave the game none. Default: none.
    fn title(_state: &Self::State) -> Option<String> {
        None
    }

    /// The heading of the chapter the next fact belongs to ("Exchange 3", "Round 2").
    fn chapter(state: &Self::State) -> String;

    /// The paragraph the next event's lines belong to: consecutive events
    /// with the same key are told as one paragraph (a LEGEND turn), so a
    /// story reads in the game's rhythm rather than a line per action.
    /// Default: none, every line its own paragraph.
    fn paragraph(_state: &Self::State) -> Option<String> {
        None
    }

    /// What the story tells before the first event: the game as its setup
    /// laid it out, for a kind whose setup no fact tells (who plays whom,
    /// and what they want). Default: nothing.
    fn prologue(_state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// What the story says of a chapter that passed with nothing told in
    /// it (a LEGEND round in which everyone let the turn pass), so its
    /// heading still stands and the chapters run unbroken. Default: none,
    /// and such a chapter is left out.
    fn quiet_chapter(_state: &Self::State) -> Option<String> {
        None
    }

    /// What the story lists after its closing, section by section (LEGEND's
    /// every object with its maker and fate). Like the epilogue it is told
    /// from the state at the end. Default: nothing.
    fn appendix(_state: &Self::State) -> Vec<(String, Vec<String>)> {
        Vec::new()
    }

    /// Closing lines of the narrative: the outcome, scores, experience.
    fn epilogue(state: &Self::State) -> Vec<String>;

    /// Whether the game has ended.
    fn is_over(state: &Self::State) -> bool;

    /// How the game ended, once it has (`None` before).
    fn result(state: &Self::State) -> Option<PlayResult>;

    /// A fact as `viewer` may know it: secrets replaced (a drawn card becomes
    /// `None`), everything public kept. Kinds with secrets override this; the
    /// default hides nothing. The caller has already decided the game is not
    /// over (see `Game::effective_viewer`) and that the viewer is not the
    /// owner, so a kind never checks either itself. Whatever is hidden must
    /// be hidden the same way whatever its value, or the difference tells.
    fn redact(fact: &Self::Fact, _viewer: Viewer, _cx: &Context<'_, Self::State>) -> Self::Fact {
        fact.clone()
    }

    /// An action as `viewer` may know it (a physical draw named in it hidden),
    /// with the same guarantees as [`Rules::redact`].
    fn redact_action(
        action: &Self::Action,
        _viewer: Viewer,
        _cx: &Context<'_, Self::State>,
    ) -> Self::Action {
        action.clone()
    }

    /// The game's content pack as a seat or the public may read it in the
    /// creation while the game is in play: a kind whose pack holds what the
    /// rules hide (the unseen side of a card, a booklet's stories) takes it
    /// out. The chain still checks: the creation's setup part is then shown
    /// by its commitment only, like any other hidden part. Default: all of it.
    fn redact_pack(_pack: &mut Value, _viewer: Viewer) {}

    /// Called once all the facts of the event at `seq` are folded, for a kind
    /// whose secrets last until something happens to date it in its state
    /// (for [`Rules::redact`] to compare with [`Context::seq`]). Default: nothing.
    fn folded(_state: &mut Self::State, _seq: u64) {}

    /// Deals anew, from `rng`, everything the table cannot see: for a fork
    /// a seat makes, so that nothing played there turns up what the line it
    /// left keeps hidden (the hands no one else sees, the decks and
    /// face-down cards, a choice held in secret, which is withdrawn). What
    /// lies face up stays. A kind with secrets must override this; the
    /// adversary tests hold every kind to it. Default: nothing is hidden.
    fn redeal(_state: &mut Self::State, _rng: &mut crate::rng::TableRng) {}

    /// Why an event of `facts`, folded on `before`, cannot be taken back, if
    /// it cannot: it showed someone what lay hidden (a card turned up or
    /// drawn, a choice held in secret), or started a clock. A take-back
    /// would hide it again or give the table its time anew. A roll or a
    /// random draw taken back comes out the same when recorded again, so it
    /// may be taken back unless it showed a hidden card. Default: any event.
    fn cannot_take_back(_before: &Self::State, _facts: &[Self::Fact]) -> Option<Rejection> {
        None
    }

    /// The state as one viewer may see it: all of it, less what
    /// [`Rules::hide`] takes out for a seat or the public.
    fn view(state: &Self::State, viewer: Viewer) -> Value {
        let mut view = serde_json::to_value(state).expect("kind states serialize");
        if viewer != Viewer::Owner {
            Self::hide(state, viewer, &mut view);
        }
        view
    }

    /// Takes out of a view what `viewer`, a seat or the public, may not
    /// see. Kinds with secrets override this. Default: nothing is hidden.
    fn hide(_state: &Self::State, _viewer: Viewer, _view: &mut Value) {}

    /// A readable text picture of the state (board, sheets, tracks).
    fn render(state: &Self::State, viewer: Viewer) -> String;

    /// The state drawn as SVG for `viewer` (the board, sheets and tracks the
    /// web page shows), built with [`crate::svg`]. A kind without a drawing
    /// of its own is shown as its text picture.
    fn render_svg(state: &Self::State, viewer: Viewer) -> String {
        crate::svg::of_text(&Self::about().title, &Self::render(state, viewer))
    }
}

/// What every kind answers the same way from its own modules, written once
/// inside each kind's `impl Rules` as `rules_from_modules!("kind")`: the
/// kind's name, its types (`Options`, `Pack`, `State`, `Action`, `Fact`,
/// each named so in the kind's module), what it says of itself
/// (`content/<kind>/about.json`), and the delegations to the modules of
/// the kind's shape: `content::validate` checks a pack, `decide::decide`
/// holds the rules of an action,
/// `apply::apply` folds a fact, and `narration` tells a fact, a chapter's
/// heading and the game's end.
macro_rules! rules_from_modules {
    ($kind:literal) => {
        const KIND: &'static str = $kind;
        type Options = Options;
        type Pack = Pack;
        type State = State;
        type Action = Action;
        type Fact = Fact;

        fn about() -> &'static $crate::rules::About {
            static ABOUT: ::std::sync::OnceLock<$crate::rules::About> =
                ::std::sync::OnceLock::new();
            ABOUT.get_or_init(|| {
                $crate::rules::About::read(include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/content/",
                    $kind,
                    "/about.json"
                )))
            })
        }

        fn validate_pack(pack: &Pack, file: &str) -> Result<(), $crate::error::ContentError> {
            content::validate(pack, file)
        }

        fn decide(
            state: &Self::State,
            by: Option<::tabletape_events::Seat>,
            action: &Self::Action,
            chance: &mut $crate::chance::Chance,
        ) -> $crate::rules::Ruling<Fact> {
            decide::decide(state, by, action, chance)
        }

        fn apply(state: &mut Self::State, fact: &Self::Fact) {
            apply::apply(state, fact)
        }

        fn narrate(state: &Self::State, fact: &Self::Fact) -> Vec<String> {
            narration::narrate(state, fact)
        }

        fn chapter(state: &Self::State) -> String {
            narration::chapter(state)
        }

        fn epilogue(state: &Self::State) -> Vec<String> {
            narration::epilogue(state)
        }
    };
}
pub(crate) use rules_from_modules;
