//! Abilities (advanced play): Rewrite, Shift, Recycle, Long Arm, Pocket,
//! Gamble, Charm, Guile, Entropy and a custom one, once per turn.

use super::*;

pub(super) fn check_ability(s: &State, seat: Seat, a: AbilityName) -> Result<(), Rejection> {
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

pub(super) fn rewrite(
    sim: &mut Sim,
    seat: Seat,
    piece: u32,
    during_move: bool,
) -> Result<(), Rejection> {
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
                crate::legend::content::reach(large)
            ),
        ),
    }
}

pub(super) fn ability(
    sim: &mut Sim,
    seat: Seat,
    used: &Use,
    chance: &mut Chance,
) -> Result<(), Rejection> {
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
