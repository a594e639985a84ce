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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digital_rolls_are_recorded_and_repeatable() {
        let mut a = Chance::new(DiceMode::Digital, 5, 3);
        let mut b = Chance::new(DiceMode::Digital, 5, 3);
        let ra: Vec<u32> = (0..5)
            .map(|_| a.roll("die", 6, "roll", None).unwrap())
            .collect();
        let rb: Vec<u32> = (0..5)
            .map(|_| b.roll("die", 6, "roll", None).unwrap())
            .collect();
        assert_eq!(ra, rb);
        assert_eq!(a.draws().len(), 5);
        assert!(ra.iter().all(|r| (1..=6).contains(r)));
    }

    #[test]
    fn digital_rejects_a_supplied_roll() {
        let mut c = Chance::new(DiceMode::Digital, 1, 1);
        let err = c.roll("policeman die", 6, "roll", Some(3)).unwrap_err();
        assert_eq!(err.rule, "dice.digital");
        assert!(err.message.contains("`roll`"));
    }

    #[test]
    fn physical_needs_a_possible_roll() {
        let mut c = Chance::new(DiceMode::Physical, 1, 1);
        let missing = c.roll("policeman die", 6, "roll", None).unwrap_err();
        assert_eq!(missing.rule, "physical.roll_needed");
        assert!(
            missing.message.contains("policeman die"),
            "{}",
            missing.message
        );
        let impossible = c.roll("policeman die", 6, "roll", Some(7)).unwrap_err();
        assert_eq!(impossible.rule, "physical.impossible_roll");
        assert_eq!(c.roll("policeman die", 6, "roll", Some(6)).unwrap(), 6);
        assert_eq!(c.draws()[0].value, json!(6));
    }

    #[test]
    fn a_draw_reads_any_letter_case_and_a_refusal_names_each_card_once() {
        let deck: Vec<String> = ["Mask", "Mask", "Mask", "Whistle", "Bolas", "Bolas"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut c = Chance::new(DiceMode::Physical, 1, 1);
        assert_eq!(c.pick("card", &deck, "drew", Some("whistle")).unwrap(), 3);
        assert_eq!(c.draws()[0].value, json!("Whistle"), "recorded as printed");
        let e = c.pick("card", &deck, "drew", Some("Rope")).unwrap_err();
        assert!(
            e.message.ends_with("is not among Mask, Whistle, Bolas"),
            "{}",
            e.message
        );
        let e = c.pick("card", &deck, "drew", None).unwrap_err();
        assert!(
            e.message.ends_with("one of Mask, Whistle, Bolas"),
            "{}",
            e.message
        );
    }

    #[test]
    fn physical_pick_and_shuffle_are_checked() {
        let mut c = Chance::new(DiceMode::Physical, 1, 1);
        let cards = vec!["Dog".to_string(), "Trap".to_string()];
        assert_eq!(
            c.pick("rooftop card", &cards, "drew", Some("Trap"))
                .unwrap(),
            1
        );
        assert_eq!(
            c.pick("rooftop card", &cards, "drew", Some("Cat"))
                .unwrap_err()
                .rule,
            "physical.impossible_draw"
        );
        let mut deck = vec!['a', 'b', 'c'];
        assert_eq!(
            c.shuffle("deck", &mut deck, "order", Some(&[0, 0, 1]))
                .unwrap_err()
                .rule,
            "physical.impossible_shuffle"
        );
        c.shuffle("deck", &mut deck, "order", Some(&[2, 0, 1]))
            .unwrap();
        assert_eq!(deck, vec!['c', 'a', 'b']);
    }

    #[test]
    fn coin_in_both_modes() {
        let mut d = Chance::new(DiceMode::Digital, 3, 4);
        d.coin("duel tie", "heads", None).unwrap();
        assert_eq!(d.draws().len(), 1);
        let mut p = Chance::new(DiceMode::Physical, 3, 4);
        assert_eq!(
            p.coin("duel tie", "heads", None).unwrap_err().rule,
            "physical.coin_needed"
        );
        assert!(!p.coin("duel tie", "heads", Some(false)).unwrap());
        assert_eq!(p.draws()[0].value, json!("tails"));
    }
}
