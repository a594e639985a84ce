//! Setting out the table: the order of play, and each player's introduction
//! before round 1 (Corner, Avatar, Talisman, Symbol, and an Ability, a
//! custom one by the table's vote).

use super::*;

pub fn setup(players: &[String], options: &Options, dice: DiceMode) -> Result<State, Rejection> {
    let n = players.len() as Seat;
    if options.first >= n {
        return reject(
            "legend.setup.first",
            format!(
                "option `first` names seat {}, but there are only {n} players",
                options.first
            ),
        );
    }
    Ok(State {
        rules: <crate::legend::Legend as crate::rules::Rules>::RULES_VERSION,
        dice,
        options: options.clone(),
        seats: players
            .iter()
            .enumerate()
            .map(|(i, p)| SeatState {
                player: p.clone(),
                corner: i as u8,
                symbol: String::new(),
                avatar: None,
                talisman: None,
                ability: None,
                custom_ability: None,
                passed: BTreeSet::new(),
            })
            .collect(),
        pieces: BTreeMap::new(),
        next_id: 1,
        claims: BTreeMap::new(),
        scenery: BTreeMap::new(),
        phase: Phase::Introductions,
        round: 0,
        order: (0..n).map(|i| (options.first + i) % n).collect(),
        turn: 0,
        actions_used: 0,
        actions_allowed: 2,
        ability_used: false,
        telling: Default::default(),
        skip_next: BTreeSet::new(),
        outcome: None,
    })
}

/// Whether an introduced seat has claimed Corner `c`.
fn corner_claimed(s: &State, c: u8) -> bool {
    s.seats.iter().any(|t| t.introduced() && t.corner == c)
}

/// Corners no introduced seat has claimed, by name.
pub fn free_corners(s: &State) -> Vec<&'static str> {
    CornerName::ALL
        .iter()
        .filter(|c| !corner_claimed(s, c.index()))
        .map(|c| c.word())
        .collect()
}

/// The Corner a seat takes when it names none: its own number's if free,
/// else the next free one clockwise.
pub(super) fn default_corner(s: &State, seat: Seat) -> u8 {
    (0..4u8)
        .map(|k| (seat as u8 + k) % 4)
        .find(|c| !corner_claimed(s, *c))
        .unwrap_or(seat as u8 % 4)
}

#[allow(clippy::too_many_arguments)]
pub(super) fn introduce(
    sim: &mut Sim,
    by: Option<Seat>,
    named: Option<Seat>,
    chosen: Option<CornerName>,
    avatar: &Described,
    talisman: &Described,
    symbol: &str,
    ability: Option<AbilityName>,
    custom: &Option<Described>,
    votes: &Option<Votes>,
    explanation: &Option<String>,
) -> Result<(), Rejection> {
    if sim.s.phase != Phase::Introductions {
        return reject(
            "legend.setup.over",
            "introductions are over: the game has begun",
        );
    }
    let seat = match (by, named) {
        (Some(b), Some(n)) if b != n => {
            return reject(
                "legend.turn.not_yours",
                format!("seat {b} cannot introduce seat {n}"),
            )
        }
        (Some(s), _) | (None, Some(s)) => s,
        (None, None) => match sim.s.seats.iter().position(|s| !s.introduced()) {
            Some(i) => i as Seat,
            None => return reject("legend.setup.introduced", "everyone is introduced"),
        },
    };
    if seat as usize >= sim.s.seats.len() {
        return reject("legend.seat.unknown", format!("there is no seat {seat}"));
    }
    if sim.s.seat(seat).introduced() {
        return reject(
            "legend.setup.introduced",
            format!("{} has already introduced an Avatar", sim.s.player(seat)),
        );
    }
    text_given("avatar.name", "legend.object.name", &avatar.name)?;
    text_given("talisman.name", "legend.object.name", &talisman.name)?;
    text_given("symbol", "legend.setup.symbol", symbol)?;
    if let Some(other) = sim
        .s
        .seats
        .iter()
        .find(|s| s.symbol.trim() == symbol.trim())
    {
        return reject(
            "legend.setup.symbol_taken",
            format!("{} already draws the Symbol `{symbol}`", other.player),
        );
    }
    match (sim.s.options.abilities, ability) {
        (false, Some(_)) => {
            return reject(
                "legend.ability.off",
                "this game is played without Abilities",
            )
        }
        (true, None) => {
            return reject(
                "legend.ability.choose",
                "with Abilities on, each player picks one when placing Avatar and Talisman",
            )
        }
        _ => {}
    }
    if ability == Some(AbilityName::Custom) {
        let Some(c) = custom else {
            return reject(
                "legend.ability.custom",
                "a custom Ability needs `custom`: its name and what it does",
            );
        };
        text_given("custom.name", "legend.ability.custom", &c.name)?;
        let Some(v) = votes else {
            return reject(
                "legend.ability.custom_vote",
                "a custom Ability is allowed only after a vote of the table (give `votes`)",
            );
        };
        if !take_vote(sim, seat, &format!("the custom Ability {}", c.name), v)? {
            return reject(
                "legend.ability.custom_vote",
                format!("the table voted down the custom Ability {}", c.name),
            );
        }
    } else if custom.is_some() {
        return reject(
            "legend.ability.custom",
            "`custom` describes only a custom Ability",
        );
    } else if votes.is_some() {
        return reject(
            "legend.ability.custom_vote",
            "`votes` at an introduction are the table's vote on a custom Ability: leave them out",
        );
    }
    if let Some(text) = explanation {
        text_given("explanation", "legend.explanation.empty", text)?;
        sim.emit(Fact::Explained {
            seat,
            text: text.clone(),
        });
    }
    let corner = match (chosen, sim.s.rules >= 2) {
        (Some(_), false) => return reject(
            "legend.setup.corner",
            "this game was recorded under rules 1, where each seat holds the Corner of its number",
        ),
        (None, false) => sim.s.seat(seat).corner,
        (Some(c), true) if corner_claimed(&sim.s, c.index()) => {
            return reject(
                "legend.setup.corner_taken",
                format!(
                    "{} is claimed already; free: {}",
                    crate::legend::content::CORNERS[c.index() as usize],
                    free_corners(&sim.s).join(", ")
                ),
            )
        }
        (Some(c), true) => c.index(),
        (None, true) => default_corner(&sim.s, seat),
    };
    let id = sim.s.next_id;
    let make = |id, category, d: &Described| Piece {
        id,
        category,
        name: d.name.trim().to_string(),
        description: d.description.clone(),
        placed_by: seat,
        controller: seat,
        at: At::Corner { corner },
    };
    sim.emit(Fact::SeatIntroduced {
        seat,
        corner: (sim.s.rules >= 2).then_some(corner),
        avatar: make(id, Category::Avatar, avatar),
        talisman: make(id + 1, Category::Talisman, talisman),
        symbol: symbol.trim().to_string(),
        ability,
        custom: custom.clone(),
    });
    if sim.s.seats.iter().all(SeatState::introduced) {
        sim.emit(Fact::RoundBegan { round: 1 });
        let first = sim.s.order[0];
        sim.emit(Fact::TurnPassed {
            seat: first,
            skipped: vec![],
        });
    }
    Ok(())
}
