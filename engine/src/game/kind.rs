//! The kind behind a [`Game`](super::Game): [`DynRules`], the object-safe
//! face of a typed [`Rules`], and [`Kind`], which adapts one to the other.
//! Here a kind's typed actions, facts and states meet the JSON the store
//! keeps; the game above knows them only as `dyn Any`.

use std::any::Any;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use serde_json::Value;
use tabletape_events::{FactText, GameCreated, Seat};

use super::SavedState;
use crate::canonical;
use crate::chance::Chance;
use crate::error::{ContentError, EngineError, Rejection};
use crate::legal::{placeholders, LegalAction, SealJson, UnsealJson, UnsealedJson, OWN_WORDS};
use crate::read_packs::ReadPacks;
use crate::rng::TableRng;
use crate::rules::{Context, KindInfo, OptionValue, Rules, Setup, Viewer};

/// The object-safe face of a [`Rules`] implementation.
pub trait DynRules: Send + Sync {
    /// The kind's name on the command line (`lostworlds`).
    fn name(&self) -> &'static str;
    /// The game's title, as the box has it ("Lost Worlds").
    fn game_title(&self) -> &'static str;
    /// All the kind says of itself (its vocabulary may be worked out from
    /// its pack: for the name or the title, ask for those).
    fn info(&self) -> KindInfo;
    /// The version of the kind's rules this build decides by.
    fn rules_version(&self) -> u32;
    /// Whether a game with these options ever draws chance
    /// ([`Rules::draws_chance`]; options it cannot read: yes).
    fn draws_chance(&self, options: &BTreeMap<String, Value>) -> bool;
    /// The story's title drawn from the game ([`Rules::title`]).
    fn title(&self, state: &dyn Any) -> Option<String>;
    fn default_pack(&self) -> Value;
    fn option_values(&self, option: &str) -> Vec<OptionValue>;
    /// Whether `option` applies only with the table's own dice
    /// ([`Rules::physical_dice_options`]).
    fn physical_dice_only(&self, option: &str) -> bool;
    fn check_pack(&self, pack: &Value, file: &str) -> Result<(), ContentError>;
    /// The pack as stored: checked, then its typed reading written back
    /// (see [`crate::canonical`]).
    fn canonical_pack(&self, pack: &Value, file: &str) -> Result<Value, ContentError>;
    /// The options as stored: every option the kind has, in its own form.
    fn canonical_options(
        &self,
        options: &BTreeMap<String, Value>,
    ) -> Result<BTreeMap<String, Value>, EngineError>;
    /// The action as stored: its typed reading written back.
    fn canonical_action(&self, action: &Value) -> Result<Value, Rejection>;
    /// Lays the game out, drawing from stream 1 of the dice key `key`.
    fn setup(
        &self,
        created: &GameCreated,
        key: [u8; 32],
    ) -> Result<Box<dyn Any + Send + Sync>, EngineError>;
    /// Deals anew what the table cannot see (see [`Rules::redeal`]).
    fn redeal(&self, state: &mut dyn Any, rng: &mut TableRng);
    /// Why an event of `facts` on `before` cannot be taken back (see
    /// [`Rules::cannot_take_back`]); facts it cannot read: none.
    fn cannot_take_back(&self, before: &dyn Any, facts: &[FactText]) -> Option<Rejection>;
    fn clone_state(&self, state: &dyn Any) -> Box<dyn Any + Send + Sync>;
    fn state_eq(&self, a: &dyn Any, b: &dyn Any) -> bool;
    /// The actions open at `now_ms` (see [`Rules::legal_at`]), or ignoring
    /// time when `None`.
    fn legal(&self, state: &dyn Any, seat: Option<Seat>, now_ms: Option<u64>) -> Vec<LegalAction>;
    /// Whom `seat` plays (see [`Rules::plays`]).
    fn plays(&self, state: &dyn Any, seat: Seat) -> Option<String>;
    fn acts_for(&self, state: &dyn Any, seat: Seat, named: Seat) -> bool;
    fn deadline(&self, state: &dyn Any) -> Option<crate::rules::Deadline>;
    /// Decides an action for the event at `seq` and folds the facts it
    /// yields into a copy of `state`: see [`Decided`].
    fn decide(
        &self,
        state: &dyn Any,
        by: Option<Seat>,
        action: &Value,
        chance: &mut Chance,
        seq: u64,
        viewer: Viewer,
    ) -> Result<Decided, Rejection>;
    /// Decides an action as [`DynRules::decide`] does, to check what is
    /// stored: the action's stored form and the facts, folded into nothing
    /// and told to no one; with the facts also as decided, for
    /// [`DynRules::apply_decided`] once they are found to be what is stored.
    fn redecide(
        &self,
        state: &dyn Any,
        by: Option<Seat>,
        action: &Value,
        chance: &mut Chance,
    ) -> Result<Redecided, Rejection>;
    /// Whether the facts [`DynRules::redecide`] kept are `stored`, each
    /// its canonical text (see [`crate::fact_text::is`]).
    fn same_facts(&self, kept: &dyn Any, stored: &[FactText]) -> bool;
    /// The facts [`DynRules::redecide`] kept, as they are stored.
    fn facts_json(&self, kept: &dyn Any) -> Vec<FactText>;
    /// Folds the facts [`DynRules::redecide`] kept, telling nothing: the
    /// same as applying the stored facts they equal, without reading those.
    fn apply_decided(
        &self,
        state: &mut dyn Any,
        facts: Box<dyn Any>,
        seq: u64,
        by: Option<Seat>,
    ) -> Result<(), EngineError>;
    /// Applies the facts of the event at `seq`, acted by `by`, returning
    /// their narration as `viewer` may read it (each fact is redacted for
    /// `viewer` against the state just before it), or none when no one
    /// reads it (`viewer` is `None`: a plain fold tells nothing).
    fn apply(
        &self,
        state: &mut dyn Any,
        facts: &[FactText],
        seq: u64,
        by: Option<Seat>,
        viewer: Option<Viewer>,
    ) -> Result<Vec<String>, EngineError>;
    /// The compact form of stored facts (see [`crate::compact`]): what
    /// [`DynRules::decide`] made of them, if they are this kind's facts.
    fn fold_form_of(&self, facts: &[FactText]) -> Option<Vec<u8>>;
    /// [`DynRules::apply`] on facts as a store keeps them, read straight
    /// into the kind's facts.
    fn apply_stored(
        &self,
        state: &mut dyn Any,
        facts: StoredFacts<'_>,
        seq: u64,
        by: Option<Seat>,
        viewer: Option<Viewer>,
    ) -> Result<Vec<String>, EngineError>;
    /// The facts of the event at `seq`, acted by `by`, as `viewer` may know
    /// them judged from `head` (see [`Rules::redact`]).
    fn redact(
        &self,
        head: &dyn Any,
        facts: &[FactText],
        seq: u64,
        by: Option<Seat>,
        viewer: Viewer,
    ) -> Result<Vec<FactText>, EngineError>;
    /// The action as `viewer` may know it (see [`Rules::redact_action`]).
    /// An action this kind cannot read is returned as is: it was stored, so
    /// it is shown, and hiding is only for what the kind understands.
    fn redact_action(
        &self,
        head: &dyn Any,
        action: &Value,
        seq: u64,
        by: Option<Seat>,
        viewer: Viewer,
    ) -> Value;
    /// The content pack of a creation as `viewer` may read it (see
    /// [`Rules::redact_pack`]).
    fn redact_pack(&self, pack: &mut Value, viewer: Viewer);
    fn chapter(&self, state: &dyn Any) -> String;
    fn paragraph(&self, state: &dyn Any) -> Option<String>;
    fn quiet_chapter(&self, state: &dyn Any) -> Option<String>;
    fn prologue(&self, state: &dyn Any) -> Vec<String>;
    fn appendix(&self, state: &dyn Any) -> Vec<(String, Vec<String>)>;
    fn to_move(&self, state: &dyn Any, seats: usize) -> Vec<Seat>;
    fn epilogue(&self, state: &dyn Any) -> Vec<String>;
    fn is_over(&self, state: &dyn Any) -> bool;
    fn result(&self, state: &dyn Any) -> Option<crate::rules::PlayResult>;
    fn view(&self, state: &dyn Any, viewer: Viewer) -> Value;
    fn render(&self, state: &dyn Any, viewer: Viewer) -> String;
    fn render_svg(&self, state: &dyn Any, viewer: Viewer) -> String;
    fn save(&self, state: &dyn Any) -> SavedState;
    fn restore(&self, state: &SavedState) -> Result<Box<dyn Any + Send + Sync>, EngineError>;
}

/// Adapts a typed [`Rules`] to [`DynRules`], keeping the packs it has read.
pub struct Kind<R: Rules> {
    packs: ReadPacks<R::Pack>,
    rules: PhantomData<R>,
}

impl<R: Rules> Kind<R> {
    pub const fn new() -> Self {
        Kind {
            packs: ReadPacks::new(),
            rules: PhantomData,
        }
    }

    /// `pack` read and checked, or the same JSON's reading from before.
    fn checked_pack(&self, pack: &Value, file: &str) -> Result<Arc<R::Pack>, ContentError> {
        if let Some(read) = self.packs.get(pack) {
            return Ok(read);
        }
        let read = parse_pack::<R>(pack, file)?;
        R::validate_pack(&read, file)?;
        let read = Arc::new(read);
        self.packs.keep(pack, Arc::clone(&read), None);
        Ok(read)
    }
}

impl<R: Rules> Default for Kind<R> {
    fn default() -> Self {
        Self::new()
    }
}

fn typed<R: Rules>(state: &dyn Any) -> &R::State {
    state
        .downcast_ref::<R::State>()
        .expect("state belongs to its kind")
}

fn typed_mut<R: Rules>(state: &mut dyn Any) -> &mut R::State {
    state
        .downcast_mut::<R::State>()
        .expect("state belongs to its kind")
}

fn parse_fact<R: Rules>(fact: &FactText, seq: u64) -> Result<R::Fact, EngineError> {
    // Read from the text by its tag (see `tagged`): serde's own reading of
    // a tagged enum would copy it first.
    crate::tagged::read_json::<R::Fact>(fact.get()).map_err(|e| EngineError::BadEvent {
        seq,
        message: format!("not a {} fact: {e}", R::KIND),
    })
}

/// Reads an action strictly (see [`crate::canonical`]): a rejection names the field.
fn read_action<R: Rules>(action: &Value) -> Result<(R::Action, Value), Rejection> {
    canonical::read::<R::Action>(action).map_err(|r| {
        let rule = if r.message.starts_with("the text") {
            "action.text"
        } else {
            "action.malformed"
        };
        Rejection::new(
            rule,
            format!("not a {} action{}: {}", R::KIND, r.at(), r.message),
        )
    })
}

fn parse_pack<R: Rules>(pack: &Value, file: &str) -> Result<R::Pack, ContentError> {
    serde_path_to_error::deserialize(pack).map_err(|e| ContentError {
        file: file.to_string(),
        path: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

/// Folds the facts of the event at `seq`, acted by `by`, into `state`,
/// returning their narration as `viewer` may read it: each fact is narrated
/// (redacted for `viewer`) against the state just before it.
/// The facts the rules decide for an action, and the action's stored form.
fn decide_facts<R: Rules>(
    state: &R::State,
    by: Option<Seat>,
    action: &Value,
    chance: &mut Chance,
) -> Result<(Value, Vec<R::Fact>), Rejection> {
    let (action, canonical) = read_action::<R>(action)?;
    // A state folded from a damaged log could break a kind's own
    // assumptions; that is a refusal, not a crash of the server.
    let facts =
        crate::guard::guarded(|| R::decide(state, by, &action, chance)).map_err(|_| {
            Rejection::new(
                "engine.fault",
                "the rules could not decide on this state (the log may be damaged: run `verify`)",
            )
        })??;
    Ok((canonical, facts))
}

/// The facts [`DynRules::redecide`] kept for this kind.
fn kept_facts<R: Rules>(kept: &dyn Any) -> &Vec<R::Fact> {
    kept.downcast_ref::<Vec<R::Fact>>()
        .expect("facts kept by this kind's redecide")
}

fn fold_facts<R: Rules>(
    state: &mut R::State,
    facts: &[R::Fact],
    seq: u64,
    by: Option<Seat>,
    viewer: Option<Viewer>,
) -> Result<Vec<String>, EngineError> {
    let mut lines = Vec::new();
    for fact in facts {
        // `apply` trusts what `decide` produced; a fact from a damaged
        // or forged log may break that trust, and is then an error
        // naming the event, never a crash.
        let told = crate::guard::guarded(|| {
            let told = match viewer {
                None => Vec::new(),
                Some(Viewer::Owner) => R::narrate(state, fact),
                Some(viewer) => {
                    let cx = Context {
                        by,
                        seq,
                        state: &*state,
                    };
                    R::narrate(state, &R::redact(fact, viewer, &cx))
                }
            };
            R::apply(state, fact);
            told
        })
        .map_err(|_| EngineError::BadEvent {
            seq,
            message: format!(
                "a {} fact that cannot be applied to the game as it stands",
                R::KIND
            ),
        })?;
        lines.extend(told);
    }
    R::folded(state, seq);
    Ok(lines)
}

/// An event's facts as a store keeps them (see [`DynRules::apply_stored`]).
#[derive(Clone, Copy)]
pub enum StoredFacts<'a> {
    /// The JSON text of their array (see `tagged`).
    Json(&'a str),
    /// Their compact form (see [`crate::compact`]).
    Compact(&'a [u8]),
}

/// What [`DynRules::redecide`] yields: the action and the facts as stored,
/// and the facts as decided, for [`DynRules::apply_decided`].
pub struct Redecided {
    pub action: Value,
    /// The facts in their compact form (see [`crate::compact`]).
    pub fold_form: Vec<u8>,
    pub kept: Box<dyn Any>,
}

/// What [`DynRules::decide`] yields: the action as stored, the facts as
/// stored, the state they lead to and their narration.
pub struct Decided {
    pub action: Value,
    pub facts: Vec<FactText>,
    /// The facts in their compact form (see [`crate::compact`]).
    pub fold_form: Vec<u8>,
    pub next: Box<dyn Any + Send + Sync>,
    pub narration: Vec<String>,
}

impl<R: Rules> DynRules for Kind<R> {
    fn name(&self) -> &'static str {
        R::KIND
    }

    fn game_title(&self) -> &'static str {
        &R::about().title
    }

    fn info(&self) -> KindInfo {
        R::info()
    }

    fn rules_version(&self) -> u32 {
        R::RULES_VERSION
    }

    fn draws_chance(&self, options: &BTreeMap<String, Value>) -> bool {
        let given = Value::Object(options.clone().into_iter().collect());
        serde_json::from_value::<R::Options>(given).map_or(true, |o| R::draws_chance(&o))
    }

    fn title(&self, state: &dyn Any) -> Option<String> {
        R::title(typed::<R>(state))
    }

    fn option_values(&self, option: &str) -> Vec<OptionValue> {
        R::option_values(option)
    }

    fn physical_dice_only(&self, option: &str) -> bool {
        R::physical_dice_options().contains(&option)
    }

    fn default_pack(&self) -> Value {
        R::default_pack()
    }

    fn check_pack(&self, pack: &Value, file: &str) -> Result<(), ContentError> {
        self.checked_pack(pack, file).map(|_| ())
    }

    fn canonical_pack(&self, pack: &Value, file: &str) -> Result<Value, ContentError> {
        if let Some(canonical) = self.packs.canonical(pack) {
            return Ok(canonical);
        }
        let (typed, canonical) = canonical::read::<R::Pack>(pack).map_err(|r| ContentError {
            file: file.to_string(),
            path: r.path,
            message: r.message,
        })?;
        R::validate_pack(&typed, file)?;
        self.packs
            .keep(pack, Arc::new(typed), Some(canonical.clone()));
        Ok(canonical)
    }

    fn canonical_options(
        &self,
        options: &BTreeMap<String, Value>,
    ) -> Result<BTreeMap<String, Value>, EngineError> {
        // Options are read leniently ("7" or 7, "a,b" or ["a","b"]) and their
        // typed form need not read back, so they are kept as given once they
        // read, each a plain value: a string, a whole number, a flag, or a
        // list or object of those (a card a table types for record mode),
        // with no float that would not read back.
        let given = Value::Object(options.clone().into_iter().collect());
        canonical::check_text(&given).map_err(|r| EngineError::Option {
            option: r.path,
            message: r.message,
        })?;
        fn plain(v: &Value) -> bool {
            match v {
                Value::String(_) | Value::Bool(_) => true,
                Value::Number(_) => v.is_u64() || v.is_i64(),
                Value::Array(items) => items.iter().all(plain),
                Value::Object(fields) => fields.values().all(plain),
                Value::Null => false,
            }
        }
        for (name, value) in options {
            if !plain(value) {
                return Err(EngineError::Option {
                    option: name.clone(),
                    message: format!(
                        "an option is a word, a whole number, true/false, or a list or object of those, not {value}"
                    ),
                });
            }
        }
        serde_path_to_error::deserialize::<_, R::Options>(&given).map_err(|e| {
            EngineError::Option {
                option: e.path().to_string(),
                message: e.inner().to_string(),
            }
        })?;
        Ok(options.clone())
    }

    fn canonical_action(&self, action: &Value) -> Result<Value, Rejection> {
        read_action::<R>(action).map(|(_, canonical)| canonical)
    }

    fn redeal(&self, state: &mut dyn Any, rng: &mut TableRng) {
        let state = typed_mut::<R>(state);
        R::redeal(state, rng);
    }

    fn cannot_take_back(&self, before: &dyn Any, facts: &[FactText]) -> Option<Rejection> {
        let facts = facts
            .iter()
            .map(|f| crate::tagged::read_json::<R::Fact>(f.get()).ok())
            .collect::<Option<Vec<_>>>()?;
        R::cannot_take_back(typed::<R>(before), &facts)
    }

    fn setup(
        &self,
        created: &GameCreated,
        key: [u8; 32],
    ) -> Result<Box<dyn Any + Send + Sync>, EngineError> {
        let about = R::about();
        let rules_version = created.rules_version();
        if rules_version == 0 || rules_version > R::RULES_VERSION {
            return Err(EngineError::Setup(Rejection::new(
                "setup.rules_version",
                format!(
                    "recorded under {} rules version {rules_version}; this build knows versions 1 to {}: upgrade Tabletape",
                    about.title,
                    R::RULES_VERSION
                ),
            )));
        }
        let n = created.players.len();
        let [fewest, most] = about.players;
        if n < fewest || n > most {
            return Err(EngineError::Setup(Rejection::new(
                "setup.players",
                format!(
                    "{} is played by {fewest} to {most} players, not {n}",
                    about.title
                ),
            )));
        }
        let options_json = Value::Object(created.options.clone().into_iter().collect());
        let options: R::Options =
            serde_path_to_error::deserialize(&options_json).map_err(|e| EngineError::Option {
                option: e.path().to_string(),
                message: e.inner().to_string(),
            })?;
        let pack = R::Pack::clone(&*self.checked_pack(&created.pack, "<game pack>")?);
        // Setup draws from stream 1: the creation's place in the line.
        let mut chance = Chance::keyed(created.dice, key, 1);
        let setup = Setup {
            players: &created.players,
            dice: created.dice,
            options,
            pack,
            rules_version,
        };
        let state = R::setup(setup, &mut chance).map_err(EngineError::Setup)?;
        Ok(Box::new(state))
    }

    fn clone_state(&self, state: &dyn Any) -> Box<dyn Any + Send + Sync> {
        Box::new(typed::<R>(state).clone())
    }

    fn state_eq(&self, a: &dyn Any, b: &dyn Any) -> bool {
        typed::<R>(a) == typed::<R>(b)
    }

    fn plays(&self, state: &dyn Any, seat: Seat) -> Option<String> {
        R::plays(typed::<R>(state), seat)
    }

    fn acts_for(&self, state: &dyn Any, seat: Seat, named: Seat) -> bool {
        R::acts_for(typed::<R>(state), seat, named)
    }

    fn legal(&self, state: &dyn Any, seat: Option<Seat>, now_ms: Option<u64>) -> Vec<LegalAction> {
        let state = typed::<R>(state);
        match now_ms {
            Some(now) => R::legal_at(state, seat, now),
            None => R::legal(state, seat),
        }
        .into_iter()
        .map(|l| {
            let says = R::describe(state, &l.action);
            let action = serde_json::to_value(&l.action).expect("actions serialize");
            let mut needs = l.needs;
            // Free text is the table's to write; say so for each field.
            // (A field the kind already explains keeps its own words.)
            let free = placeholders(&action);
            if !free.is_empty() {
                let said = needs.len();
                for (path, p) in free {
                    let explained = needs[..said].iter().any(|n| {
                        n.strip_prefix(path.as_str())
                            .is_some_and(|rest| rest.starts_with(':'))
                    });
                    if !explained {
                        needs.push(format!("{path}: {OWN_WORDS}{p}"));
                    }
                }
            }
            let seal = l.seal.map(|seal| SealJson {
                commit: serde_json::to_value(&seal.commit).expect("actions serialize"),
                preimage: seal.preimage,
                reveal: serde_json::to_value(&seal.reveal).expect("actions serialize"),
            });
            let unseal = l.unseal.map(|u| UnsealJson {
                commitment: u.commitment,
                nonce: u.nonce,
                options: u
                    .options
                    .into_iter()
                    .map(|o| UnsealedJson {
                        preimage: o.preimage,
                        reveal: serde_json::to_value(&o.reveal).expect("actions serialize"),
                    })
                    .collect(),
            });
            LegalAction {
                action,
                needs,
                seal,
                may: l.may,
                picks: l.picks,
                confirm: l.confirm,
                says,
                unseal,
                typed: l.typed,
            }
        })
        .collect()
    }

    fn decide(
        &self,
        state: &dyn Any,
        by: Option<Seat>,
        action: &Value,
        chance: &mut Chance,
        seq: u64,
        viewer: Viewer,
    ) -> Result<Decided, Rejection> {
        let state = typed::<R>(state);
        let (canonical, facts) = decide_facts::<R>(state, by, action, chance)?;
        // The typed facts are folded as they are; only the stored form
        // goes through JSON.
        let mut next = state.clone();
        let narration = fold_facts::<R>(&mut next, &facts, seq, by, Some(viewer))
            .map_err(|e| Rejection::new("engine.fact", e.to_string()))?
            .into_iter()
            .map(crate::narrative::plain)
            .collect();
        Ok(Decided {
            action: canonical,
            facts: facts.iter().map(crate::fact_text::of).collect(),
            fold_form: crate::compact::to_vec(&facts),
            next: Box::new(next),
            narration,
        })
    }

    fn redecide(
        &self,
        state: &dyn Any,
        by: Option<Seat>,
        action: &Value,
        chance: &mut Chance,
    ) -> Result<Redecided, Rejection> {
        let (action, facts) = decide_facts::<R>(typed::<R>(state), by, action, chance)?;
        Ok(Redecided {
            action,
            fold_form: crate::compact::to_vec(&facts),
            kept: Box::new(facts),
        })
    }

    fn same_facts(&self, kept: &dyn Any, stored: &[FactText]) -> bool {
        let facts = kept_facts::<R>(kept);
        facts.len() == stored.len()
            && facts
                .iter()
                .zip(stored)
                .all(|(fact, text)| crate::fact_text::is(fact, text.get()))
    }

    fn facts_json(&self, kept: &dyn Any) -> Vec<FactText> {
        kept_facts::<R>(kept)
            .iter()
            .map(crate::fact_text::of)
            .collect()
    }

    fn apply_decided(
        &self,
        state: &mut dyn Any,
        facts: Box<dyn Any>,
        seq: u64,
        by: Option<Seat>,
    ) -> Result<(), EngineError> {
        let state = typed_mut::<R>(state);
        let facts = facts
            .downcast::<Vec<R::Fact>>()
            .expect("facts kept by this kind's redecide");
        fold_facts::<R>(state, &facts, seq, by, None).map(drop)
    }

    fn apply(
        &self,
        state: &mut dyn Any,
        facts: &[FactText],
        seq: u64,
        by: Option<Seat>,
        viewer: Option<Viewer>,
    ) -> Result<Vec<String>, EngineError> {
        let state = typed_mut::<R>(state);
        let facts = facts
            .iter()
            .map(|fact| parse_fact::<R>(fact, seq))
            .collect::<Result<Vec<_>, _>>()?;
        fold_facts::<R>(state, &facts, seq, by, viewer)
    }

    fn fold_form_of(&self, facts: &[FactText]) -> Option<Vec<u8>> {
        let facts = facts
            .iter()
            .map(|fact| crate::tagged::read_json::<R::Fact>(fact.get()).ok())
            .collect::<Option<Vec<_>>>()?;
        Some(crate::compact::to_vec(&facts))
    }

    fn apply_stored(
        &self,
        state: &mut dyn Any,
        facts: StoredFacts<'_>,
        seq: u64,
        by: Option<Seat>,
        viewer: Option<Viewer>,
    ) -> Result<Vec<String>, EngineError> {
        let state = typed_mut::<R>(state);
        let read = match facts {
            StoredFacts::Json(json) => crate::tagged::read_all_json::<R::Fact>(json),
            StoredFacts::Compact(bytes) => crate::compact::read_all::<R::Fact>(bytes),
        };
        let facts = read.map_err(|e| EngineError::BadEvent {
            seq,
            message: format!("not {} facts: {e}", R::KIND),
        })?;
        fold_facts::<R>(state, &facts, seq, by, viewer)
    }

    fn redact(
        &self,
        head: &dyn Any,
        facts: &[FactText],
        seq: u64,
        by: Option<Seat>,
        viewer: Viewer,
    ) -> Result<Vec<FactText>, EngineError> {
        let cx = Context {
            by,
            seq,
            state: typed::<R>(head),
        };
        facts
            .iter()
            .map(|f| {
                let fact = parse_fact::<R>(f, seq)?;
                Ok(crate::fact_text::of(&R::redact(&fact, viewer, &cx)))
            })
            .collect()
    }

    fn redact_action(
        &self,
        head: &dyn Any,
        action: &Value,
        seq: u64,
        by: Option<Seat>,
        viewer: Viewer,
    ) -> Value {
        let cx = Context {
            by,
            seq,
            state: typed::<R>(head),
        };
        match serde_json::from_value::<R::Action>(action.clone()) {
            Ok(a) => {
                serde_json::to_value(R::redact_action(&a, viewer, &cx)).expect("actions serialize")
            }
            Err(_) => action.clone(),
        }
    }

    fn redact_pack(&self, pack: &mut Value, viewer: Viewer) {
        R::redact_pack(pack, viewer)
    }

    fn deadline(&self, state: &dyn Any) -> Option<crate::rules::Deadline> {
        R::deadline(typed::<R>(state))
    }

    fn chapter(&self, state: &dyn Any) -> String {
        R::chapter(typed::<R>(state))
    }

    fn paragraph(&self, state: &dyn Any) -> Option<String> {
        R::paragraph(typed::<R>(state))
    }

    fn quiet_chapter(&self, state: &dyn Any) -> Option<String> {
        R::quiet_chapter(typed::<R>(state))
    }

    fn prologue(&self, state: &dyn Any) -> Vec<String> {
        R::prologue(typed::<R>(state))
    }

    fn appendix(&self, state: &dyn Any) -> Vec<(String, Vec<String>)> {
        R::appendix(typed::<R>(state))
    }

    fn to_move(&self, state: &dyn Any, seats: usize) -> Vec<Seat> {
        R::to_move(typed::<R>(state), seats)
    }

    fn epilogue(&self, state: &dyn Any) -> Vec<String> {
        R::epilogue(typed::<R>(state))
    }

    fn is_over(&self, state: &dyn Any) -> bool {
        R::is_over(typed::<R>(state))
    }

    fn result(&self, state: &dyn Any) -> Option<crate::rules::PlayResult> {
        R::result(typed::<R>(state))
    }

    fn view(&self, state: &dyn Any, viewer: Viewer) -> Value {
        R::view(typed::<R>(state), viewer)
    }

    fn render(&self, state: &dyn Any, viewer: Viewer) -> String {
        R::render(typed::<R>(state), viewer)
    }

    fn render_svg(&self, state: &dyn Any, viewer: Viewer) -> String {
        R::render_svg(typed::<R>(state), viewer)
    }

    fn save(&self, state: &dyn Any) -> SavedState {
        SavedState::of(typed::<R>(state))
    }

    fn restore(&self, state: &SavedState) -> Result<Box<dyn Any + Send + Sync>, EngineError> {
        let state =
            serde_json::from_str::<R::State>(state.get()).map_err(|e| EngineError::BadEvent {
                seq: 0,
                message: format!("snapshot is not a {} state: {e}", R::KIND),
            })?;
        Ok(Box::new(state))
    }
}
