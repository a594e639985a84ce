//! The engine's tests, one binary against the library as every other crate
//! links it (compiled once, not again under `cfg(test)`): each kind's rules
//! by topic, in a folder named for the kind, and the shared parts (chance,
//! the fold, narration, drawings) a file each. `testkit` holds what every
//! kind's tests need.

mod canonical;
mod chance;
mod compact;
mod dice;
mod dread;
mod fact_text;
mod game;
mod legend;
mod legless;
mod lostworlds;
mod ludovia;
mod narrative;
mod notes;
mod pack;
mod rng;
mod suggest;
mod svg;
mod tagged;
mod testkit;
