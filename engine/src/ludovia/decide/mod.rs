//! Every Ludovia rule: who may act, where thieves may go, what the police see,
//! what a robbery turns up, how duels, trials and purchases go, and when the
//! night ends. Facts are built one at a time on a scratch copy of the state
//! (see [`Out`]), so each later rule sees what the earlier facts did.

use std::collections::BTreeSet;

use tabletape_events::{DiceMode, Seat};

use super::actions::{Action, ArrestCause, Fact, FallCause, SeatRoll, Step, TurnEnd};
use super::apply::apply;
use super::board::{Facing, Post, Space, Street};
use super::content::{
    Colour, Edge, Effect, Pack, RooftopEvent, Special, LARGE_ORDINARY, SMALL_ORDINARY,
};
use super::options::Options;
use super::state::{Block, CellKind, Choice, Face, Outcome, Phase, Policeman, Stage, State, Thief};
use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::rules::{Legal, Pick};

/// Fame and Fortune that wins at once.
pub const FAME_TO_WIN: u32 = 15;
/// Equipment a thief may hold.
pub const MAX_EQUIPMENT: usize = 3;
/// Action points per turn.
pub const ACTION_POINTS: u32 = 4;

/// Facts decided so far, folded as they come into a scratch state.
struct Out {
    s: State,
    facts: Vec<Fact>,
}

impl Out {
    fn new(state: &State) -> Out {
        Out {
            s: state.clone(),
            facts: Vec::new(),
        }
    }

    fn push(&mut self, fact: Fact) {
        apply(&mut self.s, &fact);
        self.facts.push(fact);
    }
}

/// The ways a piece may lie: turned clockwise by this many degrees.
pub const TURNS: [u32; 4] = [0, 90, 180, 270];

/// A 3x3 layout turned clockwise by `degrees` (a multiple of 90).
pub fn turned(layout: &[String], degrees: u32) -> Vec<String> {
    let mut rows: Vec<Vec<char>> = layout.iter().map(|r| r.chars().collect()).collect();
    for _ in 0..(degrees / 90) % 4 {
        let n = rows.len();
        // Clockwise: the new row i is the old column i read bottom to top.
        rows = (0..n)
            .map(|i| (0..n).rev().map(|j| rows[j][i]).collect())
            .collect();
    }
    rows.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// Reads one `layout` entry: a block id, optionally `@90`, `@180` or `@270`.
fn layout_entry(entry: &str) -> Result<(&str, u32), Rejection> {
    let Some((id, turn)) = entry.split_once('@') else {
        return Ok((entry, 0));
    };
    match turn.parse::<u32>() {
        Ok(d) if TURNS.contains(&d) && turn == d.to_string() => Ok((id, d)),
        _ => reject(
            "option.layout",
            format!(
                "`{entry}`: a piece turns clockwise by 90, 180 or 270 degrees, written {id}@90"
            ),
        ),
    }
}

pub fn setup(
    players: &[String],
    options: &Options,
    pack: &Pack,
    dice: DiceMode,
    rules: u32,
    chance: &mut Chance,
) -> Result<State, Rejection> {
    if rules >= 2 {
        super::content::check_worked_example(pack, "<game pack>")
            .map_err(|e| Rejection::new("setup.pack", format!("{}: {}", e.path, e.message)))?;
    }
    let n = players.len();
    let (rows, cols) = if n <= 4 { (3, 3) } else { (3, 4) };
    let keep = if n <= 4 {
        SMALL_ORDINARY
    } else {
        LARGE_ORDINARY
    };
    let piece = |b: &super::content::BlockPiece| Block {
        id: b.id.clone(),
        name: b.name.clone(),
        special: b.special,
        layout: b.layout.clone(),
        turned: 0,
    };
    let turn = |mut b: Block, degrees: u32| {
        b.layout = turned(&b.layout, degrees);
        b.turned = degrees;
        b
    };
    let blocks: Vec<Block> = match (dice, &options.layout) {
        (DiceMode::Digital, Some(_)) => {
            return reject(
                "option.layout",
                "this game lays its board out from the seed (digital dice): leave out `layout`",
            )
        }
        (DiceMode::Digital, None) => {
            let mut ordinary: Vec<Block> = pack
                .blocks
                .iter()
                .filter(|b| b.special.is_none())
                .map(piece)
                .collect();
            chance.shuffle("block pieces", &mut ordinary, "layout", None)?;
            ordinary.truncate(keep);
            if rules >= 2 {
                // Laid out at random, each piece lies whichever way it fell.
                for b in &mut ordinary {
                    let k = chance.roll("block piece turn", 4, "layout", None)?;
                    *b = turn(b.clone(), TURNS[(k - 1) as usize]);
                }
            }
            let mut board: Vec<Block> = pack
                .blocks
                .iter()
                .filter(|b| b.special.is_some())
                .map(piece)
                .chain(ordinary)
                .collect();
            chance.shuffle("board layout", &mut board, "layout", None)?;
            board
        }
        (DiceMode::Physical, None) => {
            return reject(
                "option.layout",
                format!(
                    "with physical dice, give the board as the table laid it out: `layout`, {} block ids row by row",
                    rows * cols
                ),
            )
        }
        (DiceMode::Physical, Some(ids)) => {
            if ids.len() != (rows * cols) as usize {
                return reject(
                    "option.layout",
                    format!(
                        "{n} players use {} blocks, but `layout` names {}",
                        rows * cols,
                        ids.len()
                    ),
                );
            }
            let mut seen = BTreeSet::new();
            let mut out = Vec::new();
            for entry in ids {
                let (id, degrees) = layout_entry(entry)?;
                let Some(b) = pack.blocks.iter().find(|b| b.id.eq_ignore_ascii_case(id)) else {
                    let known: Vec<&str> = pack.blocks.iter().map(|b| b.id.as_str()).collect();
                    return reject(
                        "option.layout",
                        format!(
                            "`layout` names `{id}`, which is not a block of this box ({})",
                            known.join(", ")
                        ),
                    );
                };
                if !seen.insert(b.id.as_str()) {
                    return reject("option.layout", format!("`layout` names `{id}` twice"));
                }
                if degrees != 0 && rules < 2 {
                    return reject(
                        "option.layout",
                        "pieces are turned from rules 2 on; this game was recorded under rules 1",
                    );
                }
                out.push(turn(piece(b), degrees));
            }
            for special in [Special::Lair, Special::Prison] {
                if !out.iter().any(|b| b.special == Some(special)) {
                    return reject(
                        "option.layout",
                        format!("`layout` must include the {special:?}"),
                    );
                }
            }
            out
        }
    };

    let mut faces = std::collections::BTreeMap::new();
    let mut pool = Vec::new();
    for c in &pack.rooftop_cards {
        let face = match (c.value, c.event) {
            (Some(v), _) => Face::Treasure(v),
            (None, Some(e)) => Face::Event(e),
            (None, None) => unreachable!("validated packs give every card a face"),
        };
        faces.insert(c.name.clone(), face);
        if n > 4 || c.edge == Edge::White {
            pool.extend(std::iter::repeat_n(c.name.clone(), c.count as usize));
        }
    }
    pool.sort();
    let rooftop_total = pool.len() as u32;

    let mut items = std::collections::BTreeMap::new();
    let mut deck = Vec::new();
    for i in &pack.equipment {
        items.insert(i.name.clone(), i.clone());
        deck.extend(std::iter::repeat_n(i.name.clone(), i.count as usize));
    }
    deck.sort();
    let equipment_total = deck.len() as u32;
    let supplied = options.offer.clone().unwrap_or_default();
    if dice == DiceMode::Physical && supplied.len() != 3 {
        return reject(
            "option.offer",
            "with physical dice, give the three equipment cards turned up first: `offer`",
        );
    }
    if dice == DiceMode::Digital && options.offer.is_some() {
        return reject(
            "option.offer",
            "this game shuffles its own equipment deck (digital dice): leave out `offer`",
        );
    }
    let mut offer = Vec::new();
    for i in 0..3 {
        let k = chance.pick(
            "equipment card",
            &deck,
            "offer",
            supplied.get(i).map(String::as_str),
        )?;
        offer.push(deck.remove(k));
    }

    let state = State {
        rules,
        dice,
        rows,
        cols,
        blocks,
        robbed: BTreeSet::new(),
        faces,
        pool,
        rooftop_discard: Vec::new(),
        rooftop_total,
        items,
        deck_unseen: deck,
        deck_bottom: Vec::new(),
        offer,
        equipment_discard: Vec::new(),
        equipment_total,
        policemen: Vec::new(),
        thieves: players
            .iter()
            .map(|p| Thief {
                player: p.clone(),
                at: Space::Lair,
                hand: Vec::new(),
                equipment: Vec::new(),
                fame: 0,
                in_prison: false,
            })
            .collect(),
        order: Vec::new(),
        round: 0,
        round_limit: options.round_limit,
        phase: Phase::Order {
            contenders: (0..n as Seat).collect(),
        },
        outcome: None,
    };
    if state.rooftops().len() != rooftop_total as usize {
        return reject(
            "setup.rooftops",
            format!(
                "the board has {} rooftops but the deck {rooftop_total} cards",
                state.rooftops().len()
            ),
        );
    }
    Ok(state)
}

fn acting(by: Option<Seat>, seat: Seat, state: &State) -> Result<(), Rejection> {
    match by {
        Some(b) if b != seat => reject(
            "ludovia.turn",
            format!("it is {}'s move, not {}'s", state.name(seat), state.name(b)),
        ),
        _ => Ok(()),
    }
}

/// A name as the box spells it, read in any letter case: `names` are the
/// box's own (an item, a rooftop card); a name none matches stays as given,
/// for the rule that refuses it to name.
fn boxed<'a>(name: &str, mut names: impl Iterator<Item = &'a String>) -> String {
    let name = name.trim();
    names
        .find(|n| n.eq_ignore_ascii_case(name))
        .cloned()
        .unwrap_or_else(|| name.to_string())
}

/// The action with every item and card name as the box spells it, so a
/// table may type `mask` for the Mask (the stored action keeps its words;
/// the facts carry the box's names).
fn names_read(state: &State, action: &Action) -> Option<Action> {
    let item = |n: &String| boxed(n, state.items.keys());
    let card = |n: &String| boxed(n, state.faces.keys());
    Some(match action {
        Action::Buy { item: i, pay, drew } => Action::Buy {
            item: item(i),
            pay: pay.iter().map(card).collect(),
            drew: drew.clone(),
        },
        Action::DiscardTreasure { card: c } => Action::DiscardTreasure { card: card(c) },
        Action::DiscardEquipment { item: i } => Action::DiscardEquipment { item: item(i) },
        Action::CashIn { cards: Some(cards) } => Action::CashIn {
            cards: Some(cards.iter().map(card).collect()),
        },
        _ => return None,
    })
}

pub fn decide(
    state: &State,
    by: Option<Seat>,
    action: &Action,
    chance: &mut Chance,
) -> Result<Vec<Fact>, Rejection> {
    let read = names_read(state, action);
    let action = read.as_ref().unwrap_or(action);
    let mut out = Out::new(state);
    match (&state.phase, action) {
        (Phase::Over, _) => return reject("game.over", "the night is over"),
        (Phase::Order { contenders }, Action::RollForOrder { rolls }) => {
            roll_for_order(&mut out, contenders, rolls.as_deref(), chance)?
        }
        (Phase::Order { .. }, _) => {
            return reject(
                "ludovia.order_first",
                "first roll for the turn order (`roll_for_order`)",
            )
        }
        (Phase::Placing { seat }, Action::PlacePoliceman { at, facing }) => {
            acting(by, *seat, state)?;
            check_placement(state, *at, *facing, false)?;
            out.push(Fact::PolicemanPlaced {
                seat: *seat,
                at: *at,
                facing: *facing,
                stake_out: false,
            });
            if out.s.turn().is_some() {
                let first = out.s.order[0];
                out.push(Fact::TurnBegan {
                    seat: first,
                    round: 1,
                });
            }
        }
        (Phase::Placing { seat }, _) => {
            return reject(
                "ludovia.place_policemen",
                format!(
                    "{} places a policeman first (`place_policeman`)",
                    state.name(*seat)
                ),
            )
        }
        (Phase::Playing(turn), _) => {
            let seat = turn.seat;
            acting(by, seat, state)?;
            match (turn.stage, action) {
                (
                    Stage::Policeman,
                    Action::MovePoliceman {
                        policeman,
                        roll,
                        step,
                    },
                ) => open_turn(&mut out, seat, *policeman, *roll, *step, chance)?,
                (Stage::Policeman, _) => {
                    return reject(
                        "ludovia.policeman_first",
                        "a turn opens by moving a policeman (`move_policeman`)",
                    )
                }
                (Stage::Trial, Action::StandTrial { roll }) => {
                    let roll = chance.roll("trial die", 6, "roll", *roll)?;
                    let charmed = roll == 5 && state.has(seat, Effect::LuckyCharm);
                    let acquitted = roll == 6 || charmed;
                    if charmed {
                        use_item(&mut out, seat, Effect::LuckyCharm, "ludovia.lucky_charm")?;
                    }
                    out.push(Fact::TrialHeld {
                        seat,
                        roll,
                        acquitted,
                    });
                    if acquitted {
                        out.push(Fact::StageSet {
                            seat,
                            stage: Stage::Actions,
                        });
                    } else {
                        out.push(Fact::ChoiceAwaited {
                            seat,
                            choice: Choice::ConvictionDiscard,
                        });
                    }
                }
                (Stage::Trial, _) => {
                    return reject(
                        "ludovia.trial",
                        "a prisoner carrying treasure stands trial first (`stand_trial`)",
                    )
                }
                (Stage::Choice(choice), _) => {
                    resolve_choice(&mut out, seat, choice, action, chance)?
                }
                (Stage::Actions, _) => take_action(&mut out, seat, action, chance)?,
            }
        }
    }
    finish(&mut out);
    Ok(out.facts)
}

fn roll_for_order(
    out: &mut Out,
    contenders: &[Seat],
    rolls: Option<&[u32]>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    if let Some(r) = rolls {
        if r.len() != contenders.len() {
            return reject(
                "ludovia.rolls",
                format!(
                    "give one roll per thief rolling ({}), not {}",
                    contenders.len(),
                    r.len()
                ),
            );
        }
    }
    let mut seat_rolls = Vec::new();
    for (i, &seat) in contenders.iter().enumerate() {
        let what = format!("order die for {}", out.s.name(seat));
        let roll = chance.roll(&what, 6, "rolls", rolls.and_then(|r| r.get(i).copied()))?;
        seat_rolls.push(SeatRoll { seat, roll });
    }
    let best = seat_rolls.iter().map(|r| r.roll).max().unwrap_or(0);
    let top: Vec<Seat> = seat_rolls
        .iter()
        .filter(|r| r.roll == best)
        .map(|r| r.seat)
        .collect();
    out.push(Fact::OrderRolled { rolls: seat_rolls });
    if let [first] = top[..] {
        let n = out.s.thieves.len() as Seat;
        out.push(Fact::OrderSettled {
            order: (0..n).map(|i| (first + i) % n).collect(),
        });
    }
    Ok(())
}

/// The lamp posts at the Prison's corners.
pub fn prison_posts(state: &State) -> Vec<Post> {
    let (r, c) = state.special_at(Special::Prison);
    vec![
        Post { r, c },
        Post { r, c: c + 1 },
        Post { r: r + 1, c },
        Post { r: r + 1, c: c + 1 },
    ]
}

fn check_placement(
    state: &State,
    at: Post,
    facing: Facing,
    stake_out: bool,
) -> Result<(), Rejection> {
    let grid = state.grid();
    if !grid.has_post(at) {
        return reject(
            "ludovia.no_such_post",
            format!("there is no lamp post {at}"),
        );
    }
    // Rules 1 kept placed policemen apart; they may share a post by moving,
    // and from rules 2 when placed too.
    if state.rules < 2 && state.policeman_at(at).is_some() {
        return reject(
            "ludovia.post_taken",
            format!("a policeman already stands at {at}"),
        );
    }
    if grid.faces_edge(at, facing) {
        return reject(
            "ludovia.facing_edge",
            format!(
                "a policeman at {at} facing {} would face off the board",
                facing.word()
            ),
        );
    }
    if stake_out && !prison_posts(state).contains(&at) {
        return reject(
            "ludovia.stake_out_post",
            format!("{at} is not a lamp post at a corner of the Prison"),
        );
    }
    if state.policemen.len() >= state.max_policemen() {
        return reject(
            "ludovia.police_limit",
            format!(
                "at most {} policemen patrol with {} thieves",
                state.max_policemen(),
                state.thieves.len()
            ),
        );
    }
    Ok(())
}

/// Where a policeman ends up after `step`, and whether he turned about.
pub fn step_policeman(state: &State, p: &Policeman, step: Step) -> (Post, Facing, bool) {
    let grid = state.grid();
    let (at, facing) = match step {
        Step::Left => (p.at, p.facing.left()),
        Step::Right => (p.at, p.facing.right()),
        Step::Advance => (
            grid.post_towards(p.at, p.facing)
                .expect("a policeman never faces the edge"),
            p.facing,
        ),
    };
    if grid.faces_edge(at, facing) {
        (at, facing.about(), true)
    } else {
        (at, facing, false)
    }
}

fn move_policeman(out: &mut Out, seat: Seat, policeman: usize, roll: Option<u32>, step: Step) {
    let p = out.s.policemen[policeman].clone();
    let (to, facing, turned_about) = step_policeman(&out.s, &p, step);
    out.push(Fact::PolicemanMoved {
        seat,
        policeman,
        roll,
        step,
        from: p.at,
        to,
        facing,
        turned_about,
    });
}

fn check_policeman(state: &State, policeman: usize) -> Result<(), Rejection> {
    if policeman >= state.policemen.len() {
        return reject(
            "ludovia.no_such_policeman",
            format!(
                "there are {} policemen, numbered from 0",
                state.policemen.len()
            ),
        );
    }
    Ok(())
}

fn open_turn(
    out: &mut Out,
    seat: Seat,
    policeman: usize,
    roll: Option<u32>,
    step: Option<Step>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    check_policeman(&out.s, policeman)?;
    let prisoner = out.s.thief(seat).in_prison;
    if prisoner {
        let Some(step) = step else {
            return reject(
                "ludovia.prisoner_chooses",
                "a prisoner does not roll: choose the policeman's `step` (left, right or advance)",
            );
        };
        if roll.is_some() {
            return reject(
                "ludovia.prisoner_chooses",
                "a prisoner does not roll: leave out `roll`",
            );
        }
        move_policeman(out, seat, policeman, None, step);
        if out.s.thief(seat).hand.is_empty() {
            out.push(Fact::Released { seat });
        } else {
            out.push(Fact::StageSet {
                seat,
                stage: Stage::Trial,
            });
        }
    } else {
        if step.is_some() {
            return reject(
                "ludovia.policeman_die",
                "only a prisoner chooses the policeman's move: leave out `step` and roll",
            );
        }
        let roll = chance.roll("policeman die", 6, "roll", roll)?;
        move_policeman(out, seat, policeman, Some(roll), Step::from_roll(roll));
    }
    Ok(())
}

fn spend(out: &mut Out, seat: Seat) {
    // A spare blue item is used at once, outside the action points.
    if out
        .s
        .turn()
        .is_some_and(|t| t.stage == Stage::Choice(Choice::SpareItem))
    {
        return;
    }
    let left = out.s.turn().map_or(0, |t| t.ap.saturating_sub(1));
    out.push(Fact::ActionPointSpent { seat, left });
}

/// Uses the item with `effect`: a blue one is used up; from rules 2 a kept
/// one (green, or red) is said to act. Rules 1 spent only blue items.
fn use_item(out: &mut Out, seat: Seat, effect: Effect, rule: &str) -> Result<(), Rejection> {
    match out.s.item_with(seat, effect) {
        Some(item) => {
            if out.s.items[&item].colour == Colour::Blue {
                out.push(Fact::EquipmentUsed { seat, item });
            } else if out.s.rules >= 2 {
                out.push(Fact::EquipmentActed { seat, item });
            }
            Ok(())
        }
        None => reject(
            rule,
            format!(
                "{} holds no {}",
                out.s.name(seat),
                item_name(&out.s, effect)
            ),
        ),
    }
}

fn item_name(state: &State, effect: Effect) -> String {
    state
        .items
        .values()
        .find(|i| i.effect == effect)
        .map_or_else(|| format!("{effect:?}"), |i| i.name.clone())
}

/// A move a thief could make from where they stand: the destination, and the
/// lamp post passed for a street-to-street move.
pub fn moves_from(state: &State, from: Space) -> Vec<(Space, Option<Post>)> {
    let grid = state.grid();
    let mut out = Vec::new();
    let special_streets = |special: Special| grid.block_streets(state.special_at(special));
    match from {
        Space::Lair => out.extend(special_streets(Special::Lair).map(|s| (Space::Street(s), None))),
        Space::Prison => {
            out.extend(special_streets(Special::Prison).map(|s| (Space::Street(s), None)))
        }
        Space::Street(s) => {
            for (t, post) in grid.street_moves(s) {
                out.push((Space::Street(t), Some(post)));
            }
            for (r, c) in grid.blocks_of(s) {
                for i in 0..3 {
                    for j in 0..3 {
                        let (row, col) = (3 * r + i, 3 * c + j);
                        let alley = matches!(
                            state.cell(row, col),
                            Some(CellKind::Alley | CellKind::BlackMarket)
                        );
                        if alley && grid.cell_streets(row, col).contains(&s) {
                            out.push((Space::Cell { row, col }, None));
                        }
                    }
                }
            }
            // The Lair can be entered from its streets; the Prison only by arrest.
            if special_streets(Special::Lair).contains(&s) {
                out.push((Space::Lair, None));
            }
        }
        Space::Cell { row, col } => {
            let kind = state.cell(row, col);
            let alley = matches!(kind, Some(CellKind::Alley | CellKind::BlackMarket));
            if alley {
                out.extend(
                    grid.cell_streets(row, col)
                        .into_iter()
                        .map(|s| (Space::Street(s), None)),
                );
            }
            for (nr, nc) in grid.cell_neighbours(row, col) {
                match state.cell(nr, nc) {
                    // Climbing happens only from an alley; rooftops link to rooftops.
                    Some(CellKind::Rooftop) => out.push((Space::Cell { row: nr, col: nc }, None)),
                    Some(CellKind::Alley | CellKind::BlackMarket) if !alley => {
                        out.push((Space::Cell { row: nr, col: nc }, None))
                    }
                    _ => {}
                }
            }
            if alley {
                // The two alleys of a block link when one is a Black Market.
                let (br, bc) = (row / 3 * 3, col / 3 * 3);
                for i in 0..3 {
                    for j in 0..3 {
                        let (r2, c2) = (br + i, bc + j);
                        let other = state.cell(r2, c2);
                        let linked = (kind == Some(CellKind::BlackMarket)
                            && other == Some(CellKind::Alley))
                            || (kind == Some(CellKind::Alley)
                                && other == Some(CellKind::BlackMarket));
                        let cell = Space::Cell { row: r2, col: c2 };
                        if linked && !out.iter().any(|(s, _)| *s == cell) {
                            out.push((cell, None));
                        }
                    }
                }
            }
        }
    }
    out
}

/// What the police make of a move: blocked at a lamp post, or an arrest on
/// a watched street. Only a thief carrying treasure is stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Police {
    Clear,
    Blocked(Post),
    Arrest(Street),
    /// Caught leaving a watched street.
    Leaving(Street),
}

pub fn police(state: &State, seat: Seat, from: Space, to: Space, passing: Option<Post>) -> Police {
    if state.thief(seat).hand.is_empty() {
        return Police::Clear;
    }
    if let Some(post) = passing {
        if state.policeman_at(post).is_some() {
            return Police::Blocked(post);
        }
    }
    let watched = state.watched();
    match (from, to) {
        // Leaving a street passes it: from rules 2, a street that became
        // watched under the thief's feet catches them as they go.
        (Space::Street(s), _) if state.rules >= 2 && watched.contains(&s) => Police::Leaving(s),
        (_, Space::Street(s)) if watched.contains(&s) => Police::Arrest(s),
        _ => Police::Clear,
    }
}

fn arrest_if_watched(out: &mut Out, seat: Seat, street: Street) {
    if !out.s.thief(seat).hand.is_empty() && out.s.watched().contains(&street) {
        out.push(Fact::ThiefArrested {
            seat,
            cause: ArrestCause::Watched,
            street: Some(street),
        });
    }
}

fn take_action(
    out: &mut Out,
    seat: Seat,
    action: &Action,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let here = out.s.thief(seat).at;
    match action {
        Action::EndTurn => end_turn(out, seat, TurnEnd::Chose),
        Action::Move { to, mask } => {
            let Some((_, passing)) = moves_from(&out.s, here).into_iter().find(|(s, _)| s == to)
            else {
                return reject("ludovia.move", format!("{to} is not one move from {here}"));
            };
            let verdict = police(&out.s, seat, here, *to, passing);
            if *mask {
                use_item(out, seat, Effect::Mask, "ludovia.mask")?;
            } else if let Police::Blocked(post) = verdict {
                return reject(
                    "ludovia.lamp_post_blocked",
                    format!("a policeman at {post} stops a thief carrying treasure from passing"),
                );
            }
            spend(out, seat);
            if let (Police::Leaving(street), false) = (verdict, mask) {
                out.push(Fact::ThiefArrested {
                    seat,
                    cause: ArrestCause::Leaving,
                    street: Some(street),
                });
                return Ok(());
            }
            out.push(Fact::ThiefMoved {
                seat,
                from: here,
                to: *to,
                masked: *mask,
            });
            if let (Police::Arrest(street), false) = (verdict, mask) {
                out.push(Fact::ThiefArrested {
                    seat,
                    cause: ArrestCause::Watched,
                    street: Some(street),
                });
            }
        }
        Action::Rob { drew, found } => {
            rob(out, seat, here, drew.as_deref(), found.as_deref(), chance)?
        }
        Action::Jump { to, roll, rope } => {
            let Space::Cell { row, col } = here else {
                return reject("ludovia.jump", "a jump starts from a rooftop");
            };
            if !out.s.is_rooftop(here) {
                return reject("ludovia.jump", "a jump starts from a rooftop");
            }
            let Some((_, street)) = out
                .s
                .grid()
                .across(row, col)
                .into_iter()
                .find(|((r, c), _)| Space::Cell { row: *r, col: *c } == *to)
            else {
                return reject(
                    "ludovia.jump",
                    format!("{to} is not straight across a street from {here}"),
                );
            };
            if !out.s.is_rooftop(*to) {
                return reject("ludovia.jump", format!("{to} is not a rooftop"));
            }
            let carried = out.s.thief(seat).hand.len() as u32;
            if carried == 0 || *rope {
                if roll.is_some() {
                    return reject(
                        "ludovia.no_roll",
                        "this jump needs no roll: leave out `roll`",
                    );
                }
                if *rope {
                    use_item(out, seat, Effect::RopeAndGrapple, "ludovia.rope")?;
                }
                spend(out, seat);
                out.push(Fact::JumpMade {
                    seat,
                    from: here,
                    to: *to,
                    roll: None,
                });
            } else {
                let die = chance.roll("jump die", 6, "roll", *roll)?;
                let bonus = u32::from(out.s.has(seat, Effect::SoftShoes));
                if bonus > 0 {
                    use_item(out, seat, Effect::SoftShoes, "ludovia.soft_shoes")?;
                }
                spend(out, seat);
                if die + bonus > carried {
                    out.push(Fact::JumpMade {
                        seat,
                        from: here,
                        to: *to,
                        roll: Some(die),
                    });
                } else {
                    out.push(Fact::ThiefFell {
                        seat,
                        street,
                        cause: FallCause::Jump,
                        roll: Some(die),
                    });
                    arrest_if_watched(out, seat, street);
                    end_turn(out, seat, TurnEnd::Cut);
                }
            }
        }
        Action::Steal {
            from,
            rolls,
            took,
            make_up,
        } => {
            let target = *from;
            // Refused before the dice, so a refusal says nothing of them.
            chance.check_supplied("stolen treasure", "took", took)?;
            face_off(&out.s, seat, target, false)?;
            if out.s.thief(target).hand.is_empty() {
                return reject(
                    "ludovia.steal_nothing",
                    format!("{} carries no treasure to steal", out.s.name(target)),
                );
            }
            if out.s.thief(seat).hand.len() >= out.s.carry_limit(seat) {
                return reject(
                    "ludovia.carry_limit",
                    format!(
                        "{} already carries {} rooftop cards",
                        out.s.name(seat),
                        out.s.carry_limit(seat)
                    ),
                );
            }
            let [a, d] = opposed(
                out,
                seat,
                target,
                rolls.as_deref(),
                *make_up,
                "steal",
                chance,
            )?;
            spend(out, seat);
            // A tie goes to the thief being robbed.
            let won = a > d;
            if !won && took.is_some() {
                // Physical dice only (digital refused `took` above): the
                // rolls are the table's own, so this tells nothing hidden.
                return reject(
                    "ludovia.no_draw",
                    "`took` names the card taken, but the steal failed: leave it out",
                );
            }
            let card = if won {
                let mut hand = out.s.thief(target).hand.clone();
                hand.sort();
                let k = chance.pick_hidden(
                    "stolen treasure",
                    &hand,
                    "took",
                    took.as_deref(),
                    &format!("a card from {}'s hand", out.s.name(target)),
                )?;
                Some(hand[k].clone())
            } else {
                None
            };
            out.push(Fact::StealTried {
                seat,
                from: target,
                rolls: [a, d],
                won,
                card,
            });
            if !won {
                end_turn(out, seat, TurnEnd::Cut);
            }
        }
        Action::KnockDown {
            target,
            street,
            rolls,
            make_up,
        } => {
            let target = *target;
            let bolas = face_off(&out.s, seat, target, true)?;
            let Space::Cell { row, col } = out.s.thief(target).at else {
                unreachable!("face_off checked the target is on a rooftop");
            };
            if !out
                .s
                .grid()
                .block_streets((row / 3, col / 3))
                .contains(street)
            {
                return reject(
                    "ludovia.knock_down_street",
                    format!(
                        "{street} is not a street of the block {} stands on",
                        out.s.name(target)
                    ),
                );
            }
            let [a, d] = opposed(
                out,
                seat,
                target,
                rolls.as_deref(),
                *make_up,
                "knock-down",
                chance,
            )?;
            // The knock-down's own action point pays for a Bolas thrown; a
            // blue Bolas is used up (rules 1 kept every Bolas silently).
            if bolas && out.s.rules >= 2 {
                use_item(out, seat, Effect::Bolas, "ludovia.bolas")?;
            }
            spend(out, seat);
            // A tie goes to the attacker.
            let won = a >= d;
            out.push(Fact::KnockDownTried {
                seat,
                target,
                rolls: [a, d],
                won,
            });
            if won {
                out.push(Fact::ThiefFell {
                    seat: target,
                    street: *street,
                    cause: FallCause::KnockedDown,
                    roll: None,
                });
                arrest_if_watched(out, target, *street);
            } else {
                end_turn(out, seat, TurnEnd::Cut);
            }
        }
        Action::Buy { item, pay, drew } => {
            buy(out, seat, here, item, pay, drew.as_deref(), chance)?
        }
        Action::CashIn { cards } => {
            if here != Space::Lair {
                return reject(
                    "ludovia.cash_in_lair",
                    "treasure turns into Fame and Fortune only in the Lair",
                );
            }
            let hand = out.s.thief(seat).hand.clone();
            let cards = cards.clone().unwrap_or(hand.clone());
            if cards.is_empty() {
                return reject("ludovia.cash_in_nothing", "there is no treasure to cash in");
            }
            check_subset(&hand, &cards, "ludovia.not_carried")?;
            let dollars = out.s.sum_value(&cards).ok_or_else(overflow)?;
            let points = dollars / 100;
            let fame = out
                .s
                .thief(seat)
                .fame
                .checked_add(points)
                .ok_or_else(overflow)?;
            spend(out, seat);
            out.push(Fact::FameGained {
                seat,
                cards,
                points,
                fame,
            });
            if fame >= FAME_TO_WIN {
                out.push(Fact::NightEnded {
                    outcome: Outcome {
                        winners: vec![seat],
                        why: format!(
                            "{} reached {fame} Fame and Fortune and leads the guild",
                            out.s.name(seat)
                        ),
                    },
                });
            }
        }
        Action::Whistle { policeman, roll } => {
            check_policeman(&out.s, *policeman)?;
            if !out.s.has(seat, Effect::Whistle) {
                return reject(
                    "ludovia.whistle",
                    format!(
                        "{} holds no {}",
                        out.s.name(seat),
                        item_name(&out.s, Effect::Whistle)
                    ),
                );
            }
            let roll = chance.roll("policeman die", 6, "roll", *roll)?;
            if out.s.rules >= 2 {
                // A green Whistle costs this action point; a blue one none.
                let green = out
                    .s
                    .item_with(seat, Effect::Whistle)
                    .is_some_and(|i| out.s.items[&i].colour == Colour::Green);
                use_item(out, seat, Effect::Whistle, "ludovia.whistle")?;
                if green {
                    spend(out, seat);
                }
            } else {
                spend(out, seat);
            }
            move_policeman(out, seat, *policeman, Some(roll), Step::from_roll(roll));
        }
        Action::RollForOrder { .. }
        | Action::PlacePoliceman { .. }
        | Action::MovePoliceman { .. }
        | Action::StandTrial { .. } => {
            return reject("ludovia.phase", "that is not an action of a thief's turn")
        }
        Action::DiscardTreasure { .. } | Action::DiscardEquipment { .. } | Action::Land { .. } => {
            return reject("ludovia.no_choice", "nothing asks for that choice now")
        }
    }
    Ok(())
}

/// Checks `seat` may duel `target`: both on the same rooftop, or (with
/// Bolas, for a knock-down) on neighbouring rooftops of one block. Returns
/// whether the Bolas is needed.
fn face_off(state: &State, seat: Seat, target: Seat, knock_down: bool) -> Result<bool, Rejection> {
    if target as usize >= state.thieves.len() || target == seat {
        return reject("ludovia.target", "name another thief at the table");
    }
    let (here, there) = (state.thief(seat).at, state.thief(target).at);
    if !state.is_rooftop(here) || !state.is_rooftop(there) {
        return reject("ludovia.same_rooftop", "thieves duel only on rooftops");
    }
    if here == there {
        return Ok(false);
    }
    if let (true, Space::Cell { row, col }) = (knock_down && state.has(seat, Effect::Bolas), here) {
        if state
            .grid()
            .cell_neighbours(row, col)
            .into_iter()
            .any(|(r, c)| Space::Cell { row: r, col: c } == there)
        {
            return Ok(true);
        }
    }
    reject(
        "ludovia.same_rooftop",
        format!(
            "{} is not on {}'s rooftop",
            state.name(target),
            state.name(seat)
        ),
    )
}

/// The attacker's and the defender's dice, the attacker's with Make-up.
fn opposed(
    out: &mut Out,
    seat: Seat,
    target: Seat,
    rolls: Option<&[u32]>,
    make_up: bool,
    what: &str,
    chance: &mut Chance,
) -> Result<[u32; 2], Rejection> {
    if rolls.is_some_and(|r| r.len() != 2) {
        return reject(
            "ludovia.rolls",
            "give two rolls: the attacker's, then the defender's",
        );
    }
    let a = chance.roll(
        &format!("{what} die for {}", out.s.name(seat)),
        6,
        "rolls",
        rolls.map(|r| r[0]),
    )?;
    let d = chance.roll(
        &format!("{what} die for {}", out.s.name(target)),
        6,
        "rolls",
        rolls.map(|r| r[1]),
    )?;
    let bonus = if make_up {
        use_item(out, seat, Effect::MakeUp, "ludovia.make_up")?;
        2
    } else {
        0
    };
    Ok([a + bonus, d])
}

/// A sum that would not fit: never reached with a pack within its limits
/// (see [`super::content::TREASURE_MAX`]), but a sum is never allowed to wrap.
fn overflow() -> Rejection {
    Rejection::new(
        "ludovia.overflow",
        "the treasure's worth would overflow: a card is worth more than a box can print",
    )
}

fn check_subset(hand: &[String], cards: &[String], rule: &str) -> Result<(), Rejection> {
    let mut left = hand.to_vec();
    for c in cards {
        match left.iter().position(|h| h == c) {
            Some(i) => {
                left.remove(i);
            }
            None => return reject(rule, format!("`{c}` is not among the treasures carried")),
        }
    }
    Ok(())
}

fn rob(
    out: &mut Out,
    seat: Seat,
    here: Space,
    drew: Option<&str>,
    found: Option<&str>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    // Refused before the card is drawn, so a refusal says nothing of it.
    chance.check_supplied("equipment card", "found", &found)?;
    if !out.s.is_rooftop(here) {
        return reject("ludovia.rob_rooftop", "only a rooftop can be robbed");
    }
    if out.s.robbed.contains(&here) {
        return reject(
            "ludovia.rooftop_robbed",
            format!("the card on {here} was already taken"),
        );
    }
    let limit = out.s.carry_limit(seat);
    if out.s.thief(seat).hand.len() >= limit {
        return reject(
            "ludovia.carry_limit",
            format!(
                "{} already carries {limit} rooftop cards: cash in, buy or lose some first",
                out.s.name(seat)
            ),
        );
    }
    let pool = out.s.pool.clone();
    let k = chance.pick_hidden(
        "rooftop card",
        &pool,
        "drew",
        drew,
        "a rooftop card still face down",
    )?;
    let card = pool[k].clone();
    let event = match out.s.faces.get(&card) {
        Some(Face::Event(e)) => Some(*e),
        _ => None,
    };
    if found.is_some() && event != Some(RooftopEvent::Equipment) {
        return reject(
            "ludovia.no_draw",
            "`found` names the equipment an Equipment event turns up: leave it out",
        );
    }
    spend(out, seat);
    out.push(Fact::RooftopRobbed {
        seat,
        rooftop: here,
        card: Some(card),
        event,
    });
    match event {
        None => {}
        Some(RooftopEvent::Dog) => {
            let t = out.s.thief(seat);
            if !t.hand.is_empty() || !t.equipment.is_empty() {
                out.push(Fact::ChoiceAwaited {
                    seat,
                    choice: Choice::DogDiscard,
                });
            }
        }
        Some(RooftopEvent::Trap) => out.push(Fact::ChoiceAwaited {
            seat,
            choice: Choice::TrapLanding,
        }),
        Some(RooftopEvent::StakeOut) => {
            out.push(Fact::ThiefArrested {
                seat,
                cause: ArrestCause::StakeOut,
                street: None,
            });
            if !stake_out_posts(&out.s).is_empty() {
                out.push(Fact::ChoiceAwaited {
                    seat,
                    choice: Choice::StakeOutPoliceman,
                });
            }
        }
        Some(RooftopEvent::Equipment) => {
            let item = draw_equipment(
                &out.s,
                1,
                found.map(|f| vec![f.to_string()]).as_deref(),
                "found",
                chance,
            )?
            .pop();
            out.push(Fact::EquipmentFound {
                seat,
                item: item.clone(),
            });
            if let Some(item) = item {
                let copies = out
                    .s
                    .thief(seat)
                    .equipment
                    .iter()
                    .filter(|e| **e == item)
                    .count();
                let blue = out
                    .s
                    .items
                    .get(&item)
                    .is_some_and(|i| i.colour == Colour::Blue);
                if copies > 1 && blue && out.s.rules >= 2 {
                    // A spare blue item is used at once (or let go): with
                    // it spent, no thief holds more than three.
                    out.push(Fact::ChoiceAwaited {
                        seat,
                        choice: Choice::SpareItem,
                    });
                    return Ok(());
                }
                if copies > 1 {
                    // Rules 1: a duplicate went at once, a blue one counted
                    // as the old copy used up, with nothing to use it on.
                    out.push(if blue {
                        Fact::EquipmentUsed { seat, item }
                    } else {
                        Fact::EquipmentDiscarded { seat, item }
                    });
                }
                if out.s.thief(seat).equipment.len() > MAX_EQUIPMENT {
                    out.push(Fact::ChoiceAwaited {
                        seat,
                        choice: Choice::EquipmentOverflow,
                    });
                }
            }
        }
    }
    Ok(())
}

/// Free lamp posts at the Prison's corners, while the police may grow.
pub fn stake_out_posts(state: &State) -> Vec<Post> {
    if state.policemen.len() >= state.max_policemen() {
        return Vec::new();
    }
    prison_posts(state)
        .into_iter()
        .filter(|p| state.rules >= 2 || state.policeman_at(*p).is_none())
        .collect()
}

/// Draws `n` cards off the equipment deck (fewer if it runs out), the unseen
/// part by chance and then the cards put under it in order.
fn draw_equipment(
    state: &State,
    n: usize,
    supplied: Option<&[String]>,
    field: &str,
    chance: &mut Chance,
) -> Result<Vec<String>, Rejection> {
    let mut unseen = state.deck_unseen.clone();
    let mut bottom = state.deck_bottom.clone();
    let mut out = Vec::new();
    let mut named = 0;
    for _ in 0..n {
        if !unseen.is_empty() {
            let k = chance.pick(
                "equipment card",
                &unseen,
                field,
                supplied.and_then(|s| s.get(named)).map(String::as_str),
            )?;
            named += 1;
            out.push(unseen.remove(k));
        } else if !bottom.is_empty() {
            out.push(bottom.remove(0));
        }
    }
    if supplied.is_some_and(|s| s.len() > named) {
        return reject(
            "ludovia.drew",
            format!("`{field}` names more cards than were drawn unseen ({named})"),
        );
    }
    Ok(out)
}

fn buy(
    out: &mut Out,
    seat: Seat,
    here: Space,
    item: &str,
    pay: &[String],
    drew: Option<&[String]>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let at_market = here == Space::Lair
        || matches!(here, Space::Cell { row, col } if out.s.cell(row, col) == Some(CellKind::BlackMarket));
    if !at_market {
        return reject(
            "ludovia.market",
            "equipment is bought only in the Lair or on a Black Market alley",
        );
    }
    if !out.s.offer.iter().any(|o| o == item) {
        return reject(
            "ludovia.not_on_offer",
            format!(
                "`{item}` is not on offer (offer: {})",
                out.s.offer.join(", ")
            ),
        );
    }
    if out.s.thief(seat).equipment.iter().any(|e| e == item) {
        return reject(
            "ludovia.equipment_duplicate",
            format!(
                "{} already holds a {item}: items held are all different",
                out.s.name(seat)
            ),
        );
    }
    check_subset(&out.s.thief(seat).hand, pay, "ludovia.not_carried")?;
    let paid = out.s.sum_value(pay).ok_or_else(overflow)?;
    let cost = out.s.items[item].cost;
    if paid < cost {
        return reject(
            "ludovia.price",
            format!("a {item} costs ${cost}, and ${paid} does not cover it"),
        );
    }
    spend(out, seat);
    out.push(Fact::EquipmentBought {
        seat,
        item: item.to_string(),
        paid: pay.to_vec(),
        lost: paid - cost,
    });
    let to_bottom = out.s.offer.clone();
    let mut after = out.s.clone();
    after.deck_bottom.extend(to_bottom.iter().cloned());
    let drawn = draw_equipment(&after, 3, drew, "drew", chance)?;
    out.push(Fact::OfferRenewed { to_bottom, drawn });
    if out.s.thief(seat).equipment.len() > MAX_EQUIPMENT {
        out.push(Fact::ChoiceAwaited {
            seat,
            choice: Choice::EquipmentOverflow,
        });
    }
    Ok(())
}

fn resolve_choice(
    out: &mut Out,
    seat: Seat,
    choice: Choice,
    action: &Action,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let back = |out: &mut Out| {
        out.push(Fact::StageSet {
            seat,
            stage: Stage::Actions,
        })
    };
    match (choice, action) {
        (Choice::ConvictionDiscard | Choice::DogDiscard, Action::DiscardTreasure { card }) => {
            check_subset(
                &out.s.thief(seat).hand,
                std::slice::from_ref(card),
                "ludovia.not_carried",
            )?;
            out.push(Fact::TreasureDiscarded {
                seat,
                card: card.clone(),
            });
            back(out);
        }
        (
            Choice::DogDiscard | Choice::EquipmentOverflow | Choice::SpareItem,
            Action::DiscardEquipment { item },
        ) => {
            if choice == Choice::SpareItem && out.s.spare_item(seat).as_ref() != Some(item) {
                return reject(
                    "ludovia.spare_item",
                    format!("{} holds no spare {item}", out.s.name(seat)),
                );
            }
            if !out.s.thief(seat).equipment.contains(item) {
                return reject(
                    "ludovia.not_held",
                    format!(
                        "{} holds no {item}{}",
                        out.s.name(seat),
                        crate::suggest::did_you_mean(
                            item,
                            out.s.thief(seat).equipment.iter().map(String::as_str)
                        )
                    ),
                );
            }
            out.push(Fact::EquipmentDiscarded {
                seat,
                item: item.clone(),
            });
            back(out);
        }
        (Choice::TrapLanding, Action::Land { street }) => {
            let Space::Cell { row, col } = out.s.thief(seat).at else {
                unreachable!("a trap is sprung on a rooftop");
            };
            if !out
                .s
                .grid()
                .block_streets((row / 3, col / 3))
                .contains(street)
            {
                return reject(
                    "ludovia.trap_street",
                    format!("{street} is not a street of this block"),
                );
            }
            out.push(Fact::ThiefFell {
                seat,
                street: *street,
                cause: FallCause::Trap,
                roll: None,
            });
            arrest_if_watched(out, seat, *street);
            back(out);
        }
        (Choice::SpareItem, Action::EndTurn) => {
            return reject(
                "ludovia.spare_item",
                "use the spare item at once or let it go (`discard_equipment`)",
            )
        }
        (Choice::SpareItem, _) => {
            let spare = out.s.spare_item(seat).ok_or_else(|| {
                Rejection::new("ludovia.spare_item", "there is no spare item to use")
            })?;
            take_action(out, seat, action, chance)?;
            if out.s.spare_item(seat).as_ref() == Some(&spare) {
                return reject(
                    "ludovia.spare_item",
                    format!("that does not use the spare {spare}: use it or let it go (`discard_equipment`)"),
                );
            }
            // The action may have ended the turn itself (a fall, a lost duel).
            if out
                .s
                .turn()
                .is_some_and(|t| t.seat == seat && t.stage == Stage::Choice(Choice::SpareItem))
            {
                back(out);
            }
        }
        (Choice::StakeOutPoliceman, Action::PlacePoliceman { at, facing }) => {
            check_placement(&out.s, *at, *facing, true)?;
            out.push(Fact::PolicemanPlaced {
                seat,
                at: *at,
                facing: *facing,
                stake_out: true,
            });
            back(out);
        }
        (choice, _) => {
            let want = match choice {
                Choice::ConvictionDiscard => "convicted: choose a treasure to give up (`discard_treasure`)",
                Choice::DogDiscard => "the Dog: give up a treasure or an item (`discard_treasure` or `discard_equipment`)",
                Choice::TrapLanding => "the Trap: choose the street to land on (`land`)",
                Choice::StakeOutPoliceman => "the Stake-out: place a policeman at a corner of the Prison (`place_policeman`)",
                Choice::EquipmentOverflow => "four items: give one up (`discard_equipment`)",
                Choice::SpareItem => "a spare blue item: use it at once or let it go (`discard_equipment`)",
            };
            return reject("ludovia.choice_pending", want);
        }
    }
    Ok(())
}

fn end_turn(out: &mut Out, seat: Seat, why: TurnEnd) {
    let why = (out.s.rules >= 2).then_some(why);
    out.push(Fact::TurnEnded { seat, why });
    if out.s.robbed.len() as u32 == out.s.rooftop_total {
        let outcome = standings_outcome(&out.s, "the last rooftop was robbed");
        out.push(Fact::NightEnded { outcome });
        return;
    }
    let next = out.s.next_seat(seat);
    let round = if next == out.s.order[0] {
        out.s.round.saturating_add(1)
    } else {
        out.s.round
    };
    if round > out.s.round_limit {
        let outcome = standings_outcome(
            &out.s,
            &format!(
                "dawn broke after round {} (the round limit)",
                out.s.round_limit
            ),
        );
        out.push(Fact::NightEnded { outcome });
        return;
    }
    out.push(Fact::TurnBegan { seat: next, round });
}

/// Most Fame and Fortune wins; then the most treasure carried; then a shared title.
pub fn standings_outcome(state: &State, why: &str) -> Outcome {
    let key = |s: Seat| (state.thief(s).fame, state.hand_value(s));
    let seats: Vec<Seat> = (0..state.thieves.len() as Seat).collect();
    let best = seats.iter().map(|&s| key(s)).max().unwrap_or((0, 0));
    Outcome {
        winners: seats.into_iter().filter(|&s| key(s) == best).collect(),
        why: why.to_string(),
    }
}

/// Ends the turn when it has run its course; ends the night when the last
/// rooftop is robbed and nothing is left to settle.
fn finish(out: &mut Out) {
    let Some(turn) = out.s.turn().cloned() else {
        return;
    };
    if turn.stage != Stage::Actions {
        return;
    }
    let prisoner = out.s.thief(turn.seat).in_prison;
    if turn.ap == 0 || turn.ending || prisoner {
        let why = if turn.ending || prisoner {
            TurnEnd::Cut
        } else {
            TurnEnd::Spent
        };
        end_turn(out, turn.seat, why);
        return;
    }
    if out.s.robbed.len() as u32 == out.s.rooftop_total {
        let outcome = standings_outcome(&out.s, "the last rooftop was robbed");
        out.push(Fact::NightEnded { outcome });
    }
}

/// Every action open now, for `seat` or the table.
pub fn legal(state: &State, seat: Option<Seat>, dice: DiceMode) -> Vec<Legal<Action>> {
    let physical = dice == DiceMode::Physical;
    let need = |l: Legal<Action>, what: &str| {
        if physical {
            Legal::needing(l.action, vec![what.to_string()])
        } else {
            l
        }
    };
    let mut out = Vec::new();
    match &state.phase {
        Phase::Over => {}
        Phase::Order { contenders } => {
            let names: Vec<&str> = contenders.iter().map(|&s| state.name(s)).collect();
            out.push(need(
                Legal::ready(Action::RollForOrder { rolls: None }),
                &format!("rolls: one d6 each, in this order: {}", names.join(", ")),
            ));
        }
        Phase::Placing { seat: placer } => {
            if seat.is_none_or(|s| s == *placer) {
                out.extend(placements(state, state.grid().posts()));
            }
        }
        Phase::Playing(turn) => {
            if seat.is_some_and(|s| s != turn.seat) {
                return out;
            }
            let me = turn.seat;
            let t = state.thief(me);
            match turn.stage {
                Stage::Policeman => {
                    for i in 0..state.policemen.len() {
                        if t.in_prison {
                            for step in [Step::Left, Step::Right, Step::Advance] {
                                out.push(Legal::ready(Action::MovePoliceman {
                                    policeman: i,
                                    roll: None,
                                    step: Some(step),
                                }));
                            }
                        } else {
                            out.push(need(
                                Legal::ready(Action::MovePoliceman {
                                    policeman: i,
                                    roll: None,
                                    step: None,
                                }),
                                "roll: the policeman die, 1-6",
                            ));
                        }
                    }
                }
                Stage::Trial => out.push(need(
                    Legal::ready(Action::StandTrial { roll: None }),
                    "roll: the trial die, 1-6",
                )),
                Stage::Choice(choice) => {
                    let treasures = || {
                        distinct(&t.hand)
                            .into_iter()
                            .map(|card| Legal::ready(Action::DiscardTreasure { card }))
                    };
                    let items = || {
                        distinct(&t.equipment)
                            .into_iter()
                            .map(|item| Legal::ready(Action::DiscardEquipment { item }))
                    };
                    match choice {
                        Choice::ConvictionDiscard => out.extend(treasures()),
                        Choice::DogDiscard => {
                            out.extend(treasures());
                            out.extend(items());
                        }
                        Choice::EquipmentOverflow => out.extend(items()),
                        Choice::TrapLanding => {
                            if let Space::Cell { row, col } = t.at {
                                for street in state.grid().block_streets((row / 3, col / 3)) {
                                    out.push(Legal::ready(Action::Land { street }));
                                }
                            }
                        }
                        Choice::StakeOutPoliceman => {
                            out.extend(placements(state, stake_out_posts(state)))
                        }
                        Choice::SpareItem => {
                            if let Some(spare) = state.spare_item(me) {
                                out.extend(spare_uses(state, me, &spare, physical));
                                out.push(Legal::ready(Action::DiscardEquipment { item: spare }));
                            }
                        }
                    }
                }
                Stage::Actions => out.extend(turn_actions(state, me, physical)),
            }
        }
    }
    if physical {
        for l in &mut out {
            l.picks = picks(state, &l.action);
        }
    }
    out
}

/// The cards a physical draw may name, for a picker: every rooftop card or
/// item of the box. The whole catalogue, never what is left face down,
/// which would tell a seat what the others hold.
fn picks(state: &State, action: &Action) -> Vec<Pick> {
    let cards = || state.faces.keys().cloned().collect::<Vec<_>>();
    let items = || state.items.keys().cloned().collect::<Vec<_>>();
    let pick = |field: &str, values: Vec<String>, many: bool| Pick {
        field: field.into(),
        values,
        many,
    };
    match action {
        Action::Rob { .. } => vec![pick("drew", cards(), false), pick("found", items(), false)],
        Action::Steal { .. } => vec![pick("took", cards(), false)],
        Action::Buy { .. } => vec![pick("drew", items(), true)],
        _ => Vec::new(),
    }
}

fn distinct(names: &[String]) -> Vec<String> {
    let set: BTreeSet<&String> = names.iter().collect();
    set.into_iter().cloned().collect()
}

fn placements(state: &State, posts: Vec<Post>) -> Vec<Legal<Action>> {
    let mut out = Vec::new();
    if state.policemen.len() >= state.max_policemen() {
        return out;
    }
    for at in posts {
        if state.rules < 2 && state.policeman_at(at).is_some() {
            continue;
        }
        for facing in Facing::ALL {
            if !state.grid().faces_edge(at, facing) {
                out.push(Legal::ready(Action::PlacePoliceman { at, facing }));
            }
        }
    }
    out
}

fn turn_actions(state: &State, me: Seat, physical: bool) -> Vec<Legal<Action>> {
    let t = state.thief(me);
    let mut out = vec![Legal::ready(Action::EndTurn)];
    let need = |action: Action, what: &str| {
        Legal::needing(
            action,
            if physical {
                vec![what.to_string()]
            } else {
                Vec::new()
            },
        )
    };
    let mask = state.has(me, Effect::Mask);
    for (to, passing) in moves_from(state, t.at) {
        match police(state, me, t.at, to, passing) {
            Police::Clear => out.push(Legal::ready(Action::Move { to, mask: false })),
            Police::Arrest(_) | Police::Leaving(_) => {
                out.push(Legal::ready(Action::Move { to, mask: false }));
                if mask {
                    out.push(Legal::ready(Action::Move { to, mask: true }));
                }
            }
            Police::Blocked(_) => {
                if mask {
                    out.push(Legal::ready(Action::Move { to, mask: true }));
                }
            }
        }
    }
    let room = t.hand.len() < state.carry_limit(me);
    if state.is_rooftop(t.at) && !state.robbed.contains(&t.at) && room {
        out.push(need(
            Action::Rob {
                drew: None,
                found: None,
            },
            "drew: the rooftop card turned up (and found: the equipment card, for an Equipment event)",
        ));
    }
    if let (true, Space::Cell { row, col }) = (state.is_rooftop(t.at), t.at) {
        for ((r, c), _) in state.grid().across(row, col) {
            let to = Space::Cell { row: r, col: c };
            if !state.is_rooftop(to) {
                continue;
            }
            if t.hand.is_empty() {
                out.push(Legal::ready(Action::Jump {
                    to,
                    roll: None,
                    rope: false,
                }));
            } else {
                out.push(need(
                    Action::Jump {
                        to,
                        roll: None,
                        rope: false,
                    },
                    "roll: the jump die, 1-6",
                ));
                if state.has(me, Effect::RopeAndGrapple) {
                    out.push(Legal::ready(Action::Jump {
                        to,
                        roll: None,
                        rope: true,
                    }));
                }
            }
        }
        let make_ups: &[bool] = if state.has(me, Effect::MakeUp) {
            &[false, true]
        } else {
            &[false]
        };
        for other in 0..state.thieves.len() as Seat {
            if other == me {
                continue;
            }
            let there = state.thief(other).at;
            if there == t.at && room && !state.thief(other).hand.is_empty() {
                for &make_up in make_ups {
                    out.push(need(
                        Action::Steal {
                            from: other,
                            rolls: None,
                            took: None,
                            make_up,
                        },
                        "rolls: the attacker's d6 then the defender's (and took: the card taken, if the attacker wins)",
                    ));
                }
            }
            if face_off(state, me, other, true).is_ok() {
                if let Space::Cell { row: r2, col: c2 } = there {
                    for street in state.grid().block_streets((r2 / 3, c2 / 3)) {
                        for &make_up in make_ups {
                            out.push(need(
                                Action::KnockDown {
                                    target: other,
                                    street,
                                    rolls: None,
                                    make_up,
                                },
                                "rolls: the attacker's d6 then the defender's",
                            ));
                        }
                    }
                }
            }
        }
    }
    let at_market = t.at == Space::Lair
        || matches!(t.at, Space::Cell { row, col } if state.cell(row, col) == Some(CellKind::BlackMarket));
    if at_market {
        let payments = payments(&t.hand);
        for item in distinct(&state.offer) {
            if t.equipment.contains(&item) {
                continue;
            }
            let cost = state.items[&item].cost;
            for pay in &payments {
                if state.sum_value(pay).is_some_and(|v| v >= cost) {
                    out.push(need(
                        Action::Buy {
                            item: item.clone(),
                            pay: pay.clone(),
                            drew: None,
                        },
                        "drew: the equipment cards turned up for the new offer",
                    ));
                }
            }
        }
    }
    if t.at == Space::Lair && !t.hand.is_empty() {
        out.push(Legal::ready(Action::CashIn { cards: None }));
    }
    if state.has(me, Effect::Whistle) {
        for policeman in 0..state.policemen.len() {
            out.push(need(
                Action::Whistle {
                    policeman,
                    roll: None,
                },
                "roll: the policeman die, 1-6",
            ));
        }
    }
    out
}

/// The actions that use a spare blue item at once.
fn spare_uses(state: &State, me: Seat, spare: &str, physical: bool) -> Vec<Legal<Action>> {
    let effect = state.items[spare].effect;
    turn_actions(state, me, physical)
        .into_iter()
        .filter(|l| match &l.action {
            Action::Move { mask, .. } => *mask && effect == Effect::Mask,
            Action::Jump { rope, .. } => *rope && effect == Effect::RopeAndGrapple,
            Action::Steal { make_up, .. } => *make_up && effect == Effect::MakeUp,
            Action::KnockDown {
                target, make_up, ..
            } => {
                (*make_up && effect == Effect::MakeUp)
                    || (effect == Effect::Bolas && state.thief(*target).at != state.thief(me).at)
            }
            Action::Whistle { .. } => effect == Effect::Whistle,
            _ => false,
        })
        .collect()
}

/// Every distinct non-empty selection of cards from a hand.
fn payments(hand: &[String]) -> Vec<Vec<String>> {
    let mut sorted = hand.to_vec();
    sorted.sort();
    let mut seen = BTreeSet::new();
    for mask in 1u32..(1 << sorted.len()) {
        let pick: Vec<String> = (0..sorted.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| sorted[i].clone())
            .collect();
        seen.insert(pick);
    }
    seen.into_iter().collect()
}
