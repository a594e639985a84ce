//! The names and ids the log's keys hold: a game id safe in a URL, a header
//! and a file name; a branch name on one line, in NFC, without invisible
//! characters, and compared without regard to case.

use crate::error::StoreError;

/// Whether `c` would break a line or a terminal: a control character (NUL,
/// C0, DEL, C1 such as U+0085) or a line or paragraph separator.
pub fn breaks_lines(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// Whether `c` is an invisible format character (a zero-width space or
/// joiner, a bidirectional control, a byte order mark): two names that
/// differ only by one would look the same.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}')
}

/// A branch name as it is kept: in Unicode NFC, so that names written
/// with other code points for the same letters are one name.
pub fn normalised_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.nfc().collect()
}

/// The form two branch names are compared in: names equal in it may not
/// sit side by side (`main`, `MAIN`).
pub fn folded_name(name: &str) -> String {
    normalised_name(name).to_lowercase()
}

/// Checks a branch name (or other free-form name the key layout holds): one
/// line, in NFC, with no invisible characters and no space at either end.
pub fn check_name(what: &'static str, name: &str) -> Result<(), StoreError> {
    let why = if name.trim().is_empty() {
        "it is empty"
    } else if name.len() > 200 {
        "it is longer than 200 bytes"
    } else if name.chars().any(breaks_lines) {
        "it contains a control character or a line break"
    } else if name.chars().any(invisible) {
        "it contains an invisible character (a zero-width or bidirectional control)"
    } else if name.trim() != name {
        "it begins or ends with a space"
    } else if normalised_name(name) != name {
        "it is not in Unicode NFC (compose its accents)"
    } else {
        return Ok(());
    };
    Err(StoreError::BadName {
        what,
        name: name.to_string(),
        why,
    })
}

/// Ids the API's routes use beside `/games/{id}`.
const RESERVED_IDS: &[&str] = &["import"];

/// Checks a game id: 1 to 64 ASCII letters, digits, `-`, `_` or `.`, not
/// starting with `.` and not a route's own word, so an id is safe in a URL
/// path, a header and a file name as it is.
/// Whether `game` is a word of a route (`import`), which no id may be,
/// however well-formed.
pub fn is_route_word(game: &str) -> bool {
    RESERVED_IDS.contains(&game.to_ascii_lowercase().as_str())
}

pub fn check_game_id(game: &str) -> Result<(), StoreError> {
    let why = if game.is_empty() {
        "it is empty"
    } else if game.len() > 64 {
        "it is longer than 64 characters"
    } else if game.starts_with('.') {
        "it starts with `.`"
    } else if is_route_word(game) {
        "it is the name of a route (`/games/import`), so the game could not be reached by it"
    } else if !game
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        "only ASCII letters, digits, `-`, `_` and `.` may be used"
    } else {
        return Ok(());
    };
    Err(StoreError::BadName {
        what: "game id",
        name: game.to_string(),
        why,
    })
}
