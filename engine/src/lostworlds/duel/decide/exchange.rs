//! The exchange: the pages each fighter turns to (X pages, conditionals),
//! the pictures reached, damage with its sum, attacks and targets, falls
//! and escapes.

use std::cell::RefCell;
use std::collections::HashMap;

use super::*;
use crate::lostworlds::actions::{Blow, CriticalHit, Fall, Part, Resolution, Seen, Turn};
use crate::lostworlds::content::{Book, CardKind, Character, Colour, Critical, Maneuver, Picture};
use crate::lostworlds::restriction::Restriction;

/// The page `seat` turns to against `foe` with maneuver `m`: its X page when
/// it picked a close-range maneuver and sees that opponent at extended range.
fn turned_page(state: &State, seat: Seat, foe: Seat, m: &Maneuver) -> (u32, bool) {
    let far = state
        .seat(seat)
        .sights
        .get(&foe)
        .is_some_and(|s| s.range == Range::Extended);
    match m.x {
        Some(x) if far && !m.is_extended() => (x, true),
        _ => (m.page, false),
    }
}

/// Height: the taller adds 1 to Orange and Red, the shorter takes 1 from Orange.
pub fn height_adjustment(attacker: &Character, defender: &Character, colour: Colour) -> i32 {
    use std::cmp::Ordering::*;
    match (attacker.height.cmp(&defender.height), colour) {
        (Greater, Colour::Orange | Colour::Red) => 1,
        (Less, Colour::Orange) => -1,
        _ => 0,
    }
}

/// A picture reached in an exchange. Its title comes from the book, or from
/// the table in record mode, where it may be left out.
struct Reached {
    picture: u32,
    title: Option<String>,
    caption: Option<String>,
    range: Range,
    score: Option<i32>,
    critical: Option<Critical>,
    tell: String,
    party: Option<PartyMark>,
    reveal: Option<CardKind>,
    /// What the picture shows of the one who reached it (see [`Picture::holder`]).
    holder: Vec<String>,
}

/// What the attacker saw: from the book, or as the table reported it.
fn sighted(
    state: &State,
    seen: Option<&BTreeMap<Seat, Vec<Seen>>>,
    a: Seat,
    d: Seat,
    a_page: u32,
    d_page: u32,
) -> Result<Reached, Rejection> {
    let defender = &state.seat(d).fighter().sheet;
    let Some(seen) = seen else {
        let book: &Book = &state.books[&defender.id];
        let found = book
            .look_up(a_page, d_page)
            .and_then(|p| book.pictures.get(&p).map(|pic| (p, pic)));
        let Some((picture, pic)) = found else {
            return reject(
                "lostworlds.book",
                format!(
                    "{}'s book has no picture for page {a_page} against page {d_page}",
                    state.seat_name(d)
                ),
            );
        };
        let Picture {
            title,
            caption,
            range,
            score,
            critical,
            tell,
            party,
            reveal,
            holder,
        } = pic.clone();
        return Ok(Reached {
            picture,
            title: Some(title),
            caption,
            range,
            score,
            critical,
            tell,
            party,
            reveal,
            holder,
        });
    };
    let who = state.seat_name(a);
    let several = state.foes(a).len() > 1;
    let against = if several {
        format!(" against {}", state.seat_name(d))
    } else {
        String::new()
    };
    let entries = seen.get(&a).map(Vec::as_slice).unwrap_or(&[]);
    let entry = entries
        .iter()
        .find(|s| s.opponent == Some(d))
        .or_else(|| entries.iter().find(|s| s.opponent.is_none() && !several));
    let Some(entry) = entry else {
        return reject(
            "lostworlds.record",
            format!("record mode: {who}'s result{against} is missing: add it to `seen`"),
        );
    };
    let need = |field: &str| {
        Rejection::new(
            "lostworlds.record",
            format!("record mode: {who}'s result{against} needs `{field}`"),
        )
    };
    let picture = entry.picture.ok_or_else(|| need("picture"))?;
    let range = entry.range.ok_or_else(|| need("range"))?;
    let tell = entry.tell.clone().ok_or_else(|| need("tell"))?;
    // `check_seen` has checked every number and text of the entry.
    // A title left out stays out: the story then names the picture by number only.
    let title = entry
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    Ok(Reached {
        picture,
        title,
        caption: None,
        range,
        score: entry.score,
        critical: entry.critical.clone(),
        tell,
        party: entry.party,
        reveal: entry.reveal,
        holder: Vec::new(),
    })
}

/// The picture `a` turns to instead of the matrix's, when `d` read `a` a
/// conditional ("If I am pushed off balance go to p. 19") last exchange
/// and `d`'s own picture of this exchange shows `d` in that situation.
fn conditional_turn(
    state: &State,
    a: Seat,
    d: Seat,
    a_page: u32,
    d_page: u32,
) -> Result<Option<Reached>, Rejection> {
    let mut ifs = state.seat(a).orders.conditionals(d).peekable();
    if ifs.peek().is_none() {
        return Ok(None);
    }
    let own = sighted(state, None, d, a, d_page, a_page)?;
    let Some((_, page)) =
        ifs.find(|(situation, _)| own.holder.iter().any(|h| situation.contains(h.as_str())))
    else {
        return Ok(None);
    };
    let book: &Book = &state.books[&state.seat(d).fighter().sheet.id];
    let Some(pic) = book.pictures.get(&page) else {
        return reject(
            "lostworlds.book",
            format!(
                "{} was told to turn to picture {page}, which {}'s book does not have",
                state.seat_name(a),
                state.seat_name(d)
            ),
        );
    };
    let pic = pic.clone();
    Ok(Some(Reached {
        picture: page,
        title: Some(pic.title),
        caption: pic.caption,
        range: pic.range,
        score: pic.score,
        critical: pic.critical,
        tell: pic.tell,
        party: pic.party,
        reveal: pic.reveal,
        holder: pic.holder,
    }))
}

/// `who` names where the text was printed, for an error (written only then).
fn read(text: &str, who: impl FnOnce() -> String) -> Result<Restriction, Rejection> {
    // A book has a few hundred restriction texts and an exchange reads
    // them again and again: each thread keeps the ones it has read.
    thread_local! {
        static READ: RefCell<HashMap<String, Restriction>> = RefCell::default();
    }
    const KEPT: usize = 4096;
    if let Some(known) = READ.with(|read| read.borrow().get(text).cloned()) {
        return Ok(known);
    }
    let parsed = Restriction::parse(text)
        .map_err(|e| Rejection::new("lostworlds.restriction_text", format!("{}: {e}", who())))?;
    READ.with(|read| {
        let mut read = read.borrow_mut();
        if read.len() >= KEPT {
            read.clear();
        }
        read.insert(text.to_string(), parsed.clone());
    });
    Ok(parsed)
}

/// Resolves an exchange. With `ask` (rules 3, choices made one by one), a
/// fighter whose pictures show scores on more opponents than its attacks,
/// and who named no `targets`, is asked to pick before anything lands.
pub(super) fn resolve(
    state: &State,
    picks: &BTreeMap<Seat, (usize, Vec<Seat>)>,
    seen: Option<&BTreeMap<Seat, Vec<Seen>>>,
    ask: bool,
) -> Result<Vec<Fact>, Rejection> {
    let number = state
        .exchanges
        .checked_add(1)
        .ok_or_else(|| overflow("the exchange count"))?;
    let maneuver = |s: Seat| &state.seat(s).fighter().sheet.maneuvers[picks[&s].0];
    let mut turns = Vec::new();
    for (&seat, (idx, _)) in picks {
        let st = state.seat(seat);
        let m = maneuver(seat);
        turns.push(Turn {
            seat,
            member: st.active,
            maneuver: *idx,
            name: m.full_name(),
            colour: m.colour,
            page: m.page,
            set_aside: choices(state, seat).set_aside,
        });
    }
    let mut blows: Vec<Blow> = Vec::new();
    for &a in picks.keys() {
        let attacker = state.seat(a);
        let sheet = &attacker.fighter().sheet;
        let m = maneuver(a);
        for d in state.foes(a) {
            let defender = &state.seat(d).fighter().sheet;
            let (a_page, x_column) = turned_page(state, a, d, m);
            let (d_page, _) = turned_page(state, d, a, maneuver(d));
            let mut pic = sighted(state, seen, a, d, a_page, d_page)?;
            let instead_of = match seen {
                None => conditional_turn(state, a, d, a_page, d_page)?,
                // The table turns the pages itself, and reports where it ended.
                Some(_) => None,
            }
            .map(|turned| std::mem::replace(&mut pic, turned).picture);
            let picture = pic.picture;
            let tell = read(&pic.tell, || {
                format!("picture {picture} of {}'s book", state.seat_name(d))
            })?;
            let mut parts = Vec::new();
            let mut total = 0;
            if let Some(score) = pic.score {
                parts.push(Part {
                    label: "score".into(),
                    value: score,
                });
                parts.push(Part {
                    label: m.full_name(),
                    value: m.modifier,
                });
                let h = match field::decide::effective_heights(state, a, d) {
                    Some((mine, theirs)) => {
                        field::decide::terrain_height_bonus(mine, theirs, m.colour)
                    }
                    None => height_adjustment(sheet, defender, m.colour),
                };
                if h != 0 {
                    parts.push(Part {
                        label: "height".into(),
                        value: h,
                    });
                }
                for t in &attacker.orders.next_turn {
                    let b = t.clause.bonus(m);
                    if b != 0 && t.from == Some(d) {
                        parts.push(Part {
                            label: "bonus".into(),
                            value: b,
                        });
                    }
                }
                for t in &attacker.orders.lasting {
                    let p = t.clause.penalty(m);
                    if p != 0 {
                        parts.push(Part {
                            label: "penalty".into(),
                            value: p,
                        });
                    }
                }
                parts.extend(cards::parts(state, a, d, number));
                total = parts
                    .iter()
                    .try_fold(0i32, |sum, p| sum.checked_add(p.value))
                    .ok_or_else(|| overflow(&format!("{}'s damage sum", state.seat_name(a))))?;
            }
            let critical = match (&pic.critical, pic.score) {
                (Some(c), Some(_)) if total >= c.threshold => Some(CriticalHit {
                    threshold: c.threshold,
                    restriction: read(&c.restriction, || format!("critical of picture {picture}"))?,
                }),
                _ => None,
            };
            blows.push(Blow {
                attacker: a,
                defender: d,
                page: a_page,
                x_column,
                picture,
                title: pic.title,
                caption: pic.caption,
                range: pic.range,
                party: pic.party,
                reveal: pic.reveal,
                score: pic.score,
                parts,
                total,
                landed: pic.score.is_some(),
                damage: total.max(0),
                critical,
                tell,
                instead_of,
            });
        }
        // Attacks: only so many opponents may be scored on; the attacker's
        // targets come first, then the heaviest blows, then the lowest seat.
        let limit = sheet.attacks_with(m) as usize;
        let targets = &picks[&a].1;
        let mut scoring: Vec<usize> = (0..blows.len())
            .filter(|&i| blows[i].attacker == a && blows[i].score.is_some())
            .collect();
        if ask && targets.is_empty() && scoring.len() > limit {
            return Ok(vec![Fact::TargetsAwaited {
                seat: a,
                scored: scoring.iter().map(|&i| blows[i].defender).collect(),
                attacks: limit as u32,
            }]);
        }
        if scoring.len() > limit {
            scoring.sort_by_key(|&i| {
                let pref = targets
                    .iter()
                    .position(|&t| t == blows[i].defender)
                    .unwrap_or(usize::MAX);
                (pref, -blows[i].damage, blows[i].defender)
            });
            for &i in &scoring[limit..] {
                blows[i].landed = false;
                blows[i].damage = 0;
                blows[i].critical = None;
            }
        }
    }
    let strikes = cards::landing(state, number);
    // Falls: unconscious at 0 or below, dead at -5 or below.
    let mut falls = Vec::new();
    for &d in picks.keys() {
        let st = state.seat(d);
        let hurt = || overflow(&format!("{}'s body points", state.seat_name(d)));
        let struck = strikes
            .iter()
            .filter(|k| k.defender == d)
            .try_fold(0i32, |sum, k| sum.checked_add(k.damage))
            .ok_or_else(hurt)?;
        let taken = blows
            .iter()
            .filter(|b| b.defender == d && b.landed)
            .try_fold(struck, |sum, b| sum.checked_add(b.damage))
            .ok_or_else(hurt)?;
        let body = st.fighter().body.checked_sub(taken).ok_or_else(hurt)?;
        if taken > 0 && body <= 0 {
            let victors = blows
                .iter()
                .filter(|b| b.defender == d && b.landed && b.damage > 0)
                .map(|b| (b.attacker, state.seat(b.attacker).active))
                .chain(
                    strikes
                        .iter()
                        .filter(|k| k.defender == d)
                        .map(|k| (k.seat, k.member)),
                )
                .collect();
            falls.push(Fall {
                seat: d,
                member: st.active,
                body,
                condition: if body <= -5 {
                    Condition::Dead
                } else {
                    Condition::Unconscious
                },
                max_body: st.fighter().sheet.body_points,
                victors,
            });
        }
    }
    // Escape: announced last turn, at extended range now, and not scored upon.
    let mut escaped = Vec::new();
    let mut escapes_failed = Vec::new();
    for &s in picks.keys() {
        if !state.seat(s).escaping {
            continue;
        }
        let scored_on = blows.iter().any(|b| b.defender == s && b.landed);
        let far = blows
            .iter()
            .filter(|b| b.attacker == s)
            .all(|b| b.range == Range::Extended);
        let fell = falls.iter().any(|f| f.seat == s);
        if far && !scored_on && !fell {
            escaped.push(s);
        } else {
            escapes_failed.push(s);
        }
    }
    let resolution = Resolution {
        number,
        turns,
        blows,
        falls,
        escaped,
        escapes_failed,
        strikes,
    };
    if state.field.is_some() {
        // A scenario's combat phase ends after three rounds (or when no one
        // is left to fight), and the turn goes on; the scenario decides
        // the end, not the fight.
        let mut chain = field::decide::Chain::new(state);
        chain.push(Fact::ExchangeResolved(resolution));
        field::decide::after_exchange(&mut chain)?;
        return Ok(chain.facts);
    }
    let mut facts = vec![];
    let end = fight_end(state, &resolution)?;
    facts.push(Fact::ExchangeResolved(resolution));
    if let Some(end) = end {
        facts.push(end);
    }
    Ok(facts)
}

/// A rejection for a sum that would not fit: never reached with a pack and
/// reports within their limits, but a sum is never allowed to wrap.
pub(super) fn overflow(what: &str) -> Rejection {
    Rejection::new(
        "lostworlds.overflow",
        format!("{what} would overflow: a number in play is beyond what a book can print"),
    )
}

/// `pick_targets`: whom the blows hit, once the pages are turned; the
/// exchange then resolves.
pub(super) fn pick_targets(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    targets: &[Seat],
) -> Result<Vec<Fact>, Rejection> {
    let seat = acting_seat(state, by, seat)?;
    cards::check_pick(state, seat, targets)?;
    let mut picks = BTreeMap::new();
    for s in state.fighting_seats() {
        let Some(Pending::Chosen { page, targets: t }) = state.pending.get(&s) else {
            return reject(
                "lostworlds.targets",
                "the exchange is not waiting on a pick",
            );
        };
        let t = if s == seat {
            targets.to_vec()
        } else {
            t.clone()
        };
        picks.insert(s, (find_maneuver(state, s, Some(*page), None)?, t));
    }
    let mut facts = vec![Fact::TargetsPicked {
        seat,
        targets: targets.to_vec(),
    }];
    facts.extend(resolve(state, &picks, None, false)?);
    Ok(facts)
}
