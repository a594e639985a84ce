//! The six actions at a location: Work, Find Love, Buy Property, Personal
//! Goal, Buy a Leg, Recover Health, with their requirements and the Risk
//! Booklet.

use super::*;

/// Whether the leg's scores reach every score a card shows (a score the
/// card leaves out asks nothing, even of a leg with a negative score).
pub(super) fn meets(have: Needs, needs: Needs) -> bool {
    let reaches = |have: i32, need: i32| need == 0 || have >= need;
    reaches(have.appeal, needs.appeal)
        && reaches(have.mobility, needs.mobility)
        && reaches(have.efficiency, needs.efficiency)
}

pub(super) fn needs_text(needs: Needs) -> String {
    let mut parts = Vec::new();
    for (name, v) in [
        ("Appeal", needs.appeal),
        ("Mobility", needs.mobility),
        ("Efficiency", needs.efficiency),
    ] {
        if v != 0 {
            parts.push(format!("{name} {v:+}"));
        }
    }
    parts.join(", ")
}

pub(super) fn check_needs(
    state: &State,
    seat: Seat,
    needs: Needs,
    what: &str,
) -> Result<(), Rejection> {
    let have = state.scores(seat);
    if meets(have, needs) {
        return Ok(());
    }
    reject(
        "legless.requirements",
        format!(
            "{what} asks for a leg with {}; {}'s equipped leg gives {}",
            needs_text(needs),
            state.name(seat),
            match needs_text(have).as_str() {
                "" => "nothing".to_string(),
                t => t.to_string(),
            }
        ),
    )
}

pub(super) fn here(state: &State, seat: Seat) -> Result<String, Rejection> {
    match &state.londoner(seat).at {
        Place::Location(l) => Ok(l.clone()),
        Place::Square(sq) => reject(
            "legless.not_at_location",
            format!(
                "{} is on the street ({sq}): actions are taken at a location",
                state.name(seat)
            ),
        ),
    }
}

pub(super) fn afford(state: &State, seat: Seat, cost: u32, what: &str) -> Result<(), Rejection> {
    let money = state.londoner(seat).money;
    if money >= cost {
        return Ok(());
    }
    reject(
        "legless.money",
        format!(
            "{what} costs £{cost} and {} has £{money} (selling a leg first is free)",
            state.name(seat)
        ),
    )
}

pub(super) fn goal_here(
    state: &State,
    seat: Seat,
    location: &str,
    goal: GoalKind,
) -> Result<(), Rejection> {
    let name = state.name(seat);
    if state.done(seat, goal) {
        return reject(
            "legless.goal_done",
            format!("{name} has already completed their {} goal", goal.word()),
        );
    }
    if !state.goal_places(seat, goal).iter().any(|l| l == location) {
        return reject(
            "legless.goal_elsewhere",
            format!(
                "{}'s {} goal cannot be completed at {}",
                name,
                goal.word(),
                state.location_name(location)
            ),
        );
    }
    if let Some(other) = state.space_taken(location, goal) {
        return reject(
            "legless.space_taken",
            format!(
                "the {} space at {} already holds {}'s victory token",
                goal.word(),
                state.location_name(location),
                state.name(other)
            ),
        );
    }
    Ok(())
}

/// The card of `location`: the one on the table, or in record mode the one
/// the table types the first time it is used there.
pub(super) fn card_of(
    state: &State,
    location: &str,
    given: &Option<CardText>,
) -> Result<LocationCard, Rejection> {
    let name = state.location_name(location);
    match (state.cards.get(location), given) {
        (Some(card), None) => Ok(card.clone()),
        (Some(_), Some(_)) => reject(
            "legless.card_known",
            format!("the card of the {name} is on the table already: leave out `card`"),
        ),
        (None, None) => reject(
            "legless.card_needed",
            format!("record mode: say what the card of the {name} says (`card`: its work, love and property)"),
        ),
        (None, Some(text)) => {
            let card = LocationCard {
                id: format!("{location}-table"),
                location: location.to_string(),
                work: text.work.clone(),
                love: text.love.clone(),
                property: text.property.clone(),
                sickroom: None,
            };
            check_card(&card, &state.locations, "card", "card")
                .map_err(|e| Rejection::new("legless.card", format!("{}: {}", e.path, e.message)))?;
            Ok(card)
        }
    }
}

/// The leg called `leg`: one in the store, or in record mode a new one the
/// table types as it is bought.
pub(super) fn leg_of(state: &State, leg: &str, given: &Option<LegText>) -> Result<Leg, Rejection> {
    let known = state.legs.get(leg);
    match (known, given) {
        (Some(_), _) if !state.pile.iter().any(|l| l == leg) => reject(
            "legless.no_such_leg",
            format!(
                "the store has no `{leg}` for sale{}",
                crate::suggest::did_you_mean(leg, state.pile.iter().map(String::as_str))
            ),
        ),
        (Some(l), None) => Ok(l.clone()),
        (Some(_), Some(_)) => reject(
            "legless.card_known",
            format!("the {leg} is known already: leave out `card`"),
        ),
        (None, Some(text)) if state.record => {
            let l = Leg {
                name: leg.to_string(),
                cost: text.cost,
                equipped: text.equipped.clone(),
                sample: false,
            };
            check_leg(&l, "card", "card").map_err(|e| {
                Rejection::new("legless.card", format!("{}: {}", e.path, e.message))
            })?;
            Ok(l)
        }
        (None, None) if state.record => reject(
            "legless.card_needed",
            format!(
                "record mode: say what the card of the {leg} says (`card`: its cost and Equipped side)"
            ),
        ),
        (None, _) => reject(
            "legless.no_such_leg",
            format!(
                "the store has no `{leg}` for sale{}",
                crate::suggest::did_you_mean(leg, state.pile.iter().map(String::as_str))
            ),
        ),
    }
}

/// Checks a location action against every rule that needs no dice.
pub fn check_action(state: &State, seat: Seat, action: &Action) -> Result<(), Rejection> {
    let physical = state.dice == DiceMode::Physical;
    let story_ok = |story: &Option<Told>, love: bool| -> Result<(), Rejection> {
        match story {
            Some(_) if !physical => reject(
                "dice.digital",
                "this game reads its own Risk Booklet (digital mode): leave out `story`",
            ),
            Some(t) => check_told(t, "story", state, Read::Story { love }),
            None => Ok(()),
        }
    };
    match action {
        Action::Work {
            risk,
            story,
            roll,
            card,
        } => {
            let l = here(state, seat)?;
            let card = card_of(state, &l, card)?;
            let Some(work) = card.work.as_ref() else {
                return reject(
                    "legless.no_work",
                    format!("there is no work at {}", state.location_name(&l)),
                );
            };
            check_needs(state, seat, work.needs, "Work here")?;
            if *risk && work.risk_page.is_none() {
                return reject(
                    "legless.no_risk",
                    format!(
                        "work at {} pays its earnings only (leave out `risk`)",
                        state.location_name(&l)
                    ),
                );
            }
            if !*risk && work.earnings.is_none() {
                return reject(
                    "legless.risk_only",
                    format!(
                        "work at {} pays only through the Risk Booklet: set `risk`",
                        state.location_name(&l)
                    ),
                );
            }
            if !*risk && (roll.is_some() || story.is_some()) {
                return reject(
                    "legless.no_risk",
                    "fixed earnings need no `roll` or `story`",
                );
            }
            story_ok(story, false)
        }
        Action::FindLove { story, card, .. } => {
            let l = here(state, seat)?;
            let card = card_of(state, &l, card)?;
            let Some(love) = card.love.as_ref() else {
                return reject(
                    "legless.no_love",
                    format!("love is not to be found at {}", state.location_name(&l)),
                );
            };
            goal_here(state, seat, &l, GoalKind::Love)?;
            check_needs(state, seat, love.needs, "Finding Love here")?;
            story_ok(story, true)
        }
        Action::BuyProperty { card } => {
            let l = here(state, seat)?;
            let card = card_of(state, &l, card)?;
            let Some(p) = card.property.as_ref() else {
                return reject(
                    "legless.no_property",
                    format!("{} is not for sale", state.location_name(&l)),
                );
            };
            goal_here(state, seat, &l, GoalKind::Property)?;
            afford(state, seat, p.cost, "The property")
        }
        Action::PersonalGoal => {
            let l = here(state, seat)?;
            goal_here(state, seat, &l, GoalKind::Personal)?;
            let g = state
                .character_of(seat)
                .goals
                .iter()
                .find(|g| g.kind == GoalKind::Personal)
                .expect("checked by goal_here");
            check_needs(state, seat, g.needs, "The personal goal")?;
            afford(state, seat, g.cost.unwrap_or(0), "The personal goal")
        }
        Action::BuyLeg { leg, card } => {
            let l = here(state, seat)?;
            if l != state.leg_store {
                return reject(
                    "legless.leg_store",
                    format!(
                        "legs are bought at the {} only",
                        state.location_name(&state.leg_store)
                    ),
                );
            }
            let leg = leg_of(state, leg, card)?;
            afford(state, seat, leg.cost, &format!("The {}", leg.name))
        }
        Action::Recover { .. } => {
            let l = here(state, seat)?;
            if l != state.sickroom {
                return reject(
                    "legless.sickroom",
                    format!(
                        "health is recovered at the {} only",
                        state.location_name(&state.sickroom)
                    ),
                );
            }
            let lo = state.londoner(seat);
            if lo.health >= lo.max_health {
                return reject(
                    "legless.full_health",
                    format!("{} is already in full health", lo.player),
                );
            }
            afford(state, seat, state.sickroom_fee(), "The Sickroom")
        }
        _ => reject("legless.action", "not an action at a location"),
    }
}

/// The card of `location` for an action that reads it: the one on the
/// table, or in record mode the one typed now, laid out first.
fn laid_card(
    out: &mut Out,
    location: &str,
    given: &Option<CardText>,
) -> Result<LocationCard, Rejection> {
    let known = out.s.cards.contains_key(location);
    let card = card_of(&out.s, location, given)?;
    if !known {
        out.push(Fact::CardLaidOut { card: card.clone() });
    }
    Ok(card)
}

pub(super) fn location_action(
    out: &mut Out,
    seat: Seat,
    action: &Action,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let location = here(&out.s, seat)?;
    match action {
        Action::Work {
            risk: false, card, ..
        } => {
            let amount = laid_card(out, &location, card)?
                .work
                .and_then(|w| w.earnings)
                .unwrap_or(0);
            out.push(Fact::Worked {
                seat,
                location: location.clone(),
                amount,
            });
        }
        Action::Work {
            risk: true,
            roll,
            story,
            card,
        } => {
            let page = laid_card(out, &location, card)?
                .work
                .and_then(|w| w.risk_page);
            let score = out.s.scores(seat).efficiency;
            risk(out, seat, Task::Work, page, score, *roll, story, chance)?;
        }
        Action::FindLove { roll, story, card } => {
            let page = laid_card(out, &location, card)?.love.map(|l| l.risk_page);
            let score = out.s.scores(seat).appeal;
            risk(out, seat, Task::Love, page, score, *roll, story, chance)?;
        }
        Action::BuyProperty { card } => {
            let cost = laid_card(out, &location, card)?
                .property
                .map_or(0, |p| p.cost);
            place_token(out, seat, &location, GoalKind::Property, cost);
        }
        Action::PersonalGoal => {
            let cost = out
                .s
                .character_of(seat)
                .goals
                .iter()
                .find(|g| g.kind == GoalKind::Personal)
                .and_then(|g| g.cost)
                .unwrap_or(0);
            place_token(out, seat, &location, GoalKind::Personal, cost);
        }
        Action::BuyLeg { leg, card } => {
            let l = leg_of(&out.s, leg, card)?;
            out.push(Fact::LegBought {
                seat,
                leg: l.name,
                cost: l.cost,
                equipped: Some(l.equipped),
            });
        }
        Action::Recover { roll } => {
            chance.check_supplied("healing die", "roll", roll)?;
            let fee = out.s.sickroom_fee();
            if fee > 0 {
                out.push(Fact::SickroomPaid { seat, fee });
            }
            heal(out, seat, *roll, chance)?;
        }
        _ => return reject("legless.action", "not an action at a location"),
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub(super) fn risk(
    out: &mut Out,
    seat: Seat,
    task: Task,
    page: Option<u32>,
    score: i32,
    roll: Option<u32>,
    story: &Option<Told>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let face = chance.roll("Risk Booklet die", 6, "roll", roll)?;
    let total = face as i32 + score;
    let (text, effects) = match story {
        Some(t) => (
            if t.text.is_empty() {
                t.name.clone()
            } else {
                t.text.clone()
            },
            t.effects.clone(),
        ),
        None => {
            let p = page.and_then(|p| out.s.booklet.get(&p)).ok_or_else(|| {
                Rejection::new(
                    "legless.no_page",
                    "the pack's Risk Booklet lacks this page: say what the story says (`story`)",
                )
            })?;
            let s = p.story(total);
            (s.text.clone(), s.effects.clone())
        }
    };
    out.push(Fact::RiskRead {
        seat,
        task,
        page,
        roll: face,
        score,
        total,
        text,
        effects: effects.clone(),
    });
    resolve(out, seat, &effects, task);
    Ok(())
}
