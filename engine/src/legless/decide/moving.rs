//! Moving: the roll (crutches and chairs, Mobility), the path square by
//! square, and the street event cards picked up on the way.

use super::*;

pub(super) fn roll_to_move(
    out: &mut Out,
    seat: Seat,
    rolls: &Option<Vec<u32>>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let dice = out.s.move_dice(seat);
    chance.check_supplied("movement dice", "rolls", rolls)?;
    if let Some(r) = rolls {
        if r.len() != dice as usize {
            return reject(
                "legless.move_dice",
                format!(
                    "{} rolls {dice} {} to move: give `rolls` with {dice} {}",
                    out.s.name(seat),
                    if dice == 1 { "die" } else { "dice (crutches)" },
                    if dice == 1 { "value" } else { "values" }
                ),
            );
        }
    }
    let mut faces = Vec::with_capacity(dice as usize);
    for i in 0..dice as usize {
        let supplied = rolls.as_ref().map(|r| r[i]);
        faces.push(chance.roll("movement die", 6, "rolls", supplied)?);
    }
    let best = faces.iter().copied().max().unwrap_or(0) as i32;
    let mobility = out.s.scores(seat).mobility;
    let steps = (best + mobility).max(0) as u32;
    out.push(Fact::RolledToMove {
        seat,
        rolls: faces,
        mobility,
        steps,
    });
    if steps == 0 {
        end_turn(out, seat);
    } else {
        out.push(Fact::StageSet {
            seat,
            stage: Stage::Moving { steps },
        });
    }
    Ok(())
}

/// The street event squares a path crosses, each counted once a move.
pub fn crossings(board: &Board, path: &[Place]) -> usize {
    let mut seen = BTreeSet::new();
    path.iter()
        .filter(|p| board.has_event(p) && seen.insert((*p).clone()))
        .count()
}

pub(super) fn check_path(
    state: &State,
    board: &Board,
    seat: Seat,
    steps: u32,
    path: &[Place],
) -> Result<(), Rejection> {
    if path.len() as u32 > steps {
        return reject(
            "legless.too_far",
            format!(
                "{} may walk {steps} squares, not {}",
                state.name(seat),
                path.len()
            ),
        );
    }
    let mut at = state.londoner(seat).at.clone();
    for (i, next) in path.iter().enumerate() {
        if !board.exists(next) {
            return reject(
                "legless.path",
                format!("path[{i}]: `{next}` is not a street square or a location on the board"),
            );
        }
        if !board.steps(&at).contains(next) {
            return reject(
                "legless.path",
                format!("path[{i}]: `{next}` is not one orthogonal step from `{at}`"),
            );
        }
        if matches!(next, Place::Location(_)) && i + 1 != path.len() {
            return reject(
                "legless.path",
                format!(
                    "path[{i}]: entering {} ends the move",
                    state.location_name(&next.to_string())
                ),
            );
        }
        at = next.clone();
    }
    Ok(())
}

pub(super) fn walk(
    out: &mut Out,
    seat: Seat,
    steps: u32,
    path: &[Place],
    drew: Option<&[String]>,
    cards: Option<&[Told]>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let board = out.s.board();
    check_path(&out.s, board, seat, steps, path)?;
    let crossed = crossings(board, path);
    if cards.is_some() && drew.is_some() {
        return reject(
            "legless.cards",
            "name the cards drawn (`drew`) or say what they say (`cards`), not both",
        );
    }
    if let Some(cards) = cards {
        if chance.mode() == DiceMode::Digital {
            return reject(
                "dice.digital",
                "this game draws its own street events (digital mode): leave out `cards`",
            );
        }
        for (i, c) in cards.iter().enumerate() {
            check_told(c, &format!("cards[{i}]"), &out.s, Read::StreetEvent)?;
        }
    }
    chance.check_supplied("street event cards", "drew", &drew)?;
    if out.s.record && drew.is_some() {
        return reject(
            "legless.card",
            "record mode: say what the street event cards say (`cards`), not their names",
        );
    }
    let symbols = match crossed {
        1 => "one street event symbol".to_string(),
        n => format!("{n} street event symbols"),
    };
    // Cards that draw more are answered by more cards, given in the order read.
    let drawn = match (cards, drew) {
        (Some(cards), _) => cards.iter().map(|c| draws(&c.effects)).sum(),
        (None, Some(names)) => names
            .iter()
            .filter_map(|n| out.s.street_events.get(n))
            .map(|e| draws(&e.effects))
            .sum(),
        (None, None) => 0,
    };
    let given = cards.map(<[Told]>::len).or(drew.map(<[String]>::len));
    if let Some(n) = given {
        let wanted = (crossed + drawn).min(MAX_CARDS_READ);
        if n != wanted {
            let more = match drawn {
                0 => String::new(),
                d => format!(" and its cards draw {d} more"),
            };
            return reject(
                "legless.street_events",
                format!(
                    "the path crosses {symbols}{more}: give {wanted} {}, not {n}",
                    if wanted == 1 { "card" } else { "cards" }
                ),
            );
        }
    } else if chance.mode() == DiceMode::Physical && crossed > 0 {
        return reject(
            "physical.draw_needed",
            format!("draw needed: the path crosses {symbols}; give the cards as `drew` (names) or `cards` (what they say)"),
        );
    }
    out.push(Fact::Moved {
        seat,
        path: path.to_vec(),
        picked_up: crossed as u32,
    });
    // Cards are drawn as they are read, in the order picked up; a card that
    // draws more has them read next.
    let mut to_read = crossed;
    let mut i = 0;
    while i < to_read.min(MAX_CARDS_READ) {
        // Every card picked up is read (rules 2), a sick Londoner's too;
        // under rules 1 sickness left the rest unread.
        if out.l(seat).dead || (out.l(seat).sick && out.s.rules < 2) {
            break;
        }
        let (card, text, effects, from_deck) = match cards {
            Some(cards) => (
                cards[i].name.clone(),
                cards[i].text.clone(),
                cards[i].effects.clone(),
                false,
            ),
            None => {
                if out.s.deck.is_empty() {
                    if out.s.discard.is_empty() {
                        break;
                    }
                    out.push(Fact::DeckRenewed);
                }
                let deck = out.s.deck.clone();
                let k = chance.pick(
                    "street event card",
                    &deck,
                    "drew",
                    drew.map(|d| d[i].as_str()),
                )?;
                let e = &out.s.street_events[&deck[k]];
                (e.name.clone(), e.text.clone(), e.effects.clone(), true)
            }
        };
        to_read += draws(&effects);
        out.push(Fact::StreetEventRead {
            seat,
            card,
            text,
            effects: effects.clone(),
            from_deck,
        });
        resolve(out, seat, &effects, Task::Work);
        i += 1;
    }
    Ok(())
}

/// Checks what the table typed for a card or a story, by the same rules
/// as a pack's cards and stories; an error names the effect's place.
pub(super) fn check_told(told: &Told, field: &str, s: &State, read: Read) -> Result<(), Rejection> {
    let ids: BTreeSet<&str> = s.locations.iter().map(|l| l.id.as_str()).collect();
    let legs: BTreeSet<&str> = s.legs.keys().map(String::as_str).collect();
    check_effects(
        "",
        &format!("{field}.effects"),
        &told.effects,
        &ids,
        &legs,
        read,
    )
    .map_err(|e| Rejection::new("legless.effect", format!("{}: {}", e.path, e.message)))
}

/// How many more street event cards these effects draw.
pub(super) fn draws(effects: &[Effect]) -> usize {
    effects
        .iter()
        .map(|e| match e {
            Effect::Draw(n) => *n as usize,
            _ => 0,
        })
        .sum()
}

/// The most street event cards one move reads, its draws included: a deck
/// of cards that each draw another would otherwise never end.
pub const MAX_CARDS_READ: usize = 30;
