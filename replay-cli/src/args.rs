//! Reading the values people type: seats, `--option K=V`, lines of an actions file.
//!
//! These are pure functions so their readings can be tested without a store.
//! Errors are [`InputError`]s, which the binary reports with exit code 2.

use serde_json::Value;
use tabletape_engine::Viewer;
use tabletape_events::Seat;
use thiserror::Error;

/// Something typed on the command line or in an input file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    #[error("--option `{given}`: expected KEY=VALUE, e.g. `books=record`")]
    OptionShape { given: String },
    #[error("--as `{given}`: no such seat; the seats are {seats}")]
    UnknownSeat { given: String, seats: String },
    #[error(
        "--as `{given}`: no such seat; the seats are {seats}, or `public` (what anyone may see)"
    )]
    UnknownViewer { given: String, seats: String },
    #[error("--as `{given}`: {players} players share that name; use the seat number instead")]
    AmbiguousSeat { given: String, players: usize },
    #[error("{file}:{line}: not a JSON action: {message}")]
    ActionLine {
        file: String,
        line: usize,
        message: String,
    },
    #[error("the action is not JSON: {message}")]
    Action { message: String },
    /// A line number given to `act` that `legal` cannot fill in, or a game
    /// id prefix that is not unique.
    #[error("{message}")]
    LegalLine { message: String },
}

/// Reads `--option K=V`: V is JSON when it parses as JSON (`7`, `true`,
/// `["a","b"]`), else the plain text (`record`), so people need not quote strings.
pub fn parse_option(given: &str) -> Result<(String, Value), InputError> {
    let (key, value) = given
        .split_once('=')
        .ok_or_else(|| InputError::OptionShape {
            given: given.to_string(),
        })?;
    let key = key.trim();
    if key.is_empty() {
        return Err(InputError::OptionShape {
            given: given.to_string(),
        });
    }
    let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_string()));
    Ok((key.to_string(), value))
}

/// Reads `--as SEAT` against the game's players (seat order).
///
/// A player's exact name wins (so a player may be called "2"), then a seat
/// number counted from 0, then a name ignoring case. A name two players share
/// must be given as a number.
pub fn resolve_seat(given: &str, players: &[String]) -> Result<Seat, InputError> {
    let exact: Vec<usize> = players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.as_str() == given)
        .map(|(i, _)| i)
        .collect();
    match exact.len() {
        1 => return Ok(exact[0] as Seat),
        0 => {}
        n => {
            return Err(InputError::AmbiguousSeat {
                given: given.to_string(),
                players: n,
            })
        }
    }
    if let Ok(n) = given.trim().parse::<usize>() {
        if n < players.len() {
            return Ok(n as Seat);
        }
    }
    let folded: Vec<usize> = players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.to_lowercase() == given.trim().to_lowercase())
        .map(|(i, _)| i)
        .collect();
    match folded.len() {
        1 => Ok(folded[0] as Seat),
        0 => Err(InputError::UnknownSeat {
            given: given.to_string(),
            seats: players
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{i} ({p})"))
                .collect::<Vec<_>>()
                .join(", "),
        }),
        n => Err(InputError::AmbiguousSeat {
            given: given.to_string(),
            players: n,
        }),
    }
}

/// Reads `--as` on a read command: a seat as [`resolve_seat`] reads it,
/// or `public` (what anyone may see) or `owner` (everything, the default),
/// in any case. A player's exact name wins over those words, so a player
/// called "public" is still their seat.
pub fn resolve_viewer(given: &str, players: &[String]) -> Result<Viewer, InputError> {
    if !players.iter().any(|p| p == given) {
        match given.trim().to_lowercase().as_str() {
            "public" => return Ok(Viewer::Public),
            "owner" => return Ok(Viewer::Owner),
            _ => {}
        }
    }
    resolve_seat(given, players)
        .map(Viewer::Seat)
        .map_err(|e| match e {
            InputError::UnknownSeat { given, seats } => InputError::UnknownViewer { given, seats },
            other => other,
        })
}

/// Parses the action given on the command line.
pub fn parse_action(text: &str) -> Result<Value, InputError> {
    // A line pasted whole from `legal` keeps its number (` 3. {...}`).
    let trimmed = text.trim_start();
    let text = match trimmed.split_once(". ") {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => text,
    };
    serde_json::from_str(text).map_err(|e| InputError::Action {
        message: e.to_string(),
    })
}

/// One line of an actions file: the action, and the seat it names if any.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionLine {
    /// 1-based line number in the file, for messages.
    pub line: usize,
    /// The seat as written (`"as"`), resolved later against the game's players.
    pub seat: Option<String>,
    pub action: Value,
}

/// Reads one line of an actions file. Blank lines and lines starting with `#`
/// give `None`. A line is either the action itself, or an envelope
/// `{"as": SEAT, "action": {...}}`; kind actions are tagged with `"type"`, so an
/// object with `"action"` and no `"type"` is read as the envelope.
pub fn parse_action_line(
    file: &str,
    line: usize,
    text: &str,
) -> Result<Option<ActionLine>, InputError> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let bad = |message: String| InputError::ActionLine {
        file: file.to_string(),
        line,
        message,
    };
    let value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    if let Value::Object(map) = &value {
        if map.contains_key("action") && !map.contains_key("type") {
            if let Some(extra) = map.keys().find(|k| *k != "action" && *k != "as") {
                return Err(bad(format!(
                    "unknown field `{extra}` beside `action` (only `as` may go with it)"
                )));
            }
            let seat = match map.get("as") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                Some(other) => {
                    return Err(bad(format!(
                        "`as` must be a seat number or a player's name, not {other}"
                    )))
                }
            };
            return Ok(Some(ActionLine {
                line,
                seat,
                action: map["action"].clone(),
            }));
        }
    }
    Ok(Some(ActionLine {
        line,
        seat: None,
        action: value,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn players(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn option_values_are_json_when_they_parse_else_text() {
        assert_eq!(
            parse_option("rounds=7").unwrap(),
            ("rounds".into(), json!(7))
        );
        assert_eq!(
            parse_option("books=record").unwrap(),
            ("books".into(), json!("record"))
        );
        assert_eq!(
            parse_option("parties=true").unwrap(),
            ("parties".into(), json!(true))
        );
        assert_eq!(
            parse_option("chars=[\"nowa\",\"grim\"]").unwrap(),
            ("chars".into(), json!(["nowa", "grim"]))
        );
        assert_eq!(
            parse_option("title=a=b").unwrap(),
            ("title".into(), json!("a=b"))
        );
        assert_eq!(parse_option("empty=").unwrap(), ("empty".into(), json!("")));
        assert_eq!(
            parse_option("name=\"7\"").unwrap(),
            ("name".into(), json!("7"))
        );
    }

    #[test]
    fn option_without_key_or_equals_is_an_error() {
        assert!(matches!(
            parse_option("books"),
            Err(InputError::OptionShape { .. })
        ));
        assert!(matches!(
            parse_option("=3"),
            Err(InputError::OptionShape { .. })
        ));
    }

    #[test]
    fn seat_by_number_or_name() {
        let p = players(&["Nowa", "Grimbold", "Ash"]);
        assert_eq!(resolve_seat("0", &p), Ok(0));
        assert_eq!(resolve_seat("2", &p), Ok(2));
        assert_eq!(resolve_seat("Grimbold", &p), Ok(1));
        assert_eq!(resolve_seat("grimbold", &p), Ok(1));
        let err = resolve_seat("3", &p).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--as `3`: no such seat; the seats are 0 (Nowa), 1 (Grimbold), 2 (Ash)"
        );
        assert!(matches!(
            resolve_seat("Zed", &p),
            Err(InputError::UnknownSeat { .. })
        ));
    }

    #[test]
    fn exact_name_wins_over_number_and_shared_names_need_a_number() {
        let p = players(&["1", "Bo"]);
        assert_eq!(resolve_seat("1", &p), Ok(0));
        assert_eq!(resolve_seat("0", &p), Ok(0));
        let twins = players(&["Bo", "bo"]);
        assert_eq!(resolve_seat("bo", &twins), Ok(1));
        assert!(matches!(
            resolve_seat("BO", &twins),
            Err(InputError::AmbiguousSeat { players: 2, .. })
        ));
        let same = players(&["Bo", "Bo"]);
        assert!(matches!(
            resolve_seat("Bo", &same),
            Err(InputError::AmbiguousSeat { .. })
        ));
        assert_eq!(resolve_seat("1", &same), Ok(1));
    }

    #[test]
    fn viewers_are_seats_or_the_public_or_the_owner() {
        let p = players(&["Nowa", "Grimbold"]);
        assert_eq!(resolve_viewer("1", &p), Ok(Viewer::Seat(1)));
        assert_eq!(resolve_viewer("nowa", &p), Ok(Viewer::Seat(0)));
        assert_eq!(resolve_viewer("public", &p), Ok(Viewer::Public));
        assert_eq!(resolve_viewer("Public", &p), Ok(Viewer::Public));
        assert_eq!(resolve_viewer("owner", &p), Ok(Viewer::Owner));
        let err = resolve_viewer("7", &p).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--as `7`: no such seat; the seats are 0 (Nowa), 1 (Grimbold), or `public` (what anyone may see)"
        );
        // A player's exact name wins over the words.
        let odd = players(&["public", "owner"]);
        assert_eq!(resolve_viewer("public", &odd), Ok(Viewer::Seat(0)));
        assert_eq!(resolve_viewer("owner", &odd), Ok(Viewer::Seat(1)));
        assert_eq!(resolve_viewer("PUBLIC", &odd), Ok(Viewer::Public));
    }

    #[test]
    fn action_lines() {
        assert_eq!(parse_action_line("f", 1, "   ").unwrap(), None);
        assert_eq!(parse_action_line("f", 2, "# a comment").unwrap(), None);
        let plain = parse_action_line("f", 3, r#"{"type":"choose","page":36}"#)
            .unwrap()
            .unwrap();
        assert_eq!(
            plain,
            ActionLine {
                line: 3,
                seat: None,
                action: json!({"type":"choose","page":36})
            }
        );
        let env = parse_action_line("f", 4, r#"{"as":"Nowa","action":{"type":"choose"}}"#)
            .unwrap()
            .unwrap();
        assert_eq!(env.seat.as_deref(), Some("Nowa"));
        assert_eq!(env.action, json!({"type":"choose"}));
        let num = parse_action_line("f", 5, r#"{"as":1,"action":{"type":"x"}}"#)
            .unwrap()
            .unwrap();
        assert_eq!(num.seat.as_deref(), Some("1"));
        // A kind action that happens to have an `action` field stays an action.
        let tagged = parse_action_line("f", 6, r#"{"type":"announce","action":"escape"}"#)
            .unwrap()
            .unwrap();
        assert_eq!(tagged.seat, None);
        let err = parse_action_line("acts.jsonl", 7, "{nope").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("acts.jsonl:7: not a JSON action"),
            "{err}"
        );
        let extra = parse_action_line("f", 8, r#"{"as":0,"action":{},"key":"k"}"#).unwrap_err();
        assert!(extra.to_string().contains("unknown field `key`"), "{extra}");
    }
}
