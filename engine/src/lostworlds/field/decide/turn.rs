//! A scenario's turn from stage to stage: initiative, recovery, and what
//! the movement phase leaves (regeneration, a dematerialized figure's
//! return); the working copy facts are decided on; the stage in words.

use crate::lostworlds::actions::RecoveryRoll;
use crate::lostworlds::field::state::Field;
use crate::rules::Legal;

use super::*;

/// Facts decided one after another, each folded into a working copy so the
/// next is decided on the state the previous left.
pub struct Chain {
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
        crate::lostworlds::duel::apply::apply(&mut self.state, &fact);
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

fn conscious(_state: &State, s: &crate::lostworlds::state::SeatState) -> bool {
    s.fighter().condition == Condition::Fit
}

pub(super) fn is_conscious(state: &State, seat: Seat) -> bool {
    conscious(state, state.seat(seat))
}

/// The seats each roll waits on, in the order physical dice are given.
pub(super) fn rollers(state: &State) -> Vec<Seat> {
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
pub fn recovering(state: &State) -> Vec<Seat> {
    let field = state.field.as_deref().expect("a scenario");
    (0..state.seats.len() as Seat)
        .filter(|&s| state.seat(s).fighter().condition == Condition::Unconscious)
        .filter(|&s| !field.piece(s).done.body_moved && field.borne_by(s).is_none())
        .filter(|&s| !state.seat(s).fighter().sheet.undead)
        .collect()
}

/// `roll`: the dice the stage waits for, rolled by the engine or given.
pub(super) fn roll(
    state: &State,
    dice: &[u32],
    chance: &mut Chance,
) -> Result<Vec<Fact>, Rejection> {
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
                    let (body, condition) = hurt(state, o, damage);
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

pub fn seat_names(state: &State, seats: &[Seat]) -> String {
    let names: Vec<String> = seats.iter().map(|&s| state.seat_name(s)).collect();
    crate::lostworlds::duel::narration::and_list(&names)
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
    if let Some(e) = &field.engaging {
        return format!(
            "the combat phase opens: {} say whom they engage (`engage`)",
            seat_names(state, &e.waiting)
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
pub(super) fn legal_roll(state: &State) -> Option<Legal<Action>> {
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
