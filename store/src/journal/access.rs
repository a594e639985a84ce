//! Who a caller is to a game (its owner, a seat or the public), read from
//! the token it holds, and the store's admin token.

use super::*;

/// Who holds a token for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    Owner,
    Seat(Seat),
    /// No token, on a public game.
    Public,
}

impl Access {
    /// What this holder may see.
    pub fn viewer(self) -> Viewer {
        match self {
            Access::Owner => Viewer::Owner,
            Access::Seat(s) => Viewer::Seat(s),
            Access::Public => Viewer::Public,
        }
    }
}

/// Who may open a game: whether it is public, and the hashes of its
/// owner's and seats' tokens. Fixed when the game is created (or imported)
/// and never written again, so a copy kept in memory stays right.
pub(super) struct Keys {
    public: bool,
    owner_token_hash: String,
    seat_token_hashes: Vec<String>,
}

impl Keys {
    fn of(meta: GameMeta) -> Keys {
        Keys {
            public: meta.public,
            owner_token_hash: meta.owner_token_hash,
            seat_token_hashes: meta.seat_token_hashes,
        }
    }
}

impl Journal {
    /// Makes sure the store has an admin token: returns a newly drawn one
    /// (to show once; only its hash is kept) when none was set, `None` when
    /// one exists already.
    pub fn ensure_admin_token(&self) -> Result<Option<String>, JournalError> {
        if self.shared.log.admin_token_hash()?.is_some() {
            return Ok(None);
        }
        let token = new_token()?;
        // Servers starting together on one database: only the first one's
        // token is kept, and only it is shown.
        if !self
            .shared
            .log
            .first_admin_token_hash(&token_hash(&token))?
        {
            return Ok(None);
        }
        Ok(Some(token))
    }

    /// Sets the admin token (from `--admin-token-file`), replacing any other.
    pub fn set_admin_token(&self, token: &str) -> Result<(), JournalError> {
        let token = token.trim();
        if token.len() < 16 || token.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(JournalError::BadInput(
                "an admin token is at least 16 visible characters with no spaces".into(),
            ));
        }
        Ok(self.shared.log.set_admin_token_hash(&token_hash(token))?)
    }

    /// Whether `token` is the store's admin token.
    pub fn is_admin(&self, token: Option<&str>) -> Result<bool, JournalError> {
        let Some(token) = token else { return Ok(false) };
        Ok(self
            .shared
            .log
            .admin_token_hash()?
            .is_some_and(|h| h == token_hash(token)))
    }

    /// Who holds `token` for `game`: its owner, a seat, or (no token, public
    /// game) the public.
    pub fn access(&self, game: &str, token: Option<&str>) -> Result<Access, JournalError> {
        let meta = recent(&self.shared.keys, game, || Ok(Keys::of(self.meta(game)?)))?;
        let Some(token) = token else {
            return if meta.public {
                Ok(Access::Public)
            } else {
                Err(JournalError::Forbidden(format!(
                    "game `{game}` is private: a token is needed"
                )))
            };
        };
        let hash = token_hash(token);
        if hash == meta.owner_token_hash {
            return Ok(Access::Owner);
        }
        match meta.seat_token_hashes.iter().position(|h| *h == hash) {
            Some(seat) => Ok(Access::Seat(seat as Seat)),
            None => Err(JournalError::Forbidden(format!(
                "that token does not open game `{game}`"
            ))),
        }
    }

    /// Each seat's link token again, for the owner on any device: drawn
    /// from the owner's token, checked against the hashes the store keeps.
    /// A game whose seat tokens were drawn at random (before they were
    /// drawn from the owner's) cannot give them again.
    pub fn seat_links(
        &self,
        game: &str,
        owner_token: &str,
    ) -> Result<Vec<SeatToken>, JournalError> {
        let meta = self.meta(game)?;
        if token_hash(owner_token) != meta.owner_token_hash {
            return Err(JournalError::Forbidden(format!(
                "the seats' links of game `{game}` are given only to its owner's token"
            )));
        }
        let seats = seat_tokens(owner_token, &meta.players);
        let drawn = seats
            .iter()
            .zip(&meta.seat_token_hashes)
            .all(|(s, h)| token_hash(&s.token) == *h);
        if !drawn || seats.len() != meta.seat_token_hashes.len() {
            return Err(JournalError::NotFound(format!(
                "game `{game}` was started before seat links could be given again: they are only where it was started"
            )));
        }
        Ok(seats)
    }

    /// The access of the store's operator (a caller the server vouches for,
    /// such as the CLI beside a running `serve`): the owner of every game
    /// the store holds.
    pub fn operator_access(&self, game: &str) -> Result<Access, JournalError> {
        self.meta(game)?;
        Ok(Access::Owner)
    }

    /// Refuses a viewer that names a seat not at `game`'s table.
    pub fn check_viewer(&self, game: &str, viewer: Viewer) -> Result<(), JournalError> {
        match viewer {
            Viewer::Seat(seat) => Self::check_seat(&self.meta(game)?, Some(seat)),
            _ => Ok(()),
        }
    }
}
