//! Who may read and write a game over HTTP.
//!
//! Creating a game hands out an owner token and one token per seat. Reading a
//! game needs any of its tokens unless the game is public; writing needs the
//! owner's token or the token of the seat that acts, and a seat token acts only
//! as its own seat. The journal knows whose a token is (`Journal::access`);
//! this module turns that answer into a permission and an [`Actor`]
//! (`Access::viewer` gives the view). A missing token is a 401, a token that
//! does not fit is a 403.

use tabletape_events::{Actor, Seat};
use tabletape_store::{Access, Journal, JournalError};

use crate::error::AppError;

/// Who the caller is to `game`, for a read. Fails when the game is private
/// and the caller holds none of its tokens.
pub fn read_access(journal: &Journal, game: &str, token: Option<&str>) -> Result<Access, AppError> {
    journal
        .access(game, token)
        .map_err(|err| refused(err, token))
}

/// Who the caller is to `game`, for a write: the owner or a seat, never a
/// tokenless reader of a public game.
pub fn write_access(
    journal: &Journal,
    game: &str,
    token: Option<&str>,
) -> Result<Access, AppError> {
    match read_access(journal, game, token)? {
        Access::Public => Err(match token {
            None => AppError::Unauthorized(format!(
                "writing to game {game} needs its owner's or a seat's token"
            )),
            Some(_) => AppError::Forbidden(format!("this token does not belong to game {game}")),
        }),
        access => Ok(access),
    }
}

/// The actor of an action and the seat it is decided for. The owner acts for
/// any seat (or the whole table with none); a seat token only for its own seat.
pub fn acting_seat(
    access: &Access,
    asked: Option<Seat>,
) -> Result<(Actor, Option<Seat>), AppError> {
    match (access, asked) {
        (Access::Owner, by) => Ok((Actor::Owner, by)),
        (Access::Seat(own), None) => Ok((Actor::Seat(*own), Some(*own))),
        (Access::Seat(own), Some(by)) if by == *own => Ok((Actor::Seat(*own), Some(*own))),
        (Access::Seat(own), Some(by)) => Err(AppError::Forbidden(format!(
            "the token of seat {own} cannot act as seat {by}"
        ))),
        (Access::Public, _) => Err(AppError::Forbidden("a reader's access cannot act".into())),
    }
}

fn refused(err: JournalError, token: Option<&str>) -> AppError {
    match err {
        JournalError::Forbidden(message) if token.is_none() => AppError::Unauthorized(message),
        JournalError::Forbidden(message) => AppError::Forbidden(message),
        other => AppError::Journal(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_tokens_act_only_as_their_seat() {
        let seat = Access::Seat(1);
        assert_eq!(acting_seat(&seat, None).unwrap(), (Actor::Seat(1), Some(1)));
        assert_eq!(
            acting_seat(&seat, Some(1)).unwrap(),
            (Actor::Seat(1), Some(1))
        );
        assert!(matches!(
            acting_seat(&seat, Some(0)),
            Err(AppError::Forbidden(_))
        ));
    }

    #[test]
    fn the_owner_acts_for_anyone() {
        assert_eq!(
            acting_seat(&Access::Owner, None).unwrap(),
            (Actor::Owner, None)
        );
        assert_eq!(
            acting_seat(&Access::Owner, Some(3)).unwrap(),
            (Actor::Owner, Some(3))
        );
        assert!(matches!(
            acting_seat(&Access::Public, None),
            Err(AppError::Forbidden(_))
        ));
    }
}
