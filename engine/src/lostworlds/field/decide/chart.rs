//! The movement chart: what each of its entries costs and what comes of it
//! (stepping, running, jumps, blocks, objects and bodies, throws, shoves,
//! slaying, spells and regeneration, breaking off).

use super::*;
use crate::lostworlds::field::content::Ground;

/// The cost and outcome of one movement chart entry.
pub(super) fn deed(
    state: &State,
    seat: Seat,
    action: &Action,
    chance: &mut Chance,
) -> Result<(u32, Deed), Rejection> {
    let b = board(state).expect("a scenario");
    let field = b.field;
    let p = field.piece(seat);
    let name = state.seat_name(seat);
    let starred = matches!(
        action,
        Action::Block { .. }
            | Action::Crawl { .. }
            | Action::StandUp { .. }
            | Action::RegainBalance { .. }
            | Action::PickUp { .. }
            | Action::Throw { .. }
            | Action::ThrowWeapon { .. }
            | Action::Examine { .. }
            | Action::Slay { .. }
    );
    if starred && p.done.ran {
        return refuse(
            "running",
            format!("{name} ran this turn: this is not done on a run"),
        );
    }
    if p.done.blocked && !matches!(action, Action::RegainBalance { .. }) {
        return refuse(
            "blocked",
            format!("{name} is blocked this turn: regaining balance is all it may do"),
        );
    }
    if !b.conscious[seat as usize] {
        return refuse("unconscious", format!("{name} is unconscious"));
    }
    let opponent = |target: Seat, adjacent: bool| -> Result<(), Rejection> {
        if target as usize >= state.seats.len() || !field.opposed(seat, target) {
            return refuse("target", format!("seat {target} is no opponent of {name}"));
        }
        if adjacent && !b.adjacent(p.at, field.piece(target).at) {
            return refuse(
                "target",
                format!("{} is not beside {name}", state.seat_name(target)),
            );
        }
        Ok(())
    };
    let from = p.at;
    let (cost, deed) = match action {
        Action::Move { to, .. } | Action::Crawl { to, .. } => {
            let to = space(&b, "to", to)?;
            let crawling = matches!(action, Action::Crawl { .. });
            if crawling != (p.position == Position::Down) {
                return refuse(
                    "position",
                    if crawling {
                        format!("{name} is on its feet: `move`, or `fall_prone` first")
                    } else {
                        format!("{name} is down: `crawl`, or `stand_up` first")
                    },
                );
            }
            enterable(&b, seat, from, to)?;
            let climb = (level_of(&b, to) - level_of(&b, from))
                .unsigned_abs()
                .max(1);
            if crawling {
                (cost::CRAWL * climb, Deed::Crawled { from, to })
            } else {
                (cost::MOVE * climb, Deed::Moved { from, to })
            }
        }
        Action::Run { .. } => {
            if p.done.ran || p.ran_before {
                return refuse(
                    "running",
                    format!("{name} ran last turn: running is never done twice in a row"),
                );
            }
            if p.done.starred {
                return refuse(
                    "running",
                    format!("{name} did something this turn that is not done on a run"),
                );
            }
            if p.position == Position::Down || p.done.halted_by.is_some() {
                return refuse("running", format!("{name} cannot run now"));
            }
            // A halter moves no more this turn, a run's two points included
            // (rules 5; rules 4 let it run, then move or shove).
            if p.done.halted_one && state.rules >= 5 {
                return refuse(
                    "running",
                    format!("{name} halted an opponent: it moves no more this turn"),
                );
            }
            (0, Deed::Ran)
        }
        Action::JumpDown { to, roll, .. } => {
            let to = space(&b, "to", to)?;
            if !b.adjacent(from, to) || !b.open(to) || level_of(&b, to) >= level_of(&b, from) {
                return refuse(
                    "jump_down",
                    format!("a reckless jump goes down into a lower space beside {name}"),
                );
            }
            if b.figure_at(to).is_some() {
                return refuse(
                    "jump_down",
                    format!("someone stands on {to}: `jump_onto` them instead"),
                );
            }
            on_feet(&name, p.position)?;
            affordable(&name, p.points, cost::RECKLESS_JUMP)?;
            let roll = chance.roll("reckless jump", 6, "roll", *roll)?;
            let (position, hurt) = tables::reckless_landing(roll);
            let levels = level_of(&b, from) - level_of(&b, to);
            (
                cost::RECKLESS_JUMP,
                Deed::JumpedDown {
                    from,
                    to,
                    roll,
                    position,
                    damage: if hurt { levels } else { 0 },
                },
            )
        }
        Action::JumpOnto {
            target, land, roll, ..
        } => {
            opponent(*target, true)?;
            let t = field.piece(*target);
            if !b.conscious[*target as usize] {
                return refuse("jump_onto", "jump onto a conscious opponent");
            }
            if level_of(&b, from) < level_of(&b, t.at) + 1 {
                return refuse(
                    "jump_onto",
                    format!(
                        "{name} must start at least a level above {}",
                        state.seat_name(*target)
                    ),
                );
            }
            let land = space(&b, "land", land)?;
            let ok = b.adjacent(land, t.at)
                && b.open(land)
                && land != from
                && level_of(&b, land) <= level_of(&b, t.at)
                && b.figure_at(land).is_none();
            if !ok {
                return refuse(
                    "jump_onto",
                    format!(
                        "`land`: {name} ends beside {} on its level or lower, in a space no one stands in",
                        state.seat_name(*target)
                    ),
                );
            }
            on_feet(&name, p.position)?;
            affordable(&name, p.points, cost::POUNCE)?;
            let roll = chance.roll("jump onto an opponent", 6, "roll", *roll)?;
            let result = tables::pounce(roll);
            let damage = match result {
                tables::Pounce::Flattened => tables::POUNCE_DAMAGE,
                tables::Pounce::Missed => level_of(&b, from) - level_of(&b, land),
                _ => 0,
            };
            (
                cost::POUNCE,
                Deed::JumpedOnto {
                    target: *target,
                    from,
                    land,
                    roll,
                    result,
                    damage,
                },
            )
        }
        Action::JumpOver { to, .. } => {
            let to = space(&b, "to", to)?;
            if !p.done.ran || p.done.entered < 2 {
                return refuse(
                    "jump_over",
                    format!("a jump over a space comes on a run, after entering two spaces ({name} has entered {})", p.done.entered),
                );
            }
            let Some(dir) = (0..6).find(|&d| b.ray(from, d, 2) == Some(to)) else {
                return refuse(
                    "jump_over",
                    format!("{to} is not two spaces from {from} in a straight line"),
                );
            };
            let over = b.ray(from, dir, 1).expect("the ray reached two spaces");
            let (start, end) = (level_of(&b, from), level_of(&b, to));
            if !b.open(to) || b.figure_at(to).is_some() || end > start + 1 {
                return refuse(
                    "jump_over",
                    format!("{name} lands on an open space no higher than a level above, with no one in it"),
                );
            }
            let top = match b.terrain.at(over) {
                Some(Ground::Wall | Ground::Pillar) | None => i32::MAX,
                Some(g) => {
                    let level = i32::from(g.level().unwrap_or(0));
                    level
                        + field
                            .things_at(over)
                            .map(|t| object_height(field.kind_of(t).tall))
                            .max()
                            .unwrap_or(0)
                }
            };
            if top > start.min(end) {
                return refuse(
                    "jump_over",
                    format!(
                        "what stands on {over} is higher than where {name} jumps from or lands"
                    ),
                );
            }
            affordable(&name, p.points, cost::JUMP_OVER)?;
            (cost::JUMP_OVER, Deed::JumpedOver { from, over, to })
        }
        Action::Block { target, .. } => {
            opponent(*target, true)?;
            on_feet(&name, p.position)?;
            let yet_to_move = field.order[field.moved..].contains(target);
            if !yet_to_move {
                return refuse(
                    "block",
                    format!("{} has already moved this turn", state.seat_name(*target)),
                );
            }
            (cost::BLOCK, Deed::Blocked { target: *target })
        }
        Action::FallProne { .. } => {
            if p.position == Position::Down {
                return refuse("position", format!("{name} is down already"));
            }
            (0, Deed::FellProne)
        }
        Action::StandUp { .. } => {
            if p.position != Position::Down {
                return refuse("position", format!("{name} is not down"));
            }
            (cost::STAND_UP, Deed::StoodUp)
        }
        Action::RegainBalance { .. } => {
            if p.position != Position::OffBalance {
                return refuse("position", format!("{name} is not off balance"));
            }
            (cost::REGAIN_BALANCE, Deed::RegainedBalance)
        }
        Action::PickUp { object, .. } if field.thing(object).is_none() => {
            let Some(body) = body_named(state, object) else {
                field_object(state, object)?;
                unreachable!("no such object was refused")
            };
            let them = state.seat_name(body);
            if b.conscious[body as usize] {
                return refuse(
                    "pick_up",
                    format!("{them} is conscious: only the unconscious and the dead are carried"),
                );
            }
            if field.piece(body).at != from || field.borne_by(body).is_some() {
                return refuse(
                    "pick_up",
                    format!("{them} does not lie on {name}'s space ({from})"),
                );
            }
            load_free(state, seat)?;
            let weight = b.heights[body as usize];
            if weight > b.heights[seat as usize] {
                return refuse(
                    "pick_up",
                    format!("{them} weighs {weight} (a body weighs its height), more than {name}'s height"),
                );
            }
            (cost::PICK_UP, Deed::LiftedBody { body })
        }
        Action::PickUp { object, .. } => {
            let t = field_object(state, object)?;
            if t.at != from || t.carried_by.is_some() {
                return refuse(
                    "pick_up",
                    format!("the {} is not on {name}'s space ({from})", t.id),
                );
            }
            if t.owner == Some(seat) {
                // Its own weapon goes back in hand, not on its back.
                return Ok((
                    cost::PICK_UP,
                    Deed::PickedUp {
                        object: t.id.clone(),
                    },
                ));
            }
            load_free(state, seat)?;
            let weight = i32::from(field.kind_of(t).weight);
            if weight > b.heights[seat as usize] {
                return refuse(
                    "pick_up",
                    format!("the {} weighs {weight}, more than {name}'s height", t.id),
                );
            }
            (
                cost::PICK_UP,
                Deed::PickedUp {
                    object: t.id.clone(),
                },
            )
        }
        Action::Drop { at, .. } => {
            if p.carrying.is_none() && p.bearing.is_none() {
                return refuse("drop", format!("{name} carries nothing"));
            }
            let at = match at {
                Some(at) => space(&b, "at", at)?,
                None => from,
            };
            if !(at == from || b.adjacent(from, at)) || !b.open(at) {
                return refuse(
                    "drop",
                    format!("`at`: {name} puts it down on its own space or an open one beside it"),
                );
            }
            match (&p.carrying, p.bearing) {
                (Some(object), _) => (
                    0,
                    Deed::Dropped {
                        object: object.clone(),
                        at,
                    },
                ),
                (None, Some(body)) => (0, Deed::LaidDown { body, at }),
                (None, None) => unreachable!("a load was found above"),
            }
        }
        Action::Throw {
            at, roll, scatter, ..
        } => {
            let (kind, object) = match (&p.carrying, p.bearing) {
                (Some(object), _) => (
                    field.kind_of(field.thing(object).expect("carried")),
                    object.clone(),
                ),
                (None, Some(body)) => (
                    crate::lostworlds::field::content::ObjectKind::body(b.heights[body as usize]),
                    state.seat_name(body),
                ),
                (None, None) => {
                    return refuse("throw", format!("{name} carries nothing: `pick_up` first"))
                }
            };
            let target = space(&b, "at", at)?;
            let range = b.distance(from, target);
            let (lt, lf) = (level_of(&b, target), level_of(&b, from));
            let slope = match lt.cmp(&lf) {
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Greater => -1,
                std::cmp::Ordering::Equal => 0,
            };
            let height = b.heights[seat as usize];
            // The slope moves the object's maximum range, and the height
            // still caps it (rules 5); rules 4 added it after the cap, so a
            // figure threw one space beyond its height downhill.
            let reach = if state.rules >= 5 {
                (i32::from(kind.range) + slope).min(height)
            } else {
                i32::from(kind.range).min(height) + slope
            };
            if range == 0 || range as i32 > reach || !b.open(target) {
                return refuse(
                    "throw",
                    format!(
                        "`at`: {name} throws the {object} at an open space 1 to {} away ({target} is {range})",
                        reach.max(0)
                    ),
                );
            }
            affordable(&name, p.points, cost::THROW)?;
            chance.check_supplied("scatter die", "scatter", scatter)?;
            let roll = chance.roll("throw", 6, "roll", *roll)?;
            let (at, scatter) = if tables::throw_lands(range, roll) {
                (target, None)
            } else {
                let level = level_of(&b, target);
                let around = b.neighbours(target);
                let lower = |h: &Hex| b.open(*h) && level_of(&b, *h) <= level;
                if state.rules >= 6 {
                    // Only the spaces beside the target on its level or
                    // lower are numbered, clockwise from the east; a die
                    // beyond them is rolled again (the table gives the one
                    // that names a space). With none, it drops on the target
                    // (a scatter of 0: no die was rolled).
                    let numbered: Vec<Hex> = around.into_iter().flatten().filter(lower).collect();
                    if numbered.is_empty() {
                        (target, Some(0))
                    } else {
                        let list: Vec<String> = numbered
                            .iter()
                            .enumerate()
                            .map(|(i, h)| format!("{} {h}", i + 1))
                            .collect();
                        let what = format!(
                            "scatter die (the spaces beside {target} on its level or lower, numbered clockwise from the east: {}; a higher number is rolled again)",
                            list.join(", ")
                        );
                        let n = numbered.len() as u32;
                        let die = chance.roll(&what, n, "scatter", *scatter)?;
                        (numbered[die as usize - 1], Some(die))
                    }
                } else {
                    // Rules 5 and before: the six sides numbered, and a side
                    // that is higher, a wall or off the map dropped it on the
                    // target.
                    let die = chance.roll("scatter", 6, "scatter", *scatter)?;
                    let spot = around[die as usize - 1].filter(lower).unwrap_or(target);
                    (spot, Some(die))
                }
            };
            let struck = (0..state.seats.len() as Seat)
                .find(|&s| s != seat && field.piece(s).at == at && b.conscious[s as usize]);
            let landing = Landing {
                roll,
                scatter,
                at,
                struck,
                damage: if struck.is_some() {
                    i32::from(kind.weight)
                } else {
                    0
                },
            };
            let deed = match p.bearing {
                Some(body) if p.carrying.is_none() => Deed::ThrewBody {
                    body,
                    target,
                    landing,
                },
                _ => Deed::Threw {
                    object,
                    target,
                    landing,
                },
            };
            (cost::THROW, deed)
        }
        Action::ThrowWeapon { target, roll, .. } => {
            opponent(*target, false)?;
            let sheet = &state.seat(seat).fighter().sheet;
            let Some(weapon) = sheet.thrown_weapon.clone() else {
                return refuse("throw_weapon", format!("{name} has no throwing weapon"));
            };
            if state.seat(seat).orders.disarmed() {
                return refuse("throw_weapon", format!("{name} has lost the weapon"));
            }
            on_feet(&name, p.position)?;
            if !b.conscious[*target as usize] {
                return refuse("throw_weapon", "throw at a conscious opponent");
            }
            let to = field.piece(*target).at;
            let range = b.distance(from, to);
            let downhill = u32::from(level_of(&b, to) < level_of(&b, from));
            let reach = b.heights[seat as usize].max(0) as u32 + tables::WEAPON_REACH + downhill;
            if range > reach {
                return refuse(
                    "throw_weapon",
                    format!(
                        "{} is {range} spaces away; {name} throws the {weapon} {reach} at most",
                        state.seat_name(*target)
                    ),
                );
            }
            affordable(&name, p.points, cost::THROW)?;
            let roll = chance.roll("weapon throw", 6, "roll", *roll)?;
            let hit = tables::throw_lands(range, roll);
            let effective = tables::weapon_range(&weapon).unwrap_or(0);
            // The score on page 19 of the target's book, the thrower's
            // extended range modifier, less a point a space beyond range.
            let score = state
                .books
                .get(&state.seat(*target).fighter().sheet.id)
                .and_then(|bk| bk.pictures.get(&19))
                .and_then(|p| p.score)
                .unwrap_or(0);
            let damage = if hit {
                (score + sheet.extended_range_damage - range.saturating_sub(effective) as i32)
                    .max(0)
            } else {
                0
            };
            (
                cost::THROW,
                Deed::ThrewWeapon {
                    weapon: format!("{}-{seat}", weapon.replace(' ', "-")),
                    target: *target,
                    at: to,
                    range,
                    roll,
                    hit,
                    damage,
                },
            )
        }
        Action::Examine { object, .. } => {
            let t = field_object(state, object)?;
            if t.at != from || t.carried_by.is_some() {
                return refuse(
                    "examine",
                    format!("the {} is not on {name}'s space ({from})", t.id),
                );
            }
            let found = field
                .scenario
                .objects
                .iter()
                .find(|o| o.id == t.id)
                .map(|o| o.found.clone())
                .unwrap_or_default();
            (
                cost::EXAMINE,
                Deed::Examined {
                    object: t.id.clone(),
                    found,
                },
            )
        }
        Action::ShoveObject { object, to, .. } => {
            let t = field_object(state, object)?;
            let to = space(&b, "to", to)?;
            if t.carried_by.is_some() || !(t.at == from || b.adjacent(from, t.at)) {
                return refuse(
                    "shove_object",
                    format!("the {} is not on or beside {name}'s space", t.id),
                );
            }
            let ok = b.adjacent(t.at, to)
                && b.open(to)
                && level_of(&b, to) <= level_of(&b, t.at)
                && b.figure_at(to).is_none();
            if !ok {
                return refuse(
                    "shove_object",
                    format!(
                        "`to`: the {} slides one space on, to one no higher and with no one in it",
                        t.id
                    ),
                );
            }
            (
                cost::SHOVE_OBJECT,
                Deed::ShovedObject {
                    object: t.id.clone(),
                    from: t.at,
                    to,
                },
            )
        }
        Action::Shove {
            target, hard, roll, ..
        } => {
            opponent(*target, true)?;
            if !b.conscious[*target as usize] {
                return refuse("shove", "shove a conscious opponent");
            }
            on_feet(&name, p.position)?;
            let spend = cost::SHOVE + if *hard { cost::SHOVE_HARD } else { 0 };
            affordable(&name, p.points, spend)?;
            let face = chance.roll("falling down roll of the shoved", 6, "roll", *roll)?;
            let bonus = tables::footing_bonus(field.piece(*target).position) + u32::from(*hard);
            let footing = tables::footing(face + bonus);
            (
                spend,
                Deed::Shoved {
                    target: *target,
                    hard: *hard,
                    roll: FallRoll {
                        seat: *target,
                        roll: face,
                        bonus,
                        footing,
                        placer: (footing == Footing::Fall).then_some(seat),
                    },
                },
            )
        }
        Action::Slay { target, .. } => {
            opponent(*target, false)?;
            let t = state.seat(*target).fighter();
            if t.condition != Condition::Unconscious || field.piece(*target).at != from {
                return refuse(
                    "slay",
                    format!("{name} slays an unconscious opponent on its own space only",),
                );
            }
            whole_move(&name, p, "slay", "slaying")?;
            (p.points, Deed::Slew { target: *target })
        }
        Action::Cast {
            card, target, roll, ..
        } => {
            if p.position != Position::Standing {
                return refuse(
                    "cast",
                    format!("{name} is {}: no spell is cast so", p.position.words()),
                );
            }
            if !b.zone_foes(seat).is_empty() {
                return refuse(
                    "cast",
                    format!("{name} is in an opponent's battle zone: spells there are cast in the fight"),
                );
            }
            whole_move(&name, p, "cast", "casting")?;
            let fighter = state.seat(seat).fighter();
            let Some(c) = crate::lostworlds::cards::card(state, card)
                .filter(|c| fighter.cards.iter().any(|h| h.id == c.id && !h.played))
            else {
                return refuse("cast", format!("{name} holds no unplayed card `{card}`"));
            };
            if c.kind != crate::lostworlds::content::CardKind::Spell
                || (c.effect.strike <= 0 && c.effect.heal <= 0)
            {
                return refuse(
                    "cast",
                    format!("the {} is no spell that strikes or heals", c.name),
                );
            }
            let (target, range) = if c.effect.strike > 0 {
                let Some(t) = *target else {
                    return refuse(
                        "cast",
                        format!("`target`: whom does the {} fly at?", c.name),
                    );
                };
                opponent(t, false)?;
                if !b.conscious[t as usize] {
                    return refuse("cast", "cast at a conscious opponent");
                }
                (Some(t), b.distance(from, field.piece(t).at))
            } else {
                (None, 0)
            };
            let spare = spare_spell_points(state, seat);
            let (extra, works_to) = tables::spell_range(range);
            if spare < extra {
                return refuse(
                    "cast",
                    format!(
                        "at {range} spaces the {} needs {extra} spell points beyond those spent; {name} has {spare}",
                        c.name,
                    ),
                );
            }
            let roll = chance.roll("spell cast beyond extended range", 6, "roll", *roll)?;
            let works = roll <= works_to;
            (
                p.points,
                Deed::Cast {
                    card: c.id.clone(),
                    name: c.name.clone(),
                    target,
                    range,
                    extra,
                    roll,
                    works,
                    damage: if works { c.effect.strike } else { 0 },
                    heal: if works { c.effect.heal } else { 0 },
                },
            )
        }
        Action::Regenerate { .. } => {
            let sheet = &state.seat(seat).fighter().sheet;
            if sheet.regeneration == 0 && sheet.spell_regeneration == 0 {
                return refuse("regenerate", format!("{name}'s book shows no regeneration"));
            }
            if !b.zone_foes(seat).is_empty() {
                return refuse(
                    "regenerate",
                    format!("{name} is in an opponent's battle zone"),
                );
            }
            whole_move(&name, p, "regenerate", "regenerating")?;
            (p.points, Deed::Regenerates)
        }
        Action::BreakOff { to, .. } => {
            let to = space(&b, "to", to)?;
            if b.zone_foes(seat).is_empty() {
                return refuse(
                    "break_off",
                    format!("{name} is in no opponent's battle zone: just `move`"),
                );
            }
            if p.done.halted_by.is_some() {
                return refuse("break_off", format!("{name} was halted"));
            }
            enterable(&b, seat, from, to)?;
            if (level_of(&b, to) - level_of(&b, from)).abs() > 1 {
                return refuse(
                    "break_off",
                    format!("{name} breaks off to a space within one level"),
                );
            }
            if b.figure_at(to).is_some() {
                return refuse("break_off", format!("someone stands on {to}"));
            }
            // The step must leave every battle zone.
            let mut moved = b.field.clone();
            moved.pieces[seat as usize].at = to;
            let after = Board {
                field: &moved,
                terrain: b.terrain,
                heights: b.heights.clone(),
                conscious: b.conscious.clone(),
            };
            if !after.zone_foes(seat).is_empty() {
                return refuse(
                    "break_off",
                    format!("{to} is still in an opponent's battle zone"),
                );
            }
            (0, Deed::BrokeOff { from, to })
        }
        _ => unreachable!("only movement chart actions reach `deed`"),
    };
    affordable(&name, p.points, cost)?;
    Ok((cost, deed))
}

/// Spell points a figure has beyond those its spell cards cost and those
/// it spent casting beyond extended range.
pub fn spare_spell_points(state: &State, seat: Seat) -> u32 {
    let fighter = state.seat(seat).fighter();
    let spell = fighter.sheet.abilities.get("spell").copied().unwrap_or(0);
    let cards: u32 = fighter
        .cards
        .iter()
        .filter_map(|h| state.cards.get(&h.id))
        .filter(|k| k.kind == crate::lostworlds::content::CardKind::Spell)
        .map(|k| k.points)
        .sum();
    let spent = state
        .field
        .as_ref()
        .map_or(0, |f| f.piece(seat).spell_spent);
    spell.saturating_sub(cards).saturating_sub(spent)
}

/// An object's height for jumping over it: a tall one stands two levels.
pub fn object_height(tall: bool) -> i32 {
    if tall {
        2
    } else {
        1
    }
}

/// The figure a name means, for picking up its body: its character's
/// name or id, its player, or the two as narration writes them.
fn body_named(state: &State, name: &str) -> Option<Seat> {
    let name = name.trim();
    (0..state.seats.len() as Seat).find(|&s| {
        let st = state.seat(s);
        let sheet = &st.fighter().sheet;
        [
            state.seat_name(s).as_str(),
            sheet.name.as_str(),
            sheet.id.as_str(),
            st.player.as_str(),
        ]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
    })
}

/// A figure carries one large object (or body) at a time.
fn load_free(state: &State, seat: Seat) -> Result<(), Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    let p = field.piece(seat);
    let held = match (&p.carrying, p.bearing) {
        (Some(c), _) => format!("the {c}"),
        (None, Some(body)) => state.seat_name(body),
        (None, None) => return Ok(()),
    };
    refuse(
        "pick_up",
        format!(
            "{} carries {held} already: one large object at a time",
            state.seat_name(seat)
        ),
    )
}

fn field_object<'a>(
    state: &'a State,
    name: &str,
) -> Result<&'a crate::lostworlds::field::state::Thing, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    field.thing(name).ok_or_else(|| {
        let ids: Vec<&str> = field.things.iter().map(|t| t.id.as_str()).collect();
        Rejection::new(
            "lostworlds.movement.object",
            format!("no object `{name}` on the map: {}", ids.join(", ")),
        )
    })
}

fn affordable(name: &str, points: u32, cost: u32) -> Result<(), Rejection> {
    if cost > points {
        return refuse(
            "points",
            format!("{name} has {points} movement points left; this costs {cost}"),
        );
    }
    Ok(())
}

/// Slaying, casting and regenerating take the whole move, untouched.
fn whole_move(
    name: &str,
    p: &crate::lostworlds::field::state::Piece,
    rule: &str,
    deed: &str,
) -> Result<(), Rejection> {
    if p.points < p.allowance || p.points == 0 {
        return refuse(rule, format!("{deed} takes {name}'s whole move, untouched"));
    }
    Ok(())
}

/// On its feet: standing or off balance, not down.
fn on_feet(name: &str, position: Position) -> Result<(), Rejection> {
    if position == Position::Down {
        return refuse("position", format!("{name} is down: `stand_up` first"));
    }
    Ok(())
}

/// The cheapest step out of `at` into a space no conscious figure holds
/// (crawling when down), if there is one.
pub(super) fn exit_cost(b: &Board<'_>, seat: Seat, at: Hex) -> Option<u32> {
    let p = b.field.piece(seat);
    let crawl = p.position == Position::Down;
    // Crawling is not done on a run; a blocked figure does not move.
    if (crawl && p.done.ran) || p.done.blocked {
        return None;
    }
    b.neighbours(at)
        .into_iter()
        .flatten()
        .filter(|&h| b.open(h) && b.figure_at(h).is_none())
        .map(|h| {
            let climb = (level_of(b, h) - level_of(b, at)).unsigned_abs().max(1);
            if crawl {
                cost::CRAWL * climb
            } else {
                cost::MOVE * climb
            }
        })
        .min()
}

/// Whether a figure may step from `from` into the adjacent `to`: an open
/// space with no opponent in it, and no friend fighting there either.
fn enterable(b: &Board<'_>, seat: Seat, from: Hex, to: Hex) -> Result<(), Rejection> {
    if !b.adjacent(from, to) {
        return refuse("step", format!("{to} is not beside {from}"));
    }
    if !b.open(to) {
        return refuse("step", format!("{to} is a wall or pillar"));
    }
    if let Some(o) = b.figure_at(to) {
        if b.field.opposed(seat, o) {
            return refuse("step", format!("an opponent stands on {to}"));
        }
        if !b.zone_foes(o).is_empty() {
            return refuse(
                "step",
                format!("a friend on {to} is in an opponent's battle zone: no passing through"),
            );
        }
        // Passing through: there must be points left to step out again.
        let p = b.field.piece(seat);
        let climb = (level_of(b, to) - level_of(b, from)).unsigned_abs().max(1);
        let step = if p.position == Position::Down {
            cost::CRAWL * climb
        } else {
            cost::MOVE * climb
        };
        let left = p.points.saturating_sub(step);
        if exit_cost(b, seat, to).is_none_or(|c| c > left) {
            return refuse(
                "step",
                format!("a friend stands on {to}, and the move would end there: pass through only with points to step out"),
            );
        }
    }
    Ok(())
}
