//! A scenario told turn by turn, and its board as text: the map with its
//! levels, the figures and objects on it.

use tabletape_events::Seat;

use crate::lostworlds::actions::{Action, Condition, Deed, Fact, FallRoll, RecoveryRoll};
use crate::lostworlds::duel::narration::and_list;
use crate::lostworlds::field::content::{Goal, Ground, Hex};
use crate::lostworlds::field::state::{Field, Position, Stage};
use crate::lostworlds::field::tables::{Footing, Pounce, Recovery};
use crate::lostworlds::state::State;
use crate::narrative::record;

fn field(state: &State) -> &Field {
    state.field.as_deref().expect("a scenario")
}

fn name(state: &State, seat: Seat) -> String {
    state.seat_name(seat)
}

fn level(state: &State, h: Hex) -> u8 {
    field(state)
        .terrain()
        .at(h)
        .and_then(Ground::level)
        .unwrap_or(0)
}

/// What a scenario's action open now does, for its button
/// (`Rules::describe`): figures by name, spaces by the map's letters.
pub fn describe(state: &State, action: &Action) -> Option<String> {
    let who = |seat: &Option<Seat>| name(state, seat.unwrap_or_default());
    let foe = |seat: &Seat| name(state, *seat);
    Some(match action {
        Action::Roll { .. } => match state.field.as_deref().map(|f| &f.stage) {
            Some(Stage::Initiative) => "Roll for initiative".into(),
            Some(Stage::Recovery) => "Roll for the fallen to come round".into(),
            Some(Stage::Falls) => "Roll for the falls".into(),
            _ => "Roll the dice the turn waits for".into(),
        },
        Action::Move { seat, to } => format!("{}: move to {to}", who(seat)),
        Action::Crawl { seat, to } => format!("{}: crawl to {to}", who(seat)),
        Action::Run { seat } => format!("{}: run (off balance in the fight)", who(seat)),
        Action::JumpDown { seat, to, .. } => format!("{}: jump down to {to}", who(seat)),
        Action::JumpOnto {
            seat, target, land, ..
        } => format!(
            "{}: jump down onto {}, landing on {land}",
            who(seat),
            foe(target)
        ),
        Action::JumpOver { seat, to } => format!("{}: jump over to {to}", who(seat)),
        Action::Block { seat, target } => format!("{}: block {}", who(seat), foe(target)),
        Action::FallProne { seat } => format!("{}: drop prone", who(seat)),
        Action::StandUp { seat } => format!("{}: stand up", who(seat)),
        Action::RegainBalance { seat } => format!("{}: regain balance", who(seat)),
        Action::PickUp { seat, object } => match object.parse::<Seat>() {
            Ok(body) => format!("{}: pick up {}", who(seat), foe(&body)),
            Err(_) => format!("{}: pick up the {object}", who(seat)),
        },
        Action::Drop { seat, at: None } => format!("{}: put down what they carry", who(seat)),
        Action::Drop { seat, at: Some(at) } => {
            format!("{}: put down what they carry on {at}", who(seat))
        }
        Action::Throw { seat, at, .. } => {
            format!("{}: throw what they carry at {at}", who(seat))
        }
        Action::ThrowWeapon { seat, target, .. } => {
            format!("{}: throw the weapon at {}", who(seat), foe(target))
        }
        Action::Examine { seat, object } => format!("{}: examine the {object}", who(seat)),
        Action::ShoveObject { seat, object, to } => {
            format!("{}: shove the {object} to {to}", who(seat))
        }
        Action::Shove {
            seat, target, hard, ..
        } => format!(
            "{}: shove {}{}",
            who(seat),
            foe(target),
            if *hard { " hard" } else { "" }
        ),
        Action::Slay { seat, target } => format!("{}: slay {}", who(seat), foe(target)),
        Action::Cast {
            seat, card, target, ..
        } => {
            let spell = crate::lostworlds::cards::card(state, card)
                .map_or(card.clone(), |c| c.name.clone());
            match target {
                Some(t) => format!("{}: cast {spell} at {}", who(seat), foe(t)),
                None => format!("{}: cast {spell}", who(seat)),
            }
        }
        Action::Regenerate { seat } => format!("{}: regenerate", who(seat)),
        Action::BreakOff { seat, to } => format!("{}: break off to {to}", who(seat)),
        Action::EndMove { seat, undefended } => {
            format!(
                "{}: end the move, leaving {undefended} undefended",
                who(seat)
            )
        }
        Action::Halt { seat } => format!("{}: halt the one passing", who(seat)),
        Action::LetPass { seat } => format!("{}: let them pass", who(seat)),
        Action::Engage { seat, foes } if foes.is_empty() => {
            format!("{}: hold back from combat", who(seat))
        }
        Action::Engage { seat, foes } => {
            let names: Vec<String> = foes.iter().map(foe).collect();
            format!("{}: engage {}", who(seat), and_list(&names))
        }
        Action::Place {
            seat,
            to,
            land: Some(land),
            ..
        } => format!(
            "{}: drop the fallen foe onto whoever stands on {to}, to end on {land}",
            who(seat)
        ),
        Action::Place { seat, to, .. } => {
            format!("{}: set the fallen foe down on {to}", who(seat))
        }
        _ => return None,
    })
}

/// The scenario as it opens: its title, its setting, and what each side
/// plays for.
pub fn prologue(state: &State) -> Vec<String> {
    let f = field(state);
    let s = &f.scenario;
    let mut lines = vec![format!("{}. {}", s.title, s.text)];
    // Who stands where, and which spaces a goal names, the map shows and
    // the record keeps; the story says who plays for what.
    for (i, side) in s.sides.iter().enumerate() {
        let seats: Vec<Seat> = (0..state.seats.len() as Seat)
            .filter(|&seat| f.piece(seat).side == i)
            .collect();
        let names: Vec<String> = seats.iter().map(|&seat| name(state, seat)).collect();
        let placed: Vec<String> = seats
            .iter()
            .map(|&seat| format!("{} on {}", name(state, seat), f.piece(seat).at))
            .collect();
        let goal = match &side.goal {
            Goal::Reach { .. } => "to reach the goal the map marks".to_string(),
            Goal::Carry { object, .. } => {
                format!("to carry the {object} to the goal the map marks")
            }
            other => goal_words(other),
        };
        lines.push(format!(
            "{}: {}; {goal} ({} victory points).",
            side.name,
            and_list(&names),
            side.points
        ));
        lines.push(record(format!(
            "{}: {}; {}.",
            side.name,
            and_list(&placed),
            goal_words(&side.goal)
        )));
    }
    lines.push(format!(
        "The scenario lasts at most {} turns.",
        s.turn_limit
    ));
    lines
}

pub fn goal_words(goal: &Goal) -> String {
    match goal {
        Goal::DefeatAll => "to defeat every opponent".into(),
        Goal::Reach { spaces } => format!("to reach {}", or_list(spaces)),
        Goal::Carry { object, to } => format!("to carry the {object} to {}", or_list(to)),
        Goal::Hold => "to hold out until the last turn".into(),
    }
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn levels_word(n: i32) -> String {
    if n == 1 {
        "1 level".into()
    } else {
        format!("{n} levels")
    }
}

fn hurt_words(state: &State, seat: Seat, damage: i32) -> String {
    if damage <= 0 {
        return String::new();
    }
    let f = state.seat(seat).fighter();
    let body = f.body.saturating_sub(damage);
    let fate = if body <= -5 {
        ", and is dead"
    } else if body <= 0 {
        ", and is knocked unconscious"
    } else {
        ""
    };
    format!(
        " {} loses {damage} body point{} ({body} left){fate}.",
        name(state, seat),
        if damage == 1 { "" } else { "s" }
    )
}

/// How a figure's footing went, as the story tells it (the roll is the
/// record's, see [`fall_words`]).
fn footing_words(state: &State, r: &FallRoll) -> String {
    let who = name(state, r.seat);
    match r.footing {
        Footing::Steady => format!("{who} keeps their footing."),
        Footing::Unsteady => format!("{who} totters, off balance."),
        Footing::Fall => format!(
            "{who} falls! {} sets them down.",
            r.placer.map_or_else(|| who.clone(), |p| name(state, p))
        ),
    }
}

fn fall_words(state: &State, r: &FallRoll) -> String {
    let sum = if r.bonus > 0 {
        format!("{} + {} = {}", r.roll, r.bonus, r.roll + r.bonus)
    } else {
        r.roll.to_string()
    };
    let who = name(state, r.seat);
    match r.footing {
        Footing::Steady => format!("{who} rolls {sum} and keeps their footing."),
        Footing::Unsteady => format!("{who} rolls {sum} and totters, off balance."),
        Footing::Fall => format!(
            "{who} rolls {sum} and falls! {} sets them down.",
            r.placer.map_or_else(|| who.clone(), |p| name(state, p))
        ),
    }
}

fn recovery_words(state: &State, r: &RecoveryRoll) -> String {
    let who = name(state, r.seat);
    let roll = if r.bonus > 0 {
        format!("{} + {} for being slain", r.roll, r.bonus)
    } else {
        r.roll.to_string()
    };
    match r.result {
        Recovery::Dies => format!(
            "{who} rolls {roll} to recover, at {} body points: dead.",
            r.before
        ),
        Recovery::Body(n) if n > 0 => {
            format!("{who} rolls {roll} to recover and comes to, with {n} body points, lying down.")
        }
        Recovery::Body(n) => {
            format!("{who} rolls {roll} to recover and stays unconscious ({n} body points).")
        }
    }
}

/// A step of a move as the story tells it, and as the record keeps it: a
/// walk from space to space is the record's alone (the map at the turn's
/// end shows where everyone stands), a climb is told, and what a deed
/// leaves of the move's points is the record's.
fn deed_lines(state: &State, seat: Seat, cost: u32, deed: &Deed) -> Vec<String> {
    let full = deed_words(state, seat, cost, deed);
    let who = name(state, seat);
    let story = match deed {
        Deed::Moved { from, to } => match level(state, *to).cmp(&level(state, *from)) {
            std::cmp::Ordering::Greater => Some(format!("{who} climbs up.")),
            std::cmp::Ordering::Less => Some(format!("{who} climbs down.")),
            std::cmp::Ordering::Equal => None,
        },
        Deed::Crawled { .. } => None,
        // Where a thrown thing flies and the roll for it are the record's.
        Deed::Threw { object, .. } => Some(format!("{who} hurls the {object}.")),
        Deed::ThrewBody { body, .. } => {
            Some(format!("{who} heaves {}'s body.", name(state, *body)))
        }
        Deed::Shoved { target, hard, roll } => Some(format!(
            "{who} shoves {}{}. {}",
            name(state, *target),
            if *hard { " hard" } else { "" },
            footing_words(state, roll)
        )),
        _ => {
            let points = field(state).piece(seat).points.saturating_sub(cost);
            let plain = full.replace(&format!(" ({points} left)"), "");
            (plain != full).then_some(plain)
        }
    };
    match story {
        Some(told) => vec![told, record(full)],
        None if matches!(deed, Deed::Moved { .. } | Deed::Crawled { .. }) => vec![record(full)],
        None => vec![full],
    }
}

fn deed_words(state: &State, seat: Seat, cost: u32, deed: &Deed) -> String {
    let who = name(state, seat);
    let f = field(state);
    let points = f.piece(seat).points.saturating_sub(cost);
    let left = |line: String| format!("{line} ({points} left)");
    match deed {
        Deed::Moved { from, to } => {
            let (a, b) = (level(state, *from), level(state, *to));
            left(match b.cmp(&a) {
                std::cmp::Ordering::Greater => format!("{who} climbs up to {to}, level {b}"),
                std::cmp::Ordering::Less => format!("{who} climbs down to {to}, level {b}"),
                std::cmp::Ordering::Equal => format!("{who} moves to {to}"),
            }) + "."
        }
        Deed::Crawled { to, .. } => left(format!("{who} crawls to {to}")) + ".",
        Deed::Ran => format!(
            "{who} breaks into a run ({} left).",
            points + crate::lostworlds::field::tables::cost::RUN_BONUS
        ),
        Deed::JumpedDown {
            from,
            to,
            roll,
            position,
            damage,
        } => {
            let drop = i32::from(level(state, *from)) - i32::from(level(state, *to));
            format!(
                "{who} jumps recklessly down {} to {to} and rolls {roll}: lands {}.{}",
                levels_word(drop),
                position.words(),
                hurt_words(state, seat, *damage)
            )
        }
        Deed::JumpedOnto {
            target,
            land,
            roll,
            result,
            damage,
            ..
        } => {
            let t = name(state, *target);
            let what = pounce_words(state, seat, *target, *land, *result, *damage);
            format!("{who} jumps down onto {t} and rolls {roll}: {what}")
        }
        Deed::JumpedOver { over, to, .. } => {
            format!("{who} leaps over {over} and lands on {to}, ending the move.")
        }
        Deed::Blocked { target } => {
            left(format!(
                "{who} blocks {}'s way: they may only regain their balance this turn",
                name(state, *target)
            )) + "."
        }
        Deed::FellProne => left(format!("{who} drops flat")) + ".",
        Deed::StoodUp => left(format!("{who} gets up")) + ".",
        Deed::RegainedBalance => left(format!("{who} regains their balance")) + ".",
        Deed::PickedUp { object } => left(format!("{who} picks up the {object}")) + ".",
        Deed::Dropped { object, at } => format!("{who} puts the {object} down on {at}."),
        Deed::Threw {
            object,
            target,
            landing,
        } => {
            let flight = flight_words(state, landing);
            format!("{who} hurls the {object} at {target}: {flight}")
        }
        Deed::LiftedBody { body } => {
            left(format!(
                "{who} hoists {}'s body onto a shoulder",
                name(state, *body)
            )) + "."
        }
        Deed::LaidDown { body, at } => {
            format!("{who} lays {} down on {at}.", name(state, *body))
        }
        Deed::ThrewBody {
            body,
            target,
            landing,
        } => {
            let flight = flight_words(state, landing);
            format!(
                "{who} heaves {}'s body at {target}: {flight}",
                name(state, *body)
            )
        }
        Deed::ThrewWeapon {
            target,
            range,
            roll,
            hit,
            damage,
            ..
        } => {
            let t = name(state, *target);
            let weapon = state
                .seat(seat)
                .fighter()
                .sheet
                .thrown_weapon
                .clone()
                .unwrap_or_default();
            if *hit {
                format!(
                    "{who} throws the {weapon} at {t}, {range} away: a {roll}, a hit, and {t} is knocked off balance.{}",
                    hurt_words(state, *target, *damage)
                )
            } else {
                format!("{who} throws the {weapon} at {t}, {range} away: a {roll}, and it misses.")
            }
        }
        Deed::Examined { object, found } => {
            if found.is_empty() {
                format!("{who} examines the {object} and finds nothing of note.")
            } else {
                format!("{who} examines the {object}: {found}")
            }
        }
        Deed::ShovedObject { object, to, .. } => {
            left(format!("{who} shoves the {object} to {to}")) + "."
        }
        Deed::Shoved { target, hard, roll } => format!(
            "{who} shoves {}{}. {}",
            name(state, *target),
            if *hard { " hard" } else { "" },
            fall_words(state, roll)
        ),
        Deed::Slew { target } => format!(
            "{who} spends the whole move on the unconscious {}, to finish them.",
            name(state, *target)
        ),
        Deed::Cast {
            name: card,
            target,
            range,
            extra,
            roll,
            works,
            damage,
            heal,
            ..
        } => {
            let at = target.map_or(String::new(), |t| {
                format!(" at {}, {range} away", name(state, t))
            });
            let what = match (works, target) {
                (false, _) => "and it fizzles".to_string(),
                (true, Some(t)) => format!("and it strikes.{}", hurt_words(state, *t, *damage)),
                (true, None) => format!("and {heal} body points come back"),
            };
            let end = if *works && target.is_some() { "" } else { "." };
            let spent = match extra {
                0 => String::new(),
                1 => " (1 spell point more)".to_string(),
                n => format!(" ({n} spell points more)"),
            };
            format!("{who} spends the move casting the {card}{at}{spent}: a {roll}, {what}{end}")
        }
        Deed::Regenerates => format!("{who} spends the whole move regenerating."),
        Deed::BrokeOff { to, .. } => format!("{who} breaks off and steps away to {to}."),
    }
}

/// The lines a scenario's fact tells (a duel's own facts tell themselves).
pub fn narrate(state: &State, fact: &Fact) -> Vec<String> {
    match fact {
        Fact::InitiativeRolled { turn, rolls, order } => {
            let rolled: Vec<String> = rolls
                .iter()
                .map(|(s, r)| format!("{} {r}", name(state, *s)))
                .collect();
            let order: Vec<String> = order.iter().map(|&s| name(state, s)).collect();
            // One figure up alone moves; two or more move in turn. The
            // rolls that set the order are the record's.
            vec![
                match order.as_slice() {
                    [one] => format!("{one} moves alone."),
                    _ => format!("{} move in that order.", and_list(&order)),
                },
                record(format!("Turn {turn}. Initiative: {}.", and_list(&rolled))),
            ]
        }
        Fact::Stepped { seat, cost, deed } => deed_lines(state, *seat, *cost, deed),
        Fact::HaltOffered { mover, by } => {
            let names: Vec<String> = by.iter().map(|&s| name(state, s)).collect();
            vec![format!(
                "{} comes into {}'s reach.",
                name(state, *mover),
                and_list(&names)
            )]
        }
        Fact::Halted { seat, mover } => vec![format!(
            "{} halts {} and demands battle.",
            name(state, *seat),
            name(state, *mover)
        )],
        Fact::LetPass { seat } => vec![format!("{} lets them pass.", name(state, *seat))],
        Fact::EngagementOffered { waiting, forced } => {
            let mut lines: Vec<String> = forced
                .iter()
                .map(|&(a, b)| {
                    format!(
                        "The halt holds {} and {} to battle.",
                        name(state, a),
                        name(state, b)
                    )
                })
                .collect();
            let names: Vec<String> = waiting.iter().map(|&s| name(state, s)).collect();
            lines.push(format!(
                "Opponents face each other: {} {} whom to engage.",
                and_list(&names),
                if waiting.len() == 1 {
                    "chooses"
                } else {
                    "choose"
                }
            ));
            lines
        }
        Fact::Engaged { seat, foes } if foes.is_empty() => {
            vec![format!("{} holds back.", name(state, *seat))]
        }
        Fact::Engaged { seat, foes } => {
            let names: Vec<String> = foes.iter().map(|&f| name(state, f)).collect();
            vec![format!(
                "{} engages {}.",
                name(state, *seat),
                and_list(&names)
            )]
        }
        Fact::MoveEnded { seat, undefended } => vec![record(format!(
            "{} ends the move on {}, leaving {undefended} undefended.",
            name(state, *seat),
            field(state).piece(*seat).at
        ))],
        Fact::Recovered { rolls } => rolls.iter().map(|r| recovery_words(state, r)).collect(),
        Fact::CombatBegun { engaged, starts } => {
            let mut lines = Vec::new();
            for &seat in engaged.keys() {
                if let Some(load) = &field(state).piece(seat).carrying {
                    lines.push(format!(
                        "{} is attacked and drops the {load}.",
                        name(state, seat)
                    ));
                }
                if let Some(body) = field(state).piece(seat).bearing {
                    lines.push(format!(
                        "{} is attacked and lets {} fall.",
                        name(state, seat),
                        name(state, body)
                    ));
                }
            }
            for (&seat, foes) in engaged {
                let names: Vec<String> = foes
                    .iter()
                    .filter(|&&f| f > seat || !engaged.contains_key(&f))
                    .map(|&f| name(state, f))
                    .collect();
                match names.as_slice() {
                    [] => {}
                    [one] => lines.push(format!("{} and {one} fight.", name(state, seat))),
                    _ => lines.push(format!(
                        "{} fights {}.",
                        name(state, seat),
                        and_list(&names)
                    )),
                }
            }
            for s in starts {
                if s.picture != crate::lostworlds::content::OPENING_PICTURE {
                    lines.push(record(format!(
                        "{} starts against {} on picture {}.",
                        name(state, s.seat),
                        name(state, s.foe),
                        s.picture
                    )));
                }
            }
            lines
        }
        Fact::CombatEnded { positions, .. } => positions
            .iter()
            .filter(|(_, p)| *p != Position::Standing)
            .map(|&(s, p)| format!("{} ends the fighting {}.", name(state, s), p.words()))
            .collect(),
        Fact::FallsRolled { rolls } => rolls
            .iter()
            .flat_map(|r| [footing_words(state, r), record(fall_words(state, r))])
            .collect(),
        Fact::FallenPlaced {
            seat,
            to,
            levels,
            damage,
            ..
        } => {
            let drop = if *levels == 0 {
                String::new()
            } else {
                format!(", {} down", levels_word(*levels as i32))
            };
            vec![format!(
                "{} lands on {to}{drop}.{}",
                name(state, *seat),
                hurt_words(state, *seat, *damage)
            )]
        }
        Fact::FellOnto {
            seat,
            onto,
            land,
            roll,
            result,
            damage,
            ..
        } => {
            // The one below takes the chart's damage when flattened; the
            // faller, its fall's when it misses.
            let hurt = if *result == Pounce::Flattened {
                crate::lostworlds::field::tables::POUNCE_DAMAGE
            } else {
                *damage
            };
            let what = pounce_words(state, *seat, *onto, *land, *result, hurt);
            vec![format!(
                "{} falls onto {} and rolls {roll}: {what}",
                name(state, *seat),
                name(state, *onto)
            )]
        }
        Fact::TurnEnded { turn } => vec![format!("Turn {turn} ends.")],
        Fact::Dematerialized { seat } => vec![format!(
            "{} fades from {} to another plane, to return as the movement phase ends.",
            name(state, *seat),
            field(state).piece(*seat).at
        )],
        Fact::Touched {
            seat, by, damage, ..
        } => vec![format!(
            "{} returns on {}'s space, and its touch finds them.{}",
            name(state, *by),
            name(state, *seat),
            hurt_words(state, *seat, *damage)
        )],
        Fact::Displaced {
            seat,
            by,
            to,
            levels,
            fell,
            damage,
            ..
        } => {
            let how = if *fell {
                format!(
                    ", falling {}.{}",
                    levels_word(*levels as i32),
                    hurt_words(state, *seat, *damage)
                )
            } else {
                ".".into()
            };
            vec![format!(
                "{} thrusts {} off to {to}{how}",
                name(state, *by),
                name(state, *seat)
            )]
        }
        Fact::Regenerated {
            seat,
            healed,
            spell,
            foiled,
        } => {
            let f = state.seat(*seat).fighter();
            let who = name(state, *seat);
            vec![if !*foiled {
                let body = format!(
                    "{healed} body points ({} of {})",
                    f.body.saturating_add(*healed),
                    f.sheet.body_points
                );
                let spell = if f.sheet.spell_regeneration > 0 {
                    format!(
                        " and {spell} spell point{} ({} spare)",
                        if *spell == 1 { "" } else { "s" },
                        crate::lostworlds::field::decide::spare_spell_points(state, *seat) + spell
                    )
                } else {
                    String::new()
                };
                if field(state).piece(*seat).done.dematerialized {
                    format!("{who} comes back from the other plane whole: {body}{spell}.")
                } else if f.sheet.regeneration == 0 {
                    format!("{who} regenerates{}.", spell.trim_start_matches(" and"))
                } else {
                    format!("{who} regenerates {body}{spell}.")
                }
            } else {
                format!(
                    "{} cannot regenerate in an opponent's battle zone.",
                    name(state, *seat)
                )
            }]
        }
        _ => Vec::new(),
    }
}

/// Where a thrown load comes down, and whom it strikes.
fn flight_words(state: &State, landing: &crate::lostworlds::actions::Landing) -> String {
    let flight = match landing.scatter {
        None => format!("a {}, and it lands there", landing.roll),
        Some(0) => format!(
            "a {}, a miss, but no space beside {} lies level with it or lower: it comes down there",
            landing.roll, landing.at
        ),
        Some(s) => format!(
            "a {}, a miss; the scatter die shows {s} and it comes down on {}",
            landing.roll, landing.at
        ),
    };
    let hit = landing.struck.map_or(String::new(), |s| {
        format!(
            " It strikes {} down.{}",
            name(state, s),
            hurt_words(state, s, landing.damage)
        )
    });
    format!("{flight}.{hit}")
}

/// A scenario's chapter: its turn.
pub fn chapter(state: &State) -> String {
    let f = field(state);
    match f.stage {
        Stage::Ended => "After the scenario".into(),
        _ => format!("Turn {}", f.turn),
    }
}

/// The map as text, a space a cell: its level (`1s` a step, `##` a wall,
/// `()` a pillar) and then who or what is on it (a seat number, `*` an
/// object). Odd rows sit half a cell to the right, as on the hex map.
pub fn map_text(state: &State) -> String {
    let f = field(state);
    let t = f.terrain();
    let mut out = String::from("    ");
    for c in 0..t.cols {
        out.push_str(&format!(" {}  ", (b'a' + c as u8) as char));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for r in 0..t.rows {
        out.push_str(&format!("{:>2}  ", r + 1));
        if r % 2 == 1 {
            out.push_str("  ");
        }
        for c in 0..t.cols {
            let h = Hex {
                col: c as u8,
                row: r as u8,
            };
            let ground = match t.at(h) {
                Some(Ground::Open { level }) => format!("{level} "),
                Some(Ground::Step { level }) => format!("{level}s"),
                Some(Ground::Wall) => "##".into(),
                Some(Ground::Pillar) | None => "()".into(),
            };
            let here = |s: &usize| f.pieces[*s].at == h && !f.pieces[*s].done.dematerialized;
            let who = (0..state.seats.len())
                .filter(here)
                .find(|&s| state.seats[s].fighter().condition == Condition::Fit)
                .or_else(|| (0..state.seats.len()).find(here));
            let mark = match who {
                Some(s) => char::from_digit(s as u32, 36).unwrap_or('?'),
                None if f.things_at(h).next().is_some() => '*',
                None => '.',
            };
            out.push_str(&format!("{ground}{mark} "));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

/// The board's state in lines: the turn, each figure and each object.
pub fn board_lines(state: &State) -> Vec<String> {
    let f = field(state);
    let mut lines = vec![format!(
        "{}: turn {} of {}, {}",
        f.scenario.title,
        f.turn,
        f.scenario.turn_limit,
        crate::lostworlds::field::decide::stage_words(state)
    )];
    for (i, p) in f.pieces.iter().enumerate() {
        let fighter = state.seats[i].fighter();
        let state_words = match fighter.condition {
            Condition::Fit if p.done.dematerialized => "away on another plane",
            Condition::Fit => p.position.words(),
            Condition::Unconscious => "unconscious",
            Condition::Dead => "dead",
        };
        let mut line = format!(
            "{i} {} ({}, {}): {} level {}, {state_words}, body {}/{}",
            fighter.sheet.name,
            state.seats[i].player,
            f.scenario.sides[p.side].name,
            p.at,
            level(state, p.at),
            fighter.body,
            fighter.sheet.body_points
        );
        if let Some(c) = &p.carrying {
            line.push_str(&format!(", carrying the {c}"));
        }
        if let Some(body) = p.bearing {
            line.push_str(&format!(", carrying {}", state.seat_name(body)));
        }
        if f.stage == Stage::Movement && p.points > 0 {
            line.push_str(&format!(", {} movement points", p.points));
        }
        if let Some(u) = p.undefended {
            line.push_str(&format!(", undefended {u}"));
        }
        lines.push(line);
    }
    for t in f.things.iter().filter(|t| t.carried_by.is_none()) {
        let k = f.kind_of(t);
        lines.push(format!(
            "* the {} ({}, weight {}{}) on {}",
            t.id,
            t.kind,
            k.weight,
            if k.tall { ", tall" } else { "" },
            t.at
        ));
    }
    lines
}

/// What jumping (or falling) down onto a figure did, by the chart's
/// result: `damage` is the one below's when flattened, the jumper's when
/// it missed.
fn pounce_words(
    state: &State,
    jumper: Seat,
    target: Seat,
    land: Hex,
    result: Pounce,
    damage: i32,
) -> String {
    let (who, t) = (name(state, jumper), name(state, target));
    match result {
        Pounce::Flattened => format!(
            "flattens {t}, who is knocked down; {who} lands off balance on {land}.{}",
            hurt_words(state, target, damage)
        ),
        Pounce::Disarmed => format!(
            "crashes into {t}: both off balance, and {t} drops the weapon. {who} lands on {land}."
        ),
        Pounce::Staggered => {
            format!("crashes into {t}: both reel off balance. {who} lands on {land}.")
        }
        Pounce::Missed => format!(
            "misses and lands down on {land}.{}",
            hurt_words(state, jumper, damage)
        ),
    }
}
