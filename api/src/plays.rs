//! A finished game as a play for the apps players log their plays in:
//! BG Stats (its JSON export, which the app imports and merges) and
//! BoardGameGeek (a play record as BGG's XML API lists plays).
//!
//! Both take the same [`Play`]: the box, the players in seat order, when
//! the game began and ended (from its events' times; UTC, since a store
//! knows no time zone), and its result from the kind's rules (winners, and
//! scores where the game counts points). Ids that the apps key on are
//! name-based UUIDs (v5) under Tabletape's own namespace, so exporting the
//! same game twice gives the same play, and BG Stats merges rather than
//! duplicates it.

use serde_json::{json, Value};
use tabletape_engine::PlayResult;
use tabletape_store::{JournalError, ShownEvent, StateView};
use uuid::Uuid;

/// `2026-11-21 23:52:37` (UTC) from Unix milliseconds, without a date crate:
/// the civil-from-days algorithm (Howard Hinnant) on the day count.
pub fn utc(ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Tabletape's namespace for the UUIDs of plays, players, games and places.
const NAMESPACE: Uuid = Uuid::from_u128(0x5d1c_0a4e_7f0b_4c55_9a53_7461_626c_6574);

/// One finished game, as a play.
#[derive(Debug, Clone)]
pub struct Play {
    /// The game's id in the store.
    pub game: String,
    /// The table's name for the game, if it gave one.
    pub title: Option<String>,
    /// The box (`Lost Worlds`).
    pub name: String,
    /// BoardGameGeek's id for the box, when the table gave it (0: unknown).
    pub bgg_id: u64,
    /// The players in seat order.
    pub players: Vec<String>,
    pub started_at_ms: u64,
    pub ended_at_ms: u64,
    pub result: PlayResult,
}

impl Play {
    /// A finished line as one play: the game's title and players, its
    /// result (the kind's), and the times of its first and last events.
    /// Refused (`export.play_not_over`) while the line is in play.
    pub fn of(
        game: &str,
        branch: &str,
        title: Option<String>,
        players: Vec<String>,
        state: StateView,
        events: &[ShownEvent],
    ) -> Result<Play, JournalError> {
        let Some(result) = state.result.filter(|_| state.over) else {
            return Err(JournalError::Rejected(tabletape_engine::Rejection::new(
                "export.play_not_over",
                format!(
                    "{game} on `{branch}` is still in play: a play is logged once the game is over"
                ),
            )));
        };
        let (Some(first), Some(last)) = (events.first(), events.last()) else {
            return Err(JournalError::NotFound(format!("{game} has no events")));
        };
        Ok(Play {
            game: game.to_string(),
            title,
            name: tabletape_engine::kind(&state.kind)
                .map_or_else(|| state.kind.clone(), |k| k.game_title().to_string()),
            bgg_id: 0,
            players,
            started_at_ms: first.recorded_at_ms,
            ended_at_ms: last.recorded_at_ms,
            result,
        })
    }

    /// Whole minutes played, at least one.
    fn minutes(&self) -> u64 {
        (self.ended_at_ms.saturating_sub(self.started_at_ms) / 60_000).max(1)
    }

    fn won(&self, seat: usize) -> bool {
        self.result.winners.iter().any(|&w| w as usize == seat)
    }

    fn score(&self, seat: usize) -> Option<u32> {
        self.result.scores.as_ref()?.get(seat).copied()
    }

    fn comments(&self) -> String {
        let mut said = format!("Recorded with Tabletape (game {})", self.game);
        if let Some(title) = &self.title {
            said = format!("{title}. {said}");
        }
        said
    }
}

fn uuid(what: &str, name: &str) -> String {
    Uuid::new_v5(&NAMESPACE, format!("{what}:{name}").as_bytes())
        .hyphenated()
        .to_string()
        .to_uppercase()
}

/// The play as a BG Stats export file: its `games`, `players`, `locations`
/// and `plays` tables, each row referring to the others by id.
pub fn bgstats(play: &Play) -> Value {
    let when = utc(play.started_at_ms);
    let ended = utc(play.ended_at_ms);
    let players: Vec<Value> = play
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            json!({
                "id": i + 1,
                "uuid": uuid("player", name),
                "name": name,
                "isAnonymous": false,
                "modificationDate": ended,
            })
        })
        .collect();
    let scores: Vec<Value> = play
        .players
        .iter()
        .enumerate()
        .map(|(i, _)| {
            json!({
                "playerRefId": i + 1,
                // BG Stats keeps a score as text; empty when the game has none.
                "score": play.score(i).map(|s| s.to_string()).unwrap_or_default(),
                "winner": play.won(i),
                "newPlayer": false,
                "startPlayer": i == 0,
                "seatOrder": i + 1,
                "rank": 0,
            })
        })
        .collect();
    json!({
        "games": [{
            "id": 1,
            "uuid": uuid("game", &play.name),
            "name": play.name,
            "bggName": play.name,
            "bggId": play.bgg_id,
            "cooperative": play.result.cooperative,
            "highestWins": true,
            "noPoints": play.result.scores.is_none(),
            "usesTeams": false,
            "modificationDate": ended,
        }],
        "players": players,
        "locations": [{
            "id": 1,
            "uuid": uuid("location", "tabletape"),
            "name": "Tabletape",
            "modificationDate": ended,
        }],
        "plays": [{
            "uuid": uuid("play", &play.game),
            "gameRefId": 1,
            "locationRefId": 1,
            "playDate": when,
            "entryDate": ended,
            "modificationDate": ended,
            "durationMin": play.minutes(),
            "ignored": false,
            // The winners are named by the rules, not read off the
            // scores (a duel has none; a tie may be broken otherwise).
            "manualWinner": true,
            "rounds": 0,
            "rating": 0,
            "scoringSetting": 0,
            "usesTeams": false,
            "bggId": 0,
            "playImages": "[]",
            "comments": play.comments(),
            "playerScores": scores,
        }],
        "userInfo": { "meRefId": 1 },
    })
}

/// Text made safe for an XML attribute (the escaping the SVG writer uses).
fn attr(text: &str) -> String {
    tabletape_engine::svg::escape(text)
}

/// The play as BoardGameGeek's XML API lists a play: date, length in
/// minutes, the game, and each player's start position, score and win.
pub fn bgg(play: &Play) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    xml.push_str("<plays total=\"1\" page=\"1\">\n");
    xml.push_str(&format!(
        "  <play id=\"0\" date=\"{}\" quantity=\"1\" length=\"{}\" incomplete=\"0\" nowinstats=\"0\" location=\"Tabletape\">\n",
        &utc(play.started_at_ms)[..10],
        play.minutes()
    ));
    xml.push_str(&format!(
        "    <item name=\"{}\" objecttype=\"thing\" objectid=\"{}\">\n      <subtypes>\n        <subtype value=\"boardgame\"/>\n      </subtypes>\n    </item>\n",
        attr(&play.name),
        play.bgg_id
    ));
    xml.push_str(&format!(
        "    <comments>{}</comments>\n",
        attr(&play.comments())
    ));
    xml.push_str("    <players>\n");
    for (i, name) in play.players.iter().enumerate() {
        xml.push_str(&format!(
            "      <player username=\"\" userid=\"0\" name=\"{}\" startposition=\"{}\" color=\"\" score=\"{}\" new=\"0\" rating=\"0\" win=\"{}\"/>\n",
            attr(name),
            i + 1,
            play.score(i).map(|s| s.to_string()).unwrap_or_default(),
            u8::from(play.won(i))
        ));
    }
    xml.push_str("    </players>\n  </play>\n</plays>\n");
    xml
}
