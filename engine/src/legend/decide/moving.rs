//! The Move Action: Avatars and Heroes (Corners and Talismans, Territory and
//! Scenery, Items picked up, Obstacles, Monuments, attacking a Monster) and
//! Monsters (large ones, battles and sieges).

use super::*;

pub(super) fn decide_move(sim: &mut Sim, seat: Seat, steps: &[Step]) -> Result<(), Rejection> {
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
