//! Legless in London in words: each Londoner's fortunes a line a fact,
//! chapters by round, the epilogue, and the board drawn as text.
//!
//! Narration reads facts as the viewer may know them: a leg bought by
//! someone else is told by its name and price, its Equipped side unsaid.

use tabletape_events::Seat;

use super::actions::{Action, Death, Fact, Sale, Task};
use super::board::{Cell, Place, Square};
use super::content::{Effect, Equipped, GoalKind};
use super::state::{Phase, State};
use crate::rules::Viewer;

/// "Ada plays Maud Tully, at d2 with £6 and 5 hearts. Maud Tully wants
/// …": a character as it comes into play, with what the Londoner wants set
/// out, so a victory token later has its build-up.
fn introduced(
    state: &State,
    how: &str,
    character: &str,
    card: Option<&super::content::Character>,
    (at, money, health): (&Place, u32, u32),
) -> String {
    // Where on the street a Londoner starts is the board's to show; a
    // location is told by name.
    let at = match at {
        Place::Square(_) => String::new(),
        Place::Location(_) => format!(" at {}", place(state, at)),
    };
    let drawn = format!(
        "{how} {character}{at}, with {} and {}.",
        pounds(money),
        hearts(health)
    );
    match card.and_then(|c| wants(state, character, &c.goals)) {
        Some(wants) => format!("{drawn} {wants}"),
        None => drawn,
    }
}

/// The Londoners the setup dealt, before the first turn: whom each player
/// plays and what they want (in record mode, each types a card instead).
pub fn prologue(state: &State) -> Vec<String> {
    state
        .londoners
        .iter()
        .filter(|l| !l.dead && !l.character.is_empty())
        .map(|l| {
            introduced(
                state,
                &format!("{} plays", l.player),
                &l.character,
                state.characters.get(&l.character),
                (&l.at, l.money, l.health),
            )
        })
        .collect()
}

/// "Maud Tully wants love at the Chapel, property at the Tannery and
/// “Open a stall of her own” at the Rag Fair": a character card's goals.
fn wants(state: &State, who: &str, goals: &[super::content::Goal]) -> Option<String> {
    let at = |ids: &[String]| -> String {
        if ids.is_empty() {
            return "wherever a card allows".into();
        }
        let names: Vec<String> = ids
            .iter()
            .map(|id| format!("the {}", state.location_name(id)))
            .collect();
        format!("at {}", names.join(" or "))
    };
    let parts: Vec<String> = goals
        .iter()
        .map(|g| match (g.kind, &g.text) {
            (GoalKind::Personal, Some(text)) => {
                let cost = g
                    .cost
                    .map(|c| format!(" for {}", pounds(c)))
                    .unwrap_or_default();
                format!(
                    "\u{201c}{}\u{201d} {}{cost}",
                    text.trim().trim_end_matches('.'),
                    at(&g.at)
                )
            }
            (kind, _) => format!("{} {}", kind.word(), at(&g.at)),
        })
        .collect();
    let listed = match parts.as_slice() {
        [] => return None,
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    Some(format!("{who} wants {listed}."))
}

fn place(state: &State, p: &Place) -> String {
    match p {
        Place::Square(sq) => format!("{sq}"),
        Place::Location(l) => format!("the {}", state.location_name(l)),
    }
}

/// What an action open now does, for its button (`Rules::describe`): places
/// and legs by name, prices where the table can see them.
pub(super) fn describe(state: &State, action: &Action) -> String {
    let Phase::Playing(turn) = state.phase else {
        return String::new();
    };
    let me = state.londoner(turn.seat);
    let here = match &me.at {
        Place::Location(id) => state.location_name(id),
        Place::Square(_) => "street",
    };
    let card = match &me.at {
        Place::Location(id) => state.cards.get(id),
        Place::Square(_) => None,
    };
    let leg = |name: &str| match state.legs.get(name) {
        Some(l) => format!("the {} ({})", l.name, pounds(l.cost)),
        None => format!("the {name}"),
    };
    match action {
        Action::Upkeep { sell } if sell.is_empty() => match state.upkeep_due(turn.seat) {
            0 => "Keep your legs (nothing to pay)".into(),
            due => format!("Pay {} upkeep for your legs", pounds(due)),
        },
        Action::Upkeep { sell } => {
            let (proceeds, due) = state.upkeep_selling(turn.seat, sell);
            format!(
                "Sell {} for {}, then pay {} upkeep",
                and_list(sell),
                pounds(proceeds),
                pounds(due)
            )
        }
        Action::Roll { .. } => match state.move_dice(turn.seat) {
            1 => "Roll to move".into(),
            n => format!("Roll {n} dice to move (crutches: the best counts)"),
        },
        Action::Move { path, .. } => {
            // Ways to one place differ by the cards they pick up: say so.
            let events = match super::decide::crossings(state.board(), path) {
                0 => String::new(),
                1 => ", over a street event".into(),
                n => format!(", over {n} street events"),
            };
            match path.last() {
                None => "Stay where you are".into(),
                Some(Place::Location(id)) => format!(
                    "Walk into the {} ({} {}{events})",
                    state.location_name(id),
                    path.len() - 1,
                    if path.len() == 2 { "square" } else { "squares" }
                ),
                Some(to) => format!(
                    "Walk {} {} to {to}{events}",
                    path.len(),
                    if path.len() == 1 { "square" } else { "squares" }
                ),
            }
        }
        Action::Work { risk: false, .. } => {
            match card.and_then(|c| c.work.as_ref()).and_then(|w| w.earnings) {
                Some(pay) => format!("Work at the {here} for {}", pounds(pay)),
                None => format!("Work at the {here}"),
            }
        }
        Action::Work { risk: true, .. } => {
            format!("Work at the {here}, taking a risk (Risk Booklet)")
        }
        Action::FindLove { .. } => format!("Look for love at the {here} (Risk Booklet)"),
        Action::BuyProperty { .. } => {
            match card.and_then(|c| c.property.as_ref()).map(|p| p.cost) {
                Some(cost) => format!("Buy property at the {here} for {}", pounds(cost)),
                None => format!("Buy property at the {here}"),
            }
        }
        Action::PersonalGoal => "Complete your personal goal here".into(),
        Action::BuyLeg { leg: name, .. } => format!("Buy {}", leg(name)),
        Action::Recover { .. } => match card.and_then(|c| c.sickroom.as_ref()) {
            Some(fee) => format!("Pay the Sickroom {} and roll to heal", pounds(fee.cost)),
            None => "Pay the Sickroom and roll to heal".into(),
        },
        Action::Equip { leg: None } => "Take your leg off".into(),
        Action::Equip { leg: Some(name) } => format!("Strap on the {name}"),
        Action::SellLeg { leg: name } => match state.legs.get(name) {
            Some(l) => format!("Sell the {name} back for {}", pounds(l.resale())),
            None => format!("Sell the {name} back"),
        },
        Action::DrawCharacter { seat, .. } => {
            format!("{} draws a new character card", state.name(*seat))
        }
    }
}

fn and_list(list: &[String]) -> String {
    match list {
        [] => "nothing".into(),
        [one] => format!("the {one}"),
        [rest @ .., last] => format!("the {} and the {last}", rest.join(", the ")),
    }
}

fn pounds(n: u32) -> String {
    format!("£{n}")
}

fn hearts(n: u32) -> String {
    if n == 1 {
        "1 heart".into()
    } else {
        format!("{n} hearts")
    }
}

fn scores(e: &Equipped) -> String {
    let mut out = format!(
        "Appeal {:+}, Mobility {:+}, Efficiency {:+}, upkeep £{} a turn",
        e.appeal, e.mobility, e.efficiency, e.maintenance
    );
    if let Some(n) = e.crutch_rolls {
        out = format!("crutches: best of {n} dice to move");
    }
    if e.no_crutches {
        out.push_str("; no crutches with it");
    }
    if !e.text.is_empty() {
        out.push_str(&format!("; “{}”", e.text));
    }
    out
}

fn effect(e: &Effect, state: &State) -> String {
    match e {
        Effect::Money(v) if *v >= 0 => format!("gain £{v}"),
        Effect::Money(v) => format!("pay £{}", v.unsigned_abs()),
        Effect::Health(v) if *v >= 0 => format!("gain {}", hearts(*v as u32)),
        Effect::Health(v) => format!("lose {}", hearts(v.unsigned_abs())),
        Effect::GoTo(l) => format!("go to the {}", state.location_name(l)),
        Effect::MissTurns(1) => "miss a turn".into(),
        Effect::MissTurns(n) => format!("miss {n} turns"),
        Effect::ClaimLove => "claim love".into(),
        Effect::Move(1) => "move 1 square".into(),
        Effect::Move(n) => format!("move {n} squares"),
        Effect::Draw(1) => "draw another card".into(),
        Effect::Draw(n) => format!("draw {n} more cards"),
        Effect::LoseLeg => "lose a leg".into(),
        Effect::GainLeg(leg) => format!("take the {leg} from the Store, free"),
        Effect::Collect(n) => format!("take £{n} from every other player"),
        Effect::PayEach(n) => format!("pay every other player £{n}"),
        Effect::Others(list) => format!("every other player: {}", effects(list, state)),
        Effect::ByHand(words) => format!("\u{201c}{words}\u{201d} (done by hand)"),
    }
}

fn effects(list: &[Effect], state: &State) -> String {
    if list.is_empty() {
        return "nothing happens".into();
    }
    list.iter()
        .map(|e| effect(e, state))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The story of one fact, and its record. London's people are the
/// story's subjects (the Londoner a player plays, by name); each fact told
/// in full, the players' dice, squares and page numbers and all, is the
/// record's. A fact whose full telling holds no bookkeeping is told as it
/// stands.
pub fn narrate(state: &State, fact: &Fact) -> Vec<String> {
    let full = in_full(state, fact);
    let Some(story) = story(state, fact) else {
        return full;
    };
    crate::narrative::story_and_record(story, full)
}

/// A Londoner's personal goal in the card's words, without its full stop.
fn personal_goal(state: &State, seat: Seat) -> Option<String> {
    state
        .character_of(seat)
        .goals
        .iter()
        .find(|g| g.kind == GoalKind::Personal)
        .and_then(|g| g.text.as_deref())
        .map(|t| t.trim_end_matches('.').to_string())
}

/// Who the story follows at a seat: the Londoner played there, by name
/// (the player until a character is dealt).
fn londoner(state: &State, seat: Seat) -> String {
    let l = state.londoner(seat);
    if l.character.is_empty() {
        l.player.clone()
    } else {
        state
            .characters
            .get(&l.character)
            .map_or_else(|| l.character.clone(), |c| c.name.clone())
    }
}

/// What the story tells of a fact (see [`narrate`]): `None` when its full
/// telling is the story.
fn story(state: &State, fact: &Fact) -> Option<Vec<String>> {
    let who = |s: &Seat| londoner(state, *s);
    let one = |line: String| Some(vec![line]);
    match fact {
        // The dice for a move are the record's; the walk tells where to.
        Fact::RolledToMove { .. } => Some(Vec::new()),
        Fact::Moved {
            seat,
            path,
            picked_up,
        } => {
            let on_the_way = match picked_up {
                0 => "",
                _ => ", and something happens on the way",
            };
            one(match path.last() {
                None => format!("{} stays put.", who(seat)),
                Some(Place::Location(l)) => format!(
                    "{} goes to the {}{on_the_way}.",
                    who(seat),
                    state.location_name(l)
                ),
                Some(Place::Square(_)) => {
                    format!("{} sets off through the streets{on_the_way}.", who(seat))
                }
            })
        }
        Fact::StreetEventRead {
            seat, card, text, ..
        } => one(if text.is_empty() {
            format!("In the street, {}: {card}.", who(seat))
        } else {
            format!("In the street, {}: {card}. {text}", who(seat))
        }),
        Fact::RiskRead {
            seat, task, text, ..
        } => {
            let why = match task {
                Task::Work => "works",
                Task::Love => "looks for love",
            };
            one(format!(
                "{} {why} at {}: \"{text}\"",
                who(seat),
                place(state, &state.londoner(*seat).at)
            ))
        }
        Fact::HealthChanged { seat, from, to } => one(if to < from {
            format!("{} loses {}.", who(seat), hearts(from - to))
        } else {
            format!("{} gains {}.", who(seat), hearts(to - from))
        }),
        Fact::Healed { seat, from, to, .. } => one(if to > from {
            format!("{} mends a little in the Sickroom.", who(seat))
        } else {
            format!("{} lies in the Sickroom, no better.", who(seat))
        }),
        Fact::TokenPlaced {
            seat,
            location,
            goal,
            ..
        } => {
            let what = match goal {
                GoalKind::Love => "finds love".to_string(),
                GoalKind::Property => "buys the property".to_string(),
                GoalKind::Personal => match personal_goal(state, *seat) {
                    Some(t) => format!("achieves “{t}”"),
                    None => "achieves a life's wish".to_string(),
                },
            };
            let first = state.londoner(*seat).tokens.is_empty();
            one(format!(
                "{} {what} at the {}{}",
                who(seat),
                state.location_name(location),
                if first {
                    ", and a victory token goes down: one goal of two.".to_string()
                } else {
                    ", and the second victory token goes down.".to_string()
                }
            ))
        }
        Fact::UpkeepPaid { seat, amount } => one(format!(
            "{} pays {} to keep the leg going.",
            who(seat),
            pounds(*amount)
        )),
        Fact::Paid { seat, amount } => one(format!("{} pays {}.", who(seat), pounds(*amount))),
        Fact::Earned { seat, amount } => one(format!("{} earns {}.", who(seat), pounds(*amount))),
        Fact::LegBought {
            seat, leg, cost, ..
        } => one(format!(
            "{} buys the {leg} for {}.",
            who(seat),
            pounds(*cost)
        )),
        Fact::LegEquipped { seat, leg, .. } => one(match leg {
            Some(leg) => format!("{} straps on the {leg}.", who(seat)),
            None => format!("{} takes off the leg and goes without.", who(seat)),
        }),
        // A death is the Londoner's: the player plays on as another.
        Fact::Died { seat, why, .. } => {
            let how = match why {
                Death::Sickroom => {
                    "lies in the Sickroom with nothing left to pay for a bed, and dies there"
                }
                Death::NoSpace => {
                    "finds no place left in London for the life still wanted, and dies of it"
                }
            };
            one(format!(
                "{} {how}. {} will come back to London as someone else.",
                who(seat),
                state.name(*seat)
            ))
        }
        Fact::Won { seat } => one(format!(
            "With both victory tokens down, {} has made a life in London, and wins!",
            who(seat)
        )),
        _ => None,
    }
}

/// One fact told in full, the players' dice, squares, pages and tallies
/// and all: the record's telling (see [`narrate`]). Its subjects are the
/// Londoners too, but for who plays whom and who dies, said of a player.
fn in_full(state: &State, fact: &Fact) -> Vec<String> {
    let name = |s: &Seat| londoner(state, *s);
    let player = |s: &Seat| state.name(*s).to_string();
    let line = match fact {
        // A turn shows in what is done with it (the upkeep paid, the
        // Sickroom's roll), each under the round it is played in.
        Fact::TurnBegan { .. } => return Vec::new(),
        Fact::StageSet { .. } => return Vec::new(),
        Fact::TurnMissed { seat } => format!("{} misses a turn.", name(seat)),
        Fact::UpkeepPaid { seat, amount } => {
            format!(
                "{} pays {} in upkeep for the legs.",
                name(seat),
                pounds(*amount)
            )
        }
        Fact::LegBought {
            seat,
            leg,
            cost,
            equipped,
        } => match equipped {
            Some(e) => format!(
                "{} buys the {leg} for {} and turns the card over: {}.",
                name(seat),
                pounds(*cost),
                scores(e)
            ),
            None => format!(
                "{} buys the {leg} for {}, keeping its Equipped side to themselves.",
                name(seat),
                pounds(*cost)
            ),
        },
        Fact::LegEquipped { seat, leg, side } => match (leg, side) {
            (Some(leg), Some(e)) => format!("{} straps on the {leg} ({}).", name(seat), scores(e)),
            (Some(leg), None) => format!("{} straps on the {leg}.", name(seat)),
            (None, _) => format!("{} takes the leg off and goes without.", name(seat)),
        },
        Fact::LegSold {
            seat,
            leg,
            price,
            why,
        } => {
            let why = match why {
                Sale::Chosen => "",
                Sale::Upkeep => " rather than pay its upkeep",
                Sale::Shortfall => " to cover a debt",
                Sale::Death => "",
                Sale::Taken => {
                    return vec![format!(
                        "{} loses the {leg}: it goes back to the store, and pays nothing.",
                        name(seat)
                    )]
                }
            };
            format!(
                "{} sells the {leg} back to the store for {}{why}.",
                name(seat),
                pounds(*price)
            )
        }
        Fact::LegGiven { seat, leg } => {
            format!(
                "{} takes the {leg} from the store, for nothing.",
                name(seat)
            )
        }
        Fact::RolledToMove {
            seat,
            rolls,
            mobility,
            steps,
        } => {
            let dice = match rolls.as_slice() {
                [one] => format!("rolls {one}"),
                many => format!(
                    "rolls {} on the crutches and keeps the best",
                    many.iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let leg = if *mobility == 0 {
                String::new()
            } else {
                format!(", {mobility:+} for the leg's Mobility")
            };
            match steps {
                0 => format!("{} {dice}{leg}: not a step today.", name(seat)),
                n => format!(
                    "{} {dice}{leg}: {n} {}.",
                    name(seat),
                    if *n == 1 { "square" } else { "squares" }
                ),
            }
        }
        Fact::Moved {
            seat,
            path,
            picked_up,
        } => match path.last() {
            None => format!("{} stays put.", name(seat)),
            Some(end) => format!(
                "{} walks {} to {}{}.",
                name(seat),
                match path.len() {
                    1 => "one square".to_string(),
                    n => format!("{n} squares"),
                },
                place(state, end),
                match picked_up {
                    0 => String::new(),
                    1 => ", picking up a street event card on the way".to_string(),
                    n => format!(", picking up {n} street event cards on the way"),
                }
            ),
        },
        Fact::StreetEventRead {
            seat,
            card,
            text,
            effects: list,
            ..
        } => {
            let text = if text.is_empty() {
                String::new()
            } else {
                format!(" {text}")
            };
            format!(
                "Street event for {}: {card}.{text} ({})",
                name(seat),
                effects(list, state)
            )
        }
        Fact::DeckRenewed => "The street event cards are shuffled back into a new deck.".into(),
        Fact::Earned { seat, amount } => format!("{} earns {}.", name(seat), pounds(*amount)),
        Fact::Worked {
            seat,
            location,
            amount,
        } => format!(
            "{} works at the {} for {}.",
            name(seat),
            state.location_name(location),
            pounds(*amount)
        ),
        Fact::Paid { seat, amount } => format!("{} pays {}.", name(seat), pounds(*amount)),
        Fact::Handed { from, to, amount } => {
            format!("{} hands {} {}.", name(from), name(to), pounds(*amount))
        }
        Fact::MoveGranted { seat, steps } => format!(
            "{} moves on: up to {steps} {} more this turn.",
            name(seat),
            if *steps == 1 { "square" } else { "squares" }
        ),
        Fact::SickroomPaid { seat, fee } => {
            format!("{} pays the Sickroom {}.", name(seat), pounds(*fee))
        }
        Fact::PaidInHealth { seat, owed } => format!(
            "{} has no money and no legs left to sell: the £{owed} still owed costs {}.",
            name(seat),
            hearts(*owed)
        ),
        Fact::RiskRead {
            seat,
            task,
            page,
            roll,
            score,
            total,
            text,
            effects: list,
        } => {
            let why = match task {
                Task::Work => "works",
                Task::Love => "looks for love",
            };
            let page = page.map_or(String::new(), |p| format!(", page {p}"));
            let score = if *score == 0 {
                format!("rolls {roll}")
            } else {
                format!("{roll} {score:+} = {total}")
            };
            format!(
                "{} {why} at {} and opens the Risk Booklet{page}: {score}. \"{text}\" ({})",
                name(seat),
                place(state, &state.londoner(*seat).at),
                effects(list, state)
            )
        }
        Fact::HealthChanged { seat, from, to } => {
            let l = state.londoner(*seat);
            if to < from {
                format!(
                    "{} loses {} ({to} of {} left).",
                    name(seat),
                    hearts(from - to),
                    l.max_health
                )
            } else {
                format!(
                    "{} gains {} ({to} of {}).",
                    name(seat),
                    hearts(to - from),
                    l.max_health
                )
            }
        }
        Fact::WentTo { seat, to } => format!("{} is taken to {}.", name(seat), place(state, to)),
        Fact::TurnsLost { seat, turns } => match turns {
            1 => format!("{} will miss the next turn.", name(seat)),
            n => format!("{} will miss the next {n} turns.", name(seat)),
        },
        Fact::TokenPlaced {
            seat,
            location,
            goal,
            cost,
        } => {
            let price = match cost {
                0 => String::new(),
                c => format!(" for £{c}"),
            };
            let what = match goal {
                GoalKind::Love => "finds love".to_string(),
                GoalKind::Property => format!("buys the property{price}"),
                GoalKind::Personal => {
                    let text =
                        personal_goal(state, *seat).map_or(String::new(), |t| format!(" ({t})"));
                    format!("completes the personal goal{text}{price}")
                }
            };
            let l = state.londoner(*seat);
            format!(
                "{} {what} at the {} and places a victory token ({} of 2).",
                name(seat),
                state.location_name(location),
                l.tokens.len() + 1
            )
        }
        Fact::FellSick { seat } => format!(
            "{} is at the bottom of the health track and is carried to the Sickroom.",
            name(seat)
        ),
        Fact::Healed {
            seat,
            roll,
            from,
            to,
        } => format!(
            "{} rolls {roll} to heal: {from} to {to} of {} hearts.",
            name(seat),
            state.londoner(*seat).max_health
        ),
        Fact::LeftSickbed { seat } => format!(
            "{} is well again and may leave the Sickroom next turn.",
            name(seat)
        ),
        Fact::Died {
            seat,
            character,
            why,
            removed,
        } => {
            let why = match why {
                Death::Sickroom => "cannot pay the Sickroom",
                Death::NoSpace => "has no victory spaces left for the goals still needed",
            };
            let tokens = match removed.len() {
                0 => String::new(),
                1 => " Their victory token comes off the board.".to_string(),
                n => format!(" Their {n} victory tokens come off the board."),
            };
            let legs = if state.londoner(*seat).legs.is_empty() {
                ""
            } else {
                " Their legs go back to the store."
            };
            format!(
                "{} ({character}) {why} and dies.{tokens}{legs}",
                player(seat)
            )
        }
        Fact::CharacterDrawn {
            seat,
            card,
            character,
            at,
            money,
            health,
        } => {
            let how = if state.londoner(*seat).deaths.is_empty() {
                "plays"
            } else {
                "rejoins the game as"
            };
            let card = card.as_ref().or_else(|| state.characters.get(character));
            let how = format!("{} {how}", player(seat));
            introduced(state, &how, character, card, (at, *money, *health))
        }
        Fact::CardLaidOut { card } => {
            let mut says = Vec::new();
            if let Some(w) = &card.work {
                let mut pay = Vec::new();
                if let Some(e) = w.earnings {
                    pay.push(format!("£{e}"));
                }
                if let Some(p) = w.risk_page {
                    pay.push(format!("a risk on page {p}"));
                }
                says.push(format!("work for {}", pay.join(" or ")));
            }
            if let Some(l) = &card.love {
                says.push(format!("love on page {}", l.risk_page));
            }
            if let Some(p) = &card.property {
                says.push(format!("the property for £{}", p.cost));
            }
            format!(
                "The card of the {} is laid out: {}.",
                state.location_name(&card.location),
                if says.is_empty() {
                    "nothing to do there".to_string()
                } else {
                    says.join("; ")
                }
            )
        }
        Fact::Won { seat } => format!("{} has placed both victory tokens and wins!", name(seat)),
        Fact::GameCalled { winners, rounds } => format!(
            "After {rounds} rounds the game is called: {} placed the most victory tokens.",
            winners
                .iter()
                .map(|s| londoner(state, *s))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    };
    vec![line]
}

pub fn chapter(state: &State) -> String {
    format!("Round {}", state.round)
}

pub fn epilogue(state: &State) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(o) = &state.outcome {
        out.push(format!("The game is over: {}.", o.why));
    }
    for l in &state.londoners {
        let goals: Vec<String> = l
            .tokens
            .iter()
            .map(|t| {
                format!(
                    "{} at the {}",
                    t.goal.word(),
                    state.location_name(&t.location)
                )
            })
            .collect();
        out.push(format!(
            "{} as {}: {}, {} of {} hearts, {} victory {}{}.",
            l.player,
            l.character,
            pounds(l.money),
            l.health,
            l.max_health,
            l.tokens.len(),
            if l.tokens.len() == 1 {
                "token"
            } else {
                "tokens"
            },
            if goals.is_empty() {
                String::new()
            } else {
                format!(" ({})", goals.join(", "))
            }
        ));
    }
    out
}

/// Whether `viewer` may see the Equipped side of a leg `seat` owns.
pub fn sees_leg(state: &State, viewer: Viewer, seat: Seat, leg: &str) -> bool {
    match viewer {
        Viewer::Owner => true,
        Viewer::Seat(v) if v == seat => true,
        _ => state.londoner(seat).equipped.as_deref() == Some(leg),
    }
}

/// A leg as a seat's line shows it: its name, `mark` when equipped, and
/// its scores where the viewer may see them (the mark is what the text
/// picture and the drawing write differently).
pub fn leg_line(state: &State, viewer: Viewer, seat: Seat, leg: &str, mark: &str) -> String {
    let on = if state.londoner(seat).equipped.as_deref() == Some(leg) {
        mark
    } else {
        ""
    };
    if sees_leg(state, viewer, seat, leg) {
        let e = &state.legs[leg].equipped;
        format!(
            "{leg}{on} (A{:+} M{:+} E{:+})",
            e.appeal, e.mobility, e.efficiency
        )
    } else {
        format!("{leg}{on}")
    }
}

/// The board as text: each square a character (`.` street, `*` street
/// event, `#` nothing, a location's letter), pawns as seat digits, then a
/// line a Londoner.
pub fn render(state: &State, viewer: Viewer) -> String {
    let board = state.board();
    let mut lines = vec![format!("{}, round {}", state.board.name, state.round)];
    let cols: String = (0..board.cols())
        .map(|c| char::from(b'a' + c as u8))
        .collect();
    lines.push(format!("    {cols}"));
    for row in 0..board.rows() {
        let mut text = String::new();
        for col in 0..board.cols() {
            let sq = Square { row, col };
            let pawn = state
                .londoners
                .iter()
                .position(|l| l.at == Place::Square(sq));
            text.push(match (pawn, board.cell(sq)) {
                (Some(s), _) => char::from(b'0' + s as u8),
                (None, Some(Cell::Street { event: true })) => '*',
                (None, Some(Cell::Street { event: false })) => '.',
                (None, Some(Cell::Location(_))) => state.board.rows[row as usize]
                    .chars()
                    .nth(col as usize)
                    .unwrap_or('?'),
                _ => ' ',
            });
        }
        lines.push(format!("{:>3} {text}", row + 1));
    }
    for (letter, id) in &state.board.key {
        let here: Vec<String> = state
            .londoners
            .iter()
            .enumerate()
            .filter(|(_, l)| l.at == Place::Location(id.clone()))
            .map(|(s, _)| s.to_string())
            .collect();
        let tokens: Vec<String> = state
            .londoners
            .iter()
            .enumerate()
            .flat_map(|(s, l)| {
                l.tokens
                    .iter()
                    .filter(|t| &t.location == id)
                    .map(move |t| format!("{} ({s})", t.goal.word()))
            })
            .collect();
        let mut line = format!("  {letter} {}", state.location_name(id));
        if !here.is_empty() {
            line.push_str(&format!(" [seats {}]", here.join(", ")));
        }
        if !tokens.is_empty() {
            line.push_str(&format!(" tokens: {}", tokens.join(", ")));
        }
        lines.push(line);
    }
    let turn = state.turn();
    for (s, l) in state.londoners.iter().enumerate() {
        let seat = s as Seat;
        let legs: Vec<String> = l
            .legs
            .iter()
            .map(|leg| leg_line(state, viewer, seat, leg, "*"))
            .collect();
        let now = if turn.is_some_and(|t| t.seat == seat) {
            " <- to play"
        } else {
            ""
        };
        let mut flags = Vec::new();
        if l.sick {
            flags.push("sick".to_string());
        }
        if l.dead {
            flags.push("dead: draws a new character".to_string());
        }
        if l.miss_turns > 0 {
            flags.push(format!("misses {} turn(s)", l.miss_turns));
        }
        lines.push(format!(
            "{s} {} as {} at {}: £{}, {}/{} hearts, tokens {}/2, legs: {}{}{}",
            l.player,
            l.character,
            l.at,
            l.money,
            l.health,
            l.max_health,
            l.tokens.len(),
            if legs.is_empty() {
                "none".into()
            } else {
                legs.join(", ")
            },
            if flags.is_empty() {
                String::new()
            } else {
                format!(" [{}]", flags.join("; "))
            },
            now
        ));
    }
    if let (Phase::Over, Some(o)) = (&state.phase, &state.outcome) {
        lines.push(format!("Over: {}", o.why));
    }
    lines.join("\n") + "\n"
}
