//! Setting up (2.2): the city block pieces laid out (turned as they lie),
//! the rooftop cards, the Black Market's offer, and the die rolled for the
//! order of play.

use super::*;
use std::sync::Arc;

/// The ways a piece may lie: turned clockwise by this many degrees.
const TURNS: [u32; 4] = [0, 90, 180, 270];

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
        crate::ludovia::content::check_worked_example(pack, "<game pack>")
            .map_err(|e| Rejection::new("setup.pack", format!("{}: {}", e.path, e.message)))?;
    }
    let n = players.len();
    let (rows, cols) = if n <= 4 { (3, 3) } else { (3, 4) };
    let keep = if n <= 4 {
        SMALL_ORDINARY
    } else {
        LARGE_ORDINARY
    };
    let piece = |b: &crate::ludovia::content::BlockPiece| Block {
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
        blocks: Arc::new(blocks),
        robbed: BTreeSet::new(),
        faces: Arc::new(faces),
        pool,
        rooftop_discard: Vec::new(),
        rooftop_total,
        items: Arc::new(items),
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

pub(super) fn roll_for_order(
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
