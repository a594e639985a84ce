//! Chance outcomes for one decision, in either dice mode.
//!
//! In digital mode every outcome comes from the event's [`TableRng`] stream; in
//! physical mode the action carries it and the engine only checks it is
//! possible. Either way each outcome is recorded as a [`Draw`] in the event.

use serde_json::{json, Value};
use tabletape_events::{DiceMode, Draw};

use crate::error::{reject, Rejection};
use crate::rng::TableRng;

/// The source of chance for one decision.
#[derive(Debug)]
pub struct Chance {
    mode: DiceMode,
    rng: TableRng,
    draws: Vec<Draw>,
    recorded_at_ms: u64,
}

impl Chance {
    /// Chance for the event that will get `seq` in a game currently seeded with `seed`.
    pub fn new(mode: DiceMode, seed: u64, seq: u64) -> Self {
        Chance {
            mode,
            rng: TableRng::for_event(seed, seq),
            draws: Vec::new(),
            recorded_at_ms: 0,
        }
    }

    /// Chance from stream `stream` of the dice key `key` (see `dice`).
    pub fn keyed(mode: DiceMode, key: [u8; 32], stream: u64) -> Self {
        Chance {
            mode,
            rng: TableRng::keyed(key, stream),
            draws: Vec::new(),
            recorded_at_ms: 0,
        }
    }

    /// The same, for an event recorded at `ms` (its envelope's time).
    pub fn at(mut self, ms: u64) -> Self {
        self.recorded_at_ms = ms;
        self
    }

    /// When the event being decided is recorded (milliseconds since the
    /// Unix epoch, from its envelope; 0 when no time is known). A kind with
    /// a time limit reads the clock here and only here, so a replay decides
    /// as the table did.
    pub fn recorded_at_ms(&self) -> u64 {
        self.recorded_at_ms
    }

    pub fn mode(&self) -> DiceMode {
        self.mode
    }

    /// The outcomes drawn so far, in order.
    pub fn draws(&self) -> &[Draw] {
        &self.draws
    }

    pub fn into_draws(self) -> Vec<Draw> {
        self.draws
    }

    fn record(&mut self, what: &str, value: Value) {
        self.draws.push(Draw {
            what: what.to_string(),
            value,
        });
    }

    /// Rejects an outcome supplied in digital mode. Deciders call it up front
    /// for a field they may never reach, so whether it is refused cannot
    /// depend on what the dice would have done.
    pub fn check_supplied<T>(
        &self,
        what: &str,
        field: &str,
        supplied: &Option<T>,
    ) -> Result<(), Rejection> {
        if self.mode == DiceMode::Digital && supplied.is_some() {
            return reject(
                "dice.digital",
                format!("this game rolls its own dice (digital mode): leave out `{field}` for the {what}"),
            );
        }
        Ok(())
    }

    /// Rolls one die of `sides` faces (1..=sides). `field` names the action
    /// field that carries the outcome in physical mode.
    pub fn roll(
        &mut self,
        what: &str,
        sides: u32,
        field: &str,
        supplied: Option<u32>,
    ) -> Result<u32, Rejection> {
        self.check_supplied(what, field, &supplied)?;
        let face = match (self.mode, supplied) {
            (DiceMode::Digital, _) => self.rng.die(sides),
            (DiceMode::Physical, None) => {
                return reject(
                    "physical.roll_needed",
                    format!("roll needed: the {what} (a d{sides}); give it as `{field}`"),
                )
            }
            (DiceMode::Physical, Some(face)) if (1..=sides).contains(&face) => face,
            (DiceMode::Physical, Some(face)) => {
                return reject(
                    "physical.impossible_roll",
                    format!("impossible roll for the {what}: {face} is not a face of a d{sides}"),
                )
            }
        };
        self.record(what, json!(face));
        Ok(face)
    }

    /// Picks one of `options` (a card drawn, a coin side). Physical mode takes
    /// the named outcome and checks it is among the options.
    pub fn pick(
        &mut self,
        what: &str,
        options: &[String],
        field: &str,
        supplied: Option<&str>,
    ) -> Result<usize, Rejection> {
        self.pick_from(what, options, field, supplied, None)
    }

    /// [`Chance::pick`] among options the one acting may not see (another
    /// seat's hand, cards face down): a rejection names the kind of value
    /// wanted (`wanted`, such as "a card from Bo's hand") and never lists
    /// the options.
    pub fn pick_hidden(
        &mut self,
        what: &str,
        options: &[String],
        field: &str,
        supplied: Option<&str>,
        wanted: &str,
    ) -> Result<usize, Rejection> {
        self.pick_from(what, options, field, supplied, Some(wanted))
    }

    fn pick_from(
        &mut self,
        what: &str,
        options: &[String],
        field: &str,
        supplied: Option<&str>,
        hidden: Option<&str>,
    ) -> Result<usize, Rejection> {
        self.check_supplied(what, field, &supplied)?;
        if options.is_empty() {
            return reject(
                "chance.empty",
                format!("nothing left to draw for the {what}"),
            );
        }
        let index = match (self.mode, supplied) {
            (DiceMode::Digital, _) => self.rng.below(options.len() as u32) as usize,
            (DiceMode::Physical, None) => {
                return reject(
                    "physical.draw_needed",
                    match hidden {
                        Some(wanted) => format!(
                            "draw needed: the {what}; give it as `{field}`, naming {wanted} as the table drew it"
                        ),
                        None => format!(
                            "draw needed: the {what}; give it as `{field}`, one of {}",
                            distinct(options)
                        ),
                    },
                )
            }
            // The table's spelling in any letter case: copies of one card
            // are alike, so the first that matches is the one drawn.
            (DiceMode::Physical, Some(name)) => match options
                .iter()
                .position(|o| o == name)
                .or_else(|| {
                    let lower = name.to_lowercase();
                    options.iter().position(|o| o.to_lowercase() == lower)
                }) {
                Some(i) => i,
                None => {
                    return reject(
                        "physical.impossible_draw",
                        match hidden {
                            Some(wanted) => format!(
                                "impossible draw for the {what}: `{name}` is not {wanted}"
                            ),
                            None => format!(
                                "impossible draw for the {what}: `{name}` is not among {}",
                                distinct(options)
                            ),
                        },
                    )
                }
            },
        };
        self.record(what, json!(options[index]));
        Ok(index)
    }

    /// Flips a coin: true for heads.
    pub fn coin(
        &mut self,
        what: &str,
        field: &str,
        supplied: Option<bool>,
    ) -> Result<bool, Rejection> {
        self.check_supplied(what, field, &supplied)?;
        let heads = match (self.mode, supplied) {
            (DiceMode::Digital, _) => self.rng.below(2) == 0,
            (DiceMode::Physical, None) => {
                return reject(
                    "physical.coin_needed",
                    format!("coin flip needed: the {what}; give it as `{field}` (true for heads)"),
                )
            }
            (DiceMode::Physical, Some(h)) => h,
        };
        self.record(what, json!(if heads { "heads" } else { "tails" }));
        Ok(heads)
    }

    /// Shuffles `items`. Physical mode takes the resulting order as a
    /// permutation of indices into `items` and checks it is one.
    pub fn shuffle<T: Clone>(
        &mut self,
        what: &str,
        items: &mut Vec<T>,
        field: &str,
        supplied: Option<&[usize]>,
    ) -> Result<(), Rejection> {
        self.check_supplied(what, field, &supplied)?;
        let n = items.len();
        let order: Vec<usize> = match (self.mode, supplied) {
            (DiceMode::Digital, _) => {
                let mut order: Vec<usize> = (0..n).collect();
                self.rng.shuffle(&mut order);
                order
            }
            (DiceMode::Physical, None) => {
                return reject(
                    "physical.shuffle_needed",
                    format!(
                        "order needed: the {what}; give it as `{field}`, a permutation of 0..{n}"
                    ),
                )
            }
            (DiceMode::Physical, Some(order)) => {
                let mut seen = vec![false; n];
                let ok = order.len() == n
                    && order
                        .iter()
                        .all(|&i| i < n && !std::mem::replace(&mut seen[i], true));
                if !ok {
                    return reject(
                        "physical.impossible_shuffle",
                        format!("impossible order for the {what}: `{field}` must list each of 0..{n} once"),
                    );
                }
                order.to_vec()
            }
        };
        let shuffled: Vec<T> = order.iter().map(|&i| items[i].clone()).collect();
        *items = shuffled;
        self.record(what, json!(order));
        Ok(())
    }
}

/// Each value once, in the order first met: a deck holding four Masks is
/// named as one "Mask" when a rejection lists what may be drawn.
fn distinct(options: &[String]) -> String {
    let mut seen = std::collections::BTreeSet::new();
    options
        .iter()
        .filter(|o| seen.insert(o.as_str()))
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}
