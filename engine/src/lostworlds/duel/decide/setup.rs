//! Setting the duel up: who fights as whom, the books, and picture 57 all
//! round. A scenario lays out its map around this (`field::decide::setup`).

use super::*;
use crate::lostworlds::content::{Character, Pack, OPENING_PICTURE};
use std::sync::Arc;

use crate::lostworlds::options::Options;
use crate::lostworlds::restriction::Restriction;
use crate::lostworlds::state::{Fighter, Orders, SeatState, Sight};

fn default_ids(pack: &Pack, seat: Seat, lone: Option<&str>) -> Vec<String> {
    let first = pack.characters[0].id.clone();
    if seat == 0 {
        let id = pack
            .character("nowa")
            .map(|c| c.id.clone())
            .unwrap_or(first);
        return vec![id];
    }
    let id = pack
        .characters
        .iter()
        .find(|c| c.sample && Some(c.id.as_str()) != lone)
        .or_else(|| pack.characters.iter().find(|c| Some(c.id.as_str()) != lone))
        .map(|c| c.id.clone())
        .unwrap_or(first);
    vec![id]
}

/// Lays out the duel: characters per seat, books, and picture 57 all round.
/// Under rules 2 a seat left to the default is never given a character
/// another defaulted seat already fields: a table that wants two of the same
/// names them (rules 1 fielded the pack's first sample again, silently).
pub fn setup(
    players: &[String],
    options: &Options,
    pack: &Pack,
    rules_version: u32,
    dice: DiceMode,
) -> Result<State, Rejection> {
    if let Some(id) = &options.scenario {
        return field::decide::setup_scenario(players, options, pack, rules_version, dice, id);
    }
    if options.obstructions {
        return reject(
            "setup.obstructions",
            "obstructions are a scenario's optional rule: add `scenario`",
        );
    }
    if !options.controls.is_empty() {
        return reject(
            "setup.controls",
            "`controls` gives a player several figures on a scenario's map: add `scenario`",
        );
    }
    if players.len() < 2 {
        return reject(
            "setup.players",
            "a Lost Worlds duel needs at least two players",
        );
    }
    if let Some(&s) = options.seats.keys().find(|&&s| s as usize >= players.len()) {
        return reject(
            "setup.seat",
            format!(
                "option names seat {s}, but there are only {} players",
                players.len()
            ),
        );
    }
    let lone = options
        .seats
        .get(&0)
        .and_then(|v| v.first().cloned())
        .unwrap_or_else(|| default_ids(pack, 0, None)[0].clone());
    let mut parties: Vec<Vec<Character>> = Vec::new();
    let mut defaulted: Vec<String> = Vec::new();
    for seat in 0..players.len() as Seat {
        let ids = match options.seats.get(&seat) {
            Some(ids) => ids.clone(),
            None if rules_version < 2 => default_ids(pack, seat, Some(&lone)),
            None => {
                // Free: fielded by no other seat, named or defaulted.
                let free = |c: &&Character| {
                    c.id != lone
                        && !defaulted.contains(&c.id)
                        && !options.seats.values().flatten().any(|n| n == &c.id)
                };
                let id = if seat == 0 {
                    lone.clone()
                } else {
                    let free = pack
                        .characters
                        .iter()
                        .filter(free)
                        .find(|c| c.sample)
                        .or_else(|| pack.characters.iter().find(free));
                    match free {
                        Some(c) => c.id.clone(),
                        None => {
                            let all: Vec<&str> =
                                pack.characters.iter().map(|c| c.id.as_str()).collect();
                            return reject(
                                "setup.character",
                                format!(
                                    "{} fighters, and the pack has {} characters ({}): name each seat's with the option `characters` (one may be named twice)",
                                    players.len(),
                                    all.len(),
                                    all.join(", ")
                                ),
                            );
                        }
                    }
                };
                defaulted.push(id.clone());
                vec![id]
            }
        };
        let mut party = Vec::new();
        for id in ids {
            let Some(c) = pack.character(&id) else {
                let known: Vec<&str> = pack.characters.iter().map(|c| c.id.as_str()).collect();
                return reject(
                    "setup.character",
                    format!(
                        "no character `{id}` in the pack (it has {})",
                        known.join(", ")
                    ),
                );
            };
            party.push(c.clone());
        }
        parties.push(party);
    }
    let mut books = BTreeMap::new();
    if options.books == BooksMode::Full {
        for c in parties.iter().flatten() {
            let Some(b) = pack.book(&c.id) else {
                return reject(
                    "setup.book",
                    format!("full mode needs a book showing `{}`; use books=record to read physical books", c.id),
                );
            };
            books.insert(c.id.clone(), Arc::new(b.clone()));
        }
        // Every page a holder could turn to must be in the book they hold.
        for (seat, party) in parties.iter().enumerate() {
            let foes: Vec<&Character> = if seat == 0 {
                parties[1..].iter().flatten().collect()
            } else {
                parties[0].iter().collect()
            };
            for holder in party {
                for foe in &foes {
                    let book = &books[&foe.id];
                    for m in &holder.maneuvers {
                        for page in std::iter::once(m.page).chain(m.x) {
                            if !book.matrices.contains_key(&page) {
                                return reject(
                                    "setup.book",
                                    format!(
                                        "{}'s book has no matrix for page {page} ({}'s {})",
                                        foe.name,
                                        holder.name,
                                        m.full_name()
                                    ),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    let opening = Restriction::opening();
    let mut seats = Vec::new();
    for (i, player) in players.iter().enumerate() {
        let seat = i as Seat;
        let mut orders = Orders::default();
        orders.read(None, &opening);
        let foes: Vec<Seat> = if seat == 0 {
            (1..players.len() as Seat).collect()
        } else {
            vec![0]
        };
        let sights = foes
            .into_iter()
            .map(|f| {
                let foe = &parties[f as usize][0];
                let sight = match books
                    .get(&foe.id)
                    .and_then(|b| b.pictures.get(&OPENING_PICTURE))
                {
                    Some(p) => Sight {
                        picture: OPENING_PICTURE,
                        title: Some(p.title.clone()),
                        range: p.range,
                        party: p.party,
                        reveal: p.reveal,
                    },
                    // Record mode: the physical book's title is not known yet.
                    None => Sight {
                        picture: OPENING_PICTURE,
                        title: None,
                        range: Range::Extended,
                        party: None,
                        reveal: None,
                    },
                };
                (f, sight)
            })
            .collect();
        seats.push(SeatState {
            player: player.clone(),
            party: parties[i].iter().cloned().map(Fighter::new).collect(),
            active: 0,
            status: SeatStatus::Fighting,
            escaping: false,
            withdrawn: false,
            orders,
            sights,
            party_turn: None,
            boosts: Vec::new(),
            strikes: Vec::new(),
            luck_turn: None,
            reveal_turn: None,
        });
    }
    Ok(State {
        field: None,
        rules: rules_version,
        // Cards came with rules 3; an older fight never held any.
        cards: std::sync::Arc::new(if rules_version >= 3 {
            pack.cards
                .iter()
                .map(|c| (c.id.clone(), c.clone()))
                .collect()
        } else {
            BTreeMap::new()
        }),
        awaiting: None,
        controllers: Vec::new(),
        books_mode: options.books,
        exchange_limit: options.exchange_limit,
        books,
        seats,
        exchanges: 0,
        pending: BTreeMap::new(),
        settled: 0,
        falls: Vec::new(),
        phase: Phase::Fighting,
        outcome: None,
    })
}
