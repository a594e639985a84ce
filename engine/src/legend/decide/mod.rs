//! Every LEGEND rule: setup, whose turn it is, moves, placements, battles,
//! votes, duels, abilities, the end of the game and the score table.
//!
//! `decide` plays the action on a copy of the state, applying each fact as it
//! is decided, so later checks in the same action see earlier effects (an Item
//! spent on an Obstacle is gone by the Monster on the next square).

use std::collections::{BTreeMap, BTreeSet};

use tabletape_events::{DiceMode, Seat};

use super::actions::{
    AbilityName, Action, Ballot, Category, Choice, CornerName, Described, Fact, Fate, Object,
    Outcome, Score, Step, Tally, Use, Votes,
};
use super::apply::apply;
use super::content::{corner_square, Crossing, Sq, CORNERS};
use super::options::Options;
use super::state::{At, Phase, Piece, SeatState, State, ROUNDS};
use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::rules::Legal;

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
        rules: <super::Legend as crate::rules::Rules>::RULES_VERSION,
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

/// A state being decided on, with the facts so far.
struct Sim {
    s: State,
    facts: Vec<Fact>,
    /// Whether the step being played has used its `their_story`.
    their_story_told: bool,
}

impl Sim {
    fn emit(&mut self, fact: Fact) {
        apply(&mut self.s, &fact);
        self.facts.push(fact);
    }

    fn piece(&self, id: u32) -> Result<Piece, Rejection> {
        match self.s.pieces.get(&id) {
            Some(p) => Ok(p.clone()),
            None => reject("legend.piece.unknown", format!("there is no object #{id}")),
        }
    }
}

fn text_given(field: &str, rule: &str, t: &str) -> Result<(), Rejection> {
    if t.trim().is_empty() {
        return reject(rule, format!("`{field}` must not be empty"));
    }
    Ok(())
}

fn own(s: &State, p: &Piece, seat: Seat) -> Result<(), Rejection> {
    if p.controller != seat {
        return reject(
            "legend.piece.not_yours",
            format!(
                "{} is controlled by {}, not {}",
                p.name,
                s.player(p.controller),
                s.player(seat)
            ),
        );
    }
    Ok(())
}

pub fn decide(
    state: &State,
    by: Option<Seat>,
    action: &Action,
    chance: &mut Chance,
) -> Result<Vec<Fact>, Rejection> {
    let mut sim = Sim {
        s: state.clone(),
        facts: Vec::new(),
        their_story_told: false,
    };
    if state.phase == Phase::Over {
        return reject("game.over", "the legend is already told");
    }
    if let Action::Introduce {
        seat,
        corner,
        avatar,
        talisman,
        symbol,
        ability,
        custom,
        votes,
        explanation,
    } = action
    {
        introduce(
            &mut sim,
            by,
            *seat,
            *corner,
            avatar,
            talisman,
            symbol,
            *ability,
            custom,
            votes,
            explanation,
        )?;
        return Ok(sim.facts);
    }
    if state.phase == Phase::Introductions {
        return reject(
            "legend.setup.introductions",
            "every player must introduce an Avatar, Talisman and Symbol before round 1",
        );
    }
    let named = match action {
        Action::Move { seat, .. }
        | Action::Place { seat, .. }
        | Action::Ability { seat, .. }
        | Action::Duel { seat, .. }
        | Action::Pass { seat, .. } => *seat,
        Action::Introduce { .. } => None,
    };
    let seat = state.current();
    for who in [by, named].into_iter().flatten() {
        if who != seat {
            return reject(
                "legend.turn.not_yours",
                format!("it is {}'s turn, not seat {who}'s", state.player(seat)),
            );
        }
    }
    let explanation = match action {
        Action::Move { explanation, .. }
        | Action::Place { explanation, .. }
        | Action::Ability { explanation, .. }
        | Action::Duel { explanation, .. }
        | Action::Pass { explanation, .. } => explanation,
        Action::Introduce { .. } => &None,
    };
    if let Some(text) = explanation {
        text_given("explanation", "legend.explanation.empty", text)?;
        sim.emit(Fact::Explained {
            seat,
            text: text.clone(),
        });
    }
    match action {
        Action::Move { pieces, .. } => decide_move(&mut sim, seat, pieces)?,
        Action::Place {
            object,
            squares,
            at,
            scenery,
            recycle,
            ..
        } => place(&mut sim, seat, object, squares, *at, scenery, *recycle)?,
        Action::Ability { used, .. } => ability(&mut sim, seat, used, chance)?,
        Action::Duel {
            piece,
            opponent,
            account,
            opponent_account,
            votes,
            heads,
            ..
        } => duel(
            &mut sim,
            seat,
            *piece,
            *opponent,
            account,
            opponent_account,
            votes,
            *heads,
            chance,
        )?,
        Action::Pass { .. } => {
            advance(&mut sim);
            return Ok(sim.facts);
        }
        Action::Introduce { .. } => unreachable!("handled above"),
    }
    if sim.s.phase == Phase::Playing && sim.s.actions_used >= sim.s.actions_allowed {
        advance(&mut sim);
    }
    Ok(sim.facts)
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
pub fn default_corner(s: &State, seat: Seat) -> u8 {
    (0..4u8)
        .map(|k| (seat as u8 + k) % 4)
        .find(|c| !corner_claimed(s, *c))
        .unwrap_or(seat as u8 % 4)
}

#[allow(clippy::too_many_arguments)]
fn introduce(
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
                    super::content::CORNERS[c.index() as usize],
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

/// Ends the turn: the next seat in order (skipping those who lost a Gamble
/// on their second action), a new round, or the end after round 7.
fn advance(sim: &mut Sim) {
    let n = sim.s.order.len();
    let mut idx = sim.s.turn;
    let mut skipped = Vec::new();
    loop {
        idx += 1;
        if idx == n {
            idx = 0;
            let round = sim.s.round + 1;
            if round > ROUNDS {
                let scores = scores(&sim.s);
                let winners = winners(&scores);
                sim.emit(Fact::GameEnded {
                    outcome: Outcome::Points { scores, winners },
                });
                return;
            }
            sim.emit(Fact::RoundBegan { round });
        }
        let seat = sim.s.order[idx];
        if sim.s.skip_next.contains(&seat) && !skipped.contains(&seat) {
            skipped.push(seat);
            continue;
        }
        sim.emit(Fact::TurnPassed { seat, skipped });
        return;
    }
}

fn tally(s: &State, actor: Seat, aye: &[Seat], against: &[Seat]) -> Result<Tally, Rejection> {
    let mut seen = BTreeSet::new();
    for v in aye.iter().chain(against) {
        if *v as usize >= s.seats.len() || *v == actor {
            return reject(
                "legend.voting.voter",
                format!("seat {v} cannot vote here: the other players vote on the acting player's explanation"),
            );
        }
        if !seen.insert(*v) {
            return reject("legend.voting.voter", format!("seat {v} voted twice"));
        }
    }
    let (a, b) = (aye.len() as u32, against.len() as u32);
    Ok(Tally {
        aye: a,
        against: b,
        // The acting player breaks a tie, in their own favour.
        passed: a >= b,
        tie: a == b && a > 0,
    })
}

/// Votes on an explanation; true when it stands (first or second telling).
fn take_vote(sim: &mut Sim, seat: Seat, about: &str, v: &Votes) -> Result<bool, Rejection> {
    // A second vote counts only a retelling: without one it would be dropped.
    if v.retold.is_none() && !(v.retold_for.is_empty() && v.retold_against.is_empty()) {
        return reject(
            "legend.voting.retold",
            "`votes.retold_for` and `votes.retold_against` count the vote on a retelling: give `votes.retold` too, or leave them out",
        );
    }
    let first = tally(&sim.s, seat, &v.aye, &v.against)?;
    let (retold, second) = if first.passed {
        if v.retold.is_some() {
            return reject(
                "legend.voting.retold",
                "the first telling stood: there is nothing to retell",
            );
        }
        (None, None)
    } else if let Some(r) = &v.retold {
        text_given("votes.retold", "legend.voting.retold", r)?;
        (
            Some(r.clone()),
            Some(tally(&sim.s, seat, &v.retold_for, &v.retold_against)?),
        )
    } else {
        (None, None)
    };
    let passed = second.as_ref().map_or(first.passed, |t| t.passed);
    sim.emit(Fact::VoteTaken {
        seat,
        about: about.to_string(),
        tally: first,
        retold,
        second,
    });
    Ok(passed)
}

/// Whether an explanation of Item use stands (uncontested when no votes).
fn item_vote(
    sim: &mut Sim,
    seat: Seat,
    about: &str,
    votes: &Option<Votes>,
) -> Result<bool, Rejection> {
    match votes {
        None => Ok(true),
        Some(_) if !sim.s.options.voting => {
            reject("legend.voting.off", "this game is played without Voting")
        }
        Some(v) => take_vote(sim, seat, about, v),
    }
}

/// The telling that stood: the retold story when the first was voted down.
fn final_story(told: String, votes: &Option<Votes>) -> String {
    votes
        .as_ref()
        .and_then(|v| v.retold.clone())
        .unwrap_or(told)
}

/// The other side's telling of a battle it means to win.
fn their_story<'a>(
    given: &'a Option<String>,
    who: &str,
    player: &str,
) -> Result<&'a str, Rejection> {
    match given {
        Some(s) if !s.trim().is_empty() => Ok(s),
        _ => reject(
            "legend.story.needed",
            format!("{who} meets the Monster with an Item: {player}, whose side would win, tells how in `their_story`"),
        ),
    }
}

fn story<'a>(step_story: &'a Option<String>, who: &str) -> Result<&'a str, Rejection> {
    match step_story {
        Some(s) if !s.trim().is_empty() => Ok(s),
        _ => reject(
            "legend.story.needed",
            format!("{who} uses an Item: give the `story` of how it is used"),
        ),
    }
}

/// A defeated Avatar, Hero or Monster: Avatars respawn, the rest go to the
/// victor's Stockpile; whatever it carried stays on its square.
fn defeat(sim: &mut Sim, id: u32, victor: Seat) {
    let p = sim.s.pieces[&id].clone();
    let fate = match p.category {
        Category::Avatar => Fate::Respawned {
            corner: sim.s.seat(p.controller).corner,
        },
        _ => Fate::Stockpiled { seat: victor },
    };
    let dropped: Vec<u32> = sim.s.carried(id).map(|c| c.id).collect();
    sim.emit(Fact::Defeated {
        piece: id,
        fate,
        dropped,
        square: p.square(),
    });
}

fn decide_move(sim: &mut Sim, seat: Seat, steps: &[Step]) -> Result<(), Rejection> {
    if steps.is_empty() {
        return reject(
            "legend.move.empty",
            "a Move names at least one piece in `pieces`",
        );
    }
    let mut seen = BTreeSet::new();
    for st in steps {
        if !seen.insert(st.piece) {
            return reject(
                "legend.move.twice",
                format!("#{} is moved twice in one Move", st.piece),
            );
        }
    }
    sim.emit(Fact::ActionTaken {
        seat,
        kind: "move".into(),
    });
    for st in steps {
        let p = sim.piece(st.piece)?;
        own(&sim.s, &p, seat)?;
        let before = sim.facts.len();
        sim.their_story_told = false;
        match p.category {
            Category::Avatar | Category::Hero => move_character(sim, seat, &p, st)?,
            Category::Monster => move_monster(sim, seat, &p, st)?,
            other => {
                return reject(
                    "legend.move.not_movable",
                    format!(
                        "{} is {} {}: only Avatars, Heroes and Monsters move",
                        p.name,
                        article(other),
                        other.word()
                    ),
                )
            }
        }
        if st.rewrite {
            rewrite(sim, seat, st.piece, true)?;
        }
        // Votes judge an Item's use; given where none was used, they would
        // be stored and never counted.
        let voted = sim.facts[before..]
            .iter()
            .any(|f| matches!(f, Fact::VoteTaken { .. }));
        if st.votes.is_some() && !voted {
            if !sim.s.options.voting {
                return reject("legend.voting.off", "this game is played without Voting");
            }
            return reject(
                "legend.voting.unused",
                format!(
                    "the `votes` for #{} judge no Item use: {} used no Item on this Move",
                    st.piece, p.name
                ),
            );
        }
        if st.their_story.is_some() && !sim.their_story_told {
            return reject(
                "legend.story.unused",
                format!(
                    "`their_story` for #{} is the other side's telling of a battle it wins, and {} fought none it could win",
                    st.piece, p.name
                ),
            );
        }
        if sim.s.phase == Phase::Over {
            break;
        }
    }
    Ok(())
}

fn article(c: Category) -> &'static str {
    match c {
        Category::Avatar | Category::Item | Category::Obstacle => "an",
        _ => "a",
    }
}

fn rewrite(sim: &mut Sim, seat: Seat, piece: u32, during_move: bool) -> Result<(), Rejection> {
    // As an action, `ability` has checked and recorded the use already.
    if during_move {
        check_ability(&sim.s, seat, AbilityName::Rewrite)?;
    }
    let p = sim.piece(piece)?;
    own(&sim.s, &p, seat)?;
    let Some(sq) = p.square().filter(|_| p.is_character()) else {
        return reject(
            "legend.ability.rewrite",
            format!("{} is not an Avatar or Hero on the map", p.name),
        );
    };
    let large = sq.large();
    match sim.s.claims.get(&large) {
        Some(&owner) if owner != seat => {
            if during_move {
                sim.emit(Fact::AbilityUsed {
                    seat,
                    ability: AbilityName::Rewrite,
                });
            }
            sim.emit(Fact::TerritoryClaimed {
                seat,
                large,
                from: Some(owner),
            });
            Ok(())
        }
        _ => reject(
            "legend.ability.rewrite_unclaimed",
            format!(
                "Rewrite needs a Large Square claimed by another player; {} stands in {}",
                p.name,
                super::content::reach(large)
            ),
        ),
    }
}

fn move_character(sim: &mut Sim, seat: Seat, p: &Piece, st: &Step) -> Result<(), Rejection> {
    if st.exit {
        if !st.path.is_empty() || !st.scenery.is_empty() {
            return reject(
                "legend.move.corner",
                "leaving the map into a Corner takes the whole Move: give no `path`",
            );
        }
        let corner = p
            .square()
            .and_then(|sq| (0..4u8).find(|&c| corner_square(c) == sq));
        let Some(corner) = corner else {
            return reject(
                "legend.move.corner",
                format!(
                    "{} must stand on a1, f1, f6 or a6 to leave the map into a Corner",
                    p.name
                ),
            );
        };
        sim.emit(Fact::AvatarMoved {
            piece: p.id,
            from: p.at.clone(),
            to: At::Corner { corner },
        });
        let talisman = sim.s.pieces.values().find(|t| {
            t.category == Category::Talisman
                && t.at == At::Corner { corner }
                && t.placed_by != p.controller
        });
        if let Some(t) = talisman.map(|t| t.id) {
            if sim.s.talisman_of(p.id).is_none() {
                sim.emit(Fact::TalismanTaken {
                    piece: p.id,
                    talisman: t,
                });
            }
        }
        return Ok(());
    }
    let mut prev = p.at.clone();
    match &p.at {
        At::Corner { corner } => {
            if st.path != [corner_square(*corner)] {
                return reject(
                    "legend.move.corner",
                    format!(
                        "entering the map from {} takes the whole Move: the `path` is just [\"{}\"]",
                        CORNERS[*corner as usize],
                        corner_square(*corner)
                    ),
                );
            }
        }
        At::Map { squares } => {
            if st.path.is_empty() || st.path.len() > 2 {
                return reject(
                    "legend.move.distance",
                    "an Avatar or Hero moves one or two squares per Move (give `path`)",
                );
            }
            let mut from = squares[0];
            for &sq in &st.path {
                if from.distance(sq) != 1 {
                    return reject(
                        "legend.move.distance",
                        format!("{} cannot go from {from} to {sq}: each step is to a neighbouring square, diagonals included", p.name),
                    );
                }
                from = sq;
            }
        }
        _ => return reject("legend.move.off_map", format!("{} is not in play", p.name)),
    }
    let mut blank: Vec<Sq> = Vec::new();
    for sq in &st.path {
        if !sim.s.scenery.contains_key(sq) && !blank.contains(sq) {
            blank.push(*sq);
        }
    }
    let missing: Vec<String> = blank
        .iter()
        .filter(|sq| st.scenery.get(sq).is_none_or(|t| t.trim().is_empty()))
        .map(Sq::to_string)
        .collect();
    if !missing.is_empty() {
        return reject(
            "legend.move.scenery",
            format!(
                "{} enters blank squares; draw Scenery for {} in `scenery`",
                p.name,
                missing.join(", ")
            ),
        );
    }
    if let Some(extra) = st.scenery.keys().find(|sq| !blank.contains(sq)) {
        return reject(
            "legend.scenery.not_blank",
            format!("Scenery is drawn only in blank squares entered; {extra} is not one"),
        );
    }
    let last = st.path.len() - 1;
    for (i, &sq) in st.path.iter().enumerate() {
        if let Some(m) = sim.s.monument_at(sq) {
            if let Some(o) = sim.s.occupant(m).filter(|o| o.id != p.id) {
                return reject(
                    "legend.monument.occupied",
                    format!(
                        "{} cannot enter {sq}: {} occupies the Monument {}",
                        p.name, o.name, m.name
                    ),
                );
            }
        }
        let obstacles: Vec<Piece> = sim
            .s
            .obstacles_touching(sq)
            .into_iter()
            .filter(|o| o.controller != seat && !sim.s.seat(seat).passed.contains(&o.id))
            .cloned()
            .collect();
        for ob in obstacles {
            let Some(&item) = sim.s.items_of(p.id).first() else {
                return reject(
                    "legend.obstacle.item_needed",
                    format!(
                        "{} needs an Item to pass the Obstacle {} at {sq}",
                        p.name, ob.name
                    ),
                );
            };
            let told = story(&st.story, &p.name)?.to_string();
            if !item_vote(
                sim,
                seat,
                &format!("how {} passes {}", p.name, ob.name),
                &st.votes,
            )? {
                sim.emit(Fact::ObstacleHeld {
                    piece: p.id,
                    obstacle: ob.id,
                });
                return Ok(());
            }
            sim.emit(Fact::ObstaclePassed {
                piece: p.id,
                obstacle: ob.id,
                item,
                story: final_story(told, &st.votes),
            });
            sim.emit(Fact::ItemSpent { item, seat });
        }
        let to = At::Map { squares: vec![sq] };
        sim.emit(Fact::AvatarMoved {
            piece: p.id,
            from: prev.clone(),
            to: to.clone(),
        });
        if let Some(text) = st.scenery.get(&sq) {
            if !sim.s.scenery.contains_key(&sq) {
                sim.emit(Fact::SceneryDrawn {
                    seat,
                    square: sq,
                    text: text.clone(),
                });
            }
        }
        if !sim.s.claims.contains_key(&sq.large()) {
            sim.emit(Fact::TerritoryClaimed {
                seat,
                large: sq.large(),
                from: None,
            });
        }
        if i == last {
            let monsters: Vec<u32> = sim
                .s
                .at_square(sq)
                .filter(|m| m.category == Category::Monster && m.controller != seat)
                .map(|m| m.id)
                .collect();
            for m in monsters {
                if !attack_monster(sim, seat, p.id, m, st, &prev)? {
                    return Ok(());
                }
            }
        }
        pick_up(sim, p.id, sq, st.swap);
        if let Some(m) = sim.s.monument_at(sq).cloned() {
            let held = sim.s.talisman_of(p.id).map(|t| sim.s.pieces[&t].clone());
            if let Some(t) = held.filter(|t| t.placed_by != seat) {
                sim.emit(Fact::GameWon {
                    outcome: Outcome::Talisman {
                        winner: seat,
                        piece: p.id,
                        talisman: t.id,
                        monument: m.id,
                    },
                });
                return Ok(());
            }
            let was_inside =
                matches!(&prev, At::Map { squares } if m.squares().contains(&squares[0]));
            if i == last && !was_inside {
                sim.emit(Fact::MonumentOccupied {
                    piece: p.id,
                    monument: m.id,
                });
            }
        }
        prev = to;
    }
    Ok(())
}

/// Items and dropped Talismans on a square go to the piece passing through.
fn pick_up(sim: &mut Sim, piece: u32, sq: Sq, swap: bool) {
    let p = sim.s.pieces[&piece].clone();
    let loose = At::Map { squares: vec![sq] };
    let item = sim
        .s
        .pieces
        .values()
        .find(|i| i.category == Category::Item && i.at == loose)
        .map(|i| i.id);
    if let Some(item) = item {
        let held = sim.s.items_of(piece);
        if held.len() < sim.s.item_capacity(&p) {
            sim.emit(Fact::ItemPickedUp {
                piece,
                item,
                left: None,
            });
        } else if swap {
            sim.emit(Fact::ItemPickedUp {
                piece,
                item,
                left: Some(held[0]),
            });
        }
    }
    let talisman = sim
        .s
        .pieces
        .values()
        .find(|t| t.category == Category::Talisman && t.at == loose && t.placed_by != p.controller)
        .map(|t| t.id);
    if let (Some(t), None) = (talisman, sim.s.talisman_of(piece)) {
        sim.emit(Fact::TalismanTaken { piece, talisman: t });
    }
}

/// An Avatar or Hero moves onto an enemy Monster. Returns whether it stands there after.
fn attack_monster(
    sim: &mut Sim,
    seat: Seat,
    piece: u32,
    monster: u32,
    st: &Step,
    prev: &At,
) -> Result<bool, Rejection> {
    let name = sim.s.pieces[&piece].name.clone();
    let m = sim.s.pieces[&monster].clone();
    let Some(&item) = sim.s.items_of(piece).first() else {
        sim.their_story_told = true;
        sim.emit(Fact::BattleFought {
            aggressor: piece,
            defender: monster,
            victor: monster,
            siege: false,
            story: st.their_story.clone(),
        });
        defeat(sim, piece, m.controller);
        return Ok(false);
    };
    let told = story(&st.story, &name)?.to_string();
    if !item_vote(
        sim,
        seat,
        &format!("how {name} fights {}", m.name),
        &st.votes,
    )? {
        sim.emit(Fact::AttackRepelled {
            piece,
            monster,
            back_to: prev.clone(),
        });
        return Ok(false);
    }
    sim.emit(Fact::BattleFought {
        aggressor: piece,
        defender: monster,
        victor: piece,
        siege: false,
        story: Some(final_story(told, &st.votes)),
    });
    sim.emit(Fact::ItemSpent { item, seat });
    defeat(sim, monster, seat);
    Ok(true)
}

fn move_monster(sim: &mut Sim, seat: Seat, p: &Piece, st: &Step) -> Result<(), Rejection> {
    if st.exit {
        return reject(
            "legend.move.monster_corner",
            format!("{} is a Monster: Monsters never enter Corners", p.name),
        );
    }
    if !st.scenery.is_empty() {
        return reject(
            "legend.scenery.not_blank",
            "a Monster draws no Scenery where it goes",
        );
    }
    if st.swap || st.rewrite {
        return reject(
            "legend.move.monster_items",
            "Monsters pick up nothing and claim nothing",
        );
    }
    if st.path.is_empty() || st.path.len() > 2 {
        return reject(
            "legend.move.distance",
            "a Monster moves one or two squares per Move (give `path`)",
        );
    }
    let mut foot = p.squares().to_vec();
    let from = p.at.clone();
    for (i, &target) in st.path.iter().enumerate() {
        let anchor = foot[0];
        if anchor.distance(target) != 1 {
            return reject(
                "legend.move.distance",
                format!(
                    "{} cannot go from {anchor} to {target}: each step is to a neighbouring square",
                    p.name
                ),
            );
        }
        let (dx, dy) = (
            target.x as i8 - anchor.x as i8,
            target.y as i8 - anchor.y as i8,
        );
        let moved: Option<Vec<Sq>> = foot.iter().map(|s| s.shifted(dx, dy)).collect();
        let Some(moved) = moved else {
            return reject(
                "legend.move.off_map",
                format!("{} would leave the map", p.name),
            );
        };
        let new = moved.iter().filter(|s| !foot.contains(s)).count();
        foot = moved;
        if new > 1 && i + 1 < st.path.len() {
            return reject(
                "legend.move.large_monster",
                format!(
                    "{} touched {new} new squares on its first step, which ends its Move",
                    p.name
                ),
            );
        }
    }
    if let Some(other) = sim.s.pieces.values().find(|o| {
        o.id != p.id
            && o.category == Category::Monster
            && o.controller == seat
            && o.squares().iter().any(|s| foot.contains(s))
    }) {
        return reject(
            "legend.move.monster_blocked",
            format!(
                "{} would run into {}, a Monster of the same player",
                p.name, other.name
            ),
        );
    }
    sim.emit(Fact::AvatarMoved {
        piece: p.id,
        from,
        to: At::Map {
            squares: foot.clone(),
        },
    });
    let foes: Vec<u32> = sim
        .s
        .pieces
        .values()
        .filter(|o| {
            o.controller != seat
                && matches!(
                    o.category,
                    Category::Monster | Category::Avatar | Category::Hero
                )
        })
        .filter(|o| o.squares().iter().any(|s| foot.contains(s)))
        .map(|o| o.id)
        .collect();
    // A Monster landing on any square of a Monument besieges its occupant,
    // wherever on the Monument the occupant stands (rules 2).
    let mut foes = foes;
    for sq in &foot {
        if let Some(o) = sim
            .s
            .monument_at(*sq)
            .and_then(|m| sim.s.occupant(m))
            .filter(|o| o.controller != seat && !foes.contains(&o.id))
        {
            foes.push(o.id);
        }
    }
    for foe in foes {
        let f = sim.s.pieces[&foe].clone();
        if f.category == Category::Monster {
            sim.emit(Fact::BattleFought {
                aggressor: p.id,
                defender: foe,
                victor: p.id,
                siege: false,
                story: st.story.clone(),
            });
            defeat(sim, foe, seat);
            continue;
        }
        let siege = f
            .square()
            .and_then(|sq| sim.s.monument_at(sq))
            .and_then(|m| sim.s.occupant(m))
            .is_some_and(|o| o.id == foe);
        match sim.s.items_of(foe).first().copied() {
            None => {
                sim.emit(Fact::BattleFought {
                    aggressor: p.id,
                    defender: foe,
                    victor: p.id,
                    siege,
                    story: st.story.clone(),
                });
                defeat(sim, foe, seat);
                if siege {
                    sim.emit(Fact::Defeated {
                        piece: p.id,
                        fate: Fate::Destroyed,
                        dropped: vec![],
                        square: None,
                    });
                    return Ok(());
                }
            }
            Some(item) => {
                // The defender's side tells how it means to win, and the
                // table votes on that telling.
                let told =
                    their_story(&st.their_story, &f.name, sim.s.player(f.controller))?.to_string();
                sim.their_story_told = true;
                if item_vote(
                    sim,
                    f.controller,
                    &format!("how {} fights {}", f.name, p.name),
                    &st.votes,
                )? {
                    sim.emit(Fact::BattleFought {
                        aggressor: p.id,
                        defender: foe,
                        victor: foe,
                        siege,
                        story: Some(final_story(told, &st.votes)),
                    });
                    sim.emit(Fact::ItemSpent {
                        item,
                        seat: f.controller,
                    });
                    defeat(sim, p.id, f.controller);
                    return Ok(());
                }
                // The defence was voted down: defeated, and the Item stays
                // on the square; the Monster's side tells it, if it will.
                sim.emit(Fact::BattleFought {
                    aggressor: p.id,
                    defender: foe,
                    victor: p.id,
                    siege,
                    story: st.story.clone(),
                });
                defeat(sim, foe, seat);
            }
        }
    }
    Ok(())
}

fn connected(squares: &[Sq]) -> bool {
    let mut reached = vec![squares[0]];
    let mut i = 0;
    while i < reached.len() {
        let at = reached[i];
        for s in squares {
            if !reached.contains(s) && s.distance(at) == 1 {
                reached.push(*s);
            }
        }
        i += 1;
    }
    reached.len() == squares.len()
}

fn claimed_by(s: &State, large: u8, seat: Seat) -> bool {
    s.claims.get(&large) == Some(&seat)
}

#[allow(clippy::too_many_arguments)]
fn place(
    sim: &mut Sim,
    seat: Seat,
    object: &Object,
    squares: &[Sq],
    at: Option<Crossing>,
    scenery: &BTreeMap<Sq, String>,
    recycle: Option<u32>,
) -> Result<(), Rejection> {
    text_given("object.name", "legend.object.name", &object.name)?;
    let s = &sim.s;
    if let Some(r) = recycle {
        check_ability(s, seat, AbilityName::Recycle)?;
        if s.pieces
            .get(&r)
            .is_none_or(|p| p.at != At::Stockpile { seat })
        {
            return reject(
                "legend.ability.recycle_stockpile",
                format!("#{r} is not in {}'s Stockpile", s.player(seat)),
            );
        }
    }
    let free = recycle.is_some();
    let mut distinct = squares.to_vec();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != squares.len() {
        return reject(
            "legend.placement.squares",
            "a square is named twice in `squares`",
        );
    }
    let characters_on = |sq: &Sq| {
        s.at_square(*sq)
            .any(|p| p.is_character() || p.category == Category::Monster)
    };
    let place_at = match object.category {
        Category::Avatar | Category::Talisman => {
            return reject(
                "legend.placement.category",
                "Avatars and Talismans are introduced once, not placed",
            )
        }
        Category::Hero if !free => {
            if !squares.is_empty() || at.is_some() {
                return reject(
                    "legend.placement.hero_corner",
                    "Heroes are placed only at their player's own Corner: give no `squares`",
                );
            }
            At::Corner {
                corner: s.seat(seat).corner,
            }
        }
        Category::Hero | Category::Item => {
            if squares.len() != 1 || at.is_some() {
                return reject(
                    "legend.placement.one_square",
                    format!(
                        "{} fits within one small square: give one square in `squares`",
                        article_word(object.category)
                    ),
                );
            }
            let sq = squares[0];
            if object.category == Category::Item {
                if !free && sq.large() == s.seat(seat).start_large() {
                    return reject(
                        "legend.placement.item_home_square",
                        format!("Items go anywhere but the Large Square of your own Corner ({}); {sq} is in it", super::content::reach(sq.large())),
                    );
                }
                if s.pieces.values().any(|p| {
                    p.category == Category::Item && p.at == (At::Map { squares: vec![sq] })
                }) {
                    return reject(
                        "legend.placement.item_square_taken",
                        format!("an Item already lies at {sq}"),
                    );
                }
            } else if let Some(m) = s.monument_at(sq).filter(|m| s.occupant(m).is_some()) {
                return reject(
                    "legend.monument.occupied",
                    format!("the Monument {} is occupied", m.name),
                );
            }
            At::Map { squares: vec![sq] }
        }
        Category::Monster | Category::Monument => {
            if squares.is_empty() || at.is_some() {
                return reject(
                    "legend.placement.squares",
                    format!(
                        "name the squares the {} covers in `squares`",
                        object.category.word()
                    ),
                );
            }
            if !connected(squares) {
                return reject(
                    "legend.placement.squares",
                    "an object's squares must touch one another",
                );
            }
            if let Some(sq) = squares.iter().find(|sq| characters_on(sq)) {
                return reject(
                    "legend.placement.square_taken",
                    format!("{sq} already holds a character or Monster"),
                );
            }
            if object.category == Category::Monster {
                if let Some(sq) = squares
                    .iter()
                    .find(|sq| !free && !claimed_by(s, sq.large(), seat))
                {
                    return reject(
                        "legend.placement.monster_territory",
                        format!("Monsters are placed only on your own Territory; {sq} lies in {}, not claimed by {}", super::content::reach(sq.large()), s.player(seat)),
                    );
                }
            } else {
                if let Some(sq) = squares.iter().find(|sq| sq.large() != squares[0].large()) {
                    return reject(
                        "legend.placement.monument_one_large",
                        format!(
                            "a Monument fits within one Large Square; {sq} is outside {}",
                            super::content::reach(squares[0].large())
                        ),
                    );
                }
                if !free && !claimed_by(s, squares[0].large(), seat) {
                    return reject(
                        "legend.placement.monument_territory",
                        format!("Monuments are built only in Territory you have claimed; {} is not {}'s", super::content::reach(squares[0].large()), s.player(seat)),
                    );
                }
                if let Some(sq) = squares.iter().find(|sq| s.monument_at(**sq).is_some()) {
                    return reject(
                        "legend.placement.square_taken",
                        format!("a Monument already stands at {sq}"),
                    );
                }
            }
            At::Map {
                squares: squares.to_vec(),
            }
        }
        Category::Obstacle => {
            let Some(c) = at.filter(|_| squares.is_empty()) else {
                return reject("legend.placement.obstacle_crossing", "Obstacles sit on the grid lines: give `at` (a crossing like \"+c3\", or a boundary like \"-c3\" or \"|c3\") and no `squares`");
            };
            if c.is_boundary() && s.rules < 2 {
                return reject(
                    "legend.placement.obstacle_crossing",
                    "this game was recorded under rules 1, where Obstacles sit on crossings only",
                );
            }

            if !free {
                if let Some(l) = c.larges().into_iter().find(|l| !claimed_by(s, *l, seat)) {
                    return reject(
                        "legend.placement.obstacle_territory",
                        format!("Obstacles go only on lines you have claimed; {c} touches {}, not claimed by {}", super::content::reach(l), s.player(seat)),
                    );
                }
                let others: Vec<u8> = s
                    .seats
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i as Seat != seat)
                    .map(|(_, o)| o.start_large())
                    .collect();
                if let Some(l) = c.larges().into_iter().find(|l| others.contains(l)) {
                    return reject(
                        "legend.placement.obstacle_opponent_start",
                        format!(
                            "no Obstacle may touch an opponent's starting Large Square ({})",
                            super::content::reach(l)
                        ),
                    );
                }
            }
            if s.pieces.values().any(|p| p.at == At::Crossing { at: c }) {
                return reject(
                    "legend.placement.crossing_taken",
                    format!("an Obstacle already sits at {c}"),
                );
            }
            // The text asks that a placed Obstacle be described (rules 2).
            if s.rules >= 2 && object.description.trim().is_empty() {
                return reject(
                    "legend.placement.obstacle_description",
                    "describe the nature of the Obstacle in `object.description`",
                );
            }
            At::Crossing { at: c }
        }
    };
    // A Monster needs no Scenery where it goes (rules 2): its blank squares
    // stay blank unless the player draws them anyway.
    let monster_free = object.category == Category::Monster && s.rules >= 2;
    let blank: Vec<Sq> = place_at_squares(&place_at)
        .into_iter()
        .filter(|sq| !s.scenery.contains_key(sq))
        .filter(|sq| !monster_free || scenery.contains_key(sq))
        .collect();
    let missing: Vec<String> = blank
        .iter()
        .filter(|sq| scenery.get(sq).is_none_or(|t| t.trim().is_empty()))
        .map(Sq::to_string)
        .collect();
    if !missing.is_empty() {
        return reject(
            "legend.placement.scenery",
            format!(
                "placing in uncharted squares needs Scenery: draw {} in `scenery`",
                missing.join(", ")
            ),
        );
    }
    if let Some(extra) = scenery.keys().find(|sq| !blank.contains(sq)) {
        return reject(
            "legend.scenery.not_blank",
            format!("Scenery is drawn only in blank squares placed into; {extra} is not one"),
        );
    }
    let id = recycle.unwrap_or(s.next_id);
    let piece = Piece {
        id,
        category: object.category,
        name: object.name.trim().to_string(),
        description: object.description.clone(),
        placed_by: seat,
        controller: seat,
        at: place_at,
    };
    sim.emit(Fact::ActionTaken {
        seat,
        kind: "placement".into(),
    });
    if free {
        sim.emit(Fact::AbilityUsed {
            seat,
            ability: AbilityName::Recycle,
        });
    }
    for sq in blank {
        sim.emit(Fact::SceneryDrawn {
            seat,
            square: sq,
            text: scenery[&sq].clone(),
        });
    }
    sim.emit(Fact::ObjectPlaced {
        seat,
        piece,
        recycled: free,
    });
    Ok(())
}

fn article_word(c: Category) -> String {
    format!("{} {}", article(c), c.word())
}

fn place_at_squares(at: &At) -> Vec<Sq> {
    match at {
        At::Map { squares } => squares.clone(),
        _ => Vec::new(),
    }
}

fn check_ability(s: &State, seat: Seat, a: AbilityName) -> Result<(), Rejection> {
    if !s.options.abilities {
        return reject(
            "legend.ability.off",
            "this game is played without Abilities",
        );
    }
    if s.seat(seat).ability != Some(a) {
        return reject(
            "legend.ability.not_yours",
            format!("{} did not choose {}", s.player(seat), a.word()),
        );
    }
    if s.ability_used {
        return reject(
            "legend.ability.once_per_turn",
            "an Ability may be used only once per turn",
        );
    }
    Ok(())
}

fn in_start(s: &State, p: &Piece) -> bool {
    let starts = s.start_larges();
    match &p.at {
        At::Map { squares } => squares.iter().any(|sq| starts.contains(&sq.large())),
        At::Crossing { at } => at.larges().iter().any(|l| starts.contains(l)),
        _ => false,
    }
}

fn ability(sim: &mut Sim, seat: Seat, used: &Use, chance: &mut Chance) -> Result<(), Rejection> {
    let name = match used {
        Use::Rewrite { .. } => AbilityName::Rewrite,
        Use::Shift { .. } => AbilityName::Shift,
        Use::LongArm { .. } => AbilityName::LongArm,
        Use::Gamble { .. } => AbilityName::Gamble,
        Use::Charm { .. } => AbilityName::Charm,
        Use::Guile { .. } => AbilityName::Guile,
        Use::Entropy { .. } => AbilityName::Entropy,
        Use::Custom { .. } => AbilityName::Custom,
    };
    check_ability(&sim.s, seat, name)?;
    // Guile is a Placement action; the others are Ability actions.
    let kind = if name == AbilityName::Guile {
        "placement"
    } else {
        "ability"
    };
    sim.emit(Fact::ActionTaken {
        seat,
        kind: kind.into(),
    });
    sim.emit(Fact::AbilityUsed {
        seat,
        ability: name,
    });
    match used {
        Use::Rewrite { piece } => rewrite(sim, seat, *piece, false)?,
        Use::Shift { first, second } => {
            let (a, b) = (sim.piece(*first)?, sim.piece(*second)?);
            let group = |c: Category| {
                if c == Category::Avatar {
                    Category::Hero
                } else {
                    c
                }
            };
            if a.id == b.id || group(a.category) != group(b.category) {
                return reject(
                    "legend.ability.shift_category",
                    format!(
                        "Shift swaps two objects of one category; {} and {} are not",
                        a.name, b.name
                    ),
                );
            }
            for p in [&a, &b] {
                let single = matches!(&p.at, At::Map { squares } if squares.len() == 1)
                    || matches!(p.at, At::Crossing { .. });
                if !single {
                    return reject(
                        "legend.ability.shift_size",
                        format!(
                            "{} is not on the map in a single square or crossing",
                            p.name
                        ),
                    );
                }
                if in_start(&sim.s, p) {
                    return reject(
                        "legend.ability.shift_start",
                        format!("{} is in a player's starting Large Square", p.name),
                    );
                }
            }
            sim.emit(Fact::Swapped {
                first: a.id,
                second: b.id,
                first_to: b.at.clone(),
                second_to: a.at.clone(),
            });
        }
        Use::LongArm {
            piece,
            targets,
            story,
            votes,
        } => {
            let p = sim.piece(*piece)?;
            own(&sim.s, &p, seat)?;
            let (Some(at), Some(&item)) = (
                p.square().filter(|_| p.is_character()),
                sim.s.items_of(p.id).first(),
            ) else {
                return reject(
                    "legend.ability.long_arm_item",
                    format!(
                        "Long Arm needs an Avatar or Hero on the map holding an Item; {} is not",
                        p.name
                    ),
                );
            };
            text_given("story", "legend.story.needed", story)?;
            let mut ts = Vec::new();
            for t in targets {
                let t = sim.piece(*t)?;
                let occupant = t.is_character()
                    && t.square()
                        .and_then(|sq| sim.s.monument_at(sq))
                        .and_then(|m| sim.s.occupant(m))
                        .is_some_and(|o| o.id == t.id);
                if t.controller == seat || !(t.category == Category::Monster || occupant) {
                    return reject("legend.ability.long_arm_target", format!("Long Arm strikes an enemy Monster or a character in a Monument; {} is neither", t.name));
                }
                let reach = t
                    .squares()
                    .iter()
                    .map(|s| s.distance(at))
                    .min()
                    .unwrap_or(u8::MAX);
                ts.push((t, reach));
            }
            match ts.as_slice() {
                [(t, reach)] if *reach > 2 => {
                    return reject(
                        "legend.ability.long_arm_range",
                        format!("{} is {reach} squares away; Long Arm reaches two", t.name),
                    )
                }
                [_] => {}
                [(a, ra), (b, rb)] => {
                    if a.id == b.id
                        || a.category != Category::Monster
                        || b.category != Category::Monster
                        || *ra > 1
                        || *rb > 1
                    {
                        return reject(
                            "legend.ability.long_arm_adjacent",
                            "one Item defeats two Monsters only when both are next to the user",
                        );
                    }
                }
                _ => {
                    return reject(
                        "legend.ability.long_arm_target",
                        "Long Arm names one target, or two adjacent Monsters",
                    )
                }
            }
            if item_vote(
                sim,
                seat,
                &format!("how {} strikes from afar", p.name),
                votes,
            )? {
                for (t, _) in &ts {
                    sim.emit(Fact::BattleFought {
                        aggressor: p.id,
                        defender: t.id,
                        victor: p.id,
                        siege: t.is_character(),
                        story: Some(story.clone()),
                    });
                }
                sim.emit(Fact::ItemSpent { item, seat });
                for (t, _) in ts {
                    defeat(sim, t.id, seat);
                }
            }
        }
        Use::Gamble {
            flipper,
            call_heads,
            heads,
        } => {
            if *flipper == seat || *flipper as usize >= sim.s.seats.len() {
                return reject(
                    "legend.ability.gamble_flipper",
                    "choose another player to flip the coin",
                );
            }
            let flip = chance.coin("Gamble coin", "heads", *heads)?;
            let second = sim.s.actions_used == 2;
            sim.emit(Fact::GambleFlipped {
                seat,
                flipper: *flipper,
                call_heads: *call_heads,
                heads: flip,
                second,
            });
        }
        Use::Charm { object } => {
            let t = sim.piece(*object)?;
            if t.controller == seat || !matches!(t.category, Category::Hero | Category::Monster) {
                return reject(
                    "legend.ability.charm_target",
                    format!(
                        "Charm works on another player's Hero or Monster; {} is not one",
                        t.name
                    ),
                );
            }
            if !t
                .squares()
                .iter()
                .any(|sq| claimed_by(&sim.s, sq.large(), seat))
            {
                return reject(
                    "legend.ability.charm_territory",
                    format!(
                        "{} is not in a Large Square {} has claimed",
                        t.name,
                        sim.s.player(seat)
                    ),
                );
            }
            sim.emit(Fact::Charmed { object: t.id, seat });
        }
        Use::Guile { object, at } => {
            let t = sim.piece(*object)?;
            own(&sim.s, &t, seat)?;
            if at.is_some() && t.category != Category::Monument {
                return reject(
                    "legend.ability.guile_crossing",
                    format!("`at` names the crossing of a Monument turned into an Obstacle; {} is not a Monument: leave `at` out", t.name),
                );
            }
            let (into, to, dropped) = match (t.category, &t.at) {
                (Category::Monster, At::Map { squares }) => (
                    Category::Hero,
                    At::Map {
                        squares: vec![squares[0]],
                    },
                    vec![],
                ),
                (Category::Hero, At::Map { squares }) => {
                    let carried = sim.s.carried(t.id).map(|c| c.id).collect();
                    (
                        Category::Monster,
                        At::Map {
                            squares: squares.clone(),
                        },
                        carried,
                    )
                }
                (Category::Obstacle, At::Crossing { at: c }) => {
                    let squares = c.touches();
                    if c.larges().len() != 1 || !claimed_by(&sim.s, squares[0].large(), seat) {
                        return reject("legend.ability.guile_monument", format!("a Monument must lie in one Large Square you claimed; the crossing {c} does not"));
                    }
                    if squares.iter().any(|sq| sim.s.monument_at(*sq).is_some()) {
                        return reject(
                            "legend.placement.square_taken",
                            "a Monument already stands there",
                        );
                    }
                    (Category::Monument, At::Map { squares }, vec![])
                }
                (Category::Monument, At::Map { squares }) => {
                    if sim.s.occupant(&t).is_some() {
                        return reject(
                            "legend.ability.guile_occupied",
                            format!("the Monument {} is occupied", t.name),
                        );
                    }
                    let Some(c) = at.filter(|c| c.touches().iter().any(|sq| squares.contains(sq)))
                    else {
                        return reject(
                            "legend.ability.guile_crossing",
                            "give `at`, a crossing touching the Monument, for the Obstacle",
                        );
                    };
                    if sim
                        .s
                        .pieces
                        .values()
                        .any(|p| p.at == At::Crossing { at: c })
                    {
                        return reject(
                            "legend.placement.crossing_taken",
                            format!("an Obstacle already sits at {c}"),
                        );
                    }
                    (Category::Obstacle, At::Crossing { at: c }, vec![])
                }
                _ => {
                    return reject(
                        "legend.ability.guile_target",
                        format!(
                        "Guile turns a Monster, Hero, Obstacle or Monument on the map; {} is not",
                        t.name
                    ),
                    )
                }
            };
            sim.emit(Fact::Transformed {
                object: t.id,
                into,
                at: to,
                dropped,
            });
        }
        Use::Entropy { choices } => {
            let mut picks = BTreeMap::new();
            for c in choices {
                if picks.insert(c.seat, c.object).is_some() {
                    return reject(
                        "legend.ability.entropy_choices",
                        format!("seat {} chooses twice", c.seat),
                    );
                }
            }
            let choices = &picks;
            let on_map = sim.s.pieces.values().filter(|p| p.on_map()).count();
            let n = sim.s.seats.len();
            if choices.len() != n.min(on_map) || choices.keys().any(|s| *s as usize >= n) {
                return reject("legend.ability.entropy_choices", "with Entropy every player (the user too) chooses one object on the map in `choices`");
            }
            let mut seen = BTreeSet::new();
            let order: Vec<Seat> = sim.s.order.clone();
            let start = order.iter().position(|s| *s == seat).unwrap_or(0);
            for k in 0..n {
                let chooser = order[(start + k) % n];
                let Some(&id) = choices.get(&chooser) else {
                    continue;
                };
                let p = sim.piece(id)?;
                if !p.on_map() || !seen.insert(id) {
                    return reject(
                        "legend.ability.entropy_choices",
                        format!("{} is not an object on the map left to choose", p.name),
                    );
                }
                let to = if p.category == Category::Avatar && sim.s.rules < 2 {
                    // Rules 1 sent a chosen Avatar home, as if defeated.
                    At::Corner {
                        corner: sim.s.seat(p.controller).corner,
                    }
                } else {
                    // Every chosen object goes to the chooser's Stockpile, as
                    // the text says: removal is not defeat, so even an
                    // Avatar goes (and scores nothing there).
                    At::Stockpile { seat: chooser }
                };
                let left = sim.s.carried(id).map(|c| c.id).collect();
                sim.emit(Fact::Removed {
                    seat: chooser,
                    object: id,
                    to,
                    left,
                });
            }
        }
        Use::Custom { account, votes } => {
            text_given("account", "legend.ability.custom", account)?;
            if let Some(v) = votes {
                if !take_vote(sim, seat, "the custom Ability's use", v)? {
                    return Ok(());
                }
            }
            sim.emit(Fact::CustomAbilityUsed {
                seat,
                account: account.clone(),
            });
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn duel(
    sim: &mut Sim,
    seat: Seat,
    piece: u32,
    opponent: u32,
    account: &str,
    opponent_account: &str,
    votes: &[Ballot],
    heads: Option<bool>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    if !sim.s.options.duels {
        return reject("legend.duel.off", "this game is played without Duels");
    }
    let (a, b) = (sim.piece(piece)?, sim.piece(opponent)?);
    own(&sim.s, &a, seat)?;
    if !a.is_character() || !b.is_character() || b.controller == seat {
        return reject(
            "legend.duel.characters",
            "a Duel is between your Avatar or Hero and another player's",
        );
    }
    if a.square().is_none() || a.square() != b.square() {
        return reject(
            "legend.duel.same_square",
            format!("{} and {} are not on the same square", a.name, b.name),
        );
    }
    if sim.s.items_of(a.id).is_empty() != sim.s.items_of(b.id).is_empty() {
        return reject(
            "legend.duel.items",
            "only two armed or two unarmed characters may duel",
        );
    }
    text_given("account", "legend.duel.account", account)?;
    text_given("opponent_account", "legend.duel.account", opponent_account)?;
    let (mut va, mut vb) = (0, 0);
    let mut voted = BTreeSet::new();
    for Ballot {
        seat: voter,
        piece: choice,
    } in votes
    {
        if !voted.insert(*voter) {
            return reject("legend.duel.vote", format!("seat {voter} voted twice"));
        }
        if *voter == seat || *voter == b.controller || *voter as usize >= sim.s.seats.len() {
            return reject(
                "legend.duel.vote",
                format!("seat {voter} cannot vote: the other players judge a Duel"),
            );
        }
        match *choice {
            c if c == a.id => va += 1,
            c if c == b.id => vb += 1,
            c => return reject("legend.duel.vote", format!("#{c} is not in this Duel")),
        }
    }
    let coin = if va == vb {
        Some(chance.coin("Duel tie coin", "heads", heads)?)
    } else if heads.is_some() {
        return reject(
            "legend.duel.coin",
            "the vote was not tied: no coin is flipped",
        );
    } else {
        None
    };
    let a_wins = va > vb || coin == Some(true);
    let (victor, loser) = if a_wins {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    };
    sim.emit(Fact::ActionTaken {
        seat,
        kind: "duel".into(),
    });
    sim.emit(Fact::DuelFought {
        piece,
        opponent,
        account: account.to_string(),
        opponent_account: opponent_account.to_string(),
        votes: votes.to_vec(),
        coin_heads: coin,
        victor: victor.id,
    });
    defeat(sim, loser.id, victor.controller);
    Ok(())
}

/// The score table, seat by seat.
pub fn scores(s: &State) -> Vec<Score> {
    let mut out: Vec<Score> = (0..s.seats.len() as Seat)
        .map(|seat| Score {
            seat,
            ..Score::default()
        })
        .collect();
    for p in s.pieces.values() {
        match (&p.at, p.category) {
            (At::Stockpile { seat }, c) => {
                let sc = &mut out[*seat as usize];
                match c {
                    Category::Item => sc.stockpiled_items += 1,
                    Category::Hero => sc.stockpiled_heroes += 1,
                    Category::Monster => sc.stockpiled_monsters += 1,
                    _ => {}
                }
            }
            (At::Held { by }, Category::Item) => out[s.pieces[by].controller as usize].items += 1,
            (At::Held { by }, Category::Talisman) => {
                out[s.pieces[by].controller as usize].talismans += 1
            }
            (At::Map { .. }, Category::Item) => out[p.placed_by as usize].items += 1,
            (At::Map { .. } | At::Corner { .. }, Category::Hero) => {
                out[p.controller as usize].heroes += 1
            }
            (At::Map { .. }, Category::Monster) => out[p.controller as usize].monsters += 1,
            (At::Crossing { .. }, Category::Obstacle) => out[p.controller as usize].obstacles += 1,
            (At::Map { .. }, Category::Monument) => {
                let holder = s.occupant(p).map_or(p.controller, |o| o.controller);
                out[holder as usize].monuments += 1;
            }
            _ => {}
        }
    }
    for sc in &mut out {
        sc.total = sc.heroes
            + sc.items
            + 2 * sc.stockpiled_items
            + 2 * sc.stockpiled_heroes
            + sc.obstacles
            + sc.monsters
            + 2 * sc.stockpiled_monsters
            + 3 * sc.monuments
            + 5 * sc.talismans;
    }
    out
}

/// Who has the most points after the seventh round. The rules know no
/// tie-break: players level on the most points share the victory (rules 2).
pub fn winners(scores: &[Score]) -> Vec<Seat> {
    let best = scores.iter().map(|s| s.total).max();
    scores
        .iter()
        .filter(|s| Some(s.total) == best)
        .map(|s| s.seat)
        .collect()
}

/// Whether the action may carry the player's explanation of it.
pub fn explains(action: &Action) -> bool {
    matches!(
        action,
        Action::Move { .. }
            | Action::Place { .. }
            | Action::Ability { .. }
            | Action::Duel { .. }
            | Action::Pass { .. }
    )
}

/// Every action open now (see the module docs of `legend` for the shape).
pub fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
    let candidates = match state.phase {
        Phase::Over => return Vec::new(),
        Phase::Introductions => introductions(state, seat),
        Phase::Playing => {
            if seat.is_some_and(|s| s != state.current()) {
                return Vec::new();
            }
            turn_candidates(state, state.current())
        }
    };
    let mut out = Vec::new();
    for mut c in candidates {
        let mut chance = Chance::new(DiceMode::Digital, 0, 0);
        let mut result = decide(state, None, &c, &mut chance);
        if let Err(r) = &result {
            if r.rule == "legend.story.needed" {
                let theirs = r.message.contains("their_story");
                if let Action::Move { pieces, .. } = &mut c {
                    for st in pieces.iter_mut() {
                        if theirs {
                            st.their_story = Some(format!(
                                "<the other side's story of #{}'s battle>",
                                st.piece
                            ));
                        } else {
                            st.story = Some(format!("<story of #{}'s move>", st.piece));
                        }
                    }
                }
            }
        }
        if matches!(&result, Err(r) if r.rule == "legend.story.needed") {
            chance = Chance::new(DiceMode::Digital, 0, 0);
            result = decide(state, None, &c, &mut chance);
        }
        if result.is_ok() {
            let needs = if state.dice == DiceMode::Physical && !chance.draws().is_empty() {
                chance
                    .draws()
                    .iter()
                    .map(|d| {
                        format!(
                            "coin flip: the {}; give it as `heads` (true for heads)",
                            d.what
                        )
                    })
                    .collect()
            } else {
                Vec::new()
            };
            out.push(Legal::needing(c, needs));
        }
    }
    out
}

fn introductions(state: &State, seat: Option<Seat>) -> Vec<Action> {
    let Some(i) = state.seats.iter().position(|s| !s.introduced()) else {
        return Vec::new();
    };
    let seat = seat.unwrap_or(i as Seat);
    if state
        .seats
        .get(seat as usize)
        .is_none_or(SeatState::introduced)
    {
        return Vec::new();
    }
    let player = state.player(seat);
    let symbol = free_symbol(state, player);
    let abilities: Vec<Option<AbilityName>> = if state.options.abilities {
        AbilityName::ALL.iter().copied().map(Some).collect()
    } else {
        vec![None]
    };
    abilities
        .into_iter()
        .map(|ability| Action::Introduce {
            seat: Some(seat),
            corner: (state.rules >= 2)
                .then(|| CornerName::ALL[default_corner(state, seat) as usize]),
            avatar: Described {
                name: format!("<avatar of {player}>"),
                description: format!("<description of {player}'s avatar>"),
            },
            talisman: Described {
                name: format!("<talisman of {player}>"),
                description: String::new(),
            },
            symbol: symbol.clone(),
            ability,
            custom: None,
            votes: None,
            explanation: None,
        })
        .collect()
}

/// A placeholder Symbol for `player` that no seat has drawn yet, neither
/// as written nor in its own words without the brackets (a seat may have
/// taken either): `<symbol of Ada>`, else `<symbol 2 of Ada>`, and so on.
/// Symbols must differ, so offering a taken one would offer nothing.
fn free_symbol(state: &State, player: &str) -> String {
    let taken = |symbol: &str| {
        let words = &symbol[1..symbol.len() - 1];
        state
            .seats
            .iter()
            .any(|s| s.symbol.trim() == symbol || s.symbol.trim() == words)
    };
    let mut symbol = format!("<symbol of {player}>");
    let mut n = 2;
    while taken(&symbol) {
        symbol = format!("<symbol {n} of {player}>");
        n += 1;
    }
    symbol
}

fn blank_scenery(s: &State, squares: &[Sq]) -> BTreeMap<Sq, String> {
    squares
        .iter()
        .filter(|sq| !s.scenery.contains_key(sq))
        .map(|sq| (*sq, format!("<scenery for {sq}>")))
        .collect()
}

fn turn_candidates(s: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    let mv = |st: Step| Action::Move {
        seat: None,
        pieces: vec![st],
        explanation: None,
    };
    for p in s.pieces.values().filter(|p| p.controller == seat) {
        match (&p.at, p.category) {
            (At::Corner { corner }, Category::Avatar | Category::Hero) => {
                let sq = corner_square(*corner);
                let mut st = Step::to(p.id, vec![sq]);
                st.scenery = blank_scenery(s, &[sq]);
                out.push(mv(st));
            }
            (At::Map { squares }, Category::Avatar | Category::Hero | Category::Monster) => {
                let from = squares[0];
                let mut paths: BTreeMap<Sq, Vec<Sq>> = BTreeMap::new();
                for a in from.neighbours() {
                    paths.entry(a).or_insert_with(|| vec![a]);
                    for b in a.neighbours() {
                        if b != from {
                            paths.entry(b).or_insert_with(|| vec![a, b]);
                        }
                    }
                }
                for path in paths.into_values() {
                    let mut st = Step::to(p.id, path.clone());
                    if p.is_character() {
                        st.scenery = blank_scenery(s, &path);
                    }
                    out.push(mv(st));
                }
                if p.is_character() && (0..4).any(|c| corner_square(c) == from) {
                    let mut st = Step::to(p.id, vec![]);
                    st.exit = true;
                    out.push(mv(st));
                }
            }
            _ => {}
        }
    }
    let player = s.player(seat).to_string();
    let object = |c: Category| Object {
        name: format!("<{} of {player}>", c.word().to_lowercase()),
        category: c,
        // An Obstacle is described as it is placed (rules 2).
        description: if c == Category::Obstacle && s.rules >= 2 {
            format!("<what {player}'s obstacle is like>")
        } else {
            String::new()
        },
    };
    let place = |object: Object, squares: Vec<Sq>, at: Option<Crossing>| Action::Place {
        seat: None,
        scenery: if object.category == Category::Monster && s.rules >= 2 {
            BTreeMap::new()
        } else {
            blank_scenery(s, &squares)
        },
        object,
        squares,
        at,
        recycle: None,
        explanation: None,
    };
    out.push(place(object(Category::Hero), vec![], None));
    for sq in Sq::all() {
        out.push(place(object(Category::Item), vec![sq], None));
        if claimed_by(s, sq.large(), seat) {
            out.push(place(object(Category::Monster), vec![sq], None));
            out.push(place(object(Category::Monument), vec![sq], None));
        }
    }
    for c in Crossing::all(s.rules >= 2) {
        if c.larges().iter().all(|l| claimed_by(s, *l, seat)) {
            out.push(place(object(Category::Obstacle), vec![], Some(c)));
        }
    }
    if s.options.abilities && !s.ability_used {
        out.extend(ability_candidates(s, seat, &place));
    }
    if s.options.duels {
        for a in s
            .pieces
            .values()
            .filter(|p| p.controller == seat && p.is_character())
        {
            for b in s.pieces.values().filter(|b| {
                b.controller != seat
                    && b.is_character()
                    && b.square().is_some()
                    && b.square() == a.square()
            }) {
                out.push(Action::Duel {
                    seat: None,
                    piece: a.id,
                    opponent: b.id,
                    account: format!("<{player}'s account of the duel>"),
                    opponent_account: format!("<{}'s account of the duel>", s.player(b.controller)),
                    votes: Vec::new(),
                    heads: None,
                    explanation: None,
                });
            }
        }
    }
    out.push(Action::Pass {
        seat: None,
        explanation: None,
    });
    out
}

fn ability_candidates(
    s: &State,
    seat: Seat,
    place: &dyn Fn(Object, Vec<Sq>, Option<Crossing>) -> Action,
) -> Vec<Action> {
    let mut out = Vec::new();
    let used = |u: Use| Action::Ability {
        seat: None,
        used: u,
        explanation: None,
    };
    let mine: Vec<&Piece> = s.pieces.values().filter(|p| p.controller == seat).collect();
    let on_map: Vec<&Piece> = s.pieces.values().filter(|p| p.on_map()).collect();
    match s.seat(seat).ability {
        Some(AbilityName::Rewrite) => {
            for p in &mine {
                out.push(used(Use::Rewrite { piece: p.id }));
            }
        }
        Some(AbilityName::Shift) => {
            for (i, a) in on_map.iter().enumerate() {
                for b in &on_map[i + 1..] {
                    if out.len() < 40 {
                        out.push(used(Use::Shift {
                            first: a.id,
                            second: b.id,
                        }));
                    }
                }
            }
        }
        Some(AbilityName::Recycle) => {
            for r in s.stockpile(seat) {
                for sq in [Sq::new(2, 2), Sq::new(3, 3)] {
                    let mut a = place(
                        Object {
                            name: r.name.clone(),
                            category: Category::Item,
                            description: r.description.clone(),
                        },
                        vec![sq],
                        None,
                    );
                    if let Action::Place { recycle, .. } = &mut a {
                        *recycle = Some(r.id);
                    }
                    out.push(a);
                }
            }
        }
        Some(AbilityName::LongArm) => {
            for p in mine.iter().filter(|p| p.is_character()) {
                for t in &on_map {
                    out.push(used(Use::LongArm {
                        piece: p.id,
                        targets: vec![t.id],
                        story: format!("<how {} strikes from afar>", p.name),
                        votes: None,
                    }));
                }
            }
        }
        Some(AbilityName::Gamble) => {
            let flipper = s.order[(s.turn + 1) % s.order.len()];
            for call_heads in [true, false] {
                out.push(used(Use::Gamble {
                    flipper,
                    call_heads,
                    heads: None,
                }));
            }
        }
        Some(AbilityName::Charm) => {
            for t in &on_map {
                out.push(used(Use::Charm { object: t.id }));
            }
        }
        Some(AbilityName::Guile) => {
            for t in &mine {
                let at = match &t.at {
                    At::Map { squares } if t.category == Category::Monument => {
                        Crossing::all(s.rules >= 2).into_iter().find(|c| {
                            c.touches().iter().any(|sq| squares.contains(sq))
                                && !s.pieces.values().any(|p| p.at == At::Crossing { at: *c })
                        })
                    }
                    _ => None,
                };
                out.push(used(Use::Guile { object: t.id, at }));
            }
        }
        Some(AbilityName::Entropy) => {
            let choices = on_map
                .iter()
                .enumerate()
                .take(s.seats.len())
                .map(|(k, p)| Choice {
                    seat: s.order[(s.turn + k) % s.order.len()],
                    object: p.id,
                })
                .collect();
            out.push(used(Use::Entropy { choices }));
        }
        Some(AbilityName::Custom) => out.push(used(Use::Custom {
            account: format!("<how {} uses a custom Ability>", s.player(seat)),
            votes: None,
        })),
        Some(AbilityName::Pocket) | None => {}
    }
    out
}
