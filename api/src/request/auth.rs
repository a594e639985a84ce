//! Who may read and write a game over HTTP.
//!
//! Creating a game hands out an owner token and one token per seat. Reading a
//! game needs any of its tokens unless the game is public; writing needs the
//! owner's token or the token of the seat that acts, and a seat token acts only
//! as its own seat. The journal knows whose a token is (`Journal::access`);
//! this module turns that answer into a permission and an [`Actor`]
//! (`Access::viewer` gives the view). A missing token is a 401, a token that
//! does not fit is a 403.
//!
//! The store's operator (see [`crate::Operator`]) is the owner of every game
//! and the admin. A read may name another viewer with `as` (see
//! [`viewer_for`]): the owner reads as anyone, a seat only as itself or the
//! public.

use tabletape_engine::Viewer;
use tabletape_events::{Actor, Seat};
use tabletape_store::{Access, Journal, JournalError};

use super::error::AppError;
use super::extract::Bearer;

/// Who the caller is to `game`, for a read. Fails when the game is private
/// and the caller holds none of its tokens. The store's operator is the
/// owner of every game.
pub fn read_access(journal: &Journal, game: &str, bearer: &Bearer) -> Result<Access, AppError> {
    if bearer.is_operator() {
        return Ok(journal.operator_access(game)?);
    }
    let token = bearer.token();
    journal
        .access(game, token)
        .map_err(|err| refused(err, token))
}

/// Who the caller is to `game`, for a write: the owner or a seat, never a
/// tokenless reader of a public game.
pub fn write_access(journal: &Journal, game: &str, bearer: &Bearer) -> Result<Access, AppError> {
    // Writing always takes a token: without one the answer is 401 whether
    // the game exists or not, and says nothing of which.
    if bearer.token().is_none() && !bearer.is_operator() {
        return Err(AppError::Unauthorized(format!(
            "writing to game {game} needs its owner's or a seat's token"
        )));
    }
    match read_access(journal, game, bearer)? {
        Access::Public => Err(match bearer.token() {
            None => AppError::Unauthorized(format!(
                "writing to game {game} needs its owner's or a seat's token"
            )),
            Some(_) => AppError::Forbidden(format!("this token does not belong to game {game}")),
        }),
        access => Ok(access),
    }
}

/// Whether the caller is the store's admin: the admin token's holder, or
/// the operator.
pub fn is_admin(journal: &Journal, bearer: &Bearer) -> Result<bool, AppError> {
    Ok(bearer.is_operator() || journal.is_admin(bearer.token())?)
}

/// Refuses anyone but the store's admin: 401 without a token, 403 with another.
pub(crate) fn admin_only(journal: &Journal, bearer: &Bearer, what: &str) -> Result<(), AppError> {
    if is_admin(journal, bearer)? {
        return Ok(());
    }
    let message = format!("{what} needs the store's admin token (printed once by `tabletape serve`, or set with --admin-token-file)");
    Err(match bearer.token() {
        None => AppError::Unauthorized(message),
        Some(_) => AppError::Forbidden(message),
    })
}

/// Whom a read is shaped for: the caller's own view, or the one the `as`
/// parameter names (`owner`, `public` or a seat number). The owner may read
/// as anyone; a seat as itself or the public; the public as the public.
pub fn viewer_for(
    journal: &Journal,
    game: &str,
    access: Access,
    asked: Option<&str>,
) -> Result<Viewer, AppError> {
    let Some(asked) = asked else {
        return Ok(access.viewer());
    };
    let wanted = parse_viewer(asked)?;
    journal.check_viewer(game, wanted)?;
    match (access, wanted) {
        (Access::Owner, wanted) => Ok(wanted),
        (_, Viewer::Public) => Ok(Viewer::Public),
        (Access::Seat(own), Viewer::Seat(seat)) if seat == own => Ok(wanted),
        (Access::Seat(own), _) => Err(AppError::Forbidden(format!(
            "the token of seat {own} reads only as seat {own} or as the public; reading as {} needs the owner's token",
            shown(wanted)
        ))),
        (Access::Public, _) => Err(AppError::Unauthorized(format!(
            "reading as {} needs the owner's token",
            shown(wanted)
        ))),
    }
}

/// The `as` parameter: `owner`, `public` or a seat number.
pub fn parse_viewer(asked: &str) -> Result<Viewer, AppError> {
    let asked = asked.trim();
    if asked.eq_ignore_ascii_case("owner") {
        return Ok(Viewer::Owner);
    }
    if asked.eq_ignore_ascii_case("public") {
        return Ok(Viewer::Public);
    }
    asked.parse::<Seat>().map(Viewer::Seat).map_err(|_| {
        AppError::BadRequest(format!(
            "`as` is `owner`, `public` or a seat number (from 0), not {:?}",
            asked.chars().take(40).collect::<String>()
        ))
    })
}

fn shown(viewer: Viewer) -> String {
    match viewer {
        Viewer::Owner => "the owner".into(),
        Viewer::Public => "the public".into(),
        Viewer::Seat(seat) => format!("seat {seat}"),
    }
}

/// The access a viewer stands for, for a write made as it (a fork `as` a
/// seat is that seat's fork).
/// Who writes: the holder of the token, or the seat the owner writes `as`
/// (a seat played at the owner's screen).
pub fn writer(
    journal: &Journal,
    game: &str,
    bearer: &Bearer,
    asked: Option<&str>,
) -> Result<Access, AppError> {
    let access = write_access(journal, game, bearer)?;
    Ok(access_of(viewer_for(journal, game, access, asked)?))
}

pub fn access_of(viewer: Viewer) -> Access {
    match viewer {
        Viewer::Owner => Access::Owner,
        Viewer::Seat(seat) => Access::Seat(seat),
        Viewer::Public => Access::Public,
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
