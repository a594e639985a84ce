//! Tabletape's rules engine.
//!
//! Each game kind is a module with the same parts (options, content, state,
//! actions, decide, apply, narration) behind the [`Rules`] trait. [`Game`] folds
//! a history of events into state and decides new actions for any kind;
//! [`Narrative`] tells a history as prose.
//!
//! The engine does no IO: no files, no network, no clock, no environment, no
//! tokio. Everything it knows comes in as events and actions; all chance comes
//! from [`rng::TableRng`], keyed by the game's dice (the owner's seed and each
//! seat's share, see [`dice`]) and the action's place in its line.

pub mod canonical;
pub mod chance;
pub mod compact;
pub mod dice;
pub mod dread;
pub mod error;
pub mod fact_text;
pub mod game;
pub mod guard;
pub mod hex_text;
pub mod legal;
pub mod legend;
pub mod legless;
pub mod lostworlds;
pub mod ludovia;
pub mod memo;
pub mod narrative;
pub mod notes;
pub mod option_read;
pub mod pack;
mod read_packs;
pub mod registry;
pub mod rng;
pub mod rules;
pub mod suggest;
pub mod svg;
pub mod tagged;

pub use chance::Chance;
pub use error::{reject, ContentError, EngineError, Rejection};
pub use game::{
    without_pack, Decision, DynRules, Game, Kind, NextState, Recheck, SavedState, Snapshot,
    StoredFacts,
};
pub use legal::{placeholders, LegalAction, SealJson, UnsealJson, UnsealedJson};
pub use narrative::{Format, Narrative};
pub use registry::{kind, kinds};
pub use rules::{
    Context, Deadline, KindInfo, Legal, OptionInfo, OptionValue, Pick, PlayResult, Rules, Seal,
    Setup, Term, Unseal, Unsealed, Viewer,
};
