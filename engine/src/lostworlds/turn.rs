//! A scenario's turn from stage to stage: setting the board up, initiative,
//! recovery, the combat phase's beginning and end, falls, and the victory
//! check. Movement itself is in `movement`.

use std::collections::BTreeMap;
use std::sync::Arc;

use tabletape_events::{DiceMode, Seat};

use super::actions::{
    Action, Award, Condition, Ending, Fact, FallRoll, Outcome, RecoveryRoll, Start,
};
use super::content::Range;
use super::field::{Board, Done, Field, Piece, Placing, Position, Stage, Thing, ROUNDS_PER_PHASE};
use super::scenario::{Goal, Hex, Scenario};
use super::state::{SeatStatus, State};
use super::tables::{self, Footing};
use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::rules::Legal;

/// Facts decided one after another, each folded into a working copy so the
/// next is decided on the state the previous left.
pub(super) struct Chain {
    pub state: State,
    pub facts: Vec<Fact>,
}

impl Chain {
    pub fn new(state: &State) -> Chain {
        Chain {
            state: state.clone(),
            facts: Vec::new(),
        }
    }

    pub fn push(&mut self, fact: Fact) {
        super::apply::apply(&mut self.state, &fact);
        self.facts.push(fact);
    }

    pub fn field(&self) -> &Field {
        self.state.field.as_deref().expect("a scenario is in play")
    }
}

/// The board of a scenario in play, read with the characters' heights and
/// whether each is conscious.
pub fn board(state: &State) -> Option<Board<'_>> {
    let field = state.field.as_deref()?;
    Some(Board {
        terrain: field.terrain(),
        heights: state
            .seats
            .iter()
            .map(|s| s.fighter().sheet.height)
            .collect(),
        conscious: state
            .seats
            .iter()
            .zip(&field.pieces)
            .map(|(s, p)| conscious(state, s) && !p.done.dematerialized)
            .collect(),
        field,
    })
}

fn conscious(_state: &State, s: &super::state::SeatState) -> bool {
    s.fighter().condition == Condition::Fit
}

pub fn is_conscious(state: &State, seat: Seat) -> bool {
    conscious(state, state.seat(seat))
}

/// The board laid out at the start: each side's figures on their spaces,
/// the objects where the scenario puts them.
pub fn lay_out(scenario: &Scenario, dice: DiceMode, obstructions: bool) -> Field {
    let mut pieces = Vec::new();
    for (i, side) in scenario.sides.iter().enumerate() {
        for f in &side.figures {
            pieces.push(Piece {
                side: i,
                at: Hex::parse(&f.at).expect("checked with the scenario"),
                position: Position::Standing,
                carrying: None,
                bearing: None,
                points: 0,
                allowance: 0,
                done: Done::default(),
                ran_before: false,
                spell_spent: 0,
                undefended: None,
            });
        }
    }
    let things = scenario
        .objects
        .iter()
        .map(|o| Thing {
            id: o.id.clone(),
            kind: o.kind.clone(),
            at: Hex::parse(&o.at).expect("checked with the scenario"),
            carried_by: None,
            owner: None,
        })
        .collect();
    Field {
        scenario: Arc::new(scenario.clone()),
        dice,
        turn: 1,
        stage: Stage::Initiative,
        order: Vec::new(),
        moved: 0,
        pieces,
        things,
        engaged: BTreeMap::new(),
        rounds: 0,
        offer: None,
        placing: Vec::new(),
        at_risk: Vec::new(),
        winner: None,
        examined: Vec::new(),
        obstructions,
    }
}

/// The seats each roll waits on, in the order physical dice are given.
pub fn rollers(state: &State) -> Vec<Seat> {
    let Some(field) = state.field.as_deref() else {
        return Vec::new();
    };
    let seats = 0..state.seats.len() as Seat;
    match field.stage {
        Stage::Initiative => seats.filter(|&s| is_conscious(state, s)).collect(),
        Stage::Recovery => recovering(state),
        Stage::Falls if field.placing.is_empty() => field.at_risk.iter().map(|&(s, _)| s).collect(),
        _ => Vec::new(),
    }
}

/// The unconscious who roll on the recovery table: not dead, not undead,
/// not moved this phase and not still carried.
pub(super) fn recovering(state: &State) -> Vec<Seat> {
    let field = state.field.as_deref().expect("a scenario");
    (0..state.seats.len() as Seat)
        .filter(|&s| state.seat(s).fighter().condition == Condition::Unconscious)
        .filter(|&s| !field.piece(s).done.body_moved && field.borne_by(s).is_none())
        .filter(|&s| !state.seat(s).fighter().sheet.undead)
        .collect()
}

/// `roll`: the dice the stage waits for, rolled by the engine or given.
pub fn roll(state: &State, dice: &[u32], chance: &mut Chance) -> Result<Vec<Fact>, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    let who = rollers(state);
    if who.is_empty() {
        return reject(
            "lostworlds.scenario.roll",
            format!("no roll is due now: {}", stage_words(state)),
        );
    }
    let what = match field.stage {
        Stage::Initiative => "initiative",
        Stage::Recovery => "recovery",
        _ => "falling down",
    };
    if chance.mode() == DiceMode::Physical && dice.len() != who.len() {
        return reject(
            "lostworlds.scenario.dice",
            format!(
                "the {what} roll needs {} dice in `dice`, one for each of {} in that order",
                who.len(),
                seat_names(state, &who)
            ),
        );
    }
    let mut faces = Vec::new();
    for (i, &s) in who.iter().enumerate() {
        let given = (chance.mode() == DiceMode::Physical).then(|| dice[i]);
        if chance.mode() == DiceMode::Digital && !dice.is_empty() {
            return reject(
                "dice.digital",
                "this game rolls its own dice (digital mode): leave out `dice`",
            );
        }
        let what = format!("{what} roll of {}", state.seat_name(s));
        faces.push((s, chance.roll(&what, 6, &format!("dice[{i}]"), given)?));
    }
    let mut chain = Chain::new(state);
    match field.stage {
        Stage::Initiative => {
            // Highest first; a tie keeps last turn's order (seat order at first).
            let mut order: Vec<Seat> = field
                .order
                .iter()
                .copied()
                .chain(0..state.seats.len() as Seat)
                .filter(|s| faces.iter().any(|(f, _)| f == s))
                .fold(Vec::new(), |mut v, s| {
                    if !v.contains(&s) {
                        v.push(s);
                    }
                    v
                });
            let face = |s: Seat| faces.iter().find(|(f, _)| *f == s).map_or(0, |p| p.1);
            order.sort_by_key(|&s| std::cmp::Reverse(face(s)));
            chain.push(Fact::InitiativeRolled {
                turn: field.turn,
                rolls: faces,
                order,
            });
        }
        Stage::Recovery => {
            let rolls = faces
                .into_iter()
                .map(|(seat, roll)| {
                    let bonus = field.piece(seat).done.slain;
                    let before = state.seat(seat).fighter().body;
                    RecoveryRoll {
                        seat,
                        roll,
                        bonus,
                        before,
                        result: tables::recovery(before, roll as i32 + bonus as i32),
                    }
                })
                .collect();
            chain.push(Fact::Recovered { rolls });
            begin_combat(&mut chain)?;
        }
        _ => {
            let rolls = faces
                .into_iter()
                .map(|(seat, roll)| {
                    let bonus = field
                        .at_risk
                        .iter()
                        .find(|(s, _)| *s == seat)
                        .map_or(0, |r| r.1);
                    let footing = tables::footing(roll + bonus);
                    FallRoll {
                        seat,
                        roll,
                        bonus,
                        footing,
                        placer: (footing == Footing::Fall).then(|| placer(state, seat)),
                    }
                })
                .collect();
            chain.push(Fact::FallsRolled { rolls });
            if chain.field().placing.is_empty() {
                end_turn(&mut chain)?;
            }
        }
    }
    Ok(chain.facts)
}

/// Who sets a fallen figure down: an opponent it fought, else the nearest
/// conscious opponent, else (no opponent standing) its own player.
pub fn placer(state: &State, seat: Seat) -> Seat {
    let field = state.field.as_deref().expect("a scenario");
    if let Some(&f) = field.engaged.get(&seat).and_then(|f| f.first()) {
        return f;
    }
    let Some(b) = board(state) else { return seat };
    let at = field.piece(seat).at;
    (0..state.seats.len() as Seat)
        .filter(|&o| field.opposed(seat, o) && b.conscious[o as usize])
        .min_by_key(|&o| (b.distance(at, field.piece(o).at), o))
        .unwrap_or(seat)
}

/// Where a fallen figure may be set down: a space beside it on its level or
/// lower, with no conscious figure in it. A touched figure is moved to
/// any space beside it a figure could step up to (a level up at most).
pub fn landing_spaces(state: &State, placing: &Placing) -> Vec<Hex> {
    let Some(b) = board(state) else {
        return Vec::new();
    };
    let from = b.field.piece(placing.seat).at;
    let level = b.level(from).unwrap_or(0);
    let highest = if placing.touched { level + 1 } else { level };
    let spaces: Vec<Hex> = b
        .neighbours(from)
        .into_iter()
        .flatten()
        .filter(|&h| b.level(h).is_some_and(|l| l <= highest))
        .filter(|&h| b.figure_at(h).is_none())
        .collect();
    // Hemmed in all round: it falls (or stays) where it stands.
    if spaces.is_empty() {
        vec![from]
    } else {
        spaces
    }
}

/// After the last move (and any recovery): the combat phase begins between
/// the figures in each other's battle zones, or is skipped.
pub(super) fn after_movement(chain: &mut Chain) -> Result<(), Rejection> {
    // Regeneration: three times the book's best, up to the sheet's body
    // points, unless the figure ends in an opponent's battle zone.
    // Magic points likewise, 2 at most, back up to what the figure spent.
    // Airi or a Wraith comes back whole, never foiled (it has no battle
    // zone while away), and first touches whoever stands on its space.
    let healing: Vec<Fact> = {
        let state = &chain.state;
        let b = board(state).expect("a scenario");
        let mut facts = Vec::new();
        for s in (0..state.seats.len() as Seat).filter(|&s| b.field.piece(s).done.regenerating) {
            let f = state.seat(s).fighter();
            let ghost = b.field.piece(s).done.dematerialized;
            if ghost {
                let at = b.field.piece(s).at;
                for o in (0..state.seats.len() as Seat)
                    .filter(|&o| o != s && b.conscious[o as usize] && b.field.piece(o).at == at)
                {
                    let damage = f.sheet.touch_damage;
                    let (body, condition) = super::movement::hurt(state, o, damage);
                    facts.push(Fact::Touched {
                        seat: o,
                        by: s,
                        damage,
                        body,
                        condition,
                    });
                }
            }
            let most = if ghost {
                i32::MAX
            } else {
                (f.sheet.regeneration * tables::REGENERATION_TIMES) as i32
            };
            let room = (f.sheet.body_points - f.body).max(0);
            let spell = (f.sheet.spell_regeneration * tables::REGENERATION_TIMES)
                .min(tables::SPELL_REGENERATION_MOST)
                .min(b.field.piece(s).spell_spent);
            let foiled = !ghost && !b.zone_foes(s).is_empty();
            facts.push(Fact::Regenerated {
                seat: s,
                healed: if foiled { 0 } else { most.min(room) },
                spell: if foiled { 0 } else { spell },
                foiled,
            });
        }
        facts
    };
    for fact in healing {
        chain.push(fact);
    }
    if chain.field().stage == Stage::Recovery || !chain.field().placing.is_empty() {
        return Ok(());
    }
    begin_combat(chain)
}

pub(super) fn begin_combat(chain: &mut Chain) -> Result<(), Rejection> {
    let state = &chain.state;
    let b = board(state).expect("a scenario");
    let field = b.field;
    let mut engaged: BTreeMap<Seat, Vec<Seat>> = BTreeMap::new();
    for s in 0..state.seats.len() as Seat {
        if !b.conscious[s as usize] {
            continue;
        }
        let foes = b.zone_foes(s);
        if !foes.is_empty() {
            engaged.insert(s, foes);
        }
    }
    if engaged.is_empty() {
        return end_combat(chain);
    }
    // Runners and hard shovers start the phase off balance.
    let stance = |s: Seat| {
        let p = field.piece(s);
        if p.position == Position::Standing && (p.done.ran || p.done.shoved_hard) {
            Position::OffBalance
        } else {
            p.position
        }
    };
    let mut starts = Vec::new();
    for (&seat, foes) in &engaged {
        for &foe in foes {
            let picture = tables::situation(
                stance(seat),
                field.piece(seat).undefended == Some(field.piece(foe).at),
                field.piece(foe).undefended == Some(field.piece(seat).at),
                stance(foe),
            );
            let book = state.books.get(&state.seat(foe).fighter().sheet.id);
            let shown = book.and_then(|bk| bk.pictures.get(&picture));
            starts.push(Start {
                seat,
                foe,
                picture,
                title: shown.map(|p| p.title.clone()),
                range: shown.map_or(
                    if picture == super::content::OPENING_PICTURE {
                        Range::Extended
                    } else {
                        Range::Close
                    },
                    |p| p.range,
                ),
                tell: match shown {
                    Some(p) => super::restriction::Restriction::parse(&p.tell).ok(),
                    None if picture == super::content::OPENING_PICTURE => {
                        Some(super::restriction::Restriction::opening())
                    }
                    None => None,
                },
            });
        }
    }
    chain.push(Fact::CombatBegun { engaged, starts });
    Ok(())
}

/// After an exchange in a scenario: the combat phase ends after its third
/// round, or once no engaged pair is left fighting.
pub(super) fn after_exchange(chain: &mut Chain) -> Result<(), Rejection> {
    let state = &chain.state;
    let field = chain.field();
    let fighting = (0..state.seats.len() as Seat)
        .any(|s| state.seat(s).status == SeatStatus::Fighting && !state.foes(s).is_empty());
    if field.rounds >= ROUNDS_PER_PHASE || !fighting {
        return end_combat(chain);
    }
    Ok(())
}

/// How a fighter stands after the last round: down if an opponent's
/// picture of it shows it down (41), off balance if one shows it off
/// balance (19) or its own picture shows it staggering (1): the numbers the
/// situation table gives every compatible book.
fn stands_after(state: &State, seat: Seat) -> Position {
    let seen_as = |picture: u32| {
        state
            .seats
            .iter()
            .any(|o| o.sights.get(&seat).is_some_and(|s| s.picture == picture))
    };
    if seen_as(41) {
        Position::Down
    } else if seen_as(19) || state.seat(seat).sights.values().any(|s| s.picture == 1) {
        Position::OffBalance
    } else {
        Position::Standing
    }
}

fn end_combat(chain: &mut Chain) -> Result<(), Rejection> {
    let state = &chain.state;
    let b = board(state).expect("a scenario");
    let field = b.field;
    let positions: Vec<(Seat, Position)> = field
        .engaged
        .keys()
        .filter(|&&s| b.conscious[s as usize])
        .map(|&s| (s, stands_after(state, s)))
        .collect();
    let position = |s: Seat| {
        positions
            .iter()
            .find(|(p, _)| *p == s)
            .map_or(field.piece(s).position, |p| p.1)
    };
    // In a position to fall after running or fighting: on an object's
    // space, or beside a drop of two levels or more.
    let at_risk: Vec<(Seat, u32)> = (0..state.seats.len() as Seat)
        .filter(|&s| b.conscious[s as usize])
        .filter(|&s| {
            let d = &field.piece(s).done;
            d.ran || field.engaged.contains_key(&s) || d.fought
        })
        .filter(|&s| b.precarious(field.piece(s).at))
        .map(|s| (s, tables::footing_bonus(position(s))))
        .collect();
    let none_at_risk = at_risk.is_empty();
    chain.push(Fact::CombatEnded { positions, at_risk });
    if none_at_risk {
        return end_turn(chain);
    }
    Ok(())
}

/// Whether a side's goal is met on the board now.
fn goal_met(state: &State, side: usize) -> bool {
    let field = state.field.as_deref().expect("a scenario");
    let seats = |own: bool| {
        (0..state.seats.len() as Seat).filter(move |&s| (field.piece(s).side == side) == own)
    };
    let spaces =
        |names: &[String]| -> Vec<Hex> { names.iter().filter_map(|n| Hex::parse(n)).collect() };
    match &field.scenario.sides[side].goal {
        Goal::DefeatAll => seats(false).all(|s| !is_conscious(state, s)),
        Goal::Reach { spaces: to } => {
            let to = spaces(to);
            seats(true).any(|s| is_conscious(state, s) && to.contains(&field.piece(s).at))
        }
        Goal::Carry { object, to } => {
            let to = spaces(to);
            seats(true).any(|s| {
                is_conscious(state, s)
                    && field.piece(s).carrying.as_deref() == Some(object.as_str())
                    && to.contains(&field.piece(s).at)
            })
        }
        Goal::Hold => false,
    }
}

/// The victory check at the end of a turn: a side whose goal is met wins
/// (two at once: a draw); a side with no one alive has lost; at the turn
/// limit a holding side wins, else it is a draw.
pub(super) fn end_turn(chain: &mut Chain) -> Result<(), Rejection> {
    let state = &chain.state;
    let field = chain.field();
    let sides = field.scenario.sides.len();
    let alive = |side: usize| {
        (0..state.seats.len() as Seat).any(|s| {
            field.piece(s).side == side && state.seat(s).fighter().condition != Condition::Dead
        })
    };
    let met: Vec<usize> = (0..sides).filter(|&i| goal_met(state, i)).collect();
    let living: Vec<usize> = (0..sides).filter(|&i| alive(i)).collect();
    let holders: Vec<usize> = (0..sides)
        .filter(|&i| field.scenario.sides[i].goal == Goal::Hold && alive(i))
        .collect();
    let last_turn = field.turn >= field.scenario.turn_limit;
    let winner = match (met.as_slice(), living.as_slice()) {
        ([one], _) => Some(Some(*one)),
        ([_, _, ..], _) => Some(None),
        ([], [one]) => Some(Some(*one)),
        ([], []) => Some(None),
        ([], _) if last_turn => Some(match holders.as_slice() {
            [one] => Some(*one),
            _ => None,
        }),
        _ => None,
    };
    match winner {
        None => {
            let turn = field.turn;
            chain.push(Fact::TurnEnded { turn });
        }
        Some(winner) => {
            let fact = scenario_end(state, winner)?;
            chain.push(fact);
        }
    }
    Ok(())
}

/// The scenario's end: the winners, and each survivor's experience (the
/// combat experience of the fights, and the winning side's victory points
/// divided evenly among its survivors, whole points only).
fn scenario_end(state: &State, winner: Option<usize>) -> Result<Fact, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    let mut victory: BTreeMap<Seat, u32> = BTreeMap::new();
    let mut victors = Vec::new();
    if let Some(side) = winner {
        let survivors: Vec<Seat> = (0..state.seats.len() as Seat)
            .filter(|&s| field.piece(s).side == side)
            .filter(|&s| state.seat(s).fighter().condition != Condition::Dead)
            .collect();
        let points = field.scenario.sides[side].points / survivors.len().max(1) as u32;
        for &s in &survivors {
            victory.insert(s, points);
        }
        victors = survivors;
    }
    let awards: Vec<Award> = super::decide::awards(state, &[], &victory)?;
    Ok(Fact::FightEnded {
        outcome: Outcome {
            ending: if winner.is_some() {
                Ending::Victory
            } else {
                Ending::Stalemate
            },
            victors,
        },
        awards,
    })
}

pub fn seat_names(state: &State, seats: &[Seat]) -> String {
    let names: Vec<String> = seats.iter().map(|&s| state.seat_name(s)).collect();
    super::narration::and_list(&names)
}

/// What the scenario waits for now, in words (for refusals).
pub fn stage_words(state: &State) -> String {
    let Some(field) = state.field.as_deref() else {
        return String::new();
    };
    if let Some(o) = &field.offer {
        return format!(
            "{} may halt {} (`halt` or `let_pass`)",
            seat_names(state, &o.by),
            state.seat_name(o.mover)
        );
    }
    if let Some(p) = field.placing.first() {
        let what = if p.touched { "touched" } else { "fallen" };
        return format!(
            "{} sets down the {what} {} (`place`)",
            state.seat_name(p.by),
            state.seat_name(p.seat)
        );
    }
    match field.stage {
        Stage::Initiative => format!("turn {} waits for the initiative `roll`", field.turn),
        Stage::Movement => match field.mover() {
            Some(m) => format!("it is {}'s move", state.seat_name(m)),
            None => "the movement phase is over".into(),
        },
        Stage::Recovery => "the unconscious `roll` for recovery".into(),
        Stage::Combat => "the combat phase is on: the fighters choose maneuvers".into(),
        Stage::Falls => "the falls check waits for its `roll`".into(),
        Stage::Ended => "the scenario is over".into(),
    }
}

/// The roll the stage waits for, as a legal action.
pub fn legal_roll(state: &State) -> Option<Legal<Action>> {
    let who = rollers(state);
    if who.is_empty() {
        return None;
    }
    let field = state.field.as_deref()?;
    Some(match field.dice {
        DiceMode::Digital => Legal::ready(Action::Roll { dice: Vec::new() }),
        DiceMode::Physical => Legal::needing(
            Action::Roll { dice: Vec::new() },
            vec![format!(
                "dice: a d6 each for {}, in that order",
                seat_names(state, &who)
            )],
        ),
    })
}

/// A scenario's fighters' effective heights when they stand on different
/// levels: the sheet's height plus the level (none on the same level).
pub fn effective_heights(state: &State, a: Seat, d: Seat) -> Option<(i32, i32)> {
    let b = board(state)?;
    let (la, ld) = (b.seat_level(a), b.seat_level(d));
    (la != ld).then(|| (b.heights[a as usize] + la, b.heights[d as usize] + ld))
}

/// The height modifier between effective heights: the taller adds the
/// difference to Orange and Red (the rule text's dwarf on level 4 gains +2
/// on a troll two shorter), the shorter takes 1 off Orange, as in the books.
pub fn terrain_height_bonus(mine: i32, theirs: i32, colour: super::content::Colour) -> i32 {
    use super::content::Colour;
    match (mine.cmp(&theirs), colour) {
        (std::cmp::Ordering::Greater, Colour::Orange | Colour::Red) => mine - theirs,
        (std::cmp::Ordering::Less, Colour::Orange) => -1,
        _ => 0,
    }
}

/// A maneuver an obstruction bars.
type Barred = fn(&super::content::Maneuver) -> bool;

fn side_swing(m: &super::content::Maneuver) -> bool {
    m.category.eq_ignore_ascii_case("Side Swing")
}

fn retrieve(m: &super::content::Maneuver) -> bool {
    m.name.eq_ignore_ascii_case("Retrieve Weapon")
}

fn dodge(m: &super::content::Maneuver) -> bool {
    m.name.eq_ignore_ascii_case("Dodge")
}

fn jump_away(m: &super::content::Maneuver) -> bool {
    m.name.eq_ignore_ascii_case("Away")
        || m.full_name()
            .eq_ignore_ascii_case("Extended Range Jump Back")
}

/// The optional obstruction restrictions in force on a fighter (option
/// `obstructions=on`), each with the words the story and refusals use.
/// The battle zone here is the six spaces around the figure.
pub fn obstructions(state: &State, seat: Seat) -> Vec<(String, Barred)> {
    let Some(b) = board(state) else {
        return Vec::new();
    };
    let field = b.field;
    if !field.obstructions || field.stage != Stage::Combat {
        return Vec::new();
    }
    let p = field.piece(seat);
    let level = b.seat_level(seat);
    let height = b.heights[seat as usize];
    let around: Vec<Hex> = b.neighbours(p.at).into_iter().flatten().collect();
    let figure =
        |h: Hex| (0..state.seats.len() as Seat).find(|&o| o != seat && field.piece(o).at == h);
    let mut out: Vec<(String, Barred)> = Vec::new();
    // Tall: one less than the fighter's height or taller.
    let tall = around
        .iter()
        .map(|&h| {
            let terrain = match b.terrain.at(h) {
                Some(super::scenario::Ground::Wall | super::scenario::Ground::Pillar) => 1,
                Some(g) => usize::from(i32::from(g.level().unwrap_or(0)) - level >= height - 1),
                None => 0,
            };
            let things = field.things_at(h).filter(|t| field.kind_of(t).tall).count();
            let friends = usize::from(
                figure(h).is_some_and(|o| !field.opposed(seat, o) && b.conscious[o as usize]),
            );
            terrain + things + friends
        })
        .sum::<usize>();
    if tall > 1 {
        out.push((
            "no side swings: more than one tall obstruction in the battle zone".into(),
            side_swing,
        ));
    }
    if field
        .things
        .iter()
        .any(|t| t.owner == Some(seat) && t.carried_by.is_none() && t.at != p.at)
    {
        out.push((
            "no Retrieve Weapon: the weapon lies on another space".into(),
            retrieve,
        ));
    }
    let crowd = around
        .iter()
        .map(|&h| usize::from(figure(h).is_some()) + field.things_at(h).count())
        .sum::<usize>();
    if crowd > 1 {
        out.push((
            "no dodging: more than one figure or object in the battle zone".into(),
            dodge,
        ));
    }
    if let Some(u) = p.undefended {
        let blocked = match b.terrain.at(u) {
            Some(super::scenario::Ground::Wall | super::scenario::Ground::Pillar) | None => true,
            Some(_) => figure(u).is_some() || field.things_at(u).next().is_some(),
        };
        if blocked {
            out.push((
                "no jumping away or back: the undefended space is obstructed".into(),
                jump_away,
            ));
        }
    }
    out
}
