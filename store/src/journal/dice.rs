//! Each seat's share of the dice (see `tabletape_engine::dice`): a seat
//! commits to a random value of its own, and once every seat has committed,
//! reveals it; the dice are then keyed by every value and the owner's seed.
//! Shares are events of the line, taken only before its first action.

use serde::{Deserialize, Serialize};
use tabletape_engine::dice::{commitment_of, read_hex32};
use tabletape_engine::hex_text;
use tabletape_events::Body;

use super::{Access, Acted, Journal, JournalError};

/// One step of a seat's share: its commitment, or the value behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShareRequest {
    /// The branch to add to; the game's current line when left out.
    #[serde(default)]
    pub branch: Option<String>,
    /// The hex SHA-256 of `"tabletape dice share\n"` followed by the
    /// value's 32 bytes: sent first, while the value stays with the seat.
    #[serde(default)]
    pub commitment: Option<String>,
    /// The value itself, 64 hex digits: sent once every seat has committed.
    #[serde(default)]
    pub contribution: Option<String>,
    #[serde(default, deserialize_with = "crate::whole::optional")]
    pub expect_seq: Option<u64>,
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

impl Journal {
    /// Records one step of a seat's share of the dice. The seat's own
    /// token sends it, or the owner's acting as that seat (a seat played at
    /// the owner's screen); the commitment binds the value before anyone
    /// has seen another's, so no holder of tokens can choose the dice.
    pub fn share(&self, game: &str, req: ShareRequest, by: Access) -> Result<Acted, JournalError> {
        let branch = self.line(game, req.branch)?;
        let body = match (req.commitment, req.contribution) {
            (Some(commitment), None) => Body::ContributionCommitted {
                commitment: commitment.to_ascii_lowercase(),
            },
            (None, Some(contribution)) => Body::ContributionRevealed {
                contribution: contribution.to_ascii_lowercase(),
            },
            _ => {
                return Err(JournalError::unfit(
                    "dice.share",
                    "a share of the dice is either a `commitment` (first) or a `contribution` (once every seat has committed), one at a time",
                ))
            }
        };
        self.annotate(
            game,
            &branch,
            body,
            by,
            req.expect_seq,
            req.idempotency_key.as_deref(),
        )
    }
}

/// A fresh share: 32 random bytes from the operating system, and the
/// commitment to send first.
pub fn new_share() -> Result<(String, String), JournalError> {
    let value = super::random::<32>()?;
    Ok((hex_text::of(value), commitment_of(&value)))
}

/// The commitment to a share written as hex, for a seat that chose it.
pub fn commitment_to(share: &str) -> Result<String, JournalError> {
    let value = read_hex32(share, "contribution").map_err(JournalError::Rejected)?;
    Ok(commitment_of(&value))
}
