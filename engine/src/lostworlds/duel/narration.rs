//! Lost Worlds told as prose: who plays whom (said with the game's first
//! fact, since the narrative core has no prologue of its own), each
//! exchange's maneuvers and pages, what each fighter saw, the damage sums,
//! body points after each blow and orders read; the end of the fight and the
//! experience it brought; and [`render`], the text picture of the duel.
//! Fighters are named by [`State::fighter_name`], which adds the player when
//! two fighters share a character's name.

use std::collections::BTreeMap;

use tabletape_events::Seat;

use crate::lostworlds::actions::{Action, Blow, Condition, Ending, Fact, Part, Played, Resolution};
use crate::lostworlds::content::{CardKind, Maneuver, PartyMark, Range};
use crate::lostworlds::state::{Boost, Pending, Phase, SeatStatus, State};
use crate::narrative::record;
use crate::rules::Viewer;

fn signed(n: i32) -> String {
    if n >= 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// "score 4 + Bash +3 + height +1 = 8".
pub fn sum(parts: &[Part], total: i32) -> String {
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i == 0 {
            out.push_str(&format!("{} {}", p.label, p.value));
        } else {
            out.push_str(&format!(" + {} {}", p.label, signed(p.value)));
        }
    }
    format!("{out} = {total}")
}

/// "Ann", "Ann and Bob", "Ann, Bob and Cy".
pub(in crate::lostworlds) fn and_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// "picture 45: \"Brakka closes in behind a guard\"", or "picture 45" when
/// the table recorded no title.
pub(in crate::lostworlds) fn picture_words(picture: u32, title: Option<&str>) -> String {
    match title {
        Some(t) => format!("picture {picture}: \"{t}\""),
        None => format!("picture {picture}"),
    }
}

/// Body points after a blow. At 0 or below a fighter is down, and "has -2
/// of 12 left" would not read as English.
fn body_words(who: &str, body: i32, max_body: i32) -> String {
    if body > 0 {
        format!("{who} has {body} of {max_body} body points left.")
    } else {
        format!("{who} is down at {body} body points (of {max_body}).")
    }
}

/// How a wound reads in the story: the numbers are the record's.
fn wound_words(who: &str, body: i32, max_body: i32) -> String {
    if body <= 0 {
        format!("the blow fells {who}.")
    } else if body * 3 >= max_body * 2 {
        format!("{who} is hurt, but fights on.")
    } else if body * 3 >= max_body {
        format!("{who} is badly hurt.")
    } else {
        format!("{who} is close to falling.")
    }
}

/// A caption or sentence with its first letter made a capital.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// What one fighter saw of one opponent, told in the story's voice (the
/// book's caption, with the page turned and the picture reached after it),
/// the score and its sum, a critical, and the order read, unless the one
/// it is read to has fallen.
fn blow_lines(state: &State, b: &Blow, body_after: i32, fallen: bool) -> Vec<String> {
    let a = state.seat_name(b.attacker);
    let d = state.seat_name(b.defender);
    let defender = state.seat(b.defender);
    let mut lines = Vec::new();
    let page = if b.x_column {
        format!("the X page {}", b.page)
    } else {
        format!("page {}", b.page)
    };
    let turned = match b.instead_of {
        Some(matrix) => format!(
            "{a}: {page} of {d}'s book; sent on to picture {} instead of {matrix} by {d}'s order",
            b.picture
        ),
        None => format!("{a}: {page} of {d}'s book, picture {}", b.picture),
    };
    // The picture in the story's voice; where the book turned to it, the record's.
    lines.push(match &b.caption {
        Some(caption) => {
            // The book names its own character plainly; where two fighters
            // bear that name, the story names which one ("Brakka (Bo)").
            let plain = defender.name();
            let caption = if plain == d {
                caption.clone()
            } else {
                caption.replace(plain, &d)
            };
            format!("{}.", capitalized(&caption.replace("{holder}", &a)))
        }
        None => match &b.title {
            Some(title) => format!("{a} sees {d}: \"{title}\"."),
            None => format!("{a} turns the page on {d}."),
        },
    });
    lines.push(record(match &b.caption {
        Some(_) => format!("{turned}."),
        None => format!(
            "{a} turns to {page} of {d}'s book and sees {}.",
            picture_words(b.picture, b.title.as_deref())
        ),
    }));
    if b.score.is_some() {
        let max_body = defender.fighter().sheet.body_points;
        if !b.landed {
            lines.push(format!(
                "{a} finds an opening on {d} too, but has no blow left to use it."
            ));
            lines.push(record(format!("{a} scores on {d} as well, but has no attack left this turn: the blow does not count.")));
        } else if b.damage > 0 {
            lines.push(format!(
                "{a} scores: {}",
                wound_words(&d, body_after, max_body)
            ));
            lines.push(record(format!(
                "{a} scores: {} damage. {}",
                sum(&b.parts, b.total),
                body_words(&d, body_after, max_body)
            )));
        } else {
            lines.push(format!("{a} scores, but the blow does {d} no harm."));
            lines.push(record(format!(
                "{a} scores, but {}: no damage.",
                sum(&b.parts, b.total)
            )));
        }
        if let Some(c) = &b.critical {
            // The order is quoted as read; a full stop of its own ends the line.
            let text = &c.restriction.text;
            let stop = if text.ends_with(['.', '!', '?']) {
                ""
            } else {
                "."
            };
            lines.push(format!("A critical hit! {d} must obey \"{text}\"{stop}"));
            lines.push(record(format!(
                "Critical hit: {} reaches {}.",
                b.total, c.threshold
            )));
        }
    }
    if !fallen {
        // The order read after a blow binds the next choice: the record's.
        lines.push(record(format!("{a} tells {d}: \"{}\"", b.tell.text)));
    }
    // The mark only matters to a side with someone to send in.
    if defender.party.len() > 1 && !fallen {
        match b.party {
            Some(PartyMark::StepIn) => lines.push(format!(
                "The picture bears the party mark (P): another of {}'s party may step in for {d}.",
                defender.player
            )),
            Some(PartyMark::Missile) => lines.push(format!(
                "The picture bears the party mark (P**): another of {}'s party may fire a spell or missile past {d}.",
                defender.player
            )),
            None => {}
        }
    }
    lines
}

/// The title of the fight: who fights whom ("Nowa against Brakka").
pub fn title(state: &State) -> String {
    if let Some(f) = state.field.as_deref() {
        return f.scenario.title.clone();
    }
    let side = |seat: Seat| {
        let st = state.seat(seat);
        let names: Vec<String> = (0..st.party.len())
            .map(|m| state.fighter_name(seat, m))
            .collect();
        and_list(&names)
    };
    let foes: Vec<String> = (1..state.seats.len() as Seat).map(side).collect();
    format!("{} against {}", side(0), and_list(&foes))
}

/// How a fighter came into the exchange: the orders in force when the
/// maneuver was chosen, then the maneuver.
fn chose_words(state: &State, seat: Seat, member: usize, m: &Maneuver) -> String {
    let who = state.fighter_name(seat, member);
    let orders = state.seat(seat).orders.texts();
    if orders.is_empty() {
        format!("{who}, under no orders, goes for {}.", maneuver_words(m))
    } else {
        let quoted: Vec<String> = orders.iter().map(|t| format!("\"{t}\"")).collect();
        format!(
            "{who}, told {}, goes for {}.",
            and_list(&quoted),
            maneuver_words(m)
        )
    }
}

/// What a duel action open now does, for its button (`Rules::describe`):
/// the fighter by name, the maneuver by its full name and page. `None` for
/// the scenario's own actions (see [`crate::lostworlds::field::narration`]).
pub fn describe(state: &State, action: &Action) -> Option<String> {
    let seat_of = |seat: &Option<Seat>| seat.unwrap_or_default();
    let who = |seat: &Option<Seat>| state.seat_name(seat_of(seat));
    let foes = |targets: &[Seat]| {
        let names: Vec<String> = targets.iter().map(|t| state.seat_name(*t)).collect();
        and_list(&names)
    };
    let maneuver = |seat: &Option<Seat>, page: Option<u32>, named: Option<&str>| {
        let sheet = &state.seats.get(seat_of(seat) as usize)?.fighter().sheet;
        let found = match (page, named) {
            (Some(page), _) => sheet.maneuver_at(page),
            (None, Some(name)) => sheet.maneuver_named(name),
            (None, None) => None,
        };
        found.map(|(_, m)| format!("{} (page {})", m.full_name(), m.page))
    };
    let member = |seat: &Option<Seat>, id: &str| {
        state
            .seats
            .get(seat_of(seat) as usize)
            .and_then(|s| s.party.iter().find(|f| f.sheet.id == id))
            .map_or_else(|| id.to_string(), |f| f.sheet.name.clone())
    };
    Some(match action {
        Action::Choose {
            seat,
            page,
            maneuver: named,
            targets,
        } => {
            let chosen =
                maneuver(seat, *page, named.as_deref()).unwrap_or_else(|| "a maneuver".into());
            match targets.as_slice() {
                [] => format!("{}: {chosen}", who(seat)),
                t => format!("{}: {chosen}, at {}", who(seat), foes(t)),
            }
        }
        Action::Commit { seat, .. } => format!("{}: seal the choice", who(seat)),
        Action::Reveal { seat, page, .. } => match maneuver(seat, *page, None) {
            Some(chosen) => format!("{}: reveal the sealed {chosen}", who(seat)),
            None => format!("{}: reveal the sealed choice", who(seat)),
        },
        Action::Exchange { maneuvers } => {
            let calls: Vec<String> = maneuvers
                .iter()
                .map(|m| {
                    let chosen = maneuver(&Some(m.seat), m.page, m.maneuver.as_deref())
                        .unwrap_or_else(|| "a maneuver".into());
                    format!("{} {chosen}", state.seat_name(m.seat))
                })
                .collect();
            format!("The exchange as called out: {}", calls.join("; "))
        }
        Action::Escape { seat } => format!("{}: try to escape", who(seat)),
        Action::StepIn { seat, member: id } => {
            format!("{} steps in for {}", member(seat, id), who(seat))
        }
        Action::FireMissile {
            seat,
            member: id,
            what,
            ..
        } => format!("{} fires {what}", member(seat, id)),
        Action::SelectCards { seat, cards, .. } => {
            let names: Vec<String> = cards
                .iter()
                .map(|c| {
                    crate::lostworlds::cards::card(state, c).map_or(c.clone(), |c| c.name.clone())
                })
                .collect();
            match names.as_slice() {
                [] => format!("{}: take no cards into the fight", who(seat)),
                n => format!("{}: take {} into the fight", who(seat), and_list(n)),
            }
        }
        Action::PlayCard { seat, card, .. } => {
            let name = crate::lostworlds::cards::card(state, card)
                .map_or(card.clone(), |c| c.name.clone());
            format!("{}: play {name}", who(seat))
        }
        Action::PickTargets { seat, targets } => {
            format!("{}: the scores hit {}", who(seat), foes(targets))
        }
        Action::Advance { seat, category, .. } => {
            format!("{}: spend an advancement on {category}", who(seat))
        }
        Action::Improve {
            seat,
            maneuver: named,
            ..
        } => format!("{}: spend experience on {named}", who(seat)),
        Action::Close => "Close the journal".into(),
        _ => return None,
    })
}

/// The range changes of an exchange, once for each pair of fighters.
fn range_lines(state: &State, r: &Resolution) -> Vec<String> {
    let mut lines = Vec::new();
    // Every pair of fighters includes seat 0: its blows name each pair once.
    for b in r.blows.iter().filter(|b| b.attacker == 0) {
        let before = state
            .seat(b.attacker)
            .sights
            .get(&b.defender)
            .map(|s| s.range);
        if before == Some(b.range) {
            continue;
        }
        let (a, d) = (state.seat_name(b.attacker), state.seat_name(b.defender));
        lines.push(match b.range {
            Range::Close => format!("{a} and {d} are at close quarters now."),
            Range::Extended => format!("{a} and {d} break apart to extended range."),
        });
    }
    lines
}

pub(in crate::lostworlds) fn maneuver_words(m: &Maneuver) -> String {
    format!("{} (page {}, {})", m.full_name(), m.page, m.colour.name())
}

/// Whether nothing has happened in the game yet: its first fact opens the story.
fn untouched(state: &State) -> bool {
    // `settled` passes the creation's seq once an event has been folded
    // with nothing held (cards taken in, say).
    state.phase == Phase::Fighting
        && state.exchanges == 0
        && state.settled <= 1
        && state.pending.is_empty()
        && state
            .seats
            .iter()
            .all(|s| !s.escaping && s.party_turn.is_none() && s.active == 0)
}

/// Which books in play are Tabletape's own samples rather than printed ones,
/// said wherever the books are shown.
pub fn samples_note(state: &State) -> Option<String> {
    let samples: Vec<String> = state
        .books
        .values()
        .filter(|b| b.sample)
        .filter_map(|b| {
            state
                .seats
                .iter()
                .flat_map(|s| &s.party)
                .find(|f| f.sheet.id == b.character)
                .map(|f| f.sheet.name.clone())
        })
        .collect();
    match samples.as_slice() {
        [] => None,
        [one] => Some(format!(
            "{one}'s book here is Tabletape's own sample, not a printed Lost Worlds book."
        )),
        _ => Some(format!(
            "The books of {} here are Tabletape's own samples, not printed Lost Worlds books.",
            and_list(&samples)
        )),
    }
}

/// Who plays whom, said once before the first thing that happens.
pub fn prologue(state: &State) -> Vec<String> {
    if state.field.is_some() {
        return crate::lostworlds::field::narration::prologue(state);
    }
    let seats: Vec<String> = state
        .seats
        .iter()
        .map(|st| {
            let members: Vec<String> = st
                .party
                .iter()
                .map(|f| {
                    let s = &f.sheet;
                    let title = if s.title.is_empty() {
                        String::new()
                    } else {
                        format!(", {}", s.title)
                    };
                    format!(
                        "{}{title} (height {}, {} body points)",
                        s.name, s.height, s.body_points
                    )
                })
                .collect();
            format!("{} plays {}", st.player, and_list(&members))
        })
        .collect();
    let mut lines = vec![seats.join("; ") + "."];
    lines.extend(samples_note(state));
    if state.seats.len() > 2 {
        let others: Vec<String> = (1..state.seats.len() as Seat)
            .map(|s| state.seat_name(s))
            .collect();
        lines.push(format!(
            "{} fights {} at once.",
            state.seat_name(0),
            and_list(&others)
        ));
    }
    for (i, st) in state.seats.iter().enumerate() {
        if st.party.len() > 1 {
            lines.push(format!(
                "{} fights first for {}'s party.",
                state.seat_name(i as Seat),
                st.player
            ));
        }
    }
    lines
}

/// Why an escape failed, from what the exchange showed.
fn escape_failure(state: &State, r: &Resolution, seat: Seat) -> String {
    let who = state.seat_name(seat);
    let close: Vec<String> = r
        .blows
        .iter()
        .filter(|b| b.attacker == seat && b.range == Range::Close)
        .map(|b| state.seat_name(b.defender))
        .collect();
    let scorers: Vec<String> = r
        .blows
        .iter()
        .filter(|b| b.defender == seat && b.landed)
        .map(|b| state.seat_name(b.attacker))
        .collect();
    let mut reasons = Vec::new();
    if !close.is_empty() {
        reasons.push(format!("came to close range with {}", and_list(&close)));
    }
    if !scorers.is_empty() {
        reasons.push(format!("was scored on by {}", and_list(&scorers)));
    }
    if reasons.is_empty() {
        reasons.push("fell".to_string());
    }
    format!("The escape fails: {who} {}.", reasons.join(" and "))
}

/// Prose for one fact, told from the state before it.
pub fn narrate(state: &State, fact: &Fact) -> Vec<String> {
    let mut lines = if untouched(state) {
        prologue(state)
    } else {
        Vec::new()
    };
    lines.extend(narrate_fact(state, fact));
    lines
}

/// The active fighter's cards as `viewer` may know them: names for the
/// holder, how many for anyone else, then the ones played.
pub fn cards_words(state: &State, seat: Seat, viewer: Viewer) -> Option<String> {
    let f = state.seat(seat).fighter();
    if f.cards.is_empty() {
        return None;
    }
    let name = |id: &str| {
        state
            .cards
            .get(id)
            .map_or(id.to_string(), |c| c.name.clone())
    };
    let played: Vec<String> = f
        .cards
        .iter()
        .filter(|h| h.played)
        .map(|h| name(&h.id))
        .collect();
    let unplayed: Vec<String> = f
        .cards
        .iter()
        .filter(|h| !h.played)
        .map(|h| name(&h.id))
        .collect();
    let held = match (unplayed.is_empty(), state.sees(viewer, seat)) {
        (true, _) => "none left".to_string(),
        (false, true) => unplayed.join(", "),
        // Another seat's unplayed cards are face down.
        (false, false) => format!("{} face down", unplayed.len()),
    };
    let played = if played.is_empty() {
        "none".to_string()
    } else {
        played.join(", ")
    };
    Some(format!("{held}; played: {played}"))
}

/// A played card's damage or armour in force: "Chain Shirt (armour 1) for
/// the rest of the fight".
pub fn boost_words(b: &Boost) -> String {
    let mut what = Vec::new();
    if b.damage != 0 {
        what.push(format!("damage {:+}", b.damage));
    }
    if b.armour != 0 {
        what.push(format!("armour {}", b.armour));
    }
    let when = match (b.exchange, b.until) {
        (None, _) => "for the rest of the fight".to_string(),
        (Some(e), Some(u)) => format!("in exchanges {e} to {u}"),
        (Some(e), None) => format!("in exchange {e}"),
    };
    format!("{} ({}) {when}", b.card, what.join(", "))
}

/// What a played card does, after its name: ": 2 more on each score next
/// exchange".
fn effect_words(state: &State, c: &Played) -> String {
    let lasting;
    let when = if c.kind == CardKind::Item {
        "for the rest of the fight"
    } else if c.effect.rounds > 1 {
        lasting = format!("for the next {} exchanges", c.effect.rounds);
        lasting.as_str()
    } else {
        "next exchange"
    };
    let e = &c.effect;
    let mut parts = Vec::new();
    if e.damage > 0 {
        parts.push(format!("{} more on each score it lands {when}", e.damage));
    }
    if e.armour > 0 {
        parts.push(format!("{} less from each blow it takes {when}", e.armour));
    }
    if e.heal > 0 {
        parts.push(format!("{} body points back", e.heal));
    }
    if let (true, Some(t)) = (e.strike > 0, c.target) {
        parts.push(format!(
            "{} damage to {} as the next pages turn",
            e.strike,
            state.seat_name(t)
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(": {}", parts.join(", and "))
    }
}

fn narrate_fact(state: &State, fact: &Fact) -> Vec<String> {
    match fact {
        f if f.on_field() => crate::lostworlds::field::narration::narrate(state, fact),
        // A choice in the clear tells nothing yet: the exchange tells it.
        Fact::ManeuverChosen { .. } => Vec::new(),
        // The commitment itself is in the log for verify; the story says
        // only that a choice was sealed.
        Fact::ManeuverCommitted { seat, .. } => {
            vec![record(format!(
                "{} seals a maneuver.",
                state.seat_name(*seat)
            ))]
        }
        Fact::ManeuverRevealed { seat, maneuver, .. } => match maneuver {
            Some(m) => vec![record(format!(
                "{} breaks the seal: {m}, as committed.",
                state.seat_name(*seat)
            ))],
            // Hidden from this reader until the exchange resolves.
            None => vec![record(format!(
                "{} breaks the seal.",
                state.seat_name(*seat)
            ))],
        },
        Fact::EscapeAnnounced { seat } => {
            vec![format!(
                "{} calls out \"Escaping!\"",
                state.seat_name(*seat)
            )]
        }
        Fact::MemberSteppedIn { seat, from, to } => {
            vec![format!(
                "{} steps aside and {} takes their place.",
                state.fighter_name(*seat, *from),
                state.fighter_name(*seat, *to)
            )]
        }
        Fact::MissileFired {
            seat,
            member,
            what,
            card,
        } => match card {
            Some(c) => vec![format!(
                "{} looses {} past {}{}; the orders stand as they were.",
                state.fighter_name(*seat, *member),
                c.name,
                state.seat_name(*seat),
                effect_words(state, c)
            )],
            None => vec![format!(
                "{} looses {what} past {}; the orders stand as they were.",
                state.fighter_name(*seat, *member),
                state.seat_name(*seat)
            )],
        },
        Fact::CardsSelected {
            seat,
            member,
            cards,
            count,
        } => {
            let who = state.fighter_name(*seat, *member);
            let unit = if *count == 1 { "card" } else { "cards" };
            if cards.is_empty() && *count > 0 {
                // Shown to another seat: how many, not which.
                vec![format!(
                    "{who} takes {count} fantasy {unit} into the fight, face down."
                )]
            } else if cards.is_empty() {
                vec![format!("{who} takes no fantasy cards into the fight.")]
            } else {
                let names: Vec<String> = cards
                    .iter()
                    .map(|id| {
                        state
                            .cards
                            .get(id)
                            .map_or(id.clone(), |c| format!("{} ({})", c.name, c.kind.word()))
                    })
                    .collect();
                vec![format!(
                    "{who} takes {} into the fight, face down.",
                    and_list(&names)
                )]
            }
        }
        Fact::CardPlayed { seat, member, card } => {
            vec![format!(
                "{} reveals {}, {} card{}.",
                state.fighter_name(*seat, *member),
                card.name,
                match card.kind {
                    CardKind::Item => "an item",
                    CardKind::Luck => "a luck",
                    CardKind::Tactic => "a tactic",
                    CardKind::Spell => "a spell",
                },
                effect_words(state, card)
            )]
        }
        Fact::TargetsAwaited {
            seat,
            scored,
            attacks,
        } => {
            let names: Vec<String> = scored.iter().map(|s| state.seat_name(*s)).collect();
            let unit = if *attacks == 1 { "attack" } else { "attacks" };
            vec![format!(
                "The pages turn: {} scores on {}, with {attacks} {unit}. {} picks whom the blows hit.",
                state.seat_name(*seat),
                and_list(&names),
                state.seat(*seat).player
            )]
        }
        Fact::TargetsPicked { seat, targets } => {
            let names: Vec<String> = targets.iter().map(|s| state.seat_name(*s)).collect();
            vec![format!(
                "{} picks {}: there {}'s blows land.",
                state.seat(*seat).player,
                and_list(&names),
                state.seat_name(*seat)
            )]
        }
        Fact::ExchangeResolved(r) => {
            // Who went for what, in a line: the orders each obeyed and the
            // books' pages are the record's.
            let calls: Vec<String> = r
                .turns
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let m = &state.seat(t.seat).party[t.member].sheet.maneuvers[t.maneuver];
                    let who = state.fighter_name(t.seat, t.member);
                    if i == 0 {
                        format!("{who} goes for {}", m.full_name())
                    } else {
                        format!("{who} for {}", m.full_name())
                    }
                })
                .collect();
            let mut lines = Vec::new();
            if !calls.is_empty() {
                lines.push(format!("{}.", and_list(&calls)));
            }
            lines.extend(r.turns.iter().map(|t| {
                let m = &state.seat(t.seat).party[t.member].sheet.maneuvers[t.maneuver];
                record(chose_words(state, t.seat, t.member, m))
            }));
            for t in &r.turns {
                for text in &t.set_aside {
                    lines.push(record(format!(
                        "{} cannot obey \"{text}\" together with the other orders; it is set aside this turn.",
                        state.fighter_name(t.seat, t.member)
                    )));
                }
            }
            // Body points as each blow lands, so a fighter struck twice
            // reads the count after the first blow, then after the second.
            let mut body: BTreeMap<Seat, i32> = BTreeMap::new();
            for k in &r.strikes {
                let left = body
                    .entry(k.defender)
                    .or_insert_with(|| state.seat(k.defender).fighter().body);
                *left = left.saturating_sub(k.damage);
                let f = state.seat(k.defender).fighter();
                let d = state.seat_name(k.defender);
                lines.push(format!(
                    "{}'s {} strikes {d}: {}",
                    state.fighter_name(k.seat, k.member),
                    k.card,
                    wound_words(&d, *left, f.sheet.body_points)
                ));
                lines.push(record(format!(
                    "{}'s {} strikes {d} for {}: {} of {} body points left.",
                    state.fighter_name(k.seat, k.member),
                    k.card,
                    k.damage,
                    left,
                    f.sheet.body_points
                )));
            }
            for b in &r.blows {
                let left = body
                    .entry(b.defender)
                    .or_insert_with(|| state.seat(b.defender).fighter().body);
                if b.landed {
                    *left = left.saturating_sub(b.damage);
                }
                let fallen = r.falls.iter().any(|f| f.seat == b.defender);
                lines.extend(blow_lines(state, b, *left, fallen));
            }
            for f in &r.falls {
                let who = state.fighter_name(f.seat, f.member);
                lines.push(match f.condition {
                    Condition::Dead => format!("{who} falls and does not rise again: dead."),
                    _ => format!("{who} collapses, unconscious."),
                });
                lines.push(record(format!("{who} falls at {} body points.", f.body)));
            }
            lines.extend(range_lines(state, r));
            let standing: Vec<String> = r
                .turns
                .iter()
                .map(|t| {
                    let f = &state.seat(t.seat).party[t.member];
                    let left = body.get(&t.seat).copied().unwrap_or(f.body);
                    format!(
                        "{} {left} of {}",
                        state.fighter_name(t.seat, t.member),
                        f.sheet.body_points
                    )
                })
                .collect();
            lines.push(record(format!("Body points now: {}.", and_list(&standing))));
            for &s in &r.escaped {
                lines.push(format!(
                    "{} slips away unscored upon: escaped!",
                    state.seat_name(s)
                ));
            }
            for &s in &r.escapes_failed {
                lines.push(escape_failure(state, r, s));
            }
            lines
        }
        Fact::FightEnded { outcome, awards } => {
            let mut lines = vec![ending_line(state, outcome.ending, &outcome.victors)];
            for a in awards {
                let f = &state.seat(a.seat).party[a.member];
                let who = state.fighter_name(a.seat, a.member);
                let now = f
                    .sheet
                    .experience
                    .saturating_add(a.points)
                    .saturating_add(a.victory);
                lines.push(record(match (a.points, a.victory) {
                    (p, 0) => format!("{who} gains {p} experience (now {now})."),
                    (0, v) => format!("{who} gains {v} experience for the victory (now {now})."),
                    (p, v) => format!(
                        "{who} gains {p} experience from the fighting and {v} for the victory (now {now})."
                    ),
                }));
                if a.advancements > 0 {
                    lines.push(record(format!(
                        "{who} has now defeated {} body points of opponents: {} advancement{} to spend.",
                        f.sheet.defeated_body_points.saturating_add(a.points),
                        a.advancements,
                        if a.advancements == 1 { "" } else { "s" }
                    )));
                }
            }
            lines
        }
        Fact::Advanced {
            seat,
            member,
            category,
        } => {
            let f = &state.seat(*seat).party[*member];
            let now = if category == "body" {
                i64::from(f.sheet.body_points) + 1
            } else {
                i64::from(f.sheet.abilities.get(category).copied().unwrap_or(0)) + 1
            };
            vec![record(format!(
                "{} advances: {category} rises to {now}.",
                state.fighter_name(*seat, *member)
            ))]
        }
        Fact::ModifierImproved {
            seat,
            member,
            maneuver,
            cost,
        } => {
            let f = &state.seat(*seat).party[*member];
            let m = &f.sheet.maneuvers[*maneuver];
            vec![record(format!(
                "{} trains {}: its modifier rises to {} for {cost} experience ({} left).",
                state.fighter_name(*seat, *member),
                m.full_name(),
                signed(m.modifier.saturating_add(1)),
                f.sheet.experience.saturating_sub(*cost)
            ))]
        }
        Fact::JournalClosed => vec!["The journal of this fight is closed.".into()],
        _ => unreachable!("every scenario fact is told above"),
    }
}

pub fn ending_line(state: &State, ending: Ending, victors: &[u32]) -> String {
    let names: Vec<String> = victors.iter().map(|&s| state.seat_name(s)).collect();
    match ending {
        Ending::Knockout => format!(
            "{} {} victorious.",
            and_list(&names),
            if names.len() == 1 { "stands" } else { "stand" }
        ),
        Ending::MutualKnockout => "Both sides fall together: nobody wins.".into(),
        Ending::Escape => "The fight ends with an escape: nobody wins.".into(),
        Ending::Draw => format!(
            "After {} exchanges the fight is called a draw.",
            state.exchanges
        ),
        Ending::Victory => {
            let side = state.field.as_deref().and_then(|f| {
                victors
                    .first()
                    .map(|&s| &f.scenario.sides[f.pieces[s as usize].side].name)
            });
            // A side's name may be one figure or many ("The Climber", "The
            // Guards"): said so that no verb has to agree with it.
            let side = side.map_or("its victors".to_string(), |s| {
                match s.strip_prefix("The ") {
                    Some(rest) => format!("the {rest}"),
                    None => s.clone(),
                }
            });
            format!("The scenario goes to {side}: {}.", and_list(&names))
        }
        Ending::Stalemate => "The scenario ends with no side winning.".into(),
    }
}

pub fn chapter(state: &State) -> String {
    if state.field.is_some() {
        return crate::lostworlds::field::narration::chapter(state);
    }
    match state.phase {
        Phase::Fighting => format!("Exchange {}", u64::from(state.exchanges) + 1),
        _ => "After the fight".into(),
    }
}

/// The end: how long the fight lasted (the outcome itself was told when it
/// happened, so it is not repeated) and how every fighter came out of it.
pub fn epilogue(state: &State) -> Vec<String> {
    let plural = if state.exchanges == 1 { "" } else { "s" };
    let mut lines = vec![match (&state.outcome, state.field.as_deref()) {
        (Some(_), Some(f)) => format!(
            "The scenario lasted {} turn{}, with {} rounds of combat.",
            f.turn,
            if f.turn == 1 { "" } else { "s" },
            state.exchanges
        ),
        (None, Some(f)) => format!("The scenario is still on in turn {}.", f.turn),
        (Some(_), None) => format!("The fight lasted {} exchange{plural}.", state.exchanges),
        (None, None) => format!(
            "The fight is still on after {} exchange{plural}.",
            state.exchanges
        ),
    }];
    for (seat, st) in state.seats.iter().enumerate() {
        // On a scenario's map a fit figure may still be off balance or down.
        let stance = state
            .field
            .as_deref()
            .and_then(|f| f.pieces.get(seat))
            .map(|p| p.position);
        for f in &st.party {
            use crate::lostworlds::field::state::Position;
            let condition = match f.condition {
                Condition::Fit if st.status == SeatStatus::Escaped => "escaped",
                Condition::Fit if stance == Some(Position::OffBalance) => "off balance",
                Condition::Fit if stance == Some(Position::Down) => "down",
                Condition::Fit => "on their feet",
                Condition::Unconscious => "unconscious",
                Condition::Dead => "dead",
            };
            let body = if f.body > 0 {
                format!("{} of {} body points", f.body, f.sheet.body_points)
            } else {
                format!("{} body points (of {})", f.body, f.sheet.body_points)
            };
            lines.push(format!(
                "{} ({}): {body}, {condition}; {} experience.",
                f.sheet.name, st.player, f.sheet.experience
            ));
        }
    }
    lines
}

/// The text picture of the duel: each fighter's body points, the picture
/// they see, the orders in force and what is held for this exchange (which
/// maneuver only for those who may see it, see [`crate::lostworlds::sees`]).
pub fn render(state: &State, viewer: Viewer) -> String {
    let mut out = format!("Lost Worlds: {}\n", chapter(state));
    if state.field.is_some() {
        out.push('\n');
        out.push_str(&crate::lostworlds::field::narration::map_text(state));
        out.push('\n');
        for line in crate::lostworlds::field::narration::board_lines(state) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    if let Some(note) = samples_note(state) {
        out.push_str(&format!("({note})\n"));
    }
    for (i, st) in state.seats.iter().enumerate() {
        let f = st.fighter();
        let status = match st.status {
            SeatStatus::Fighting if st.escaping => "fighting, escaping",
            SeatStatus::Fighting => "fighting",
            SeatStatus::Down => "down",
            SeatStatus::Escaped => "escaped",
            SeatStatus::Aside => "on the map",
        };
        out.push_str(&format!(
            "\nSeat {i} ({}): {}, {}; height {}; body {}/{} [{status}]\n",
            st.player, f.sheet.name, f.sheet.title, f.sheet.height, f.body, f.sheet.body_points
        ));
        for (mi, member) in st.party.iter().enumerate() {
            if mi != st.active {
                out.push_str(&format!(
                    "  party: {} body {}/{}\n",
                    member.sheet.name, member.body, member.sheet.body_points
                ));
            }
        }
        for (foe, sight) in &st.sights {
            let mark = sight
                .party
                .map(|m| format!(" ({})", m.symbol()))
                .unwrap_or_default();
            out.push_str(&format!(
                "  sees {}: {}, {}{mark}\n",
                state.seat_name(*foe),
                picture_words(sight.picture, sight.title.as_deref()),
                sight.range.words()
            ));
        }
        let texts = st.orders.texts();
        if texts.is_empty() {
            out.push_str("  orders: none\n");
        }
        for t in texts {
            out.push_str(&format!("  orders: \"{t}\"\n"));
        }
        for n in &st.orders.notes {
            out.push_str(&format!("  note: {n}\n"));
        }
        if let Some(cards) = cards_words(state, i as Seat, viewer) {
            out.push_str(&format!("  cards: {cards}\n"));
        }
        for b in &st.boosts {
            out.push_str(&format!("  in effect: {}\n", boost_words(b)));
        }
        match state.pending.get(&(i as u32)) {
            Some(Pending::Committed { .. }) => out.push_str("  choice: sealed\n"),
            Some(Pending::Chosen { page, .. }) if state.sees(viewer, i as Seat) => {
                match f.sheet.maneuver_at(*page) {
                    Some((_, m)) => {
                        out.push_str(&format!("  choice: made ({})\n", maneuver_words(m)))
                    }
                    None => out.push_str(&format!("  choice: made (page {page})\n")),
                }
            }
            Some(Pending::Chosen { .. }) => out.push_str("  choice: made\n"),
            None => {}
        }
        if state.phase != Phase::Fighting {
            out.push_str(&format!(
                "  experience {}, defeated {} body points, advancements to spend {}\n",
                f.sheet.experience, f.sheet.defeated_body_points, f.advancements
            ));
        }
    }
    if let Some(o) = &state.outcome {
        out.push_str(&format!("\n{}\n", ending_line(state, o.ending, &o.victors)));
    }
    out
}
