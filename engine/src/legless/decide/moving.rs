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
            check_told(c, &format!("cards[{i}]"), &out.s, false)?;
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
    let given = cards.map(<[Told]>::len).or(drew.map(<[String]>::len));
    if let Some(n) = given {
        if n != crossed {
            return reject(
                "legless.street_events",
                format!(
                    "the path crosses {symbols}: give {crossed} {}, not {n}",
                    if crossed == 1 { "card" } else { "cards" }
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
    // Cards are drawn as they are read, in the order picked up.
    for i in 0..crossed {
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
        out.push(Fact::StreetEventRead {
            seat,
            card,
            text,
            effects: effects.clone(),
            from_deck,
        });
        resolve(out, seat, &effects, Task::Work);
    }
    Ok(())
}

/// Checks what the table typed for a card or a story.
pub(super) fn check_told(told: &Told, field: &str, s: &State, love: bool) -> Result<(), Rejection> {
    for (i, e) in told.effects.iter().enumerate() {
        match e {
            Effect::GoTo(l) if s.location(l).is_none() => {
                return reject(
                    "legless.effect",
                    format!("{field}.effects[{i}]: no location `{l}` on the board"),
                )
            }
            Effect::ClaimLove if !love => {
                return reject(
                    "legless.effect",
                    format!("{field}.effects[{i}]: love is claimed only when finding love"),
                )
            }
            Effect::Money(v) | Effect::Health(v) if v.unsigned_abs() > 10_000 => {
                return reject(
                    "legless.effect",
                    format!("{field}.effects[{i}]: {v} is out of range"),
                )
            }
            Effect::MissTurns(n) if *n > 10 => {
                return reject(
                    "legless.effect",
                    format!("{field}.effects[{i}]: at most 10 turns are missed"),
                )
            }
            Effect::ByHand(words) if words.trim().is_empty() => {
                return reject(
                    "legless.effect",
                    format!("{field}.effects[{i}]: {BY_HAND_EMPTY}"),
                )
            }
            _ => {}
        }
    }
    Ok(())
}
