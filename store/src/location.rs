//! Where a store lives: a directory (sled, the default) or a PostgreSQL
//! database, as `--store` and `TABLETAPE_STORE` name it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::StoreError;
use crate::log::postgres::{is_postgres_url, PgLog};
use crate::log::{Log, SledLog};

/// A store's place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A sled store in this directory (created if missing).
    Dir(PathBuf),
    /// A PostgreSQL database, by URL (`postgres://user@host/db`).
    Postgres(String),
}

impl Location {
    /// Reads `--store`: a `postgres://` or `postgresql://` URL, or else a path.
    pub fn parse(store: &str) -> Location {
        if is_postgres_url(store) {
            Location::Postgres(store.to_string())
        } else {
            Location::Dir(PathBuf::from(store))
        }
    }

    /// The store's directory, for a sled store.
    pub fn dir(&self) -> Option<&Path> {
        match self {
            Location::Dir(path) => Some(path),
            Location::Postgres(_) => None,
        }
    }

    /// Opens the log there.
    pub fn open_log(&self) -> Result<Arc<dyn Log>, StoreError> {
        Ok(match self {
            Location::Dir(path) => Arc::new(SledLog::open(path)?),
            Location::Postgres(url) => Arc::new(PgLog::open(url)?),
        })
    }
}

impl std::str::FromStr for Location {
    type Err = std::convert::Infallible;
    fn from_str(store: &str) -> Result<Location, Self::Err> {
        Ok(Location::parse(store))
    }
}

/// A path as given; a URL without its password.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Dir(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}
