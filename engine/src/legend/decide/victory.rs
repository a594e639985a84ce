//! Victory on points after the seventh round: the score table and who wins.

use super::*;

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
