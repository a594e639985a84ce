//! One error type for every handler, and its mapping to HTTP.
//!
//! Every failure leaves the API as JSON `{"error": code, "message": sentence}`
//! with the status the design brief fixes: 400 malformed, 401 no token, 403 the
//! wrong token, 404 unknown, 409 a stale expected seq, 413 a body over the
//! limit, 422 against the rules (with the `rule` at fault), 500 our own fault.
//! Internal errors are logged in full and answered with a short sentence, so
//! store paths and engine internals never reach a client. The body limits
//! live here too, beside the 413 that names them.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use tabletape_store::JournalError;

/// The largest request body accepted (1 MiB): an action or a new game is far smaller.
pub const BODY_LIMIT_BYTES: usize = 1024 * 1024;

/// The largest JSON Lines body `POST /games/import` accepts (64 MiB): an
/// exported game grows with every event, so imports get more room.
pub const IMPORT_LIMIT_BYTES: usize = 64 * 1024 * 1024;

/// Why a request failed, in the API's words.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The journal refused or failed; mapped by its own variant.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The request itself is malformed: body, query or header.
    #[error("{0}")]
    BadRequest(String),
    /// The body is not JSON at all (wrong or missing content type).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// No token was given where one is needed.
    #[error("{0}")]
    Unauthorized(String),
    /// A token was given but it does not allow this.
    #[error("{0}")]
    Forbidden(String),
    /// No such route, game, branch or seq.
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    /// Our own failure (a panicked blocking task, an unwritable response).
    #[error("{0}")]
    Internal(String),
}

/// The JSON body of every error response.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct ErrorBody<'a> {
    error: &'a str,
    message: String,
    /// The rule an action broke, or the rule an input's content breaks (422 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'a str>,
    /// The seq the caller expected and the branch's real head (409 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    head: Option<u64>,
}

impl ErrorBody<'_> {
    fn plain(error: &str, message: String) -> ErrorBody<'_> {
        ErrorBody {
            error,
            message,
            rule: None,
            expected: None,
            head: None,
        }
    }
}

fn internal(message: &str) -> (StatusCode, ErrorBody<'static>) {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        ErrorBody::plain(
            "internal",
            format!("{message}; the server log has the details"),
        ),
    )
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let AppError::Journal(JournalError::Rejected(rejection)) = &self {
            crate::telemetry::rejected(&rejection.rule);
        }
        let (status, body) = match &self {
            AppError::Journal(err) => match err {
                JournalError::Rejected(rejection) => (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    ErrorBody {
                        rule: Some(&rejection.rule),
                        ..ErrorBody::plain("rejected", rejection.message.clone())
                    },
                ),
                JournalError::Conflict { expected, head } => (
                    StatusCode::CONFLICT,
                    ErrorBody {
                        expected: Some(*expected),
                        head: Some(*head),
                        ..ErrorBody::plain(
                            "conflict",
                            format!("expected seq {expected} but the branch is at {head}; read it again and retry"),
                        )
                    },
                ),
                JournalError::NotFound(m) => (StatusCode::NOT_FOUND, ErrorBody::plain("not_found", m.clone())),
                JournalError::BadInput(m) => (StatusCode::BAD_REQUEST, ErrorBody::plain("bad_request", m.clone())),
                // What the document's schemas can say is checked on the way
                // in (a 400); this is what no schema can: fields that
                // disagree, a pack that does not fit its kind, lines that are
                // not a game's history.
                JournalError::Unfit { rule, message } => (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    ErrorBody {
                        rule: Some(rule),
                        ..ErrorBody::plain("unfit", message.clone())
                    },
                ),
                JournalError::Forbidden(m) => (StatusCode::FORBIDDEN, ErrorBody::plain("forbidden", m.clone())),
                JournalError::Store(tabletape_store::StoreError::Unavailable(m)) => {
                    tracing::warn!(error = %m, "store unavailable");
                    (
                        StatusCode::SERVICE_UNAVAILABLE,
                        ErrorBody::plain(
                            "unavailable",
                            "the game store cannot be reached just now (its database does not answer); nothing was written: try again shortly".into(),
                        ),
                    )
                }
                _ => {
                    tracing::error!(error = %err, "journal failed");
                    internal("the journal failed")
                }
            },
            AppError::BadRequest(m) => (StatusCode::BAD_REQUEST, ErrorBody::plain("bad_request", m.clone())),
            AppError::UnsupportedMediaType(m) => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorBody::plain("unsupported_media_type", m.clone()),
            ),
            AppError::Unauthorized(m) => (StatusCode::UNAUTHORIZED, ErrorBody::plain("unauthorized", m.clone())),
            AppError::Forbidden(m) => (StatusCode::FORBIDDEN, ErrorBody::plain("forbidden", m.clone())),
            AppError::NotFound(m) => (StatusCode::NOT_FOUND, ErrorBody::plain("not_found", m.clone())),
            AppError::PayloadTooLarge(m) => (StatusCode::PAYLOAD_TOO_LARGE, ErrorBody::plain("too_large", m.clone())),
            AppError::MethodNotAllowed(m) => (
                StatusCode::METHOD_NOT_ALLOWED,
                ErrorBody::plain("method_not_allowed", m.clone()),
            ),
            AppError::Internal(m) => {
                tracing::error!(error = %m, "request failed");
                internal("the server failed")
            }
        };
        let mut response = (status, Json(body)).into_response();
        if status == StatusCode::UNAUTHORIZED {
            // RFC 9110: a 401 names the scheme that would succeed.
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

impl AppError {
    /// Well-formed input whose content `rule` rules out (a 422).
    pub(crate) fn unfit(rule: &str, message: String) -> AppError {
        AppError::Journal(JournalError::Unfit {
            rule: rule.to_string(),
            message,
        })
    }

    /// The journal's refusal of input as [`JournalError::Unfit`] under
    /// `rule`, for a body whose every fault is in its content; anything
    /// else as it is.
    pub(crate) fn unfit_as(rule: &'static str) -> impl Fn(AppError) -> AppError {
        move |err| match err {
            AppError::Journal(JournalError::BadInput(message)) => AppError::unfit(rule, message),
            other => other,
        }
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> Self {
        let message = rejection.body_text();
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge(too_large_message()),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => AppError::UnsupportedMediaType(message),
            // axum answers valid JSON of the wrong shape with 422; to us that is
            // a malformed request, and 422 is kept for actions against the rules.
            _ => AppError::BadRequest(message),
        }
    }
}

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> Self {
        AppError::BadRequest(rejection.body_text())
    }
}

pub(crate) fn too_large_message() -> String {
    format!(
        "the request body is too large: requests take up to {} bytes, imports up to {} bytes",
        BODY_LIMIT_BYTES, IMPORT_LIMIT_BYTES
    )
}
