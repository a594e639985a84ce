//! Every action open now, as `legal` lists it: each candidate is decided,
//! and only what the rules accept is offered.

use super::*;

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
        scenery: if object.category == Category::Monster && s.rules == 2 {
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
