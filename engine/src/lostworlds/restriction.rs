//! The restriction parser: the words one fighter reads aloud to another.
//!
//! A restriction is one or more sentences; a sentence is one or more clauses
//! joined by ", but". Each clause is one of: no restriction; "do only" or
//! "do no" a list, for the next turn, for the rest of the combat, or until the
//! weapon has been retrieved (the weapon is lost); a +N bonus if a score lands
//! (on anything, or on a listed kind of maneuver); a cumulative score penalty
//! for the rest of the combat; the weapon being usable again; or a note the
//! engine keeps but does not enforce (a sentence opening with "If").
//!
//! A list names colours, categories (singular or plural), maneuver names, full
//! maneuver names or "Extended Range", joined by ", " and " or ". A lone word
//! that only makes sense with the next item's last word is completed by it, so
//! "Down or Side Swing" means Down Swings or Side Swings. Matching is
//! case-insensitive and quotes are ignored.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::lostworlds::content::{Colour, Maneuver};

/// Something a restriction's list names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    Colour(Colour),
    ExtendedRange,
    /// A category, maneuver name or word, lowercased ("jumps", "kick", "swing").
    Term(String),
}

/// How long a do-only or do-no clause lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Span {
    NextTurn,
    RestOfCombat,
    /// The weapon is lost: the clause holds until a "may use weapon again".
    UntilWeaponRetrieved,
}

crate::in_place! {
    "Clause",
    /// One clause of a restriction.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
    #[serde(tag = "clause", rename_all = "snake_case")]
    pub enum Clause {
        /// No restriction next turn.
        Free,
        Only {
            items: Vec<Item>,
            except: Vec<Item>,
            span: Span,
        },
        No {
            items: Vec<Item>,
            except: Vec<Item>,
            span: Span,
        },
        /// Added to a score next turn; an empty list means any maneuver.
        Bonus {
            amount: i32,
            items: Vec<Item>,
        },
        /// Taken from every score for the rest of the combat; readings add up.
        Penalty {
            amount: i32,
            except: Vec<Item>,
        },
        WeaponRetrieved,
        /// "If I am pushed off balance go to p. 19": for the next exchange only,
        /// if the reader is then shown in `situation` (in the picture the
        /// reader reaches), the listener turns to `picture` of the reader's book
        /// instead of the one the matrix gives.
        If {
            situation: String,
            picture: u32,
        },
        /// A sentence kept as read and not enforced: a conditional this engine
        /// cannot read (no page to go to).
        Note {
            text: String,
        },
    }
}

/// A restriction as read aloud, with its parsed clauses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restriction {
    pub text: String,
    pub clauses: Vec<Clause>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read the restriction \"{text}\": {reason}")]
pub struct RestrictionError {
    pub text: String,
    pub reason: String,
}

/// Categories a list may name; a category names only its own maneuvers.
const CATEGORIES: [&str; 9] = [
    "down swing",
    "side swing",
    "thrust",
    "block and strike",
    "fake",
    "special",
    "block",
    "jump",
    "extended range",
];

fn singular(term: &str) -> &str {
    match term.strip_suffix(['s', 'S']) {
        Some(s) if s.len() >= 3 => s,
        _ => term,
    }
}

/// Whether `term` names a category ("Jumps", "down swing").
pub fn is_category_term(term: &str) -> bool {
    let sing = singular(term);
    CATEGORIES
        .iter()
        .any(|c| c.eq_ignore_ascii_case(term) || c.eq_ignore_ascii_case(sing))
}

/// Whether a list term names maneuver `m`, in any letter case (read
/// without writing either out: offering the open choices asks this of
/// every maneuver on the sheet).
pub fn term_admits(term: &str, m: &Maneuver) -> bool {
    let sing = singular(term);
    let is = |word: &str| word.eq_ignore_ascii_case(term) || word.eq_ignore_ascii_case(sing);
    if is(&m.category) {
        return true;
    }
    if is_category_term(term) {
        return false;
    }
    if is(&m.name) || m.full_name_is(term) || m.full_name_is(sing) {
        return true;
    }
    // A single word such as "Swing" names every maneuver with that word.
    !term.contains(' ') && m.full_name_words().any(is)
}

impl Item {
    pub fn admits(&self, m: &Maneuver) -> bool {
        match self {
            Item::Colour(c) => m.colour == *c,
            Item::ExtendedRange => m.is_extended(),
            Item::Term(t) => term_admits(t, m),
        }
    }

    /// The item as a player would say it.
    pub fn words(&self) -> String {
        match self {
            Item::Colour(c) => c.name().to_string(),
            Item::ExtendedRange => "Extended Range".into(),
            Item::Term(t) => t
                .split(' ')
                .map(|w| {
                    if w == "and" {
                        w.to_string()
                    } else {
                        let mut cs = w.chars();
                        cs.next()
                            .map(|f| f.to_ascii_uppercase().to_string() + cs.as_str())
                            .unwrap_or_default()
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// The item as the kind of maneuver it names, to follow "is not":
    /// "Green", "an extended-range maneuver", "a Jump", "Kick".
    fn kind_words(&self) -> String {
        match self {
            Item::Colour(c) => c.name().to_string(),
            Item::ExtendedRange => "an extended-range maneuver".into(),
            Item::Term(t) if is_category_term(t) => {
                let one = Item::Term(singular(t).to_string()).words();
                let article = if one.starts_with(['A', 'E', 'I', 'O', 'U']) {
                    "an"
                } else {
                    "a"
                };
                format!("{article} {one}")
            }
            Item::Term(_) => self.words(),
        }
    }

    /// Why `m` falls under this item, for a rejection.
    fn because(&self, m: &Maneuver) -> String {
        match self {
            Item::Colour(c) => format!("{} is {}", m.full_name(), c.name()),
            Item::ExtendedRange => format!("{} is Extended Range", m.full_name()),
            Item::Term(_) => format!("{} counts as {}", m.full_name(), self.words()),
        }
    }
}

/// "Green or Yellow", "Kick, Yellow or Green".
pub fn list_words(items: &[Item]) -> String {
    let words: Vec<String> = items.iter().map(Item::words).collect();
    or_list(&words)
}

fn or_list(words: &[String]) -> String {
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

impl Clause {
    /// Whether this clause lets the fighter do `m`. `sheet` is the fighter's
    /// whole sheet; `widen` says the clause came from an opponent at extended
    /// range while others stand close, so its extended-range items are met by
    /// any close-range maneuver's X page.
    pub fn permits(&self, m: &Maneuver, sheet: &[Maneuver], widen: bool) -> Result<(), String> {
        if self.allows(m, sheet, widen) {
            return Ok(());
        }
        match self {
            Clause::Only { items, except, .. } => {
                if let Some(e) = except.iter().find(|e| e.admits(m)) {
                    return Err(format!("{} is excepted ({})", m.full_name(), e.words()));
                }
                let kinds: Vec<String> = items.iter().map(Item::kind_words).collect();
                Err(format!("{} is not {}", m.full_name(), or_list(&kinds)))
            }
            Clause::No { items, .. } => Err(items
                .iter()
                .find(|i| i.admits(m))
                .map(|i| i.because(m))
                .unwrap_or_default()),
            _ => Ok(()),
        }
    }

    /// Whether `m` may be chosen under this clause ([`Clause::permits`]
    /// without saying why not: offering the open choices asks this of
    /// every maneuver on the sheet).
    pub fn allows(&self, m: &Maneuver, sheet: &[Maneuver], widen: bool) -> bool {
        match self {
            Clause::Only {
                items,
                except,
                span,
            } => {
                let retrieving = *span == Span::UntilWeaponRetrieved
                    && m.name.eq_ignore_ascii_case("retrieve weapon");
                let admitted = |m: &Maneuver| {
                    items.iter().any(|i| i.admits(m)) && !except.iter().any(|x| x.admits(m))
                };
                retrieving
                    || admitted(m)
                    || (widen
                        && !m.is_extended()
                        && !except.iter().any(|x| x.admits(m))
                        && sheet.iter().filter(|e| e.is_extended()).any(admitted))
            }
            Clause::No { items, except, .. } => {
                except.iter().any(|e| e.admits(m)) || !items.iter().any(|i| i.admits(m))
            }
            _ => true,
        }
    }

    /// Whether this is a do-only clause that admits some extended-range maneuver
    /// of `sheet`: the instruction that allows Extended Range at all.
    pub fn instructs_extended(&self, sheet: &[Maneuver]) -> bool {
        match self {
            Clause::Only { items, except, .. } => sheet
                .iter()
                .filter(|m| m.is_extended())
                .any(|m| items.iter().any(|i| i.admits(m)) && !except.iter().any(|e| e.admits(m))),
            _ => false,
        }
    }

    /// The bonus this clause adds to a score made with `m`.
    pub fn bonus(&self, m: &Maneuver) -> i32 {
        match self {
            Clause::Bonus { amount, items }
                if items.is_empty() || items.iter().any(|i| i.admits(m)) =>
            {
                *amount
            }
            _ => 0,
        }
    }

    /// The penalty (negative) this clause takes from a score made with `m`.
    pub fn penalty(&self, m: &Maneuver) -> i32 {
        match self {
            Clause::Penalty { amount, except } if !except.iter().any(|e| e.admits(m)) => -amount,
            _ => 0,
        }
    }
}

impl Restriction {
    /// Parses the words read aloud.
    pub fn parse(text: &str) -> Result<Restriction, RestrictionError> {
        let fail = |reason: String| RestrictionError {
            text: text.to_string(),
            reason,
        };
        let cleaned: String = text
            .chars()
            .filter(|c| {
                !matches!(
                    c,
                    '"' | '\'' | '\u{2018}' | '\u{2019}' | '\u{201c}' | '\u{201d}'
                )
            })
            .collect();
        let cleaned = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
        let cleaned = cleaned.replace(", (", " (");
        let cleaned = cleaned.trim().trim_end_matches('.').trim().to_string();
        if cleaned.is_empty() {
            return Err(fail("it is empty".into()));
        }
        let mut clauses = Vec::new();
        for sentence in sentences(&cleaned) {
            let lower = sentence.to_ascii_lowercase();
            if lower.starts_with("if ") {
                clauses.push(conditional(&lower).unwrap_or_else(|| Clause::Note {
                    text: sentence.to_string(),
                }));
                continue;
            }
            for part in lower.split(", but ") {
                clauses.push(parse_clause(part.trim()).map_err(&fail)?);
            }
        }
        Ok(Restriction {
            text: text.trim().to_string(),
            clauses,
        })
    }

    /// The opening order: both fighters start at extended range.
    pub fn opening() -> Restriction {
        Restriction::parse("Do only Extended Range next turn").expect("the opening order parses")
    }

    /// Every list term the restriction names, for content checks.
    pub fn terms(&self) -> Vec<String> {
        let mut out = Vec::new();
        for c in &self.clauses {
            let lists: Vec<&Vec<Item>> = match c {
                Clause::Only { items, except, .. } | Clause::No { items, except, .. } => {
                    vec![items, except]
                }
                Clause::Bonus { items, .. } => vec![items],
                Clause::Penalty { except, .. } => vec![except],
                _ => vec![],
            };
            for item in lists.into_iter().flatten() {
                if let Item::Term(t) = item {
                    out.push(t.clone());
                }
            }
        }
        out
    }
}

/// "if i am pushed off balance go to p. 19" (lowercased, quotes gone):
/// the situation and the picture; `None` when it names no page.
fn conditional(sentence: &str) -> Option<Clause> {
    let rest = sentence.strip_prefix("if ")?;
    let rest = rest
        .strip_prefix("i am ")
        .or_else(|| rest.strip_prefix("i'm "))
        .unwrap_or(rest);
    let (situation, page) = [
        " go to page ",
        " go to p. ",
        " go to p ",
        " turn to page ",
        " turn to p. ",
    ]
    .iter()
    .find_map(|sep| rest.split_once(sep))?;
    let situation = situation.trim().trim_end_matches(',').trim();
    let picture: u32 = page.trim().trim_end_matches('.').parse().ok()?;
    if situation.is_empty() || picture == 0 || picture.is_multiple_of(2) || picture > PICTURE_MAX {
        return None;
    }
    Some(Clause::If {
        situation: situation.to_string(),
        picture,
    })
}

/// The highest picture a conditional may send a fighter to (books number
/// their parchments in the tens; the samples stop at 63).
pub const PICTURE_MAX: u32 = 999;

/// Splits at a full stop followed by a space and a letter ("p. 19" stays whole).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'.'
            && bytes.get(i + 1) == Some(&b' ')
            && bytes.get(i + 2).is_some_and(|b| b.is_ascii_alphabetic())
        {
            out.push(text[start..i].trim());
            start = i + 2;
        }
    }
    out.push(text[start..].trim().trim_end_matches('.'));
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

fn parse_clause(s: &str) -> Result<Clause, String> {
    match s {
        "no restrictions next turn" | "no restrictions" | "no restriction next turn" => {
            return Ok(Clause::Free)
        }
        "may use weapon again" | "may use your weapon again" | "you may use your weapon again" => {
            return Ok(Clause::WeaponRetrieved)
        }
        _ => {}
    }
    if let Some(rest) = s.strip_prefix("add ") {
        if rest.trim().is_empty() {
            return Err(format!("`add` needs an amount such as +2 in `{s}`"));
        }
        let (amount, rest) = number(rest, s)?;
        let rest = rest.trim();
        if rest == "if you score next turn" || rest == "if you score" {
            return Ok(Clause::Bonus {
                amount,
                items: vec![],
            });
        }
        if let Some(list) = rest.strip_prefix("to any ") {
            let list = [
                "that scores next turn",
                "that score next turn",
                "that scores",
            ]
            .iter()
            .find_map(|end| list.strip_suffix(end))
            .ok_or_else(|| format!("a bonus ends with `that scores next turn`: `{s}`"))?;
            return Ok(Clause::Bonus {
                amount,
                items: parse_list(list)?,
            });
        }
        return Err(format!("unknown bonus wording `{s}`"));
    }
    if let Some(rest) = s.strip_prefix("subtract ") {
        if rest.trim().is_empty() {
            return Err(format!("`subtract` needs an amount such as 2 in `{s}`"));
        }
        let (amount, rest) = number(rest, s)?;
        let (rest, except) = take_except(rest)?;
        let words: String = rest
            .replace(',', " ")
            .split_whitespace()
            .filter(|w| *w != "cumulative")
            .collect::<Vec<_>>()
            .join(" ");
        let ok = [
            "from all scores for the rest of the combat",
            "from all scores for the rest of the game",
        ]
        .contains(&words.as_str());
        if !ok {
            return Err(format!("a penalty reads `subtract N from all scores, cumulative, for the rest of the combat`, not `{s}`"));
        }
        return Ok(Clause::Penalty {
            amount: amount.abs(),
            except,
        });
    }
    let (only, rest) = if let Some(r) = s.strip_prefix("do only ") {
        (true, r)
    } else if let Some(r) = s.strip_prefix("do no ") {
        (false, r)
    } else {
        return Err(format!("`{s}` is not a wording this engine knows (do only / do no / add / subtract / no restrictions)"));
    };
    let spans = [
        (" next turn", Span::NextTurn),
        (" for the rest of the combat", Span::RestOfCombat),
        (" for the rest of the game", Span::RestOfCombat),
        (
            " until weapon has been retrieved",
            Span::UntilWeaponRetrieved,
        ),
        (
            " until your weapon has been retrieved",
            Span::UntilWeaponRetrieved,
        ),
        (
            " until the weapon has been retrieved",
            Span::UntilWeaponRetrieved,
        ),
    ];
    let (body, span) = spans
        .iter()
        .find_map(|(end, span)| rest.strip_suffix(end).map(|b| (b, *span)))
        .ok_or_else(|| format!("`{s}` does not say how long: next turn, for the rest of the combat, or until weapon has been retrieved"))?;
    let (body, except) = take_except(body)?;
    let items = parse_list(body.trim())?;
    Ok(if only {
        Clause::Only {
            items,
            except,
            span,
        }
    } else {
        Clause::No {
            items,
            except,
            span,
        }
    })
}

/// The largest bonus or penalty a restriction may read: an amount is a
/// small number read aloud ("Add +2", "Subtract -2" in the sample books).
pub const AMOUNT_MAX: i32 = 9;

/// "+2 ...", "-2 ...", "2 ..." -> (2, "..."), sign kept. The amount is one
/// sign at most and 1 to [`AMOUNT_MAX`] in plain digits; anything else is an
/// error naming the limit.
fn number<'a>(s: &'a str, clause: &str) -> Result<(i32, &'a str), String> {
    let s = s.trim_start();
    let end = s.find(' ').unwrap_or(s.len());
    let word = &s[..end];
    let (negative, digits) = match word.as_bytes().first() {
        Some(b'+') => (false, &word[1..]),
        Some(b'-') => (true, &word[1..]),
        _ => (false, word),
    };
    let plain =
        !digits.is_empty() && digits.len() <= 2 && digits.bytes().all(|b| b.is_ascii_digit());
    let n: i32 = match digits.parse() {
        Ok(n) if plain && (1..=AMOUNT_MAX).contains(&n) => n,
        _ => {
            return Err(format!(
                "the amount `{word}` in `{clause}` is not a whole number from 1 to {AMOUNT_MAX}"
            ))
        }
    };
    Ok((if negative { -n } else { n }, &s[end..]))
}

/// Pulls "(except <list>)" out of a clause body.
fn take_except(s: &str) -> Result<(String, Vec<Item>), String> {
    let Some(open) = s.find("(except ") else {
        return Ok((s.to_string(), vec![]));
    };
    let close = s[open..]
        .find(')')
        .ok_or_else(|| format!("`(except` is not closed in `{s}`"))?
        + open;
    let list = parse_list(s[open + "(except ".len()..close].trim())?;
    let rest = format!("{} {}", s[..open].trim_end(), s[close + 1..].trim_start());
    Ok((rest.trim().to_string(), list))
}

fn parse_list(s: &str) -> Result<Vec<Item>, String> {
    let raw: Vec<String> = s
        .replace(" or ", ", ")
        .split(',')
        .map(|w| w.trim().to_string())
        .filter(|w| !w.is_empty())
        .collect();
    if raw.is_empty() {
        return Err("an empty list".into());
    }
    let mut items = Vec::new();
    for (i, word) in raw.iter().enumerate() {
        let mut word = word.clone();
        let completed = raw
            .get(i + 1)
            .and_then(|next| next.rsplit(' ').next())
            .map(|last| format!("{word} {last}"));
        if !word.contains(' ') && Colour::parse(&word).is_none() && !is_category_term(&word) {
            if let Some(c) = completed.filter(|c| is_category_term(c)) {
                word = c;
            }
        }
        items.push(match Colour::parse(&word) {
            Some(c) => Item::Colour(c),
            None if word == "extended range" => Item::ExtendedRange,
            None => Item::Term(word),
        });
    }
    Ok(items)
}
