//! The planning phase: Big Ben, turning location cards, the action clocks,
//! the stash, the deadline, and handing over to the story phase.

use super::*;
use crate::dread::content::LOCATIONS;
use crate::dread::state::{
    Area, Card, Face, InvestigationToken, Place, Spot, Token, ACTIONS, AREAS,
};

/// `ms` since the epoch as a time of day, UTC (`21:04:09`).
pub fn clock_time(ms: u64) -> String {
    let s = ms / 1000;
    format!(
        "{:02}:{:02}:{:02} UTC",
        (s / 3600) % 24,
        (s / 60) % 60,
        s % 60
    )
}

/// Whether planning is open at the event's time: started, and (when
/// Tabletape keeps the time) not past its deadline.
pub fn open(state: &State, now_ms: u64) -> Result<(), Rejection> {
    match state.phase {
        Phase::Planning {
            started_at_ms: None,
            ..
        } => reject(
            "dread.planning_not_started",
            "planning has not started: strike Big Ben first (`start_planning`)",
        ),
        Phase::Planning {
            ends_at_ms: Some(end),
            ..
        } if now_ms > end => reject(
            "dread.planning_over",
            format!(
                "the planning phase ended at {}: the clocks are final; begin the story",
                clock_time(end)
            ),
        ),
        Phase::Planning { .. } => Ok(()),
        _ => wrong_phase(state, "planning"),
    }
}

pub(super) fn start(
    out: &mut Out,
    outcomes: &Option<Outcomes>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let Phase::Planning { started_at_ms, .. } = out.s.phase else {
        return wrong_phase(&out.s, "starting the planning");
    };
    if started_at_ms.is_some() {
        return reject("dread.planning_started", "planning has already started");
    }
    let now = chance.recorded_at_ms();
    let mut luck = Luck::new(chance, outcomes, out.s.record)?;
    if !out.s.start_dealt {
        // The table's own setup deal, told before the clock starts.
        for c in 0..out.s.characters.len() {
            for _ in 0..out.s.starting_items {
                let deck = out.s.item_deck.clone();
                let what = format!("starting Item of {}", out.name(c));
                let Some(i) = luck.card_or_none(&what, &deck, Pile::Items)? else {
                    break;
                };
                out.push(Fact::ItemGained {
                    character: c,
                    item: deck[i].clone(),
                    owed: false,
                });
            }
        }
        deal_supply(out, &mut luck)?;
        let n = out.s.starting_confidence;
        confidence(out, &mut luck, n, None)?;
    }
    luck.done()?;
    let ends_at_ms = out.s.timer.then(|| now + out.s.minutes * 60_000);
    out.push(Fact::PlanningStarted {
        started_at_ms: now,
        ends_at_ms,
    });
    Ok(())
}

pub(super) fn reveal(
    out: &mut Out,
    place: Place,
    card: Option<&str>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    open(&out.s, chance.recorded_at_ms())?;
    chance.check_supplied("card turned up", "card", &card)?;
    let Some(i) = place.index() else {
        return reject(
            "dread.location",
            format!("`location`: {place} holds no card; the Streets are never dealt to"),
        );
    };
    let Spot::Down { card: dealt } = &out.s.locations[i] else {
        return reject("dread.face_up", format!("{place} is already face up"));
    };
    let face = match (dealt, card) {
        (Some(Card::Placeholder), _) => next_plot_face(&out.s)?,
        (Some(Card::Dread(name)), _) => Face::Dread(name.clone()),
        (Some(Card::Ally(name)), _) => Face::Ally(name.clone()),
        (None, None) => {
            return reject(
                "physical.draw_needed",
                format!("card needed: say what {place} turned up as `card`: `placeholder`, or the Dread card's or Ally's name"),
            )
        }
        (None, Some(name)) => possible(&out.s, place, name)?,
    };
    out.push(Fact::Revealed { place, face });
    Ok(())
}

fn next_plot_face(state: &State) -> Result<Face, Rejection> {
    match state.chapter_plots().get(state.plots.len()) {
        Some(p) => Ok(Face::Plot(p.letter)),
        None if state.record && state.plots.len() < state.plot_count() => reject(
            "dread.record",
            r#"type the Plot card this placeholder stands for as `card`: {"plot": {"letter", "name", "time", "dread", "icons"}}"#,
        ),
        None => reject(
            "dread.placeholders",
            "every Plot card of this chapter is already on the board",
        ),
    }
}

/// What a table's own card can be at `place`, judged by the placeholder
/// procedure: as many placeholders as the chapter has Plot cards, at least
/// one per area, the rest of the 24 the chapter's Dread cards and Allies.
fn possible(state: &State, place: Place, name: &str) -> Result<Face, Rejection> {
    let plots = state.plot_count();
    let extras = plots - 4;
    let down = |area: Area| {
        (1..=6)
            .filter(|&spot| matches!(state.spot(Place { area, spot }), Some(Spot::Down { .. })))
            .count()
    };
    let found = |area: Area| state.plots.iter().filter(|(_, p)| p.area == area).count();
    let impossible = |why: String| {
        reject::<Face>(
            "physical.impossible_draw",
            format!("{place} cannot hold `{name}`: {why}"),
        )
    };
    if name.trim().eq_ignore_ascii_case("placeholder") {
        let over: usize = AREAS
            .iter()
            .map(|&a| (found(a) + usize::from(a == place.area)).saturating_sub(1))
            .sum();
        if state.plots.len() >= plots || over > extras {
            return impossible(format!(
                "this chapter deals {plots} placeholders, one to each area and {extras} more"
            ));
        }
        return next_plot_face(state);
    }
    if found(place.area) == 0 && down(place.area) == 1 {
        return impossible(format!(
            "every area holds a placeholder, and this is the {}'s last face-down card",
            place.area.word()
        ));
    }
    if state.seen.iter().any(|s| s == name) {
        return impossible("it is already face up this chapter".into());
    }
    let tier = (state.chapter + 1) as u8;
    let allies_seen = state
        .seen
        .iter()
        .filter(|s| state.cards.allies.contains_key(*s))
        .count() as u32;
    let dread_seen = state.seen.len() as u32 - allies_seen;
    let dread_dealt = (LOCATIONS - plots) as u32 - state.allies_dealt;
    if let Some(card) = state.cards.dread.get(name) {
        if card.tier != tier {
            return impossible(format!("this chapter deals Tier {tier} Dread cards"));
        }
        if dread_seen >= dread_dealt {
            return impossible(format!("this chapter deals {dread_dealt} Dread cards"));
        }
        return Ok(Face::Dread(card.name.clone()));
    }
    if let Some(ally) = state.cards.allies.get(name) {
        if allies_seen >= state.allies_dealt {
            return impossible(format!("this chapter deals {} Allies", state.allies_dealt));
        }
        return Ok(Face::Ally(ally.name.clone()));
    }
    if state.record {
        return impossible(format!(
            "it is no Tier {tier} Dread card or Ally met so far: type a card the first time it turns up"
        ));
    }
    impossible(format!(
        "it is no placeholder, Tier {tier} Dread card or Ally of this pack"
    ))
}

fn slot_ok(slot: u8, field: &str) -> Result<usize, Rejection> {
    if (1..=ACTIONS).contains(&slot) {
        Ok(slot as usize - 1)
    } else {
        reject(
            "dread.slot",
            format!("`{field}`: a clock has slots 1 (6 a.m.) to {ACTIONS} (4 a.m.), not {slot}"),
        )
    }
}

/// Checks a token may go on `c`'s clock, as it stands without the slot
/// it comes from (`freed`).
fn token_ok(state: &State, c: usize, token: Token, freed: Option<Token>) -> Result<(), Rejection> {
    let ch = &state.characters[c];
    let n = token.number;
    if !(1..=6).contains(&n) {
        return reject(
            "dread.token",
            format!("`number`: action tokens are numbered 1 to 6, not {n}"),
        );
    }
    let back = |stash: bool| usize::from(freed.is_some_and(|f| f.number == n && f.stash == stash));
    let own = ch.placed(n) - back(false);
    if token.stash {
        if !state.stash.contains(&n) && back(true) == 0 {
            return reject("dread.stash", format!("the stash has no token {n} left"));
        }
        if own < 2 {
            return reject(
                "dread.stash",
                format!(
                    "{} still has a token {n} of their own; the stash is for a third",
                    ch.name
                ),
            );
        }
    } else if own >= 2 {
        return reject(
            "dread.tokens",
            format!(
                "both of {}'s tokens {n} are on the clock; the stash holds one more of each number (1 dread)",
                ch.name
            ),
        );
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub(super) fn place(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    slot: u8,
    number: u8,
    arrow: Option<Area>,
    stash: bool,
    chance: &Chance,
) -> Result<(), Rejection> {
    open(&out.s, chance.recorded_at_ms())?;
    plays(&out.s, by, c)?;
    let i = slot_ok(slot, "slot")?;
    if out.s.characters[c].clock[i].is_some() {
        return reject(
            "dread.slot_taken",
            format!(
                "slot {slot} of {}'s clock holds a token; take it back first",
                out.name(c)
            ),
        );
    }
    let token = Token {
        number,
        arrow,
        stash,
    };
    token_ok(&out.s, c, token, None)?;
    out.push(Fact::TokenPlaced {
        character: c,
        slot,
        token,
    });
    Ok(())
}

pub(super) fn take_back(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    slot: u8,
    chance: &Chance,
) -> Result<(), Rejection> {
    open(&out.s, chance.recorded_at_ms())?;
    plays(&out.s, by, c)?;
    let i = slot_ok(slot, "slot")?;
    if out.s.characters[c].clock[i].is_none() {
        return reject(
            "dread.slot_empty",
            format!("slot {slot} of {}'s clock is empty", out.name(c)),
        );
    }
    out.push(Fact::TokenTaken { character: c, slot });
    Ok(())
}

pub(super) fn move_token(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    from: u8,
    to: u8,
    chance: &Chance,
) -> Result<(), Rejection> {
    open(&out.s, chance.recorded_at_ms())?;
    plays(&out.s, by, c)?;
    let f = slot_ok(from, "from")?;
    let t = slot_ok(to, "to")?;
    let Some(token) = out.s.characters[c].clock[f] else {
        return reject(
            "dread.slot_empty",
            format!("slot {from} of {}'s clock is empty", out.name(c)),
        );
    };
    if out.s.characters[c].clock[t].is_some() {
        return reject(
            "dread.slot_taken",
            format!("slot {to} of {}'s clock holds a token", out.name(c)),
        );
    }
    out.push(Fact::TokenTaken {
        character: c,
        slot: from,
    });
    out.push(Fact::TokenPlaced {
        character: c,
        slot: to,
        token,
    });
    Ok(())
}

pub(super) fn set_clock(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    slots: &[Option<Token>],
    chance: &Chance,
) -> Result<(), Rejection> {
    open(&out.s, chance.recorded_at_ms())?;
    plays(&out.s, by, c)?;
    if slots.len() != ACTIONS as usize {
        return reject(
            "dread.clock",
            format!(
                "`slots`: a clock has {ACTIONS} slots (null where empty), not {}",
                slots.len()
            ),
        );
    }
    for slot in 1..=ACTIONS {
        if out.s.characters[c].clock[slot as usize - 1].is_some() {
            out.push(Fact::TokenTaken { character: c, slot });
        }
    }
    for (i, token) in slots.iter().enumerate() {
        if let Some(token) = token {
            token_ok(&out.s, c, *token, None)
                .map_err(|r| Rejection::new(r.rule, format!("`slots[{i}]`: {}", r.message)))?;
            out.push(Fact::TokenPlaced {
                character: c,
                slot: i as u8 + 1,
                token: *token,
            });
        }
    }
    Ok(())
}

pub(super) fn begin_story(out: &mut Out, leader: usize) -> Result<(), Rejection> {
    if let Phase::Planning {
        started_at_ms: None,
        ..
    } = out.s.phase
    {
        return reject(
            "dread.planning_not_started",
            "planning has not started: strike Big Ben first (`start_planning`)",
        );
    }
    if !matches!(out.s.phase, Phase::Planning { .. }) {
        return wrong_phase(&out.s, "beginning the story");
    }
    plays(&out.s, None, leader)
        .map_err(|r| Rejection::new(r.rule, format!("`leader`: {}", r.message)))?;
    out.push(Fact::StoryBegan { leader });
    Ok(())
}

/// An Investigation token laid on, or taken off, a face-up Dread or Plot
/// card while planning is open.
pub(super) fn mark(
    out: &mut Out,
    place: Place,
    token: Option<InvestigationToken>,
    now_ms: u64,
) -> Result<(), Rejection> {
    open(&out.s, now_ms)?;
    let card = place.index().map(|i| &out.s.locations[i]);
    if !matches!(
        card,
        Some(Spot::Up {
            face: Face::Dread(_) | Face::Plot(_)
        })
    ) {
        return reject(
            "dread.mark",
            format!(
                "`location`: Investigation tokens go on a face-up Dread or Plot card, and {} holds none",
                place.words()
            ),
        );
    }
    let laid = out
        .s
        .marks
        .iter()
        .find(|(p, _)| *p == place)
        .map(|(_, t)| *t);
    if token.is_none() && laid.is_none() {
        return reject(
            "dread.mark",
            format!("no Investigation token lies at {}", place.words()),
        );
    }
    if laid != token {
        out.push(Fact::Marked { place, token });
    }
    Ok(())
}
