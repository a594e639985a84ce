//! LEGEND told as a story. The characters come first: what Sir Kettle does,
//! not which move a seat made. A player's explanation is woven into the
//! action it explains, a square is called by its Scenery once drawn (its
//! grid name appears once, when it is drawn), each turn is one paragraph and
//! each round a chapter. The epilogue says how the legend ended (a tie is a
//! shared victory), where every hero stands and who holds which Talisman,
//! with the score table; the appendix lists every object by category with
//! who made it and what became of it. The HTML story shows the map at the
//! end of each chapter. [`render`] draws the map as a text grid.

use tabletape_events::Seat;

use super::actions::{Action, Category, Fact, Fate, Outcome, Score, Tally, Use};
use super::content::{corner_square, reach, Crossing, Line, Sq, CORNERS, SIDE};
use super::decide::scores;
use super::state::{At, Phase, Piece, State};

fn name(s: &State, id: u32) -> String {
    s.piece(id)
        .map_or_else(|| format!("#{id}"), |p| p.name.clone())
}

/// "Bo's Monster"; "Bo's Avatar, now Ada's" once charmed.
fn side(s: &State, p: &Piece) -> String {
    let made = format!("{}'s {}", s.player(p.placed_by), p.category.word());
    if p.controller == p.placed_by {
        made
    } else {
        format!("{made}, now {}'s", s.player(p.controller))
    }
}

/// "Sir Kettle (Ada's Avatar)": a name with its side, where sides matter.
fn who(s: &State, id: u32) -> String {
    match s.piece(id) {
        Some(p) => format!("{} ({})", p.name, side(s, p)),
        None => format!("#{id}"),
    }
}

/// A square as the story calls it: its Scenery once drawn.
fn square(s: &State, sq: Sq) -> String {
    match s.scenery.get(&sq) {
        Some(text) => text.trim().to_string(),
        None => format!("the blank square {sq}"),
    }
}

/// "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// What an action open now does, for its button (`Rules::describe`):
/// objects by name, squares by their Scenery once drawn.
pub(super) fn describe(s: &State, action: &Action) -> String {
    let named = |id: u32| name(s, id);
    let to = |path: &[Sq]| {
        let squares: Vec<String> = path.iter().map(|q| square(s, *q)).collect();
        squares.join(", then ")
    };
    match action {
        Action::Introduce {
            seat,
            corner,
            ability,
            ..
        } => {
            let player = seat.map_or("The next player", |seat| s.player(seat));
            let mut line = format!("{player} introduces an Avatar, a Talisman and a Symbol");
            if let Some(c) = corner {
                line.push_str(&format!(", starting from {}", CORNERS[c.index() as usize]));
            }
            if let Some(a) = ability {
                line.push_str(&format!(", with the Ability {}", a.word()));
            }
            line
        }
        Action::Move { pieces, .. } => {
            let steps: Vec<String> = pieces
                .iter()
                .map(|st| {
                    let mut step = if st.exit {
                        format!("{} leaves the map into its Corner", named(st.piece))
                    } else {
                        format!("{} to {}", named(st.piece), to(&st.path))
                    };
                    if st.swap {
                        step.push_str(", swapping its Item");
                    }
                    if st.rewrite {
                        step.push_str(", then Rewrite");
                    }
                    step
                })
                .collect();
            format!("Move {}", and_list(&steps))
        }
        Action::Place {
            object,
            squares,
            at,
            ..
        } => {
            let place = match (at, squares.as_slice()) {
                (Some(c), _) => c.describe(),
                (None, []) => "the map".into(),
                (None, path) => to(path).replace(", then ", " and "),
            };
            // Before the table names it, the object is a placeholder.
            if object.name.starts_with('<') {
                format!("Place a new {} on {place}", object.category.word())
            } else {
                format!(
                    "Place the {} {} on {place}",
                    object.category.word(),
                    object.name
                )
            }
        }
        Action::Ability { used, .. } => match used {
            Use::Rewrite { piece } => {
                format!("Rewrite: claim the Large Square under {}", named(*piece))
            }
            Use::Shift { first, second } => {
                format!("Shift: swap {} and {}", named(*first), named(*second))
            }
            Use::LongArm { piece, targets, .. } => {
                let targets: Vec<String> = targets.iter().map(|t| named(*t)).collect();
                format!(
                    "Long Arm: {} reaches {} with its Item",
                    named(*piece),
                    and_list(&targets)
                )
            }
            Use::Gamble {
                flipper,
                call_heads,
                ..
            } => format!(
                "Gamble: {} flips the coin, and you call {}",
                s.player(*flipper),
                if *call_heads { "heads" } else { "tails" }
            ),
            Use::Charm { object } => format!("Charm: take control of {}", named(*object)),
            Use::Guile { object, .. } => {
                let turned = match s.piece(*object).map(|p| p.category) {
                    Some(Category::Monster) => "into a Hero",
                    Some(Category::Hero) => "back into a Monster",
                    Some(Category::Obstacle) => "into a Monument",
                    Some(Category::Monument) => "back into an Obstacle",
                    _ => "",
                };
                format!("Guile: turn {} {turned}", named(*object))
                    .trim_end()
                    .to_string()
            }
            Use::Entropy { .. } => "Entropy: every player removes one object".into(),
            Use::Custom { .. } => "Use your custom Ability".into(),
        },
        Action::Duel {
            piece, opponent, ..
        } => format!("Duel: {} against {}", named(*piece), named(*opponent)),
        Action::Pass { .. } => "Pass".into(),
    }
}

/// Where an object is, with its preposition: "at a hill of crumbs",
/// "across …" for a Monument, "carried by Moss".
fn whereabouts(s: &State, at: &At) -> String {
    match at {
        At::Map { squares } if squares.len() == 1 => format!("at {}", square(s, squares[0])),
        At::Map { squares } => {
            let mut named: Vec<String> = Vec::new();
            for q in squares {
                let n = square(s, *q);
                if !named.contains(&n) {
                    named.push(n);
                }
            }
            format!("across {}", and_list(&named))
        }
        At::Crossing { at } => format!("at {}", at.describe()),
        At::Corner { corner } => format!("in {}", CORNERS[*corner as usize]),
        At::Held { by } => format!("carried by {}", name(s, *by)),
        At::Stockpile { seat } => format!("in {}'s Stockpile", s.player(*seat)),
        At::Destroyed => "gone from the legend".into(),
    }
}

/// Grid names for a reader with the map beside the story (the state view,
/// the appendix).
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

/// Whether a step takes an Avatar or Hero into a blank square: its player
/// draws the Scenery next (decide asks for it), and that sentence tells
/// the step.
pub fn into_blank(s: &State, piece: u32, to: &At) -> bool {
    s.piece(piece).is_some_and(Piece::is_character)
        && matches!(to, At::Map { squares } if squares.len() == 1 && !s.scenery.contains_key(&squares[0]))
}

/// Whether a fact's sentence carries the explanation given with its action
/// (the first such fact in the event does). Drawing Scenery, claiming a
/// Reach and the table's votes are the setting, not the deed, unless the
/// drawing tells a step into new land.
pub fn weaves(s: &State, fact: &Fact) -> bool {
    match fact {
        Fact::AvatarMoved { piece, to, .. } => !into_blank(s, *piece, to),
        Fact::SceneryDrawn { .. } => s.telling.arriving.is_some(),
        Fact::Explained { .. }
        | Fact::ActionTaken { .. }
        | Fact::AbilityUsed { .. }
        | Fact::RoundBegan { .. }
        | Fact::TerritoryClaimed { .. }
        | Fact::VoteTaken { .. } => false,
        _ => true,
    }
}

/// A player's words as a whole sentence in quotes, a full stop added
/// where they end without one: `"It fell."`.
fn told(text: &str) -> String {
    let text = text.trim();
    let stop = if text.ends_with(['.', '!', '?', '…']) {
        ""
    } else {
        "."
    };
    format!("\"{text}{stop}\"")
}

/// A player's explanation in their own words: `"…," says Ada.`
fn quoted(player: &str, text: &str) -> String {
    let text = text.trim();
    let text = text.strip_suffix('.').unwrap_or(text);
    let sep = if text.ends_with(['!', '?', ',']) {
        ""
    } else {
        ","
    };
    format!("\"{text}{sep}\" says {player}.")
}

pub fn narrate(s: &State, fact: &Fact) -> Vec<String> {
    let Some(line) = sentence(s, fact) else {
        return Vec::new();
    };
    let line = capitalized(line);
    match &s.telling.said {
        Some((seat, text)) if weaves(s, fact) => {
            vec![format!("{line} {}", quoted(s.player(*seat), text))]
        }
        _ => vec![line],
    }
}

/// "the Spoon of Dawn (#2, a wooden spoon)": an object as it is made, with
/// the number the table uses for it and its player's description.
fn described(p: &Piece) -> String {
    match p.description.trim() {
        "" => format!("{} (#{})", p.name, p.id),
        d => format!("{} (#{}, {d})", p.name, p.id),
    }
}

fn sentence(s: &State, fact: &Fact) -> Option<String> {
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
            let player = s.player(*seat);
            let mut l = format!(
                "{} is {player}'s Avatar, waiting in {} with {player}'s Talisman, {}. {player}'s Symbol is \"{symbol}\"",
                described(avatar),
                CORNERS[corner.unwrap_or(s.seat(*seat).corner) as usize],
                described(talisman),
            );
            match (ability, custom) {
                (Some(_), Some(c)) => l.push_str(&format!(
                    ", and {player}'s Ability, voted in by the table, is {}: {}",
                    c.name,
                    c.description.trim_end_matches('.')
                )),
                (Some(a), None) => l.push_str(&format!(", and {player}'s Ability is {}", a.word())),
                _ => {}
            }
            l + "."
        }
        // The chapter heading announces the round; the explanation waits
        // for the deed it explains.
        Fact::RoundBegan { .. }
        | Fact::Explained { .. }
        | Fact::ActionTaken { .. }
        | Fact::AbilityUsed { .. } => return None,
        Fact::AvatarMoved { piece, from, to } => {
            let mover = name(s, *piece);
            let again = s.telling.mover == Some(*piece);
            let onto = |sq: Sq| match s.scenery.get(&sq) {
                Some(text) => format!("to {}", text.trim()),
                None => "into blank land".into(),
            };
            match (from, to) {
                // Into a blank square: the Scenery drawn next tells it.
                _ if into_blank(s, *piece, to) => return None,
                (At::Corner { corner }, At::Map { squares }) => format!(
                    "{mover} sets out from {} {}.",
                    CORNERS[*corner as usize],
                    onto(squares[0])
                ),
                (_, At::Corner { corner }) => {
                    let home = s.piece(*piece).map(|p| s.seat(p.controller).corner);
                    if home == Some(*corner) {
                        format!("{mover} comes home to {}.", CORNERS[*corner as usize])
                    } else {
                        format!("{mover} leaves the map for {}.", CORNERS[*corner as usize])
                    }
                }
                (_, At::Map { squares }) if squares.len() == 1 => {
                    let on = if again { " on" } else { "" };
                    format!("{mover} goes{on} {}.", onto(squares[0]))
                }
                _ => format!("{mover} goes {}.", whereabouts(s, to)),
            }
        }
        Fact::SceneryDrawn { seat, square, text } => {
            let mover = s.telling.mover.map(|m| name(s, m));
            match (&s.telling.arriving, mover) {
                (Some(At::Corner { corner }), Some(m)) => format!(
                    "{m} sets out from {} and finds {} ({square}).",
                    CORNERS[*corner as usize],
                    text.trim()
                ),
                (Some(_), Some(m)) if s.telling.again => {
                    format!("{m} goes on and finds {} ({square}).", text.trim())
                }
                (Some(_), Some(m)) => {
                    format!("{m} ventures out and finds {} ({square}).", text.trim())
                }
                _ => format!("{} draws {} ({square}).", s.player(*seat), text.trim()),
            }
        }
        Fact::TerritoryClaimed { seat, large, from } => {
            let symbol = &s.seat(*seat).symbol;
            match from {
                None => {
                    let claimer = s
                        .telling
                        .mover
                        .and_then(|m| s.piece(m))
                        .filter(|m| m.controller == *seat)
                        .map_or_else(|| s.player(*seat).to_string(), |m| m.name.clone());
                    format!("{claimer} claims {} with \"{symbol}\".", reach(*large))
                }
                Some(old) => format!(
                    "{} rewrites {}: {}'s \"{}\" gives way to \"{symbol}\".",
                    s.player(*seat),
                    reach(*large),
                    s.player(*old),
                    s.seat(*old).symbol
                ),
            }
        }
        Fact::ItemPickedUp { piece, item, left } => match left {
            None => format!("{} picks up {}.", name(s, *piece), name(s, *item)),
            Some(l) => format!(
                "{} leaves {} behind and takes {}.",
                name(s, *piece),
                name(s, *l),
                name(s, *item)
            ),
        },
        Fact::TalismanTaken { piece, talisman } => {
            let owner = s.piece(*talisman).map_or(0, |t| t.placed_by);
            format!(
                "{} seizes {}'s Talisman, {}!",
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
        } => {
            let seat = s.piece(*piece).map_or(0, |p| p.controller);
            format!(
                "{} gets past {} with {}: {} The way there stays open to {}.",
                name(s, *piece),
                name(s, *obstacle),
                name(s, *item),
                told(story),
                s.player(seat)
            )
        }
        Fact::ObstacleHeld { piece, obstacle } => format!(
            "{} keeps the Item but cannot get past {}.",
            name(s, *piece),
            name(s, *obstacle)
        ),
        Fact::ItemSpent { item, seat } => format!(
            "{} is used up and goes to {}'s Stockpile.",
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
                format!("{} wins", name(s, *victor))
            };
            let mut l = format!(
                "Battle! {} {how} {}, and {ending}.",
                capitalized(who(s, *aggressor)),
                who(s, *defender)
            );
            // The victor tells the story: it is the winning side's player's.
            if let Some(t) = story {
                // Before rules 2 the mover typed every story, whoever won.
                match s.piece(*victor).filter(|_| s.rules >= 2) {
                    Some(v) => l.push_str(&format!(
                        " {}, whose side won, tells it: {}",
                        s.player(v.controller),
                        told(t)
                    )),
                    None => l.push_str(&format!(" The victor tells it: {}", told(t))),
                }
            }
            l
        }
        Fact::AttackRepelled {
            piece,
            monster,
            back_to,
        } => format!(
            "{} keeps the Item but cannot beat {}, and falls back {}.",
            name(s, *piece),
            name(s, *monster),
            whereabouts(s, back_to).replacen("at ", "to ", 1)
        ),
        Fact::Defeated {
            piece,
            fate,
            dropped,
            square,
        } => {
            let mut l = match fate {
                Fate::Respawned { corner } => format!(
                    "{} is defeated and goes home to {}.",
                    name(s, *piece),
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
                    " {} {verb} behind at {}.",
                    capitalized(and_list(&names)),
                    self::square(s, *sq)
                ));
            }
            l
        }
        Fact::ObjectPlaced {
            seat,
            piece,
            recycled,
        } => {
            // The new object where it appears, then whose it is.
            let whose = if *recycled {
                format!(
                    "{}'s {}, back from the Stockpile by Recycle",
                    s.player(*seat),
                    piece.category.word()
                )
            } else {
                format!("{}'s new {}", s.player(*seat), piece.category.word())
            };
            let it = described(piece);
            let squares = piece.squares();
            // Just drawn: the sentence before named the place.
            let there =
                if !squares.is_empty() && squares.iter().all(|q| s.telling.drawn.contains(q)) {
                    "there".to_string()
                } else {
                    whereabouts(s, &piece.at)
                };
            match piece.category {
                Category::Obstacle => format!("{} bars the way {there}: {whose}.", capitalized(it)),
                Category::Monument => format!("{} rises {there}: {whose}.", capitalized(it)),
                c => {
                    let verb = match c {
                        Category::Monster => "lurks",
                        Category::Item | Category::Talisman => "lies",
                        _ => "stands",
                    };
                    format!("{} {verb} {it}: {whose}.", capitalized(there))
                }
            }
        }
        Fact::MonumentOccupied { piece, monument } => format!(
            "{} occupies the Monument {}.",
            name(s, *piece),
            name(s, *monument)
        ),
        Fact::Swapped { first, second, .. } => format!(
            "By Shift, {} and {} trade places.",
            name(s, *first),
            name(s, *second)
        ),
        Fact::Charmed { object, seat } => format!(
            "{} charms {} into {}'s service.",
            s.player(*seat),
            who(s, *object),
            s.player(*seat)
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
                "By Guile, {} becomes {a} {} {}.",
                who(s, *object),
                into.word(),
                whereabouts(s, at)
            )
        }
        Fact::Removed {
            seat, object, to, ..
        } => match to {
            At::Corner { corner } => format!(
                "By Entropy, {} sends {} home to {}.",
                s.player(*seat),
                who(s, *object),
                CORNERS[*corner as usize]
            ),
            _ => format!(
                "By Entropy, {} takes {} into {}'s Stockpile.",
                s.player(*seat),
                who(s, *object),
                s.player(*seat)
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
                "{} and {} duel. {} writes: {} {} writes: {} The table votes {}-{}",
                who(s, *piece),
                who(s, *opponent),
                s.piece(*piece).map_or("", |p| s.player(p.controller)),
                told(account),
                s.piece(*opponent).map_or("", |p| s.player(p.controller)),
                told(opponent_account),
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
            format!("{} uses {n}: {}", s.player(*seat), told(account))
        }
        Fact::TurnPassed { seat, skipped } => {
            // The turn's end is the paragraph's end; said only when the
            // player ended it early with words of their own, or a Gamble
            // cost someone a turn.
            let mut said: Vec<String> = Vec::new();
            if let (Some((by, _)), Phase::Playing) = (&s.telling.said, s.phase) {
                said.push(format!("{} ends the turn.", s.player(*by)));
            }
            for k in skipped {
                said.push(format!(
                    "{} misses a turn, lost to a Gamble, and {} plays next.",
                    s.player(*k),
                    s.player(*seat)
                ));
            }
            if said.is_empty() {
                return None;
            }
            said.join(" ")
        }
        Fact::GameWon { outcome } | Fact::GameEnded { outcome } => match outcome {
            Outcome::Talisman {
                winner,
                piece,
                talisman,
                monument,
            } => format!(
                "{} carries {} into the Monument {}, and {} wins the legend!",
                name(s, *piece),
                name(s, *talisman),
                name(s, *monument),
                s.player(*winner)
            ),
            Outcome::Points { .. } => "The seventh round is over, and the legend is told.".into(),
        },
    };
    Some(line)
}

fn capitalized(line: String) -> String {
    let mut chars = line.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => line,
    }
}

const ORDINALS: [&str; 7] = [
    "First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh",
];

pub fn chapter(s: &State) -> String {
    match s.phase {
        Phase::Introductions => "The Cast".into(),
        Phase::Playing => match ORDINALS.get(s.round.saturating_sub(1) as usize) {
            Some(o) => format!("The {o} Round"),
            None => format!("Round {}", s.round),
        },
        Phase::Over => "The End".into(),
    }
}

/// A round in which no one did a thing: every player let the turn pass.
pub fn quiet_round(s: &State) -> Option<String> {
    let players: Vec<String> = (0..s.seats.len())
        .map(|seat| s.player(seat as Seat).to_string())
        .collect();
    Some(format!(
        "The round passes without a deed: {} each let the turn go by.",
        and_list(&players)
    ))
}

/// "The Legend of Sir Kettle, Moss and Pip": the Avatars, once introduced.
pub fn title(s: &State) -> Option<String> {
    let avatars: Vec<String> = s
        .seats
        .iter()
        .filter_map(|t| t.avatar)
        .map(|a| name(s, a))
        .collect();
    (!avatars.is_empty()).then(|| format!("The Legend of {}", and_list(&avatars)))
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

/// What became of an object, in words: "stands at a hill of crumbs",
/// "is carried by Moss", "lies in Bo's Stockpile".
fn fate(s: &State, p: &Piece) -> String {
    match &p.at {
        At::Map { .. } | At::Crossing { .. } if p.is_character() => {
            format!("stands {}", whereabouts(s, &p.at))
        }
        At::Map { .. } | At::Crossing { .. } if p.category == Category::Monument => {
            format!("stands {}", whereabouts(s, &p.at))
        }
        At::Map { .. } | At::Crossing { .. } => format!("lies {}", whereabouts(s, &p.at)),
        At::Corner { .. } => format!("waits {}", whereabouts(s, &p.at)),
        At::Held { .. } => format!("is {}", whereabouts(s, &p.at)),
        At::Stockpile { .. } => format!("lies {}", whereabouts(s, &p.at)),
        At::Destroyed => "is destroyed, gone from the legend".into(),
    }
}

pub fn epilogue(s: &State) -> Vec<String> {
    let mut out = Vec::new();
    let table = match &s.outcome {
        Some(Outcome::Talisman {
            winner,
            talisman,
            monument,
            ..
        }) => {
            out.push(format!(
                "{} won the legend by bringing {}'s Talisman, {}, into the Monument {}, whatever the points say.",
                s.player(*winner),
                s.piece(*talisman).map_or("another player", |t| s.player(t.placed_by)),
                name(s, *talisman),
                name(s, *monument)
            ));
            scores(s)
        }
        Some(Outcome::Points { scores, winners }) => {
            let names: Vec<String> = winners.iter().map(|w| s.player(*w).to_string()).collect();
            let best = scores.iter().map(|sc| sc.total).max().unwrap_or(0);
            if names.len() == 1 {
                out.push(format!(
                    "After seven rounds {} has the most points, {best}, and wins the legend.",
                    names[0]
                ));
            } else {
                let unit = if best == 1 { "point" } else { "points" };
                out.push(format!(
                    "After seven rounds {} are level on {best} {unit}: a tie, and they share the victory.",
                    and_list(&names)
                ));
            }
            scores.clone()
        }
        None => {
            out.push(format!(
                "The legend is still being told: this is the {} round.",
                ORDINALS
                    .get(s.round.saturating_sub(1) as usize)
                    .map_or("next".to_string(), |o| o.to_lowercase())
            ));
            scores(s)
        }
    };
    let heroes: Vec<&Piece> = s.pieces.values().filter(|p| p.is_character()).collect();
    if !heroes.is_empty() {
        out.push("Where the heroes stand:".into());
        for p in heroes {
            let carried: Vec<String> = s.carried(p.id).map(|c| c.name.clone()).collect();
            let carrying = if carried.is_empty() {
                String::new()
            } else {
                format!(", carrying {}", and_list(&carried))
            };
            out.push(format!(
                "- {}, {}, {}{carrying}.",
                p.name,
                side(s, p),
                fate(s, p)
            ));
        }
    }
    let talismans: Vec<&Piece> = s
        .pieces
        .values()
        .filter(|p| p.category == Category::Talisman)
        .collect();
    if !talismans.is_empty() {
        out.push("The Talismans:".into());
        for t in talismans {
            out.push(format!(
                "- {}, {}'s Talisman, {}.",
                capitalized(t.name.clone()),
                s.player(t.placed_by),
                fate(s, t)
            ));
        }
    }
    out.push("The score:".into());
    out.extend(table.iter().map(|sc| score_line(s, sc)));
    out
}

/// Every object of the legend by category: its number, name and
/// description, who made it, and what became of it.
pub fn appendix(s: &State) -> Vec<(String, Vec<String>)> {
    const PLURALS: [(Category, &str); 7] = [
        (Category::Avatar, "Avatars"),
        (Category::Hero, "Heroes"),
        (Category::Talisman, "Talismans"),
        (Category::Item, "Items"),
        (Category::Monster, "Monsters"),
        (Category::Obstacle, "Obstacles"),
        (Category::Monument, "Monuments"),
    ];
    PLURALS
        .iter()
        .filter_map(|(category, plural)| {
            let lines: Vec<String> = s
                .pieces
                .values()
                .filter(|p| p.category == *category)
                .map(|p| {
                    let now = if p.controller == p.placed_by {
                        String::new()
                    } else {
                        format!(", now serving {}", s.player(p.controller))
                    };
                    let grid = match &p.at {
                        At::Map { .. } => format!(" ({})", place(&p.at)),
                        _ => String::new(),
                    };
                    let what = match p.description.trim() {
                        "" => p.name.clone(),
                        d => format!("{} ({d})", p.name),
                    };
                    format!(
                        "#{} {what}: made by {}{now}; {}{grid}.",
                        p.id,
                        s.player(p.placed_by),
                        fate(s, p)
                    )
                })
                .collect();
            (!lines.is_empty()).then(|| (plural.to_string(), lines))
        })
        .collect()
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
