//! Extractors whose failures speak the API's JSON error format.
//!
//! axum's own `Json` and `Query` answer a bad body or query string with a
//! plain-text response; these wrappers turn the rejection into an [`AppError`]
//! instead. [`Bearer`] reads the optional `Authorization: Bearer <token>`
//! header; whether the token is needed, and whose it is, is decided by the
//! journal (see `request::auth`).

use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method};
use serde::de::DeserializeOwned;

use super::error::AppError;
use super::state::AppState;

/// A JSON request body; a rejection becomes a 400 (or 413/415) JSON error.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        // axum checks the content type and the body's size and that it is
        // JSON; the value is then read plainly. axum's own reading tracks
        // the path to every value, which every action paid for and only a
        // body of the wrong shape needs: that one is read again by axum,
        // to say where.
        let axum::Json(raw) =
            axum::Json::<Box<serde_json::value::RawValue>>::from_request(req, state).await?;
        match serde_json::from_str(raw.get()) {
            Ok(value) => Ok(JsonBody(value)),
            Err(_) => {
                let axum::Json(value) = axum::Json::<T>::from_bytes(raw.get().as_bytes())?;
                Ok(JsonBody(value))
            }
        }
    }
}

/// Query-string parameters; a rejection becomes a 400 JSON error.
#[derive(Debug)]
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let Query(value) = Query::<T>::from_request_parts(parts, state).await?;
        Ok(Params(value))
    }
}

/// The `{id}` segment of a game's route; one that is not UTF-8 once
/// percent-decoded (`/games/%ff`) is a 400 JSON error, not axum's plain text.
#[derive(Debug)]
pub struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(GameId(id)),
            Err(rejection) => Err(AppError::BadRequest(format!(
                "the game id in the path cannot be read: {}",
                rejection.body_text()
            ))),
        }
    }
}

/// The caller's token, if the request carries one, and whether it is the
/// store operator's (see [`crate::Operator`]).
#[derive(Debug, Clone, Default)]
pub struct Bearer {
    token: Option<String>,
    operator: bool,
}

impl Bearer {
    /// The token, for the journal to place: never the operator's, which
    /// opens no game record and stays in the API.
    pub fn token(&self) -> Option<&str> {
        if self.operator {
            None
        } else {
            self.token.as_deref()
        }
    }

    /// Whether the caller holds the operator's token: the owner of every
    /// game and the store's admin.
    pub fn is_operator(&self) -> bool {
        self.operator
    }
}

impl FromRequestParts<AppState> for Bearer {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let token = match bearer(&parts.headers)? {
            Some(token) => Some(token),
            None if parts.method == Method::GET || parts.method == Method::HEAD => {
                cookie_token(&parts.headers, parts.uri.path())
            }
            None => None,
        };
        let operator = match (&token, &state.operator) {
            (Some(token), Some(operator)) => operator.holds(token),
            _ => false,
        };
        Ok(Bearer { token, operator })
    }
}

pub fn bearer(headers: &HeaderMap) -> Result<Option<String>, AppError> {
    let Some(value) = headers.get(AUTHORIZATION) else {
        return Ok(None);
    };
    let malformed =
        || AppError::Unauthorized("the Authorization header must read `Bearer <token>`".into());
    let value = value.to_str().map_err(|_| malformed())?;
    let (scheme, token) = value.trim().split_once(' ').ok_or_else(malformed)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(malformed());
    }
    Ok(Some(token.to_string()))
}

/// The name of the cookie that carries a game's token for the web page.
pub fn cookie_name(game: &str) -> String {
    format!("tt_{game}")
}

/// A game's token from its cookie (`tt_<game>`), for reads only. The web
/// page sets it so that plain links, the story page and the live stream
/// (`EventSource` sends no headers) read as the page's viewer; a write
/// always needs the `Authorization` header, so a cookie never acts (no
/// cross-site request can forge an action).
pub fn cookie_token(headers: &HeaderMap, path: &str) -> Option<String> {
    let game = path
        .strip_prefix("/games/")
        .or_else(|| path.strip_prefix("/g/"))?
        .split('/')
        .next()
        .filter(|id| !id.is_empty())?;
    let wanted = cookie_name(game);
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == wanted)
        .map(|(_, token)| token.trim().to_string())
        .filter(|token| !token.is_empty())
}

/// The `Idempotency-Key` header, if present.
pub fn idempotency_header(headers: &HeaderMap) -> Result<Option<String>, AppError> {
    match headers.get("idempotency-key") {
        None => Ok(None),
        Some(value) => {
            let key = value
                .to_str()
                .map_err(|_| {
                    AppError::BadRequest("the Idempotency-Key header must be visible ASCII".into())
                })?
                .trim();
            if key.is_empty() {
                return Err(AppError::BadRequest(
                    "the Idempotency-Key header is empty".into(),
                ));
            }
            Ok(Some(key.to_string()))
        }
    }
}

/// The idempotency key of a write: the header's or the body's field (both
/// may be given only if they agree).
pub fn idempotency_key(
    headers: &HeaderMap,
    field: Option<String>,
) -> Result<Option<String>, AppError> {
    match (idempotency_header(headers)?, field) {
        (Some(header), Some(field)) if header != field => Err(AppError::unfit(
            "idempotency.key_mismatch",
            format!(
                "the Idempotency-Key header ({header}) and the body's idempotency_key ({field}) differ: send one, or the same in both"
            ),
        )),
        (header, field) => Ok(header.or(field)),
    }
}
