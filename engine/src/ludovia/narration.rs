//! Ludovia in words: a line of prose per fact, chapter headings by round, the
//! epilogue, and the board drawn as text.
//!
//! Narration reads facts as the viewer may know them: a redacted robbery
//! says "a treasure" where the owner reads the card's name.

use tabletape_events::Seat;

use super::actions::{Action, ArrestCause, Fact, FallCause, Step, TurnEnd};
use super::board::{Post, Space, Street};
use super::content::{Effect, RooftopEvent};
use super::state::{CellKind, Choice, Phase, Stage, State};
use crate::rules::Viewer;

fn place(state: &State, space: Space) -> String {
    match space {
        Space::Lair => "the Lair".into(),
        Space::Prison => "the Prison".into(),
        Space::Street(s) => format!("street {s}"),
        Space::Cell { row, col } => {
            let block = &state.block(row / 3, col / 3).name;
            let what = match state.cell(row, col) {
                Some(CellKind::Rooftop) => "the rooftop",
                Some(CellKind::Alley) => "the alley",
                Some(CellKind::BlackMarket) => "the Black Market alley",
                None => "the space",
            };
            format!("{what} {space} of {block}")
        }
    }
}

fn card(state: &State, name: &str) -> String {
    match state.value(name) {
        0 => name.to_string(),
        v => format!("{name} (${v})"),
    }
}

fn cards(state: &State, names: &[String]) -> String {
    let list: Vec<String> = names.iter().map(|n| card(state, n)).collect();
    and_list(&list)
}

/// What an action open now does, for its button (`Rules::describe`).
pub(super) fn describe(state: &State, action: &Action) -> String {
    let policeman = |i: usize| match state.policemen.get(i) {
        Some(p) => format!(
            "policeman {} (at {}, facing {})",
            i + 1,
            p.at,
            p.facing.word()
        ),
        None => format!("policeman {}", i + 1),
    };
    match action {
        Action::RollForOrder { .. } => "Roll for who starts".into(),
        Action::PlacePoliceman { at, facing } => {
            format!(
                "Place a policeman at lamp post {at}, facing {}",
                facing.word()
            )
        }
        Action::MovePoliceman {
            policeman: i, step, ..
        } => match step {
            Some(Step::Left) => format!("Turn {} left", policeman(*i)),
            Some(Step::Right) => format!("Turn {} right", policeman(*i)),
            Some(Step::Advance) => format!("Walk {} on", policeman(*i)),
            None => format!("Move {} by the die", policeman(*i)),
        },
        Action::StandTrial { .. } => "Stand trial before the judge".into(),
        Action::Move { to, mask } => format!(
            "Move to {}{}",
            place(state, *to),
            if *mask {
                ", slipping past the police in the Mask"
            } else {
                ""
            }
        ),
        Action::Rob { .. } => "Rob this rooftop".into(),
        Action::Jump { to, rope, .. } => format!(
            "Jump to {}{}",
            place(state, *to),
            if *rope { " on the Rope" } else { "" }
        ),
        Action::Steal { from, make_up, .. } => format!(
            "Try to steal from {}{}",
            state.name(*from),
            if *make_up { " (Make-up)" } else { "" }
        ),
        Action::KnockDown {
            target,
            street,
            make_up,
            ..
        } => format!(
            "Try to knock {} down into street {street}{}",
            state.name(*target),
            if *make_up { " (Make-up)" } else { "" }
        ),
        Action::Buy { item, pay, .. } => {
            format!("Buy the {item}, paying {}", cards(state, pay))
        }
        Action::CashIn { cards: None } => "Cash in every treasure".into(),
        Action::CashIn { cards: Some(names) } => format!("Cash in {}", cards(state, names)),
        Action::Whistle { policeman: i, .. } => {
            format!("Blow the Whistle: {} moves again", policeman(*i))
        }
        Action::DiscardTreasure { card: name } => format!("Give up {}", card(state, name)),
        Action::DiscardEquipment { item } => format!("Give up the {item}"),
        Action::Land { street } => format!("Land in street {street}"),
        Action::EndTurn => "End the turn".into(),
    }
}

fn and_list(list: &[String]) -> String {
    match list.len() {
        0 => "nothing".into(),
        1 => list[0].clone(),
        n => format!("{} and {}", list[..n - 1].join(", "), list[n - 1]),
    }
}

fn names(state: &State, seats: &[Seat]) -> String {
    if seats.is_empty() {
        return "no one".into();
    }
    let list: Vec<String> = seats.iter().map(|&s| state.name(s).to_string()).collect();
    and_list(&list)
}

fn event_words(e: RooftopEvent) -> &'static str {
    match e {
        RooftopEvent::Dog => "a Dog, which bites",
        RooftopEvent::Equipment => "a stash of Equipment",
        RooftopEvent::StakeOut => "a Stake-out",
        RooftopEvent::Trap => "a Trap",
    }
}

/// The action points left after the action just paid for, as a closing
/// sentence, while the turn goes on (the turn's end says the rest).
fn points_left(state: &State) -> String {
    match state.turn() {
        Some(t) if t.stage == Stage::Actions && t.ap > 0 => {
            format!(" {} action point{} left.", t.ap, plural(t.ap as usize))
        }
        _ => String::new(),
    }
}

/// Whose turn it is, where they stand and what they carry (a count).
fn turn_begins(state: &State, seat: Seat) -> String {
    let t = state.thief(seat);
    let carrying = match t.hand.len() {
        0 => "no treasure".to_string(),
        n => format!("{n} treasure{}", plural(n)),
    };
    let on = if state.is_rooftop(t.at) { "on" } else { "in" };
    format!(
        "{}'s turn begins {on} {}, with {carrying}.",
        state.name(seat),
        place(state, t.at)
    )
}

/// What an item does as it is used, in the story's words.
fn item_words(state: &State, seat: Seat, item: &str) -> String {
    let who = state.name(seat);
    match state.items.get(item).map(|i| i.effect) {
        Some(Effect::Mask) => format!("{who} pulls on the {item}."),
        Some(Effect::MakeUp) => format!("{who}'s {item} adds 2 to the die."),
        Some(Effect::RopeAndGrapple) => format!("{who} hooks the {item} across the street."),
        Some(Effect::Backpack) => format!("{who}'s {item} holds one card more."),
        Some(Effect::LuckyCharm) => format!("{who}'s {item} makes a 5 enough."),
        Some(Effect::SoftShoes) => format!("{who}'s {item} add 1 to the jump."),
        Some(Effect::Whistle) => format!("{who} blows the {item}."),
        Some(Effect::Bolas) => format!("{who} whirls the {item} at the next rooftop."),
        None => format!("{who} uses the {item}."),
    }
}

/// The story of one fact, and its record: each fact told in full (squares,
/// rolls, action points) is the record's, and the story tells what the
/// table would remember of it, in the city's words. A fact whose full
/// telling holds no bookkeeping is the story's as it stands.
pub fn narrate(state: &State, fact: &Fact) -> Vec<String> {
    let full = in_full(state, fact);
    let Some(story) = story(state, fact) else {
        return full;
    };
    crate::narrative::story_and_record(story, full)
}

/// Where a thief is, in the city's words rather than the board's: "the
/// rooftops of Fountain Square", "the street".
fn scene(state: &State, space: Space) -> String {
    match space {
        Space::Lair => "the Lair".into(),
        Space::Prison => "the Prison".into(),
        Space::Street(_) => "the street".into(),
        Space::Cell { row, col } => {
            let block = &state.block(row / 3, col / 3).name;
            match state.cell(row, col) {
                Some(CellKind::Rooftop) | None => format!("the rooftops of {block}"),
                Some(CellKind::Alley) => format!("an alley of {block}"),
                Some(CellKind::BlackMarket) => format!("the Black Market of {block}"),
            }
        }
    }
}

/// "on the rooftops of Fountain Square", "in the Lair".
fn at_scene(state: &State, space: Space) -> String {
    let on = if state.is_rooftop(space) { "on" } else { "in" };
    format!("{on} {}", scene(state, space))
}

/// The block a space is in, for the story ("Fountain Square").
fn block_of(state: &State, space: Space) -> Option<String> {
    match space {
        Space::Cell { row, col } => Some(state.block(row / 3, col / 3).name.clone()),
        _ => None,
    }
}

/// What the story tells of a fact (see [`narrate`]): `None` when its full
/// telling is the story.
fn story(state: &State, fact: &Fact) -> Option<Vec<String>> {
    let one = |line: String| Some(vec![line]);
    match fact {
        // The dice for the lead, each thief's move step by step, and what
        // each step left of the turn are the record's.
        Fact::OrderRolled { .. } | Fact::ThiefMoved { .. } => Some(Vec::new()),
        Fact::PolicemanPlaced {
            seat,
            facing,
            stake_out,
            ..
        } => one(if *stake_out {
            format!(
                "The stake-out brings a new policeman to the lamp post by the Prison, facing {}.",
                facing.word()
            )
        } else {
            format!(
                "{} posts a policeman under a lamp post, facing {}.",
                state.name(*seat),
                facing.word()
            )
        }),
        Fact::PolicemanMoved {
            seat,
            policeman,
            step,
            facing,
            turned_about,
            ..
        } => {
            let opening = state
                .turn()
                .is_some_and(|t| t.stage == Stage::Policeman);
            let n = policeman + 1;
            let did = match step {
                Step::Left => "turns left",
                Step::Right => "turns right",
                Step::Advance if *turned_about => "walks to the edge and turns about",
                Step::Advance => "walks on",
            };
            let moved = format!("policeman {n} {did}, now facing {}.", facing.word());
            if opening {
                // The turn opens with the policeman's move: one sentence.
                let t = state.thief(*seat);
                let carrying = match t.hand.len() {
                    0 => "with no treasure".to_string(),
                    n => format!("carrying {n} treasure{}", plural(n)),
                };
                one(format!(
                    "{}'s turn begins {}, {carrying}; {moved}",
                    state.name(*seat),
                    at_scene(state, t.at)
                ))
            } else {
                one(format!("{}: {moved}", state.name(*seat)))
            }
        }
        Fact::TurnEnded { seat, why } => match why {
            Some(TurnEnd::Chose | TurnEnd::Spent) => {
                let at = state.thief(*seat).at;
                let from = state.turn().and_then(|t| t.from);
                one(if from == Some(at) {
                    format!("{} lies low {}.", state.name(*seat), at_scene(state, at))
                } else {
                    format!("{} ends the turn {}.", state.name(*seat), at_scene(state, at))
                })
            }
            Some(TurnEnd::Cut) | None => None,
        },
        Fact::TrialHeld {
            seat, acquitted, ..
        } => one(if *acquitted {
            format!(
                "{} stands trial and is acquitted, keeping every treasure.",
                state.name(*seat)
            )
        } else {
            format!(
                "{} stands trial and is convicted of one theft: back to the cell.",
                state.name(*seat)
            )
        }),
        Fact::ThiefArrested { seat, cause, .. } => one(match cause {
            ArrestCause::Watched => format!(
                "A watching policeman spots {} in the street with loot: arrested and marched to the Prison.",
                state.name(*seat)
            ),
            ArrestCause::Leaving => format!(
                "{} steps out of the street with loot, under a policeman's eye: arrested and marched to the Prison.",
                state.name(*seat)
            ),
            _ => format!(
                "It was a stake-out: {} is arrested on the spot and taken to the Prison.",
                state.name(*seat)
            ),
        }),
        Fact::RooftopRobbed {
            seat,
            rooftop,
            card: name,
            event,
        } => {
            let who = state.name(*seat);
            let house = match block_of(state, *rooftop) {
                Some(block) => format!("a house in {block}"),
                None => "a house".into(),
            };
            one(match (event, name) {
                (Some(e), Some(n)) if n != e.name() => format!(
                    "{who} breaks into {house} and finds a {n}: {}! The turn is over.",
                    event_words(*e)
                ),
                (Some(e), _) => format!(
                    "{who} breaks into {house} and finds {}! The turn is over.",
                    event_words(*e)
                ),
                (None, Some(n)) => format!(
                    "{who} breaks into {house} and pockets {}.",
                    card(state, n)
                ),
                (None, None) => {
                    format!("{who} breaks into {house} and pockets a treasure, kept secret.")
                }
            })
        }
        Fact::JumpMade { seat, to, .. } => one(format!(
            "{} leaps across the street to {}.",
            state.name(*seat),
            scene(state, *to)
        )),
        Fact::ThiefFell { seat, cause, .. } => {
            let who = state.name(*seat);
            one(match cause {
                FallCause::Jump => {
                    let carried = state.thief(*seat).hand.len();
                    let load = match carried {
                        0 => String::new(),
                        1 => " under the weight of a treasure".into(),
                        _ => " under the weight of the loot".into(),
                    };
                    format!(
                        "{who} jumps{load}, falls short and drops into the street below. The turn is over."
                    )
                }
                FallCause::Trap => format!("The roof gives way: {who} falls into the street below."),
                FallCause::KnockedDown => format!("{who} tumbles off the roof into the street below."),
            })
        }
        Fact::StealTried {
            seat,
            from,
            won,
            card: taken,
            ..
        } => {
            let (a, d) = (state.name(*seat), state.name(*from));
            one(match (won, taken) {
                (true, Some(c)) => format!("{a} picks {d}'s pocket and takes {}.", card(state, c)),
                (true, None) => format!("{a} picks {d}'s pocket and takes a treasure."),
                (false, _) => {
                    format!("{a} tries to pick {d}'s pocket and is caught at it. The turn is over.")
                }
            })
        }
        Fact::KnockDownTried {
            seat, target, won, ..
        } => {
            let (a, d) = (state.name(*seat), state.name(*target));
            one(if *won {
                format!("{a} knocks {d} off the roof.")
            } else {
                format!("{a} tries to shove {d} off the roof and fails. The turn is over.")
            })
        }
        Fact::EquipmentBought {
            seat, item, paid, ..
        } => one(format!(
            "{} buys a {item} with {}.",
            state.name(*seat),
            cards(state, paid)
        )),
        Fact::FameGained {
            seat,
            cards: c,
            points,
            ..
        } => one(format!(
            "In the Lair, {} shows off {} for {points} Fame and Fortune.",
            state.name(*seat),
            cards(state, c)
        )),
        _ => None,
    }
}

/// One fact told in full, squares, rolls and action points and all: the
/// record's telling (see [`narrate`]).
fn in_full(state: &State, fact: &Fact) -> Vec<String> {
    let line = match fact {
        Fact::OrderRolled { rolls } => {
            let said: Vec<String> = rolls
                .iter()
                .map(|r| format!("{} rolls {}", state.name(r.seat), r.roll))
                .collect();
            let best = rolls.iter().map(|r| r.roll).max().unwrap_or(0);
            let top: Vec<Seat> = rolls.iter().filter(|r| r.roll == best).map(|r| r.seat).collect();
            let mut s = format!("The thieves roll for the lead: {}.", said.join(", "));
            if top.len() > 1 {
                s.push_str(&format!(" {} tie and roll again.", names(state, &top)));
            }
            s
        }
        Fact::OrderSettled { order } => format!(
            "{} goes first, and play passes round the table: {}.",
            state.name(order[0]),
            names(state, order)
        ),
        Fact::PolicemanPlaced {
            seat,
            at,
            facing,
            stake_out,
        } => {
            if *stake_out {
                format!(
                    "The stake-out brings a new policeman to lamp post {at} by the Prison, facing {} (posted by {}).",
                    facing.word(),
                    state.name(*seat)
                )
            } else {
                format!(
                    "{} posts a policeman at lamp post {at}, facing {}.",
                    state.name(*seat),
                    facing.word()
                )
            }
        }
        Fact::PolicemanMoved {
            seat,
            policeman,
            roll,
            step,
            from,
            to,
            facing,
            turned_about,
        } => {
            let opening = state
                .turn()
                .is_some_and(|t| t.stage == Stage::Policeman);
            let who = match (roll, opening) {
                (Some(r), true) => format!("To open the turn, {} rolls {r}:", state.name(*seat)),
                (Some(r), false) => format!("{} rolls {r}:", state.name(*seat)),
                (None, _) => format!("From the cell, {} chooses:", state.name(*seat)),
            };
            let did = match step {
                Step::Left => format!("turns left at {from}"),
                Step::Right => format!("turns right at {from}"),
                Step::Advance => format!("walks from {from} to {to}"),
            };
            let about = if *turned_about {
                ", turns about with his back to the edge,"
            } else {
                ""
            };
            let watching: Vec<String> = state
                .grid()
                .watched(*to, *facing)
                .iter()
                .map(|s| s.to_string())
                .collect();
            let left = if opening { "" } else { &points_left(state)[..] };
            let moved = format!(
                "{who} policeman {} {did}{about} and now faces {}, watching {}.{left}",
                policeman + 1,
                facing.word(),
                and_list(&watching)
            );
            // Every turn opens with a policeman's move, so the turn is
            // announced here, under its round's heading.
            return if opening {
                vec![turn_begins(state, *seat), moved]
            } else {
                vec![moved]
            };
        }
        Fact::TurnBegan { .. } => return Vec::new(),
        Fact::TurnEnded { seat, why } => {
            let ap = state.turn().map_or(0, |t| t.ap);
            match why {
                Some(TurnEnd::Chose) if ap > 0 => format!(
                    "{} ends the turn with {ap} action point{} unspent.",
                    state.name(*seat),
                    plural(ap as usize)
                ),
                Some(TurnEnd::Chose | TurnEnd::Spent) => {
                    format!("{} has spent every action point.", state.name(*seat))
                }
                Some(TurnEnd::Cut) | None => return Vec::new(),
            }
        }
        Fact::ChoiceAwaited {
            seat,
            choice: Choice::SpareItem,
        } => {
            let spare = state.spare_item(*seat).unwrap_or_else(|| "item".into());
            format!(
                "{} now holds a second {spare}, a one-way item: it must be used at once, before the turn ends, or let go.",
                state.name(*seat)
            )
        }
        Fact::StageSet { .. } | Fact::ActionPointSpent { .. } | Fact::ChoiceAwaited { .. } => {
            return Vec::new()
        }
        Fact::Released { seat } => format!(
            "{} carries no loot, has served the time, and walks out of the Prison.",
            state.name(*seat)
        ),
        Fact::TrialHeld {
            seat,
            roll,
            acquitted,
        } => {
            if *acquitted {
                format!(
                    "{} stands trial and rolls {roll}: acquitted, keeping every treasure.",
                    state.name(*seat)
                )
            } else {
                format!(
                    "{} stands trial and rolls {roll}: convicted of one theft, and stays in the cell.",
                    state.name(*seat)
                )
            }
        }
        Fact::ThiefMoved {
            seat,
            from,
            to,
            masked,
        } => {
            let how = if *masked { "slips, masked," } else { "moves" };
            // An arrest on arrival ends the turn: no points left to tell.
            let caught = !*masked
                && !state.thief(*seat).hand.is_empty()
                && matches!(to, Space::Street(s) if state.watched().contains(s));
            format!(
                "{} {how} from {} to {}.{}",
                state.name(*seat),
                place(state, *from),
                place(state, *to),
                if caught { String::new() } else { points_left(state) }
            )
        }
        Fact::ThiefArrested {
            seat,
            cause,
            street,
        } => match (cause, street) {
            (ArrestCause::Watched, Some(s)) => format!(
                "A policeman watching street {s} spots {} with loot: arrested and marched to the Prison.",
                state.name(*seat)
            ),
            (ArrestCause::Leaving, Some(s)) => format!(
                "{} steps off street {s} with loot, under a watching policeman's eye: arrested and marched to the Prison.",
                state.name(*seat)
            ),
            _ => format!(
                "It was a stake-out: {} is arrested on the spot and taken to the Prison.",
                state.name(*seat)
            ),
        },
        Fact::RooftopRobbed {
            seat,
            rooftop,
            card: name,
            event,
        } => {
            let who = state.name(*seat);
            let at = place(state, *rooftop);
            match (event, name) {
                // A box of the table's own names its event cards its own
                // way ("Smuggler's Crate"): the story says both.
                (Some(e), Some(n)) if n != e.name() => format!(
                    "{who} robs the house under {at} and finds a {n}: {}! The turn is over.",
                    event_words(*e)
                ),
                (Some(e), _) => format!(
                    "{who} robs the house under {at} and finds {}! The turn is over.",
                    event_words(*e)
                ),
                (None, Some(n)) => format!(
                    "{who} robs the house under {at} and pockets {}.{}",
                    card(state, n),
                    points_left(state)
                ),
                (None, None) => format!(
                    "{who} robs the house under {at} and pockets a treasure, kept secret.{}",
                    points_left(state)
                ),
            }
        }
        Fact::JumpMade { seat, from, to, roll } => {
            let carried = state.thief(*seat).hand.len();
            let how = match roll {
                Some(r) => format!(" (rolls {r}, carrying {carried} treasure{})", plural(carried)),
                None => String::new(),
            };
            format!(
                "{} leaps from {} to {}{how}.{}",
                state.name(*seat),
                place(state, *from),
                place(state, *to),
                points_left(state)
            )
        }
        Fact::ThiefFell {
            seat,
            street,
            cause,
            roll,
        } => {
            let who = state.name(*seat);
            match cause {
                FallCause::Jump => {
                    let t = state.thief(*seat);
                    let carried = t.hand.len();
                    let aim = match t.at {
                        Space::Cell { row, col } => state
                            .grid()
                            .across(row, col)
                            .into_iter()
                            .find(|(_, s)| s == street)
                            .map(|((r, c), _)| {
                                format!(
                                    " from {} for {}",
                                    place(state, t.at),
                                    place(state, Space::Cell { row: r, col: c })
                                )
                            })
                            .unwrap_or_default(),
                        _ => String::new(),
                    };
                    format!(
                        "{who} jumps{aim} carrying {carried} treasure{}, rolls {}, and falls short into street {street}. The turn is over.",
                        plural(carried),
                        roll.unwrap_or(0)
                    )
                }
                FallCause::Trap => format!("The roof gives way: {who} falls into street {street}."),
                FallCause::KnockedDown => format!("{who} tumbles off the roof into street {street}."),
            }
        }
        Fact::StealTried {
            seat,
            from,
            rolls,
            won,
            card: taken,
        } => {
            let (a, d) = (state.name(*seat), state.name(*from));
            let dice = if rolls[0] == rolls[1] {
                format!("{} against {}, and a tie favours the victim", rolls[0], rolls[1])
            } else {
                format!("{} against {}", rolls[0], rolls[1])
            };
            match (won, taken) {
                (true, Some(c)) => format!(
                    "{a} picks {d}'s pocket ({dice}) and takes {}.{}",
                    card(state, c),
                    points_left(state)
                ),
                (true, None) => format!(
                    "{a} picks {d}'s pocket ({dice}) and takes a treasure.{}",
                    points_left(state)
                ),
                (false, _) => format!("{a} tries to pick {d}'s pocket ({dice}) and is caught at it. The turn is over."),
            }
        }
        Fact::KnockDownTried {
            seat,
            target,
            rolls,
            won,
        } => {
            let (a, d) = (state.name(*seat), state.name(*target));
            let dice = if rolls[0] == rolls[1] {
                format!("{} against {}, and a tie favours the attacker", rolls[0], rolls[1])
            } else {
                format!("{} against {}", rolls[0], rolls[1])
            };
            if *won {
                format!("{a} knocks {d} off the roof ({dice}).{}", points_left(state))
            } else {
                format!("{a} tries to shove {d} off the roof ({dice}) and fails. The turn is over.")
            }
        }
        Fact::EquipmentBought {
            seat,
            item,
            paid,
            lost,
        } => {
            let change = if *lost > 0 {
                format!("; the ${lost} over the price is lost")
            } else {
                String::new()
            };
            format!(
                "{} buys a {item} with {}{change}.{}",
                state.name(*seat),
                cards(state, paid),
                points_left(state)
            )
        }
        Fact::OfferRenewed { to_bottom, drawn } => {
            let under = if to_bottom.is_empty() {
                String::new()
            } else {
                format!("puts {} under the deck and ", and_list(to_bottom))
            };
            if drawn.is_empty() {
                format!("The Black Market {under}has nothing more to offer.")
            } else {
                format!("The Black Market {under}now offers {}.", and_list(drawn))
            }
        }
        Fact::EquipmentFound { seat, item } => match item {
            Some(i) => format!("{} takes a {i} from the stash, free.", state.name(*seat)),
            None => format!("The equipment deck is empty: {} finds nothing.", state.name(*seat)),
        },
        Fact::EquipmentUsed { seat, item } => {
            let copies = state
                .thief(*seat)
                .equipment
                .iter()
                .filter(|e| *e == item)
                .count();
            if state.rules < 2 && copies > 1 {
                // Rules 1 spent a spare blue item with nothing to use it on.
                format!("{} uses up a {item}.", state.name(*seat))
            } else {
                format!(
                    "{} The {item} is used up.",
                    item_words(state, *seat, item)
                )
            }
        }
        Fact::EquipmentActed { seat, item } => item_words(state, *seat, item),
        Fact::EquipmentDiscarded { seat, item } => {
            if state
                .turn()
                .is_some_and(|t| t.stage == Stage::Choice(Choice::SpareItem))
            {
                format!("{} lets the spare {item} go unused.", state.name(*seat))
            } else {
                format!("{} gives up a {item}.", state.name(*seat))
            }
        }
        Fact::TreasureDiscarded { seat, card: c } => {
            format!("{} gives up {}.", state.name(*seat), card(state, c))
        }
        Fact::FameGained {
            seat,
            cards: c,
            points,
            fame,
        } => format!(
            "In the Lair, {} shows off {} for {points} Fame and Fortune (now {fame}).{}",
            state.name(*seat),
            cards(state, c),
            if *fame >= super::decide::FAME_TO_WIN {
                String::new()
            } else {
                points_left(state)
            }
        ),
        Fact::NightEnded { outcome } => format!("The night is over: {}.", outcome.why),
    };
    vec![line]
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The night as it begins: who sets out from the Lair, and what makes
/// one of them the guild's leader by dawn.
pub fn prologue(state: &State) -> Vec<String> {
    let thieves: Vec<String> = state.thieves.iter().map(|t| t.player.clone()).collect();
    // The round limit is a safeguard; told only where a table set its own.
    let dawn = if state.round_limit == super::options::DEFAULT_ROUND_LIMIT {
        "if the rooftops are stripped bare first".to_string()
    } else {
        format!(
            "if the rooftops are stripped bare or dawn breaks after round {} first",
            state.round_limit
        )
    };
    vec![format!(
        "Night falls on Ludovia, and {} thieves meet in the Lair: {}. Whoever first shows off {} Fame and Fortune there leads the guild; {dawn}, the most famous does.",
        thieves.len(),
        and_list(&thieves),
        super::decide::FAME_TO_WIN,
    )]
}

pub fn chapter(state: &State) -> String {
    match state.phase {
        Phase::Order { .. } | Phase::Placing { .. } => "Setting out".into(),
        Phase::Playing(_) | Phase::Over => format!("Round {}", state.round),
    }
}

pub fn epilogue(state: &State) -> Vec<String> {
    let Some(outcome) = &state.outcome else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    if outcome.winners.len() == 1 {
        lines.push(format!(
            "{} is the most famous thief in Ludovia and leads the guild.",
            state.name(outcome.winners[0])
        ));
    } else {
        lines.push(format!(
            "Ludovia has {} Great Thieves: {}.",
            outcome.winners.len(),
            names(state, &outcome.winners)
        ));
    }
    for (seat, t) in state.thieves.iter().enumerate() {
        lines.push(format!(
            "{}: {} Fame and Fortune, ${} in treasure still carried.",
            t.player,
            t.fame,
            state.hand_value(seat as Seat)
        ));
    }
    lines
}

/// Marks for the seats on one space: digits, `*` for more than fit.
fn marks(seats: &[usize], width: usize) -> String {
    let s: String = seats
        .iter()
        .map(|s| char::from(b'0' + (*s as u8 % 10)))
        .collect();
    if s.len() > width {
        "*".repeat(width)
    } else {
        s
    }
}

fn centred(text: &str, fill: char, width: usize) -> String {
    let pad = width.saturating_sub(text.chars().count());
    let left = pad / 2;
    format!(
        "{}{text}{}",
        fill.to_string().repeat(left),
        fill.to_string().repeat(pad - left)
    )
}

/// The board as text: lamp posts (`+`, a policeman's arrow, or `#` where
/// several stand), streets with their names or the seats on them (`=` and `:`
/// where watched), block spaces (`R` rooftop with its card, `.` robbed, `a`
/// alley, `$` Black Market), the Lair `L` and Prison `P`. Column numbers run
/// along the top (block spaces, then lamp posts), row numbers down the left
/// (`p` rows are lamp-post rows), so every name can be read off it. Then the
/// legend.
pub fn render(state: &State, viewer: Viewer) -> String {
    let at = |space: Space| -> Vec<usize> {
        state
            .thieves
            .iter()
            .enumerate()
            .filter(|(_, t)| t.at == space)
            .map(|(i, _)| i)
            .collect()
    };
    let post_mark = |p: Post| match state.policemen_at(p)[..] {
        [] => '+',
        [i] => state.policemen[i].facing.arrow(),
        _ => '#',
    };
    let watched = state.watched();
    // A margin of four for the row numbers; each block is a post column and
    // nine characters of three spaces.
    let mut out = String::from("    ");
    for c in 0..state.cols {
        out.push(' ');
        for j in 0..3 {
            out.push_str(&centred(&(3 * c + j).to_string(), ' ', 3));
        }
    }
    out.push_str("   block space columns\n    ");
    for c in 0..=state.cols {
        let n = c.to_string();
        out.push_str(&n);
        if c < state.cols {
            out.push_str(&" ".repeat(10 - n.len()));
        }
    }
    out.push_str("   lamp-post columns\n");
    for r in 0..=state.rows {
        let mut line = format!("{:>4}", format!("p{r}"));
        for c in 0..=state.cols {
            line.push(post_mark(Post { r, c }));
            if c < state.cols {
                let street = Street::H { r, c };
                let here = at(Space::Street(street));
                let fill = if watched.contains(&street) { '=' } else { '-' };
                let text = if here.is_empty() {
                    street.to_string()
                } else {
                    marks(&here, 9)
                };
                line.push_str(&centred(&text, fill, 9));
            }
        }
        out.push_str(&line);
        out.push('\n');
        if r == state.rows {
            break;
        }
        for i in 0..3 {
            let mut line = format!("{:>3} ", 3 * r + i);
            for c in 0..=state.cols {
                let v = Street::V { r, c };
                let street = at(Space::Street(v));
                let wall = if watched.contains(&v) { ':' } else { '|' };
                line.push(if i == 1 && !street.is_empty() {
                    marks(&street, 1).chars().next().unwrap_or(wall)
                } else {
                    wall
                });
                if c == state.cols {
                    break;
                }
                let block = state.block(r, c);
                for j in 0..3 {
                    let (row, col) = (3 * r + i, 3 * c + j);
                    let cell = match block.special {
                        Some(special) => {
                            let space = if special == super::content::Special::Lair {
                                Space::Lair
                            } else {
                                Space::Prison
                            };
                            let letter = if space == Space::Lair { "L" } else { "P" };
                            if (i, j) == (1, 1) && !at(space).is_empty() {
                                centred(&marks(&at(space), 3), ' ', 3)
                            } else {
                                centred(letter, ' ', 3)
                            }
                        }
                        None => {
                            let here = at(Space::Cell { row, col });
                            if here.is_empty() {
                                let sym = match state.cell(row, col) {
                                    Some(CellKind::Rooftop)
                                        if state.robbed.contains(&Space::Cell { row, col }) =>
                                    {
                                        "."
                                    }
                                    Some(CellKind::Rooftop) => "R",
                                    Some(CellKind::Alley) => "a",
                                    Some(CellKind::BlackMarket) => "$",
                                    None => "?",
                                };
                                centred(sym, ' ', 3)
                            } else {
                                centred(&marks(&here, 3), ' ', 3)
                            }
                        }
                    };
                    line.push_str(&cell);
                }
            }
            if i == 1 {
                // The streets down the posts' columns, named by block row.
                line.push_str(&format!("  v{r}.0 to v{r}.{}", state.cols));
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str(
        "\nKey: R rooftop with its card, . robbed rooftop, a alley, $ Black Market, L Lair, P Prison, \
         digits thieves by seat (* several), + lamp post, ^ > v < a policeman and his facing, # several \
         policemen, \
         = and : watched streets. Block space s<row>.<col>, lamp post p<row>.<col>, street h<post row>.<col> \
         or v<row>.<post col>, read off the numbers around the board.\n",
    );
    out.push_str("Blocks (north-west first): ");
    let blocks: Vec<String> = state
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            format!(
                "{}.{} {}",
                i as u32 / state.cols,
                i as u32 % state.cols,
                b.label()
            )
        })
        .collect();
    out.push_str(&blocks.join("; "));
    out.push('\n');
    for (i, p) in state.policemen.iter().enumerate() {
        out.push_str(&format!(
            "Policeman {i}: lamp post {}, facing {}\n",
            p.at,
            p.facing.word()
        ));
    }
    let left = state.rooftop_total as usize - state.robbed.len();
    out.push_str(&format!(
        "Rooftops left: {left} of {}. On offer: {}.\n",
        state.rooftop_total,
        if state.offer.is_empty() {
            "nothing".to_string()
        } else {
            state.offer.join(", ")
        }
    ));
    for (i, t) in state.thieves.iter().enumerate() {
        let sees = matches!(viewer, Viewer::Owner) || viewer == Viewer::Seat(i as Seat);
        let hand = if sees {
            cards(state, &t.hand)
        } else {
            format!("{} secret card{}", t.hand.len(), plural(t.hand.len()))
        };
        let jail = if t.in_prison { " (imprisoned)" } else { "" };
        let gear = if t.equipment.is_empty() {
            "no equipment".to_string()
        } else {
            t.equipment.join(", ")
        };
        out.push_str(&format!(
            "Thief {i} {}: {}{jail}; {} Fame and Fortune; carrying {hand}; {gear}\n",
            t.player,
            place(state, t.at),
            t.fame
        ));
    }
    if let Phase::Playing(turn) = &state.phase {
        out.push_str(&format!(
            "Round {}: {}'s turn, {} action point{} left.\n",
            state.round,
            state.name(turn.seat),
            turn.ap,
            plural(turn.ap as usize)
        ));
    }
    out
}
