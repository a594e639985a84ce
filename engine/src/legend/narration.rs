//! LEGEND told as prose: the cast as each player introduces it, each round a
//! chapter, every action with the player's explanation, every stretch of a
//! journey (Scenery drawn, Reaches claimed, Items found, Obstacles passed),
//! battles with the victor's story, votes and duels, and an epilogue with the
//! ending and the score table. [`render`] draws the map as a text grid.

use super::actions::{Category, Fact, Fate, Outcome, Score, Tally};
use super::content::{corner_square, reach, Crossing, Line, Sq, CORNERS, SIDE};
use super::decide::scores;
use super::state::{At, Phase, State};

fn name(s: &State, id: u32) -> String {
    s.piece(id)
        .map_or_else(|| format!("#{id}"), |p| p.name.clone())
}

/// "Sir Kettle (Ada's Avatar)".
fn who(s: &State, id: u32) -> String {
    match s.piece(id) {
        Some(p) => format!(
            "{} ({}'s {})",
            p.name,
            s.player(p.controller),
            p.category.word()
        ),
        None => format!("#{id}"),
    }
}

fn place(at: &At) -> String {
    match at {
        At::Map { squares } => squares
            .iter()
            .map(Sq::to_string)
            .collect::<Vec<_>>()
            .join("+"),
        At::Crossing { at } => at.describe(),
        At::Corner { corner } => CORNERS[*corner as usize].to_string(),
        At::Held { .. } => "a pack".into(),
        At::Stockpile { .. } => "a Stockpile".into(),
        At::Destroyed => "nowhere".into(),
    }
}

fn tally_words(t: &Tally) -> String {
    let verdict = if t.passed {
        "it stands"
    } else {
        "it is voted down"
    };
    let tie = if t.tie {
        ", the teller breaking the tie"
    } else {
        ""
    };
    format!("{} for, {} against{tie}: {verdict}", t.aye, t.against)
}

pub fn narrate(s: &State, fact: &Fact) -> Vec<String> {
    let line = match fact {
        Fact::SeatIntroduced {
            seat,
            corner,
            avatar,
            talisman,
            symbol,
            ability,
            custom,
        } => {
            // Each object's number, with the player's description.
            let named = |p: &super::state::Piece| {
                if p.description.trim().is_empty() {
                    format!("{} (#{})", p.name, p.id)
                } else {
                    format!("{} (#{}, {})", p.name, p.id, p.description.trim())
                }
            };
            let mut l = format!(
                "{} takes {} with the Avatar {}, guards the Talisman {}",
                s.player(*seat),
                CORNERS[corner.unwrap_or(s.seat(*seat).corner) as usize],
                named(avatar),
                named(talisman)
            );
            l.push_str(&format!(" and draws the Symbol \"{symbol}\""));
            match (ability, custom) {
                (Some(_), Some(c)) => l.push_str(&format!(
                    "; their Ability, voted in by the table, is {}: {}",
                    c.name, c.description
                )),
                (Some(a), None) => l.push_str(&format!("; their Ability is {}", a.word())),
                _ => {}
            }
            l + "."
        }
        // The chapter heading announces the round.
        Fact::RoundBegan { .. } => return Vec::new(),
        Fact::Explained { seat, text } => format!("{} explains: \"{text}\"", s.player(*seat)),
        Fact::ActionTaken { .. } | Fact::AbilityUsed { .. } => return Vec::new(),
        Fact::AvatarMoved { piece, from, to } => {
            let verb = match (from, to) {
                (At::Corner { .. }, _) => "enters the map from",
                (_, At::Corner { .. }) => "leaves the map at",
                _ => "goes from",
            };
            match (from, to) {
                (At::Corner { .. }, At::Map { squares }) => format!(
                    "{} {verb} {} at {}.",
                    who(s, *piece),
                    place(from),
                    squares[0]
                ),
                (_, At::Corner { .. }) => format!(
                    "{} {verb} {} into {}.",
                    who(s, *piece),
                    place(from),
                    place(to)
                ),
                _ => format!(
                    "{} {verb} {} to {}.",
                    who(s, *piece),
                    place(from),
                    place(to)
                ),
            }
        }
        Fact::SceneryDrawn { seat, square, text } => {
            format!("{} draws \"{text}\" at {square}.", s.player(*seat))
        }
        Fact::TerritoryClaimed { seat, large, from } => match from {
            None => format!(
                "{} claims {} with the Symbol \"{}\".",
                s.player(*seat),
                reach(*large),
                s.seat(*seat).symbol
            ),
            Some(old) => format!(
                "{} rewrites {}: {}'s Symbol gives way to \"{}\".",
                s.player(*seat),
                reach(*large),
                s.player(*old),
                s.seat(*seat).symbol
            ),
        },
        Fact::ItemPickedUp { piece, item, left } => match left {
            None => format!("{} picks up the Item {}.", name(s, *piece), name(s, *item)),
            Some(l) => format!(
                "{} trades {} for the Item {}.",
                name(s, *piece),
                name(s, *l),
                name(s, *item)
            ),
        },
        Fact::TalismanTaken { piece, talisman } => {
            let owner = s.piece(*talisman).map_or(0, |t| t.placed_by);
            format!(
                "{} takes {}'s Talisman, {}!",
                name(s, *piece),
                s.player(owner),
                name(s, *talisman)
            )
        }
        Fact::VoteTaken {
            about,
            tally,
            retold,
            second,
            ..
        } => {
            let mut l = format!("The table votes on {about}: {}.", tally_words(tally));
            match (retold, second) {
                (Some(r), Some(t)) => {
                    l.push_str(&format!(" Retold: \"{r}\" — {}.", tally_words(t)))
                }
                _ if !tally.passed => l.push_str(" No other story is offered."),
                _ => {}
            }
            l
        }
        Fact::ObstaclePassed {
            piece,
            obstacle,
            item,
            story,
        } => format!(
            "{} passes the Obstacle {} using {}: \"{story}\" (the passage is recorded).",
            name(s, *piece),
            name(s, *obstacle),
            name(s, *item)
        ),
        Fact::ObstacleHeld { piece, obstacle } => format!(
            "{} keeps the Item but cannot get past {}.",
            name(s, *piece),
            name(s, *obstacle)
        ),
        Fact::ItemSpent { item, seat } => format!(
            "{} goes to {}'s Stockpile, used up.",
            name(s, *item),
            s.player(*seat)
        ),
        Fact::BattleFought {
            aggressor,
            defender,
            victor,
            siege,
            story,
        } => {
            let how = if *siege {
                "lays siege to the Monument held by"
            } else {
                "falls upon"
            };
            let ending = if *siege
                && victor == aggressor
                && s.piece(*aggressor)
                    .is_some_and(|a| a.category == Category::Monster)
                && s.piece(*defender).is_some_and(|d| d.is_character())
                && s.items_of(*defender).is_empty()
            {
                format!(
                    "{} falls, and {} breaks against the walls",
                    name(s, *defender),
                    name(s, *aggressor)
                )
            } else {
                format!("{} is victorious", name(s, *victor))
            };
            let mut l = format!(
                "Battle! {} {how} {}; {ending}.",
                capitalized(who(s, *aggressor)),
                who(s, *defender)
            );
            // The victor tells the story: it is the winning side's player's.
            if let Some(t) = story {
                // Before rules 2 the mover typed every story, whoever won.
                match s.piece(*victor).filter(|_| s.rules >= 2) {
                    Some(v) => l.push_str(&format!(
                        " {}, whose side won, tells it: \"{t}\"",
                        s.player(v.controller)
                    )),
                    None => l.push_str(&format!(" The victor tells it: \"{t}\"")),
                }
            }
            l
        }
        Fact::AttackRepelled {
            piece,
            monster,
            back_to,
        } => format!(
            "{} keeps the Item but cannot beat {}, and falls back to {}.",
            name(s, *piece),
            name(s, *monster),
            place(back_to)
        ),
        Fact::Defeated {
            piece,
            fate,
            dropped,
            square,
        } => {
            let mut l = match fate {
                Fate::Respawned { corner } => format!(
                    "{} is defeated and returns to {}.",
                    who(s, *piece),
                    CORNERS[*corner as usize]
                ),
                Fate::Stockpiled { seat } => format!(
                    "{} is slain and goes to {}'s Stockpile.",
                    who(s, *piece),
                    s.player(*seat)
                ),
                Fate::Destroyed => format!("{} is destroyed.", who(s, *piece)),
            };
            if let (false, Some(sq)) = (dropped.is_empty(), square) {
                let names: Vec<String> = dropped.iter().map(|d| name(s, *d)).collect();
                let verb = if names.len() == 1 { "stays" } else { "stay" };
                l.push_str(&format!(
                    " {} {verb} at {sq}.",
                    capitalized(names.join(" and "))
                ));
            }
            l
        }
        Fact::ObjectPlaced {
            seat,
            piece,
            recycled,
        } => {
            let from = if *recycled {
                " from the Stockpile (Recycle)"
            } else {
                ""
            };
            let mut l = format!(
                "{} places the {} {} (#{}){from} at {}",
                s.player(*seat),
                piece.category.word(),
                piece.name,
                piece.id,
                place(&piece.at)
            );
            if !piece.description.trim().is_empty() {
                l.push_str(&format!(": {}", piece.description.trim()));
            }
            l + "."
        }
        Fact::MonumentOccupied { piece, monument } => format!(
            "{} occupies the Monument {}.",
            name(s, *piece),
            name(s, *monument)
        ),
        Fact::Swapped { first, second, .. } => format!(
            "Shift! {} and {} trade places.",
            capitalized(name(s, *first)),
            name(s, *second)
        ),
        Fact::Charmed { object, seat } => format!(
            "{} charms {} into their service.",
            s.player(*seat),
            who(s, *object)
        ),
        Fact::Transformed {
            object, into, at, ..
        } => {
            let a = if *into == Category::Obstacle {
                "an"
            } else {
                "a"
            };
            format!(
                "By Guile, {} becomes {a} {} at {}.",
                who(s, *object),
                into.word(),
                place(at)
            )
        }
        Fact::Removed {
            seat, object, to, ..
        } => match to {
            At::Corner { corner } => format!(
                "Entropy: {} sends {} home to {}.",
                s.player(*seat),
                who(s, *object),
                CORNERS[*corner as usize]
            ),
            _ => format!(
                "Entropy: {} takes {} into their Stockpile.",
                s.player(*seat),
                who(s, *object)
            ),
        },
        Fact::GambleFlipped {
            seat,
            flipper,
            call_heads,
            heads,
            second,
        } => {
            let side = |h: bool| if h { "heads" } else { "tails" };
            let result = if call_heads == heads {
                "and wins two more actions".to_string()
            } else if *second {
                "and loses: the turn ends, and the next one is lost too".to_string()
            } else {
                "and loses: the turn ends".to_string()
            };
            format!(
                "{} gambles: {} flips, {} calls {}, the coin shows {} — {result}.",
                s.player(*seat),
                s.player(*flipper),
                s.player(*seat),
                side(*call_heads),
                side(*heads)
            )
        }
        Fact::DuelFought {
            piece,
            opponent,
            account,
            opponent_account,
            votes,
            coin_heads,
            victor,
        } => {
            let count = |id: u32| votes.iter().filter(|v| v.piece == id).count();
            let mut l = format!(
                "Duel! {} writes: \"{account}\" {} writes: \"{opponent_account}\" The table votes {}-{}",
                who(s, *piece),
                who(s, *opponent),
                count(*piece),
                count(*opponent)
            );
            if let Some(h) = coin_heads {
                l.push_str(&format!(
                    ", a tie, and the coin shows {}",
                    if *h { "heads" } else { "tails" }
                ));
            }
            l + &format!(": {} wins.", name(s, *victor))
        }
        Fact::CustomAbilityUsed { seat, account } => {
            let n = s
                .seat(*seat)
                .custom_ability
                .as_ref()
                .map_or("a custom Ability".to_string(), |c| c.0.clone());
            format!("{} uses {n}: \"{account}\"", s.player(*seat))
        }
        Fact::TurnPassed { seat, skipped } => {
            let mut l = String::new();
            for k in skipped {
                l.push_str(&format!(
                    "{} misses this turn, lost to a Gamble. ",
                    s.player(*k)
                ));
            }
            l + &format!("It is {}'s turn.", s.player(*seat))
        }
        Fact::GameWon { outcome } | Fact::GameEnded { outcome } => match outcome {
            Outcome::Talisman {
                winner,
                piece,
                talisman,
                monument,
            } => format!(
                "{} carries {} into the Monument {}: {} wins the game!",
                name(s, *piece),
                name(s, *talisman),
                name(s, *monument),
                s.player(*winner)
            ),
            Outcome::Points { .. } => "Seven rounds are done; the legend is complete.".into(),
        },
    };
    vec![capitalized(line)]
}

fn capitalized(line: String) -> String {
    let mut chars = line.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => line,
    }
}

pub fn chapter(s: &State) -> String {
    match s.phase {
        Phase::Introductions => "The Cast".into(),
        Phase::Playing => format!("Round {}", s.round),
        Phase::Over => "The End".into(),
    }
}

fn score_line(s: &State, sc: &Score) -> String {
    let parts: Vec<String> = [
        ("Hero", sc.heroes, 1),
        ("Item", sc.items, 1),
        ("Stockpiled Item", sc.stockpiled_items, 2),
        ("Stockpiled Hero", sc.stockpiled_heroes, 2),
        ("Obstacle", sc.obstacles, 1),
        ("Monster", sc.monsters, 1),
        ("Stockpiled Monster", sc.stockpiled_monsters, 2),
        ("Monument", sc.monuments, 3),
        ("Talisman", sc.talismans, 5),
    ]
    .iter()
    .filter(|(_, n, _)| *n > 0)
    .map(|(what, n, each)| format!("{what} {n}x{each}"))
    .collect();
    let unit = if sc.total == 1 { "point" } else { "points" };
    if parts.is_empty() {
        format!("- {}: 0 points", s.player(sc.seat))
    } else {
        format!(
            "- {}: {} {unit} ({})",
            s.player(sc.seat),
            sc.total,
            parts.join(", ")
        )
    }
}

pub fn epilogue(s: &State) -> Vec<String> {
    let mut out = Vec::new();
    let table = match &s.outcome {
        Some(Outcome::Talisman {
            winner, talisman, ..
        }) => {
            out.push(format!(
                "{} won by bringing {} to a Monument, whatever the points say.",
                s.player(*winner),
                name(s, *talisman)
            ));
            scores(s)
        }
        Some(Outcome::Points { scores, winners }) => {
            let names: Vec<&str> = winners.iter().map(|w| s.player(*w)).collect();
            if names.len() == 1 {
                out.push(format!("{} wins on points.", names[0]));
            } else {
                out.push(format!(
                    "A tie: {} end level on the most points and share the victory.",
                    names.join(" and ")
                ));
            }
            scores.clone()
        }
        None => {
            out.push(format!(
                "The legend is still being told (round {}).",
                s.round
            ));
            scores(s)
        }
    };
    out.push(
        "Score table (ties broken by Talismans held, then Monuments, then Stockpile size):".into(),
    );
    out.extend(table.iter().map(|sc| score_line(s, sc)));
    out
}

/// A piece in three characters: its letter, its controller's seat, and
/// what it carries (`i` an Item, `t` a Talisman, `*` both).
fn code(s: &State, p: &super::state::Piece) -> String {
    let letter = match p.category {
        Category::Avatar => 'A',
        Category::Hero => 'H',
        Category::Item => 'i',
        Category::Talisman => 't',
        Category::Monster => 'M',
        Category::Obstacle => 'X',
        Category::Monument => 'U',
    };
    let carried: Vec<Category> = s.carried(p.id).map(|c| c.category).collect();
    let mark = match (
        carried.contains(&Category::Item),
        carried.contains(&Category::Talisman),
    ) {
        (true, true) => "*",
        (true, false) => "i",
        (false, true) => "t",
        (false, false) => "",
    };
    format!("{letter}{}{mark}", p.controller)
}

/// The obstacle standing on a place of the grid lines, if any.
fn obstacle_on(s: &State, c: Crossing) -> bool {
    s.pieces.values().any(|p| p.at == At::Crossing { at: c })
}

/// The map as a text grid that fits a phone (33 columns): `#` and `=` are
/// the Large Squares' borders, `|` and `-` the Small Squares'; `X` marks an
/// Obstacle on a crossing or along a boundary. Each cell starts with the
/// seat whose Symbol claims its Large Square (`.` unclaimed), then a piece
/// (letter, seat, and `i`/`t`/`*` for what it carries; `+` when more stand
/// there) or `_` for a square without Scenery. Then the key, the score so
/// far, Corners, objects, Scenery and Stockpiles in words.
pub fn render(s: &State) -> String {
    let mut out = String::new();
    out.push_str(&format!("LEGEND, {}\n", chapter(s)));
    out.push_str("   ");
    for x in 0..SIDE {
        out.push_str(&format!("  {}  ", (b'a' + x) as char));
    }
    out.push('\n');
    for y in 0..=SIDE {
        // The line of crossings and boundaries above row y (or the last).
        let mut line = String::from("  ");
        for x in 0..=SIDE {
            let point = Crossing::point(x, y);
            let large = x % 2 == 0 || y % 2 == 0;
            line.push(if obstacle_on(s, point) {
                'X'
            } else if large {
                '#'
            } else {
                '+'
            });
            if x < SIDE {
                let side = Crossing {
                    x,
                    y,
                    line: Line::North,
                };
                line.push_str(if obstacle_on(s, side) {
                    "XXXX"
                } else if y % 2 == 0 {
                    "===="
                } else {
                    "----"
                });
            }
        }
        out.push_str(&line);
        out.push('\n');
        if y == SIDE {
            break;
        }
        let mut row = format!("{:<2}", y + 1);
        for x in 0..=SIDE {
            let side = Crossing {
                x,
                y,
                line: Line::West,
            };
            row.push(if obstacle_on(s, side) {
                'X'
            } else if x % 2 == 0 {
                '#'
            } else {
                '|'
            });
            if x == SIDE {
                break;
            }
            let sq = Sq::new(x, y);
            let claim = s
                .claims
                .get(&sq.large())
                .map_or('.', |c| char::from(b'0' + (*c as u8 % 10)));
            let pieces: Vec<String> = s.at_square(sq).map(|p| code(s, p)).collect();
            let what = match pieces.len() {
                0 if s.scenery.contains_key(&sq) => String::new(),
                0 => "_".into(),
                1 => pieces[0].clone(),
                _ => format!("{}+", &pieces[0][..2]),
            };
            row.push_str(&format!("{claim}{what:<3}"));
        }
        out.push_str(&row);
        out.push('\n');
    }
    out.push_str("Key: a cell is its Reach's claimer, then A Avatar, H Hero, M Monster, U Monument, i Item, t Talisman with its seat (and i/t/* carried), + more there, _ no Scenery yet; X an Obstacle.\n");
    let symbols: Vec<String> = s
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| format!("{i} {} (\"{}\")", seat.player, seat.symbol))
        .collect();
    out.push_str(&format!("Symbols: {}\n", symbols.join(", ")));
    if s.phase != Phase::Introductions {
        let scores: Vec<String> = super::decide::scores(s)
            .iter()
            .map(|sc| format!("{} {}", s.player(sc.seat), sc.total))
            .collect();
        out.push_str(&format!("Score so far: {}\n", scores.join(", ")));
    }
    out.push_str("\nCorners:\n");
    for (i, seat) in s.seats.iter().enumerate() {
        let here: Vec<String> = s
            .pieces
            .values()
            .filter(|p| {
                p.at == At::Corner {
                    corner: seat.corner,
                }
            })
            .map(|p| {
                let carried: Vec<String> = s
                    .carried(p.id)
                    .map(|c| format!("{} ({})", c.name, c.category.word()))
                    .collect();
                if carried.is_empty() {
                    format!("#{} {} ({})", p.id, p.name, p.category.word())
                } else {
                    format!(
                        "#{} {} ({}, carrying {})",
                        p.id,
                        p.name,
                        p.category.word(),
                        carried.join(" and ")
                    )
                }
            })
            .collect();
        out.push_str(&format!(
            "- {} (seat {i}, Symbol \"{}\") at {} by {}: {}\n",
            seat.player,
            seat.symbol,
            CORNERS[seat.corner as usize],
            corner_square(seat.corner),
            if here.is_empty() {
                "empty".into()
            } else {
                here.join(", ")
            }
        ));
    }
    out.push_str("\nOn the map:\n");
    for p in s.pieces.values().filter(|p| p.on_map()) {
        let carried: Vec<String> = s.carried(p.id).map(|c| c.name.clone()).collect();
        let carry = if carried.is_empty() {
            String::new()
        } else {
            format!(", carrying {}", carried.join(" and "))
        };
        out.push_str(&format!(
            "- #{} {} ({}'s {}) at {}{carry}\n",
            p.id,
            p.name,
            s.player(p.controller),
            p.category.word(),
            place(&p.at)
        ));
    }
    out.push_str("\nScenery:\n");
    for (sq, text) in &s.scenery {
        out.push_str(&format!("- {sq}: {text}\n"));
    }
    out.push_str("\nStockpiles:\n");
    for seat in 0..s.seats.len() as u32 {
        let names: Vec<String> = s
            .stockpile(seat)
            .iter()
            .map(|p| format!("{} ({})", p.name, p.category.word()))
            .collect();
        out.push_str(&format!(
            "- {}: {}\n",
            s.player(seat),
            if names.is_empty() {
                "empty".into()
            } else {
                names.join(", ")
            }
        ));
    }
    if s.phase == Phase::Playing {
        out.push_str(&format!(
            "\nRound {} of 7: {}'s turn, {} of {} actions taken.\n",
            s.round,
            s.player(s.current()),
            s.actions_used,
            s.actions_allowed
        ));
    }
    out
}
