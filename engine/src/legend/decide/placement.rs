//! The Placement Action: Heroes, Items, Monsters, Obstacles and Monuments,
//! each where its category may stand, with Scenery for blank squares.

use super::*;

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

#[allow(clippy::too_many_arguments)]
pub(super) fn place(
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
                        format!("Items go anywhere but the Large Square of your own Corner ({}); {sq} is in it", crate::legend::content::reach(sq.large())),
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
                        format!("Monsters are placed only on your own Territory; {sq} lies in {}, not claimed by {}", crate::legend::content::reach(sq.large()), s.player(seat)),
                    );
                }
            } else {
                if let Some(sq) = squares.iter().find(|sq| sq.large() != squares[0].large()) {
                    return reject(
                        "legend.placement.monument_one_large",
                        format!(
                            "a Monument fits within one Large Square; {sq} is outside {}",
                            crate::legend::content::reach(squares[0].large())
                        ),
                    );
                }
                if !free && !claimed_by(s, squares[0].large(), seat) {
                    return reject(
                        "legend.placement.monument_territory",
                        format!("Monuments are built only in Territory you have claimed; {} is not {}'s", crate::legend::content::reach(squares[0].large()), s.player(seat)),
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
                        format!("Obstacles go only on lines you have claimed; {c} touches {}, not claimed by {}", crate::legend::content::reach(l), s.player(seat)),
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
                            crate::legend::content::reach(l)
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
    // Rules 2 let a placed Monster leave its blank squares blank; the text
    // spares only a Monster *moved* into uncharted squares, so from rules 3
    // a placement draws Scenery whatever it places.
    let monster_free = object.category == Category::Monster && s.rules == 2;
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
