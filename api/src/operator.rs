//! The store's operator: whoever can read the note a running `tabletape
//! serve` leaves in its store (the user who started it, on that machine).
//!
//! Each start draws a fresh operator token and hands it to the note; the
//! server keeps only its SHA-256 hash, in memory, and nothing of it reaches
//! the sled store or a log. A request bearing it is the owner of every game
//! and the store's admin: it is the CLI on the served store, which reaches
//! the games through the server because sled lets one process hold a store.

use sha2::{Digest, Sha256};

/// The hash of the operator token of one run of the server.
#[derive(Clone)]
pub struct Operator {
    hash: [u8; 32],
}

impl std::fmt::Debug for Operator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Operator(..)")
    }
}

impl Operator {
    /// A fresh operator: 32 bytes of operating system randomness as hex (the
    /// token, to hand to the operator), and the hash the server keeps.
    pub fn draw() -> std::io::Result<(Operator, String)> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| {
            std::io::Error::other(format!("operating system randomness failed: {e}"))
        })?;
        let token = hex::encode(bytes);
        Ok((Operator::from_token(&token), token))
    }

    /// The operator whose token is `token`.
    pub fn from_token(token: &str) -> Operator {
        Operator {
            hash: Sha256::digest(token.as_bytes()).into(),
        }
    }

    /// Whether `token` is the operator's (compared without an early exit).
    pub fn holds(&self, token: &str) -> bool {
        let given: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        given
            .iter()
            .zip(&self.hash)
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
    }
}
