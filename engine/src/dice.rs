//! Who made the dice: the owner's seed and each seat's share, and which
//! stream each action draws from.
//!
//! A game of chance version 2 (every game from this build on) draws the
//! chance of an action from ChaCha20 stream `n`, where `n` is the action's
//! place in its line (the creation is 1, its first action 2): notes, names,
//! reseeds and shares take no place, so writing one never moves a die, and
//! an action taken back and recorded again meets the same one. Games of
//! version 1 drew by event seq and keep doing so.
//!
//! The key is the owner's seed alone until every seat has added a share:
//! each seat first commits to a random value of its own (the SHA-256 of it,
//! see [`commitment_of`]) and, once every seat has committed, reveals it.
//! The key is then the SHA-256 of the seed and every value, and the game is
//! laid out again from it, so nobody, the owner included, chose what the
//! dice do: the owner's seed was committed in the creation before any seat
//! picked its value, and no seat saw another's until all were committed.
//! Shares are taken only before the first action; a game that began
//! without them is dealt by the owner's seed alone and says so.

use crate::hex_text;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tabletape_events::{Actor, DiceMode, GameCreated, Seat};

use crate::error::Rejection;
use crate::rng::TableRng;

/// The chance version this build records in new games.
pub const CHANCE_VERSION: u32 = 2;

/// The stream a seat's fork deals its hidden cards from, with the fork's
/// new key (actions draw from stream 1 up).
pub const DEAL_STREAM: u64 = 0;

const SHARE_DOMAIN: &[u8] = b"tabletape dice share\n";
const KEY_DOMAIN: &[u8] = b"tabletape dice key\n";
const RESEED_DOMAIN: &[u8] = b"tabletape dice reseed\n";

/// The commitment to a share: hex SHA-256 of `"tabletape dice share\n"`
/// followed by the share's 32 bytes.
pub fn commitment_of(share: &[u8; 32]) -> String {
    let mut h = Sha256::new();
    h.update(SHARE_DOMAIN);
    h.update(share);
    hex_text::of(h.finalize())
}

/// The dice key made from the owner's seed and every seat's share, in seat
/// order: SHA-256 of `"tabletape dice key\n"`, the seed (8 bytes, little
/// endian) and each share.
pub fn joint_key(seed: u64, shares: &[[u8; 32]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(KEY_DOMAIN);
    h.update(seed.to_le_bytes());
    for share in shares {
        h.update(share);
    }
    h.finalize().into()
}

/// Reads a share or commitment written as 64 hex digits.
pub fn read_hex32(text: &str, field: &str) -> Result<[u8; 32], Rejection> {
    let bytes = hex::decode(text).ok().filter(|b| b.len() == 32);
    match bytes {
        Some(b) => Ok(b.try_into().expect("32 bytes")),
        None => Err(Rejection::new(
            "dice.malformed",
            format!("`{field}` is 64 hex digits (32 bytes), not `{text}`"),
        )),
    }
}

/// One seat's part in the dice.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contribution: Option<String>,
}

/// The dice of a line as folded so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    pub version: u32,
    /// The seed chance is drawn from now (the creation's, or a reseed's).
    pub seed: u64,
    /// The key made with every seat's share (hex), once there is one; a
    /// reseed after it stirs the new seed into it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joint: Option<String>,
    /// The creation and the actions folded so far: the next action draws
    /// from the stream after it (version 2).
    pub actions: u64,
    /// Each seat's share, by seat.
    pub shares: Vec<Share>,
    /// Whether Tabletape draws this game's chance (digital dice, and a game
    /// that draws any): only then do seats add to the dice.
    pub rolls: bool,
    /// Whether shares are still taken: only before the first action, in a
    /// game whose dice Tabletape rolls.
    pub open: bool,
    /// The seq of the share that completed the key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyed_at: Option<u64>,
}

/// Who made a game's dice, as its summary and story tell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DiceMakers {
    /// The table rolls its own dice, or the game draws no chance.
    Table,
    /// Every seat added its share before the first action.
    Everyone,
    /// Shares are still being given (no action yet).
    Gathering,
    /// The owner's seed alone (a game of version 1, or one that began
    /// before every seat had added its share).
    OwnerOnly,
}

impl Dice {
    /// The dice of a new game: the owner's seed, shares open when the game's
    /// chance is Tabletape's to draw.
    pub fn new(created: &GameCreated, draws_chance: bool) -> Dice {
        let version = created.chance_version();
        let rolls = created.dice == DiceMode::Digital && draws_chance;
        Dice {
            version,
            seed: created.seed,
            joint: None,
            actions: 1,
            shares: vec![Share::default(); created.players.len()],
            rolls,
            open: version >= 2 && rolls,
            keyed_at: None,
        }
    }

    /// The ChaCha20 key chance is drawn with now.
    pub fn key(&self) -> [u8; 32] {
        match &self.joint {
            Some(joint) => read_hex32(joint, "joint").expect("a folded key is 32 bytes"),
            None => TableRng::seed_key(self.seed),
        }
    }

    /// The stream the next action draws from, given the seq it will get.
    pub fn stream(&self, next_seq: u64) -> u64 {
        if self.version >= 2 {
            self.actions + 1
        } else {
            next_seq
        }
    }

    /// An action was folded: it takes the next place, and shares close.
    pub fn acted(&mut self) {
        self.actions += 1;
        self.open = false;
    }

    /// A reseed: chance from here on comes from `seed` (stirred into the
    /// key every seat made, when there is one).
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.open = false;
        if let Some(joint) = &self.joint {
            let joint = read_hex32(joint, "joint").expect("a folded key is 32 bytes");
            let mut h = Sha256::new();
            h.update(RESEED_DOMAIN);
            h.update(joint);
            h.update(seed.to_le_bytes());
            let key: [u8; 32] = h.finalize().into();
            self.joint = Some(hex_text::of(key));
        }
    }

    /// Whether every seat has committed to a share.
    pub fn all_committed(&self) -> bool {
        self.shares.iter().all(|s| s.commitment.is_some())
    }

    /// Who made the dice so far.
    pub fn makers(&self) -> DiceMakers {
        if !self.rolls {
            DiceMakers::Table
        } else if self.keyed_at.is_some() {
            DiceMakers::Everyone
        } else if self.open {
            DiceMakers::Gathering
        } else {
            DiceMakers::OwnerOnly
        }
    }

    /// Who made the dice, as the story's closing says it; nothing for a
    /// game whose chance is not Tabletape's to draw.
    pub fn told(&self) -> Option<&'static str> {
        match self.makers() {
            DiceMakers::Table => None,
            DiceMakers::Everyone => Some(
                "Every seat added its own share to the dice before the first action: no one, the owner included, chose them.",
            ),
            DiceMakers::Gathering => Some("The seats are still adding their shares to the dice."),
            DiceMakers::OwnerOnly => Some(
                "Dice chosen by the owner only: not every seat added its share before the first action.",
            ),
        }
    }

    /// Checks a seat's share event against the dice as they stand, naming
    /// the rule it breaks.
    pub fn check(&self, actor: Actor, body: &ShareStep<'_>) -> Result<Seat, Rejection> {
        let Actor::Seat(seat) = actor else {
            return Err(Rejection::new(
                "dice.seat",
                "a share of the dice is a seat's: act as the seat it belongs to",
            ));
        };
        if self.version < 2 {
            return Err(Rejection::new(
                "dice.version",
                "this game was recorded before seats added to the dice: its seed alone makes them",
            ));
        }
        if !self.open {
            return Err(Rejection::new(
                "dice.closed",
                if self.keyed_at.is_some() {
                    "every seat has added its share: the dice are made"
                } else {
                    "the dice are set: shares are taken only before the first action, in a game whose dice Tabletape rolls"
                },
            ));
        }
        let share = self.shares.get(seat as usize).ok_or_else(|| {
            Rejection::new("dice.seat", format!("seat {seat} is not at this table"))
        })?;
        match body {
            ShareStep::Commit(commitment) => {
                read_hex32(commitment, "commitment")?;
                if share.commitment.is_some() {
                    return Err(Rejection::new(
                        "dice.committed",
                        "this seat has committed to its share already: reveal it once every seat has committed",
                    ));
                }
            }
            ShareStep::Reveal(contribution) => {
                let value = read_hex32(contribution, "contribution")?;
                let Some(commitment) = &share.commitment else {
                    return Err(Rejection::new(
                        "dice.not_committed",
                        "commit to a share first (its SHA-256), then reveal it once every seat has committed",
                    ));
                };
                if share.contribution.is_some() {
                    return Err(Rejection::new(
                        "dice.revealed",
                        "this seat has revealed its share already",
                    ));
                }
                if !self.all_committed() {
                    let waiting = self
                        .shares
                        .iter()
                        .filter(|s| s.commitment.is_none())
                        .count();
                    return Err(Rejection::new(
                        "dice.waiting",
                        format!(
                            "{waiting} seat(s) have not committed yet: a share is revealed only once every seat has committed"
                        ),
                    ));
                }
                if commitment_of(&value) != *commitment {
                    return Err(Rejection::new(
                        "dice.mismatch",
                        "that value is not the one this seat committed to",
                    ));
                }
            }
        }
        Ok(seat)
    }

    /// Folds a share event already checked. Returns true when it completed
    /// the key (the game is then laid out again from it).
    pub fn fold(&mut self, seat: Seat, body: &ShareStep<'_>, seq: u64) -> bool {
        let Some(share) = self.shares.get_mut(seat as usize) else {
            return false;
        };
        match body {
            ShareStep::Commit(c) => share.commitment = Some(c.to_string()),
            ShareStep::Reveal(v) => share.contribution = Some(v.to_string()),
        }
        let values: Option<Vec<[u8; 32]>> = self
            .shares
            .iter()
            .map(|s| {
                s.contribution
                    .as_deref()
                    .and_then(|v| read_hex32(v, "contribution").ok())
            })
            .collect();
        match values {
            Some(values) if self.open => {
                self.joint = Some(hex_text::of(joint_key(self.seed, &values)));
                self.keyed_at = Some(seq);
                self.open = false;
                true
            }
            _ => false,
        }
    }
}

/// A share event's step: the commitment or the value behind it.
#[derive(Debug, Clone, Copy)]
pub enum ShareStep<'a> {
    Commit(&'a str),
    Reveal(&'a str),
}
