//! The CLI on a store that a running `tabletape serve` holds: every journal
//! call of [`Table`] made through the server's HTTP API, as the store's
//! operator (the token in the store's `serve.json`, see `served`).
//!
//! Answers come back in the journal's own types and errors in the journal's
//! own words (the API's `{"error", "message"}` read back into a
//! [`JournalError`]), so a command prints the same and exits with the same
//! code as on a store it opens itself.

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;
use tabletape_engine::{LegalAction, Narrative, Viewer};
use tabletape_events::Seat;
use tabletape_store::{
    Access, ActRequest, Acted, BackedUp, BranchInfo, Comparison, Created, GameSummary, GamesPage,
    Imported, JournalError, NameRequest, NewGame, NoteRequest, Rejection, ReplayStep, Restored,
    ShareRequest, ShownEvent, StateView, Undone, VerifyReport, GAMES_PAGE_MAX,
};

use crate::error::CliError;
use crate::served::{self, ServeNote};
use crate::table::Table;

type Result<T> = std::result::Result<T, CliError>;

/// How long to wait for the server to take a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// A served store, reached over kept-alive connections.
pub struct Remote {
    store: PathBuf,
    note: ServeNote,
    /// `http://127.0.0.1:7878`: where the server is reached.
    base: String,
    agent: ureq::Agent,
}

/// An error answer of the API.
#[derive(Debug, Deserialize)]
struct ErrorBody {
    error: String,
    message: String,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    expected: Option<u64>,
    #[serde(default)]
    head: Option<u64>,
}

/// `GET /games/{id}/verify`'s answer.
#[derive(Debug, Deserialize)]
struct Verified {
    branches: Vec<VerifyReport>,
}

impl Remote {
    /// The server the store's `serve.json` names, if it still runs and
    /// takes a connection.
    pub fn find(store: &Path) -> Option<Remote> {
        let note = served::read_live(store)?;
        let mut addr = note.addr;
        // A server listening on every interface is reached on this machine's own.
        if addr.ip().is_unspecified() {
            addr.set_ip(match addr {
                std::net::SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                std::net::SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT).ok()?;
        Some(Remote {
            store: store.to_path_buf(),
            note,
            base: format!("http://{addr}"),
            agent: agent(),
        })
    }

    /// `tabletape serve (pid 41, on 127.0.0.1:7878)`, for messages.
    pub fn server(&self) -> String {
        format!(
            "tabletape serve (pid {}, on {})",
            self.note.pid, self.note.addr
        )
    }

    fn failed(&self, message: String) -> CliError {
        CliError::Remote {
            server: self.server(),
            message,
        }
    }

    /// One request with the operator's token; the body of a 2xx answer, or
    /// the answer's error in the journal's words.
    fn send(&self, method: &str, path: &str, body: Option<&[u8]>) -> Result<Vec<u8>> {
        let no_answer =
            |e: &dyn std::fmt::Display| self.failed(format!("no answer to {method} {path}: {e}"));
        let url = format!("{}{path}", self.base);
        let bearer = format!("Bearer {}", self.note.token);
        let answer = match body {
            None if method == "GET" => self.agent.get(&url).header("Authorization", &bearer).call(),
            body => self
                .agent
                .post(&url)
                .header("Authorization", &bearer)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or_default()),
        };
        let mut answer = answer.map_err(|e| no_answer(&e))?;
        let status = answer.status().as_u16();
        // Exports and backups may be large: no limit on what is read.
        let mut bytes = Vec::new();
        answer
            .body_mut()
            .as_reader()
            .read_to_end(&mut bytes)
            .map_err(|e| no_answer(&e))?;
        if (200..300).contains(&status) {
            return Ok(bytes);
        }
        Err(self.error(status, &bytes))
    }

    fn error(&self, status: u16, body: &[u8]) -> CliError {
        let Ok(e) = serde_json::from_slice::<ErrorBody>(body) else {
            return self.failed(format!(
                "answered {status}: {}",
                String::from_utf8_lossy(body).trim()
            ));
        };
        let journal = match (e.error.as_str(), e.expected, e.head) {
            ("rejected", ..) => {
                JournalError::Rejected(Rejection::new(e.rule.unwrap_or_default(), e.message))
            }
            ("conflict", Some(expected), Some(head)) => JournalError::Conflict { expected, head },
            ("not_found", ..) => JournalError::NotFound(e.message),
            ("bad_request", ..) => JournalError::BadInput(e.message),
            ("unfit", ..) => JournalError::Unfit {
                rule: e.rule.unwrap_or_default(),
                message: e.message,
            },
            ("forbidden", ..) => JournalError::Forbidden(e.message),
            ("unauthorized", ..) => {
                return self.failed(format!(
                    "the server did not take the operator token of {}: {}",
                    served::note_path(&self.store).display(),
                    e.message
                ))
            }
            _ => return self.failed(format!("answered {status}: {}", e.message)),
        };
        CliError::Journal(journal)
    }

    fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T> {
        let body = self.send("GET", path, None)?;
        self.parse(path, &body)
    }

    fn post<T: DeserializeOwned>(&self, path: &str, body: &serde_json::Value) -> Result<T> {
        let sent = serde_json::to_vec(body).expect("requests serialize");
        let answer = self.send("POST", path, Some(&sent))?;
        self.parse(path, &answer)
    }

    fn parse<T: DeserializeOwned>(&self, path: &str, body: &[u8]) -> Result<T> {
        serde_json::from_slice(body)
            .map_err(|e| self.failed(format!("an answer to {path} that does not read: {e}")))
    }
}

/// The client: a connection within [`CONNECT_TIMEOUT`], then as long as
/// the answer takes (a long verify or import); error statuses are answers
/// (their bodies say what went wrong), kept-alive connections reused.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_connect(Some(CONNECT_TIMEOUT))
        .http_status_as_error(false)
        .build()
        .into()
}

/// `/games/{game}{rest}` with the id percent-encoded.
fn game_path(game: &str, rest: &str) -> String {
    format!("/games/{}{rest}", encode(game))
}

/// A query string (`?a=1&b=x`) of the parameters given, or nothing.
fn query(params: &[(&str, Option<String>)]) -> String {
    let given: Vec<String> = params
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={}", encode(v))))
        .collect();
    if given.is_empty() {
        String::new()
    } else {
        format!("?{}", given.join("&"))
    }
}

/// Percent-encodes all but RFC 3986's unreserved characters.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The API's `as` for a viewer: none for the owner (the operator is the
/// owner), else `public` or the seat number.
fn viewer_param(viewer: Viewer) -> Option<String> {
    match viewer {
        Viewer::Owner => None,
        Viewer::Seat(seat) => Some(seat.to_string()),
        Viewer::Public => Some("public".into()),
    }
}

fn some(text: &str) -> Option<String> {
    Some(text.to_string())
}

impl Table for Remote {
    fn create(&self, req: NewGame) -> Result<Created> {
        let body = json!({
            "kind": req.kind,
            "players": req.players,
            "seed": req.seed,
            "dice": req.dice,
            "options": req.options,
            "pack": req.pack.as_ref().map(|p| &p.json),
            "pack_name": req.pack.as_ref().map(|p| &p.file),
            "public": req.public,
            "title": req.title,
            "id": req.id,
        });
        self.post("/games", &body)
    }

    fn players(&self, game: &str) -> Result<Vec<String>> {
        let summary: GameSummary = self.get(&game_path(game, ""))?;
        Ok(summary.players)
    }

    fn title(&self, game: &str) -> Result<Option<String>> {
        let summary: GameSummary = self.get(&game_path(game, ""))?;
        Ok(summary.title)
    }

    fn current_line(&self, game: &str) -> Result<String> {
        let summary: GameSummary = self.get(&game_path(game, ""))?;
        Ok(summary.current)
    }

    fn undo(&self, game: &str) -> Result<Undone> {
        self.post(&game_path(game, "/undo"), &json!({}))
    }

    fn legal(&self, game: &str, branch: &str, seat: Option<Seat>) -> Result<Vec<LegalAction>> {
        let q = query(&[
            ("branch", some(branch)),
            ("seat", seat.map(|s| s.to_string())),
        ]);
        self.get(&game_path(game, &format!("/legal{q}")))
    }

    fn is_over(&self, game: &str, branch: &str) -> Result<bool> {
        let q = query(&[("branch", some(branch))]);
        let view: StateView = self.get(&game_path(game, &format!("/state{q}")))?;
        Ok(view.over)
    }

    fn act(&self, game: &str, req: ActRequest) -> Result<Acted> {
        // The operator is the owner, who acts for the seat named or the table.
        let body = json!({
            "action": req.action,
            "seat": req.by,
            "branch": req.branch,
            "expect_seq": req.expect_seq,
            "idempotency_key": req.idempotency_key,
        });
        self.post(&game_path(game, "/actions"), &body)
    }

    fn games(&self) -> Result<Vec<GameSummary>> {
        let mut games = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let q = query(&[
                ("limit", Some(GAMES_PAGE_MAX.to_string())),
                ("after", after.take()),
            ]);
            let page: GamesPage = self.get(&format!("/games{q}"))?;
            games.extend(page.games);
            match page.next {
                Some(next) => after = Some(next),
                None => return Ok(games),
            }
        }
    }

    fn events_as(&self, game: &str, branch: &str, viewer: Viewer) -> Result<Vec<ShownEvent>> {
        let q = query(&[("branch", some(branch)), ("as", viewer_param(viewer))]);
        self.get(&game_path(game, &format!("/events{q}")))
    }

    fn state(
        &self,
        game: &str,
        branch: &str,
        at: Option<u64>,
        viewer: Viewer,
    ) -> Result<StateView> {
        let q = query(&[
            ("branch", some(branch)),
            ("at", at.map(|a| a.to_string())),
            ("as", viewer_param(viewer)),
        ]);
        self.get(&game_path(game, &format!("/state{q}")))
    }

    fn replay(
        &self,
        game: &str,
        branch: &str,
        to: Option<u64>,
        viewer: Viewer,
    ) -> Result<Vec<ReplayStep>> {
        let q = query(&[
            ("branch", some(branch)),
            ("to", to.map(|t| t.to_string())),
            ("as", viewer_param(viewer)),
        ]);
        self.get(&game_path(game, &format!("/replay{q}")))
    }

    fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: Option<&str>,
        reseed: Option<u64>,
        by: Access,
    ) -> Result<BranchInfo> {
        let q = query(&[("as", viewer_param(by.viewer()))]);
        let body = json!({"at": at, "from": from, "name": name, "reseed": reseed});
        self.post(&game_path(game, &format!("/branches{q}")), &body)
    }

    fn branches_as(&self, game: &str, viewer: Viewer) -> Result<Vec<BranchInfo>> {
        let q = query(&[("as", viewer_param(viewer))]);
        self.get(&game_path(game, &format!("/branches{q}")))
    }

    fn narrate_as(&self, game: &str, branch: &str, viewer: Viewer) -> Result<Narrative> {
        let q = query(&[
            ("format", some("json")),
            ("branch", some(branch)),
            ("as", viewer_param(viewer)),
        ]);
        self.get(&game_path(game, &format!("/narrative{q}")))
    }

    fn narrate_with_variations(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
    ) -> Result<Narrative> {
        let q = query(&[
            ("format", some("json")),
            ("branch", some(branch)),
            ("variations", some("true")),
            ("as", viewer_param(viewer)),
        ]);
        self.get(&game_path(game, &format!("/narrative{q}")))
    }

    fn note(&self, game: &str, req: NoteRequest, by: Access) -> Result<Acted> {
        let q = query(&[("as", viewer_param(by.viewer()))]);
        self.post(&game_path(game, &format!("/notes{q}")), &json!(req))
    }

    fn name_branch(&self, game: &str, req: NameRequest, by: Access) -> Result<Acted> {
        let q = query(&[("as", viewer_param(by.viewer()))]);
        self.post(&game_path(game, &format!("/names{q}")), &json!(req))
    }

    fn share(&self, game: &str, req: ShareRequest, by: Access) -> Result<Acted> {
        let q = query(&[("as", viewer_param(by.viewer()))]);
        self.post(&game_path(game, &format!("/dice{q}")), &json!(req))
    }

    fn compare(&self, game: &str, a: &str, b: &str, viewer: Viewer) -> Result<Comparison> {
        let q = query(&[("a", some(a)), ("b", some(b)), ("as", viewer_param(viewer))]);
        self.get(&game_path(game, &format!("/compare{q}")))
    }

    fn check_export(&self, game: &str, branch: Option<&str>, viewer: Viewer) -> Result<()> {
        if viewer == Viewer::Owner {
            return Ok(());
        }
        // The server checks an export as it makes it: ask for it as the viewer.
        let q = query(&[
            ("branch", branch.map(str::to_string)),
            ("as", viewer_param(viewer)),
        ]);
        self.send("GET", &game_path(game, &format!("/export{q}")), None)?;
        Ok(())
    }

    fn export(&self, game: &str, branch: Option<&str>, out: &mut dyn Write) -> Result<u64> {
        let q = query(&[("branch", branch.map(str::to_string))]);
        let lines = self.send("GET", &game_path(game, &format!("/export{q}")), None)?;
        out.write_all(&lines)?;
        out.flush()?;
        Ok(lines.iter().filter(|&&b| b == b'\n').count() as u64)
    }

    fn import(&self, input: &mut dyn BufRead) -> Result<Imported> {
        let mut lines = Vec::new();
        input.read_to_end(&mut lines).map_err(|e| {
            CliError::Journal(JournalError::BadInput(format!("reading the export: {e}")))
        })?;
        let answer = self.send("POST", "/games/import", Some(&lines))?;
        self.parse("/games/import", &answer)
    }

    fn verify(&self, game: Option<&str>) -> Result<Vec<VerifyReport>> {
        let games = match game {
            Some(game) => vec![game.to_string()],
            None => self.games()?.into_iter().map(|g| g.game).collect(),
        };
        let mut reports = Vec::new();
        for game in games {
            let verified: Verified = self.get(&game_path(&game, "/verify"))?;
            reports.extend(verified.branches);
        }
        Ok(reports)
    }

    fn verify_as(&self, game: &str, viewer: Viewer) -> Result<Vec<VerifyReport>> {
        let q = query(&[("as", viewer_param(viewer))]);
        let verified: Verified = self.get(&game_path(game, &format!("/verify{q}")))?;
        Ok(verified.branches)
    }

    fn backup(&self, out: &mut dyn Write) -> Result<BackedUp> {
        let lines = self.send("GET", "/backup", None)?;
        out.write_all(&lines)?;
        out.flush()?;
        // A header, then per game its record line and its events.
        let mut done = BackedUp {
            games: 0,
            events: 0,
        };
        for line in lines.split(|&b| b == b'\n').skip(1) {
            if line.starts_with(b"{\"game_record\"") {
                done.games += 1;
            } else if !line.is_empty() {
                done.events += 1;
            }
        }
        Ok(done)
    }

    fn restore(&self, _input: &mut dyn BufRead) -> Result<Restored> {
        Err(CliError::Served(format!(
            "the store at {} is served by {}, and a restore does not go through the server: stop it (Ctrl-C), then restore; or restore into another --store",
            self.store.display(),
            self.server()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_queries_are_encoded() {
        assert_eq!(game_path("g-1/x y", "/state"), "/games/g-1%2Fx%20y/state");
        assert_eq!(query(&[("a", None), ("b", None)]), "");
        assert_eq!(
            query(&[
                ("branch", some("what if?")),
                ("as", None),
                ("at", some("3"))
            ]),
            "?branch=what%20if%3F&at=3"
        );
        assert_eq!(encode("é"), "%C3%A9");
    }
}
