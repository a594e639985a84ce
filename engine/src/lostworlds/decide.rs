//! Every Lost Worlds rule: setup, which maneuvers are open, the exchange and
//! its damage, escapes, parties, the end of the fight and what comes after.
//!
//! `decide` checks an action and returns facts; nothing here changes state.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use sha2::{Digest, Sha256};
use tabletape_events::{DiceMode, Seat};

use super::actions::{
    Action, Award, Blow, Condition, CriticalHit, Ending, Fact, Fall, Move, Outcome, Part,
    Resolution, Seen, Turn,
};
use super::cards;
use super::content::{
    Book, CardKind, Character, Colour, Critical, Maneuver, Pack, PartyMark, Picture, Range,
    CRITICAL_MAX, OPENING_PICTURE, SCORE_MAX,
};
use super::movement;
use super::options::{BooksMode, Options};
use super::restriction::Restriction;
use super::state::{Fighter, Orders, Pending, Phase, SeatState, SeatStatus, Sight, State};
use super::turn;
use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::rules::{Legal, Seal};

/// Experience from defeated body points buys one advancement per this many.
pub const BODY_POINTS_PER_ADVANCEMENT: u32 = 50;

/// The commitment of a sealed choice: lowercase hex SHA-256 of `"<page>:<salt>"`.
pub fn commitment(page: u32, salt: &str) -> String {
    hex::encode(Sha256::digest(format!("{page}:{salt}").as_bytes()))
}

// ---------------------------------------------------------------- setup

fn default_ids(pack: &Pack, seat: Seat, lone: Option<&str>) -> Vec<String> {
    let first = pack.characters[0].id.clone();
    if seat == 0 {
        let id = pack
            .character("nowa")
            .map(|c| c.id.clone())
            .unwrap_or(first);
        return vec![id];
    }
    let id = pack
        .characters
        .iter()
        .find(|c| c.sample && Some(c.id.as_str()) != lone)
        .or_else(|| pack.characters.iter().find(|c| Some(c.id.as_str()) != lone))
        .map(|c| c.id.clone())
        .unwrap_or(first);
    vec![id]
}

/// Lays out the duel: characters per seat, books, and picture 57 all round.
/// Under rules 2 a seat left to the default is never given a character
/// another defaulted seat already fields: a table that wants two of the same
/// names them (rules 1 fielded the pack's first sample again, silently).
pub fn setup(
    players: &[String],
    options: &Options,
    pack: &Pack,
    rules_version: u32,
    dice: DiceMode,
) -> Result<State, Rejection> {
    if let Some(id) = &options.scenario {
        return setup_scenario(players, options, pack, rules_version, dice, id);
    }
    if options.obstructions {
        return reject(
            "setup.obstructions",
            "obstructions are a scenario's optional rule: add `scenario`",
        );
    }
    if players.len() < 2 {
        return reject(
            "setup.players",
            "a Lost Worlds duel needs at least two players",
        );
    }
    if let Some(&s) = options.seats.keys().find(|&&s| s as usize >= players.len()) {
        return reject(
            "setup.seat",
            format!(
                "option names seat {s}, but there are only {} players",
                players.len()
            ),
        );
    }
    let lone = options
        .seats
        .get(&0)
        .and_then(|v| v.first().cloned())
        .unwrap_or_else(|| default_ids(pack, 0, None)[0].clone());
    let mut parties: Vec<Vec<Character>> = Vec::new();
    let mut defaulted: Vec<String> = Vec::new();
    for seat in 0..players.len() as Seat {
        let ids = match options.seats.get(&seat) {
            Some(ids) => ids.clone(),
            None if rules_version < 2 => default_ids(pack, seat, Some(&lone)),
            None => {
                // Free: fielded by no other seat, named or defaulted.
                let free = |c: &&Character| {
                    c.id != lone
                        && !defaulted.contains(&c.id)
                        && !options.seats.values().flatten().any(|n| n == &c.id)
                };
                let id = if seat == 0 {
                    lone.clone()
                } else {
                    let free = pack
                        .characters
                        .iter()
                        .filter(free)
                        .find(|c| c.sample)
                        .or_else(|| pack.characters.iter().find(free));
                    match free {
                        Some(c) => c.id.clone(),
                        None => {
                            let all: Vec<&str> =
                                pack.characters.iter().map(|c| c.id.as_str()).collect();
                            return reject(
                                "setup.character",
                                format!(
                                    "{} fighters, and the pack has {} characters ({}): name each seat's with the option `characters` (one may be named twice)",
                                    players.len(),
                                    all.len(),
                                    all.join(", ")
                                ),
                            );
                        }
                    }
                };
                defaulted.push(id.clone());
                vec![id]
            }
        };
        let mut party = Vec::new();
        for id in ids {
            let Some(c) = pack.character(&id) else {
                let known: Vec<&str> = pack.characters.iter().map(|c| c.id.as_str()).collect();
                return reject(
                    "setup.character",
                    format!(
                        "no character `{id}` in the pack (it has {})",
                        known.join(", ")
                    ),
                );
            };
            party.push(c.clone());
        }
        parties.push(party);
    }
    let mut books = BTreeMap::new();
    if options.books == BooksMode::Full {
        for c in parties.iter().flatten() {
            let Some(b) = pack.book(&c.id) else {
                return reject(
                    "setup.book",
                    format!("full mode needs a book showing `{}`; use books=record to read physical books", c.id),
                );
            };
            books.insert(c.id.clone(), Arc::new(b.clone()));
        }
        // Every page a holder could turn to must be in the book they hold.
        for (seat, party) in parties.iter().enumerate() {
            let foes: Vec<&Character> = if seat == 0 {
                parties[1..].iter().flatten().collect()
            } else {
                parties[0].iter().collect()
            };
            for holder in party {
                for foe in &foes {
                    let book = &books[&foe.id];
                    for m in &holder.maneuvers {
                        for page in std::iter::once(m.page).chain(m.x) {
                            if !book.matrices.contains_key(&page) {
                                return reject(
                                    "setup.book",
                                    format!(
                                        "{}'s book has no matrix for page {page} ({}'s {})",
                                        foe.name,
                                        holder.name,
                                        m.full_name()
                                    ),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    let opening = Restriction::opening();
    let mut seats = Vec::new();
    for (i, player) in players.iter().enumerate() {
        let seat = i as Seat;
        let mut orders = Orders::default();
        orders.read(None, &opening);
        let foes: Vec<Seat> = if seat == 0 {
            (1..players.len() as Seat).collect()
        } else {
            vec![0]
        };
        let sights = foes
            .into_iter()
            .map(|f| {
                let foe = &parties[f as usize][0];
                let sight = match books
                    .get(&foe.id)
                    .and_then(|b| b.pictures.get(&OPENING_PICTURE))
                {
                    Some(p) => Sight {
                        picture: OPENING_PICTURE,
                        title: Some(p.title.clone()),
                        range: p.range,
                        party: p.party,
                        reveal: p.reveal,
                    },
                    // Record mode: the physical book's title is not known yet.
                    None => Sight {
                        picture: OPENING_PICTURE,
                        title: None,
                        range: Range::Extended,
                        party: None,
                        reveal: None,
                    },
                };
                (f, sight)
            })
            .collect();
        seats.push(SeatState {
            player: player.clone(),
            party: parties[i].iter().cloned().map(Fighter::new).collect(),
            active: 0,
            status: SeatStatus::Fighting,
            escaping: false,
            withdrawn: false,
            orders,
            sights,
            party_turn: None,
            boosts: Vec::new(),
            strikes: Vec::new(),
            luck_turn: None,
            reveal_turn: None,
        });
    }
    Ok(State {
        field: None,
        rules: rules_version,
        // Cards came with rules 3; an older fight never held any.
        cards: std::sync::Arc::new(if rules_version >= 3 {
            pack.cards
                .iter()
                .map(|c| (c.id.clone(), c.clone()))
                .collect()
        } else {
            BTreeMap::new()
        }),
        awaiting: None,
        books_mode: options.books,
        exchange_limit: options.exchange_limit,
        books,
        seats,
        exchanges: 0,
        pending: BTreeMap::new(),
        settled: 0,
        falls: Vec::new(),
        phase: Phase::Fighting,
        outcome: None,
    })
}

/// Lays out a scenario: one seat for each of its figures, side by side in
/// the scenario's order, every figure standing on its starting space and
/// no fight begun.
fn setup_scenario(
    players: &[String],
    options: &Options,
    pack: &Pack,
    rules_version: u32,
    dice: DiceMode,
    id: &str,
) -> Result<State, Rejection> {
    let Some(scenario) = pack.scenario(id) else {
        let ids: Vec<&str> = pack.scenarios.iter().map(|s| s.id.as_str()).collect();
        return reject(
            "setup.scenario",
            format!("no scenario `{id}` in the pack (it has {})", ids.join(", ")),
        );
    };
    if !options.seats.is_empty() {
        return reject(
            "setup.scenario",
            "a scenario names its own characters: leave out `characters` and `seatN`",
        );
    }
    let figures: Vec<&str> = scenario
        .sides
        .iter()
        .flat_map(|s| s.figures.iter().map(|f| f.character.as_str()))
        .collect();
    if players.len() != figures.len() {
        let mut names = Vec::new();
        for side in &scenario.sides {
            for f in &side.figures {
                let name = pack
                    .character(&f.character)
                    .map_or(&f.character, |c| &c.name);
                names.push(format!("{name} ({})", side.name));
            }
        }
        return reject(
            "setup.players",
            format!(
                "{} has {} figures, one player each, in this order: {}",
                scenario.title,
                figures.len(),
                names.join(", ")
            ),
        );
    }
    let mut seated = options.clone();
    seated.scenario = None;
    seated.obstructions = false;
    seated.seats = figures
        .iter()
        .enumerate()
        .map(|(i, c)| (i as Seat, vec![c.to_string()]))
        .collect();
    let mut state = setup(players, &seated, pack, rules_version, dice)?;
    for st in &mut state.seats {
        st.status = SeatStatus::Aside;
        st.sights.clear();
        st.orders = Orders::default();
    }
    state.field = Some(Box::new(turn::lay_out(
        scenario,
        dice,
        options.obstructions,
    )));
    Ok(state)
}

// ---------------------------------------------------------------- open maneuvers

/// The maneuvers open to a seat now, and the orders set aside to leave any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choices {
    pub open: Vec<usize>,
    pub set_aside: Vec<String>,
    /// Opponents at extended range while others stand close (their X pages apply).
    pub mixed: bool,
    pub instructed: bool,
}

fn extended_foes(state: &State, seat: Seat) -> (Vec<Seat>, usize) {
    let st = state.seat(seat);
    let foes = state.foes(seat);
    let ext = foes
        .iter()
        .copied()
        .filter(|f| st.sights.get(f).is_some_and(|s| s.range == Range::Extended))
        .collect();
    (ext, foes.len())
}

/// Which maneuvers a seat may choose. Extended Range is open only when an
/// order read calls for it and no opponent stands close; every order is
/// obeyed at once, the lost weapon first, then lasting orders, then next-turn
/// orders; one that would leave nothing is set aside for this turn.
pub fn choices(state: &State, seat: Seat) -> Choices {
    let st = state.seat(seat);
    let sheet = &st.fighter().sheet.maneuvers;
    let (ext, n_foes) = extended_foes(state, seat);
    let mixed = !ext.is_empty() && ext.len() < n_foes;
    let layers = st.orders.layers();
    let instructed = layers.iter().any(|t| t.clause.instructs_extended(sheet));
    let disarmed = st.orders.disarmed();
    let mut open: Vec<usize> = (0..sheet.len())
        .filter(|&i| !sheet[i].is_extended() || (instructed && !mixed))
        .filter(|&i| armed_for(&sheet[i], disarmed))
        .collect();
    let mut set_aside = Vec::new();
    for t in layers {
        let widen = mixed && t.from.is_some_and(|f| ext.contains(&f));
        let kept: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&i| t.clause.allows(&sheet[i], sheet, widen))
            .collect();
        if kept.is_empty() {
            if !set_aside.contains(&t.text) {
                set_aside.push(t.text.clone());
            }
        } else {
            open = kept;
        }
    }
    // A scenario's optional obstruction restrictions, obeyed like orders.
    for (text, barred) in turn::obstructions(state, seat) {
        let kept: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&i| !barred(&sheet[i]))
            .collect();
        if kept.is_empty() {
            set_aside.push(text);
        } else {
            open = kept;
        }
    }
    Choices {
        open,
        set_aside,
        mixed,
        instructed,
    }
}

/// Whether a fighter holding (or having lost) the weapon can do `m`: no
/// blow with a weapon lost, no retrieving a weapon still in hand.
fn armed_for(m: &Maneuver, disarmed: bool) -> bool {
    if disarmed {
        !m.wields_weapon()
    } else {
        !m.retrieves_weapon()
    }
}

fn names(state: &State, seats: &[Seat]) -> String {
    seats
        .iter()
        .map(|&s| state.seat_name(s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Rejects a maneuver that is not open, quoting the order it breaks.
pub fn check_maneuver(state: &State, seat: Seat, idx: usize) -> Result<(), Rejection> {
    let c = choices(state, seat);
    if c.open.contains(&idx) {
        return Ok(());
    }
    let st = state.seat(seat);
    let name = state.seat_name(seat);
    let sheet = &st.fighter().sheet.maneuvers;
    let m = &sheet[idx];
    if !armed_for(m, st.orders.disarmed()) {
        let why = if m.retrieves_weapon() {
            format!("{name} still holds the weapon: there is nothing to retrieve")
        } else {
            format!(
                "{name}'s weapon is lost: {} needs it (kick, block, jump or retrieve it)",
                m.full_name()
            )
        };
        return reject("lostworlds.weapon", why);
    }
    if m.is_extended() && c.mixed {
        let (ext, _) = extended_foes(state, seat);
        return reject(
            "lostworlds.multi_range",
            format!(
                "{name}'s opponents stand at both ranges: pick a close-range maneuver (its X page is used against {})",
                names(state, &ext)
            ),
        );
    }
    if m.is_extended() && !c.instructed {
        return reject(
            "lostworlds.extended_range",
            format!("{name} may do Extended Range only when told to, and no order in force calls for it"),
        );
    }
    let (ext, _) = extended_foes(state, seat);
    for t in st.orders.layers() {
        if c.set_aside.contains(&t.text) {
            continue;
        }
        let widen = c.mixed && t.from.is_some_and(|f| ext.contains(&f));
        if let Err(why) = t.clause.permits(m, sheet, widen) {
            return reject(
                "lostworlds.restriction",
                format!("{name} must obey \"{}\": {why}", t.text),
            );
        }
    }
    reject(
        "lostworlds.restriction",
        format!("{name} may not do {} now", m.full_name()),
    )
}

// ---------------------------------------------------------------- small checks

pub(super) fn acting_seat(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
) -> Result<Seat, Rejection> {
    let Some(s) = seat.or(by) else {
        return reject("lostworlds.seat", "say which seat acts: add \"seat\"");
    };
    if s as usize >= state.seats.len() {
        return reject("lostworlds.seat", format!("there is no seat {s}"));
    }
    if let Some(b) = by {
        if b != s {
            return reject(
                "lostworlds.seat",
                format!("seat {b} cannot act for seat {s}"),
            );
        }
    }
    Ok(s)
}

pub(super) fn fighting(state: &State) -> Result<(), Rejection> {
    if state.phase != Phase::Fighting {
        return reject("lostworlds.phase", "the fight is over");
    }
    Ok(())
}

pub(super) fn in_fight(state: &State, seat: Seat) -> Result<(), Rejection> {
    let st = state.seat(seat);
    if st.status != SeatStatus::Fighting {
        return reject(
            "lostworlds.out",
            format!("{} is out of the fight", state.seat_name(seat)),
        );
    }
    Ok(())
}

fn not_record(state: &State) -> Result<(), Rejection> {
    if state.books_mode == BooksMode::Record {
        return reject(
            "lostworlds.record",
            "record mode: the table calls every maneuver in one `exchange` action, with what each fighter saw",
        );
    }
    Ok(())
}

fn find_maneuver(
    state: &State,
    seat: Seat,
    page: Option<u32>,
    name: Option<&str>,
) -> Result<usize, Rejection> {
    let st = state.seat(seat);
    let sheet = &st.fighter().sheet;
    let by_page = page.map(|p| {
        sheet.maneuver_at(p).map(|(i, _)| i).ok_or_else(|| {
            Rejection::new(
                "lostworlds.maneuver",
                format!("{}'s sheet has no maneuver on page {p}", sheet.name),
            )
        })
    });
    let by_name = name.map(|n| {
        sheet.maneuver_named(n).map(|(i, _)| i).ok_or_else(|| {
            Rejection::new(
                "lostworlds.maneuver",
                format!(
                    "{}'s sheet has no maneuver called `{n}`{}. Its maneuvers (a full name, or a name only one maneuver bears): {}",
                    sheet.name,
                    sheet.maneuver_hint(n),
                    sheet.maneuver_names()
                ),
            )
        })
    });
    match (by_page, by_name) {
        (Some(p), Some(n)) => {
            let (p, n) = (p?, n?);
            if p != n {
                return reject(
                    "lostworlds.maneuver",
                    format!(
                        "page {} is {}, not {}",
                        sheet.maneuvers[p].page,
                        sheet.maneuvers[p].full_name(),
                        sheet.maneuvers[n].full_name()
                    ),
                );
            }
            Ok(p)
        }
        (Some(p), None) => p,
        (None, Some(n)) => n,
        (None, None) => reject(
            "lostworlds.maneuver",
            "name the maneuver by `page` or `maneuver`",
        ),
    }
}

fn check_targets(state: &State, seat: Seat, targets: &[Seat]) -> Result<(), Rejection> {
    if let Some((i, t)) = targets
        .iter()
        .enumerate()
        .find(|(i, t)| targets[..*i].contains(t))
    {
        return reject(
            "lostworlds.targets",
            format!("`targets[{i}]` names seat {t} again: name each opponent once, in order of preference"),
        );
    }
    let foes = state.foes(seat);
    if let Some(t) = targets.iter().find(|t| !foes.contains(t)) {
        return reject(
            "lostworlds.targets",
            format!(
                "seat {t} is not one of {}'s opponents",
                state.seat_name(seat)
            ),
        );
    }
    Ok(())
}

// ---------------------------------------------------------------- decide

pub fn decide(
    state: &State,
    by: Option<Seat>,
    action: &Action,
    chance: &mut Chance,
) -> Result<Vec<Fact>, Rejection> {
    if let Some(field) = state.field.as_deref() {
        let combat = field.in_combat() && state.phase == Phase::Fighting;
        let anytime = matches!(
            action,
            Action::Advance { .. } | Action::Improve { .. } | Action::Close
        ) || (matches!(action, Action::SelectCards { .. }) && state.exchanges == 0);
        if movement::is_field_action(action) {
            if combat {
                return reject(
                    "lostworlds.scenario.stage",
                    format!("not in the combat phase: {}", turn::stage_words(state)),
                );
            }
            if state.phase != Phase::Fighting {
                return reject("lostworlds.phase", "the scenario is over");
            }
            return movement::decide(state, by, action, chance);
        }
        if matches!(action, Action::Escape { .. }) {
            return reject(
                "lostworlds.scenario.escape",
                "on the map a fighter leaves a fight by breaking off in the movement phase (`break_off`), not by the books' escape",
            );
        }
        if !combat && !anytime && state.phase == Phase::Fighting {
            return reject(
                "lostworlds.scenario.stage",
                format!(
                    "maneuvers wait for the combat phase: {}",
                    turn::stage_words(state)
                ),
            );
        }
    }
    if let Some(a) = &state.awaiting {
        if !matches!(action, Action::PickTargets { .. }) {
            return reject(
                "lostworlds.targets.awaited",
                format!(
                    "the pages are turned and {} is picking whom the blows hit: `pick_targets` first",
                    state.seat_name(a.seat)
                ),
            );
        }
    }
    match action {
        Action::Choose {
            seat,
            page,
            maneuver,
            targets,
        } => {
            let seat = acting_seat(state, by, *seat)?;
            fighting(state)?;
            in_fight(state, seat)?;
            not_record(state)?;
            if state.pending.contains_key(&seat) {
                return reject(
                    "lostworlds.chosen",
                    format!("{} has already chosen this exchange", state.seat_name(seat)),
                );
            }
            let idx = find_maneuver(state, seat, *page, maneuver.as_deref())?;
            check_maneuver(state, seat, idx)?;
            check_targets(state, seat, targets)?;
            let m = &state.seat(seat).fighter().sheet.maneuvers[idx];
            let fact = Fact::ManeuverChosen {
                seat,
                page: Some(m.page),
                maneuver: Some(m.full_name()),
                targets: targets.clone(),
            };
            held_then_resolve(state, by, seat, m.page, targets, fact)
        }
        Action::Commit { seat, hash } => {
            let seat = acting_seat(state, by, *seat)?;
            fighting(state)?;
            in_fight(state, seat)?;
            not_record(state)?;
            if matches!(state.pending.get(&seat), Some(Pending::Chosen { .. })) {
                return reject(
                    "lostworlds.chosen",
                    format!("{} has already chosen this exchange", state.seat_name(seat)),
                );
            }
            // Exactly 64 hex digits, nothing around them; upper-case digits
            // name the same hash and are stored in lower case.
            if hash.len() != 64 || !hash.bytes().all(|c| c.is_ascii_hexdigit()) {
                return reject(
                    "lostworlds.commit",
                    "`hash` must be exactly 64 hex digits (no spaces): the SHA-256 of \"<page>:<salt>\"",
                );
            }
            Ok(vec![Fact::ManeuverCommitted {
                seat,
                hash: hash.to_ascii_lowercase(),
            }])
        }
        Action::Reveal {
            seat,
            page,
            salt,
            targets,
        } => {
            let seat = acting_seat(state, by, *seat)?;
            fighting(state)?;
            in_fight(state, seat)?;
            let Some(Pending::Committed { hash }) = state.pending.get(&seat) else {
                return reject(
                    "lostworlds.reveal",
                    format!("{} has no sealed choice to reveal", state.seat_name(seat)),
                );
            };
            let (Some(page), Some(salt)) = (page, salt) else {
                return reject(
                    "lostworlds.reveal",
                    "give both the `page` and the `salt` committed to",
                );
            };
            let got = commitment(*page, salt);
            if &got != hash {
                return reject(
                    "lostworlds.reveal",
                    format!(
                        "page {page} with that salt does not match {}'s commitment (SHA-256 of \"{page}:<salt>\" differs)",
                        state.seat_name(seat)
                    ),
                );
            }
            let idx = find_maneuver(state, seat, Some(*page), None)?;
            check_maneuver(state, seat, idx)?;
            check_targets(state, seat, targets)?;
            let m = &state.seat(seat).fighter().sheet.maneuvers[idx];
            let fact = Fact::ManeuverRevealed {
                seat,
                page: Some(*page),
                maneuver: Some(m.full_name()),
                targets: targets.clone(),
            };
            held_then_resolve(state, by, seat, *page, targets, fact)
        }
        Action::Exchange { maneuvers } => {
            if by.is_some() {
                return reject(
                    "lostworlds.seat",
                    "only the table's owner records a whole exchange; a seat uses choose, or commit and reveal",
                );
            }
            fighting(state)?;
            if !state.pending.is_empty() {
                return reject(
                    "lostworlds.pending",
                    "some seats have already chosen this exchange; finish with choose or reveal",
                );
            }
            exchange(state, maneuvers)
        }
        Action::Escape { seat } => {
            let seat = acting_seat(state, by, *seat)?;
            fighting(state)?;
            in_fight(state, seat)?;
            let st = state.seat(seat);
            if st.escaping {
                return reject(
                    "lostworlds.escape",
                    format!("{} has already announced an escape", state.seat_name(seat)),
                );
            }
            if let Some(f) = state
                .foes(seat)
                .into_iter()
                .find(|f| st.sights[f].range != Range::Extended)
            {
                return reject(
                    "lostworlds.escape",
                    format!(
                        "{} must be at extended range to announce an escape, but stands at close range to {}",
                        state.seat_name(seat),
                        state.seat_name(f)
                    ),
                );
            }
            if !st.withdrawn {
                return reject(
                    "lostworlds.escape",
                    format!(
                        "{} has not maneuvered out to extended range: an escape starts by leaving close range",
                        state.seat_name(seat)
                    ),
                );
            }
            Ok(vec![Fact::EscapeAnnounced { seat }])
        }
        Action::StepIn { seat, member } => {
            let (seat, to) = party_move(state, by, *seat, member, PartyMark::StepIn)?;
            let from = state.seat(seat).active;
            Ok(vec![Fact::MemberSteppedIn { seat, from, to }])
        }
        Action::FireMissile {
            seat,
            member,
            what,
            card,
            target,
        } => {
            let (seat, member) = party_move(state, by, *seat, member, PartyMark::Missile)?;
            // From rules 3 the card fired says what it was and does.
            let card = if state.rules >= 3 {
                Some(cards::missile(
                    state,
                    seat,
                    member,
                    card.as_deref(),
                    *target,
                )?)
            } else if card.is_some() || target.is_some() {
                return reject(
                    "lostworlds.cards",
                    format!("this fight was recorded under rules {}, before missiles were cards: say what was fired in `what`", state.rules),
                );
            } else {
                None
            };
            if card.is_none() && what.trim().is_empty() {
                return reject("lostworlds.party", "say what was fired in `what`");
            }
            Ok(vec![Fact::MissileFired {
                seat,
                member,
                what: what.trim().to_string(),
                card,
            }])
        }
        Action::SelectCards {
            seat,
            member,
            cards,
        } => cards::select(state, by, *seat, member.as_deref(), cards),
        Action::PlayCard { seat, card, target } => cards::play(state, by, *seat, card, *target),
        Action::PickTargets { seat, targets } => {
            let seat = acting_seat(state, by, *seat)?;
            cards::check_pick(state, seat, targets)?;
            let mut picks = BTreeMap::new();
            for s in state.fighting_seats() {
                let Some(Pending::Chosen { page, targets: t }) = state.pending.get(&s) else {
                    return reject(
                        "lostworlds.targets",
                        "the exchange is not waiting on a pick",
                    );
                };
                let t = if s == seat {
                    targets.clone()
                } else {
                    t.clone()
                };
                picks.insert(s, (find_maneuver(state, s, Some(*page), None)?, t));
            }
            let mut facts = vec![Fact::TargetsPicked {
                seat,
                targets: targets.clone(),
            }];
            facts.extend(resolve(state, &picks, None, false)?);
            Ok(facts)
        }
        Action::Advance {
            seat,
            member,
            category,
        } => {
            let (seat, mi) = after_fight_member(state, by, *seat, member.as_deref())?;
            let f = &state.seat(seat).party[mi];
            if f.advancements == 0 {
                return reject(
                    "lostworlds.advancement",
                    format!("{} has no advancement to spend", f.sheet.name),
                );
            }
            let category = category.trim().to_ascii_lowercase();
            let open = advance_categories(f);
            if !open.contains(&category) {
                return reject(
                    "lostworlds.advancement",
                    format!(
                        "{} may only advance a category already on the sheet: {}",
                        f.sheet.name,
                        open.join(", ")
                    ),
                );
            }
            Ok(vec![Fact::Advanced {
                seat,
                member: mi,
                category,
            }])
        }
        Action::Improve {
            seat,
            member,
            maneuver,
        } => {
            let (seat, mi) = after_fight_member(state, by, *seat, member.as_deref())?;
            let f = &state.seat(seat).party[mi];
            let Some((idx, m)) = f.sheet.maneuver_named(maneuver) else {
                return reject(
                    "lostworlds.maneuver",
                    format!(
                        "{}'s sheet has no maneuver called `{maneuver}`{}",
                        f.sheet.name,
                        f.sheet.maneuver_hint(maneuver)
                    ),
                );
            };
            let cost = f.sheet.body_points.max(0) as u32;
            if f.sheet.experience < cost {
                return reject(
                    "lostworlds.experience",
                    format!(
                        "raising a modifier costs {} experience (their maximum body points) and {} has {}",
                        cost, f.sheet.name, f.sheet.experience
                    ),
                );
            }
            let maneuvers = &f.sheet.maneuvers;
            let least = maneuvers.iter().map(|m| m.raised).min().unwrap_or(0);
            if maneuvers[idx].raised > least {
                let waiting: Vec<String> = maneuvers
                    .iter()
                    .filter(|m| m.raised == least)
                    .map(Maneuver::full_name)
                    .collect();
                return reject(
                    "lostworlds.improvement_order",
                    format!(
                        "every modifier must be raised before any is raised again: {} is ahead; still waiting: {}",
                        m.full_name(),
                        waiting.join(", ")
                    ),
                );
            }
            Ok(vec![Fact::ModifierImproved {
                seat,
                member: mi,
                maneuver: idx,
                cost,
            }])
        }
        Action::Close => {
            match state.phase {
                Phase::Fighting => return reject("lostworlds.phase", "the fight is still on"),
                Phase::Closed => {
                    return reject("lostworlds.phase", "the journal is already closed")
                }
                Phase::Aftermath => {}
            }
            if let Some(f) = state
                .seats
                .iter()
                .flat_map(|s| &s.party)
                .find(|f| f.advancements > 0 && f.condition != Condition::Dead)
            {
                return reject(
                    "lostworlds.advancement",
                    format!("{} still has an advancement to spend", f.sheet.name),
                );
            }
            Ok(vec![Fact::JournalClosed])
        }
        // The movement chart's actions went to `movement` above.
        _ => reject(
            "lostworlds.scenario",
            "this action belongs to a scenario on a map (option `scenario`)",
        ),
    }
}

/// The categories a fighter may advance: body and the abilities on the sheet.
pub fn advance_categories(f: &Fighter) -> Vec<String> {
    std::iter::once("body".to_string())
        .chain(f.sheet.abilities.keys().cloned())
        .collect()
}

/// Whether `f` may raise maneuver `idx` now: the sheet's "+" column says
/// which modifiers are still to be raised in this round of raises.
pub fn can_improve(f: &Fighter, idx: usize) -> bool {
    let maneuvers = &f.sheet.maneuvers;
    let least = maneuvers.iter().map(|m| m.raised).min().unwrap_or(0);
    f.condition != Condition::Dead
        && f.sheet.experience >= f.sheet.body_points.max(0) as u32
        && maneuvers[idx].raised == least
}

fn after_fight_member(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: Option<&str>,
) -> Result<(Seat, usize), Rejection> {
    let seat = acting_seat(state, by, seat)?;
    if state.phase != Phase::Aftermath {
        return reject(
            "lostworlds.phase",
            "experience is spent after the fight, before the journal is closed",
        );
    }
    let st = state.seat(seat);
    let mi = match member {
        None => st.active,
        Some(id) => st
            .party
            .iter()
            .position(|f| f.sheet.id == id)
            .ok_or_else(|| {
                Rejection::new(
                    "lostworlds.party",
                    format!("seat {seat}'s party has no `{id}`"),
                )
            })?,
    };
    if st.party[mi].condition == Condition::Dead {
        return reject(
            "lostworlds.dead",
            format!(
                "{} died; a new character starts from the printed sheet",
                st.party[mi].sheet.name
            ),
        );
    }
    Ok((seat, mi))
}

fn party_move(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: &str,
    mark: PartyMark,
) -> Result<(Seat, usize), Rejection> {
    let seat = acting_seat(state, by, seat)?;
    fighting(state)?;
    in_fight(state, seat)?;
    let st = state.seat(seat);
    if state.pending.contains_key(&seat) {
        return reject(
            "lostworlds.party",
            format!("{} has already chosen this exchange", state.seat_name(seat)),
        );
    }
    if st.party_turn == Some(state.exchanges) {
        return reject(
            "lostworlds.party",
            "the party has already acted on this picture",
        );
    }
    let marked = state.foes(seat).into_iter().any(|f| {
        state
            .seat(f)
            .sights
            .get(&seat)
            .is_some_and(|s| s.party == Some(mark))
    });
    if !marked {
        return reject(
            "lostworlds.party",
            format!(
                "no ({}) picture of {} is open now",
                mark.symbol(),
                state.seat_name(seat)
            ),
        );
    }
    let Some(mi) = st.party.iter().position(|f| f.sheet.id == member) else {
        return reject(
            "lostworlds.party",
            format!("{}'s party has no `{member}`", st.player),
        );
    };
    if mi == st.active {
        return reject(
            "lostworlds.party",
            format!("{} is already fighting", st.party[mi].sheet.name),
        );
    }
    if st.party[mi].condition != Condition::Fit {
        return reject(
            "lostworlds.party",
            format!("{} cannot act: they are down", st.party[mi].sheet.name),
        );
    }
    Ok((seat, mi))
}

/// Records one seat's held choice and resolves the exchange if it was the last.
/// `by` is who acts: a seat is not told why an exchange could not resolve.
fn held_then_resolve(
    state: &State,
    by: Option<Seat>,
    seat: Seat,
    page: u32,
    targets: &[Seat],
    fact: Fact,
) -> Result<Vec<Fact>, Rejection> {
    let mut held: BTreeMap<Seat, (u32, Vec<Seat>)> = BTreeMap::new();
    for s in state.fighting_seats() {
        let pick = if s == seat {
            (page, targets.to_vec())
        } else {
            match state.pending.get(&s) {
                Some(Pending::Chosen { page, targets }) => (*page, targets.clone()),
                _ => return Ok(vec![fact]),
            }
        };
        held.insert(s, pick);
    }
    let resolved = held
        .into_iter()
        .map(|(s, (p, t))| Ok((s, (find_maneuver(state, s, Some(p), None)?, t))))
        .collect::<Result<BTreeMap<_, _>, Rejection>>()
        .and_then(|picks| resolve(state, &picks, None, state.rules >= 3));
    let resolved = match resolved {
        Ok(facts) => facts,
        // Only a broken pack gets here, and its reason names the pages and
        // pictures the other seats' held choices lead to.
        Err(_) if by.is_some() => {
            return reject(
                "lostworlds.unresolvable",
                "the exchange cannot be resolved with this game's books; the owner can see why",
            )
        }
        Err(e) => return Err(e),
    };
    let mut facts = vec![fact];
    facts.extend(resolved);
    Ok(facts)
}

fn exchange(state: &State, moves: &[Move]) -> Result<Vec<Fact>, Rejection> {
    let fighting_seats = state.fighting_seats();
    let mut picks = BTreeMap::new();
    let mut seen = BTreeMap::new();
    for (at, mv) in moves.iter().enumerate() {
        if mv.seat as usize >= state.seats.len() {
            return reject("lostworlds.seat", format!("there is no seat {}", mv.seat));
        }
        in_fight(state, mv.seat)?;
        if picks.contains_key(&mv.seat) {
            return reject(
                "lostworlds.exchange",
                format!("seat {} appears twice in the exchange", mv.seat),
            );
        }
        let idx = find_maneuver(state, mv.seat, mv.page, mv.maneuver.as_deref())?;
        check_maneuver(state, mv.seat, idx)?;
        check_targets(state, mv.seat, &mv.targets)?;
        if state.books_mode == BooksMode::Full && !mv.seen.is_empty() {
            return reject(
                "lostworlds.exchange",
                "full mode looks the pictures up in the books: leave out `seen`",
            );
        }
        if state.books_mode == BooksMode::Record {
            check_seen(state, at, mv)?;
        }
        picks.insert(mv.seat, (idx, mv.targets.clone()));
        seen.insert(mv.seat, mv.seen.clone());
    }
    if let Some(s) = fighting_seats.iter().find(|s| !picks.contains_key(s)) {
        return reject(
            "lostworlds.exchange",
            format!(
                "the exchange needs a maneuver from every fighter: {} (seat {s}) is missing",
                state.seat_name(*s)
            ),
        );
    }
    let seen = (state.books_mode == BooksMode::Record).then_some(&seen);
    // A whole exchange recorded at once names its targets with it.
    resolve(state, &picks, seen, false)
}

/// Checks what one seat reported in record mode, entry by entry, before
/// anything is read from it: every entry names an opponent the seat fights
/// (it may leave `opponent` out only when there is one), no opponent is
/// reported twice (the same again, or something else), and every number is
/// one a book page can print. A rejection names the entry (`maneuvers[0].seen[1]`).
fn check_seen(state: &State, at: usize, mv: &Move) -> Result<(), Rejection> {
    let who = state.seat_name(mv.seat);
    let foes = state.foes(mv.seat);
    let bad = |message: String| reject("lostworlds.record", format!("record mode: {message}"));
    let mut reported: BTreeMap<Seat, usize> = BTreeMap::new();
    for (i, entry) in mv.seen.iter().enumerate() {
        let field = format!("maneuvers[{at}].seen[{i}]");
        let opponent = match entry.opponent {
            Some(o) if foes.contains(&o) => o,
            Some(o) => {
                return bad(format!(
                "`{field}.opponent` names seat {o}, who is not one of {who}'s opponents (seats {})",
                foes.iter()
                    .map(Seat::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            }
            None if foes.len() == 1 => foes[0],
            None => {
                return bad(format!(
                    "`{field}` must name its `opponent`: {who} fights several"
                ))
            }
        };
        if let Some(j) = reported.insert(opponent, i) {
            let unnamed = |s: &Seen| Seen {
                opponent: None,
                ..s.clone()
            };
            let how = if unnamed(&mv.seen[j]) == unnamed(entry) {
                "repeats"
            } else {
                "contradicts"
            };
            return bad(format!(
                "`{field}` {how} `maneuvers[{at}].seen[{j}]`: {who}'s result against {} is reported once",
                state.seat_name(opponent)
            ));
        }
        if let Some(p) = entry
            .picture
            .filter(|p| p % 2 == 0 || !(1..=63).contains(p))
        {
            return bad(format!(
                "`{field}.picture` is {p}, but pictures are odd pages 1 to 63"
            ));
        }
        if entry.title.as_deref().is_some_and(|t| t.trim().is_empty()) {
            return bad(format!(
                "`{field}.title` is blank: give the picture's title or leave it out"
            ));
        }
        if let Some(score) = entry.score.filter(|s| !(0..=SCORE_MAX).contains(s)) {
            return bad(format!(
                "`{field}.score` is {score}, but a score printed on a picture is 0 to {SCORE_MAX}"
            ));
        }
        if let Some(c) = &entry.critical {
            if entry.score.is_none() {
                return bad(format!(
                    "`{field}.critical` needs the `score` printed beside it"
                ));
            }
            if !(1..=CRITICAL_MAX).contains(&c.threshold) {
                return bad(format!(
                    "`{field}.critical.threshold` is {}, but a critical burst prints 1 to {CRITICAL_MAX}",
                    c.threshold
                ));
            }
            if let Err(e) = Restriction::parse(&c.restriction) {
                return bad(format!("`{field}.critical.restriction`: {e}"));
            }
        }
        if let Some(Err(e)) = entry.tell.as_deref().map(Restriction::parse) {
            return bad(format!("`{field}.tell`: {e}"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- the exchange

/// The page `seat` turns to against `foe` with maneuver `m`: its X page when
/// it picked a close-range maneuver and sees that opponent at extended range.
fn turned_page(state: &State, seat: Seat, foe: Seat, m: &Maneuver) -> (u32, bool) {
    let far = state
        .seat(seat)
        .sights
        .get(&foe)
        .is_some_and(|s| s.range == Range::Extended);
    match m.x {
        Some(x) if far && !m.is_extended() => (x, true),
        _ => (m.page, false),
    }
}

/// Height: the taller adds 1 to Orange and Red, the shorter takes 1 from Orange.
pub fn height_adjustment(attacker: &Character, defender: &Character, colour: Colour) -> i32 {
    use std::cmp::Ordering::*;
    match (attacker.height.cmp(&defender.height), colour) {
        (Greater, Colour::Orange | Colour::Red) => 1,
        (Less, Colour::Orange) => -1,
        _ => 0,
    }
}

/// A picture reached in an exchange. Its title comes from the book, or from
/// the table in record mode, where it may be left out.
struct Reached {
    picture: u32,
    title: Option<String>,
    caption: Option<String>,
    range: Range,
    score: Option<i32>,
    critical: Option<Critical>,
    tell: String,
    party: Option<PartyMark>,
    reveal: Option<CardKind>,
    /// What the picture shows of the one who reached it (see [`Picture::holder`]).
    holder: Vec<String>,
}

/// What the attacker saw: from the book, or as the table reported it.
fn sighted(
    state: &State,
    seen: Option<&BTreeMap<Seat, Vec<Seen>>>,
    a: Seat,
    d: Seat,
    a_page: u32,
    d_page: u32,
) -> Result<Reached, Rejection> {
    let defender = &state.seat(d).fighter().sheet;
    let Some(seen) = seen else {
        let book: &Book = &state.books[&defender.id];
        let found = book
            .look_up(a_page, d_page)
            .and_then(|p| book.pictures.get(&p).map(|pic| (p, pic)));
        let Some((picture, pic)) = found else {
            return reject(
                "lostworlds.book",
                format!(
                    "{}'s book has no picture for page {a_page} against page {d_page}",
                    state.seat_name(d)
                ),
            );
        };
        let Picture {
            title,
            caption,
            range,
            score,
            critical,
            tell,
            party,
            reveal,
            holder,
        } = pic.clone();
        return Ok(Reached {
            picture,
            title: Some(title),
            caption,
            range,
            score,
            critical,
            tell,
            party,
            reveal,
            holder,
        });
    };
    let who = state.seat_name(a);
    let several = state.foes(a).len() > 1;
    let against = if several {
        format!(" against {}", state.seat_name(d))
    } else {
        String::new()
    };
    let entries = seen.get(&a).map(Vec::as_slice).unwrap_or(&[]);
    let entry = entries
        .iter()
        .find(|s| s.opponent == Some(d))
        .or_else(|| entries.iter().find(|s| s.opponent.is_none() && !several));
    let Some(entry) = entry else {
        return reject(
            "lostworlds.record",
            format!("record mode: {who}'s result{against} is missing: add it to `seen`"),
        );
    };
    let need = |field: &str| {
        Rejection::new(
            "lostworlds.record",
            format!("record mode: {who}'s result{against} needs `{field}`"),
        )
    };
    let picture = entry.picture.ok_or_else(|| need("picture"))?;
    let range = entry.range.ok_or_else(|| need("range"))?;
    let tell = entry.tell.clone().ok_or_else(|| need("tell"))?;
    // `check_seen` has checked every number and text of the entry.
    // A title left out stays out: the story then names the picture by number only.
    let title = entry
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    Ok(Reached {
        picture,
        title,
        caption: None,
        range,
        score: entry.score,
        critical: entry.critical.clone(),
        tell,
        party: entry.party,
        reveal: entry.reveal,
        holder: Vec::new(),
    })
}

/// The picture `a` turns to instead of the matrix's, when `d` read `a` a
/// conditional ("If I am pushed off balance go to p. 19") last exchange
/// and `d`'s own picture of this exchange shows `d` in that situation.
fn conditional_turn(
    state: &State,
    a: Seat,
    d: Seat,
    a_page: u32,
    d_page: u32,
) -> Result<Option<Reached>, Rejection> {
    let mut ifs = state.seat(a).orders.conditionals(d).peekable();
    if ifs.peek().is_none() {
        return Ok(None);
    }
    let own = sighted(state, None, d, a, d_page, a_page)?;
    let Some((_, page)) =
        ifs.find(|(situation, _)| own.holder.iter().any(|h| situation.contains(h.as_str())))
    else {
        return Ok(None);
    };
    let book: &Book = &state.books[&state.seat(d).fighter().sheet.id];
    let Some(pic) = book.pictures.get(&page) else {
        return reject(
            "lostworlds.book",
            format!(
                "{} was told to turn to picture {page}, which {}'s book does not have",
                state.seat_name(a),
                state.seat_name(d)
            ),
        );
    };
    let pic = pic.clone();
    Ok(Some(Reached {
        picture: page,
        title: Some(pic.title),
        caption: pic.caption,
        range: pic.range,
        score: pic.score,
        critical: pic.critical,
        tell: pic.tell,
        party: pic.party,
        reveal: pic.reveal,
        holder: pic.holder,
    }))
}

fn read(text: &str, who: &str) -> Result<Restriction, Rejection> {
    // A book has a few hundred restriction texts and an exchange reads
    // them again and again: each thread keeps the ones it has read.
    thread_local! {
        static READ: RefCell<HashMap<String, Restriction>> = RefCell::default();
    }
    const KEPT: usize = 4096;
    if let Some(known) = READ.with(|read| read.borrow().get(text).cloned()) {
        return Ok(known);
    }
    let parsed = Restriction::parse(text)
        .map_err(|e| Rejection::new("lostworlds.restriction_text", format!("{who}: {e}")))?;
    READ.with(|read| {
        let mut read = read.borrow_mut();
        if read.len() >= KEPT {
            read.clear();
        }
        read.insert(text.to_string(), parsed.clone());
    });
    Ok(parsed)
}

/// Resolves an exchange. With `ask` (rules 3, choices made one by one), a
/// fighter whose pictures show scores on more opponents than its attacks,
/// and who named no `targets`, is asked to pick before anything lands.
fn resolve(
    state: &State,
    picks: &BTreeMap<Seat, (usize, Vec<Seat>)>,
    seen: Option<&BTreeMap<Seat, Vec<Seen>>>,
    ask: bool,
) -> Result<Vec<Fact>, Rejection> {
    let number = state
        .exchanges
        .checked_add(1)
        .ok_or_else(|| overflow("the exchange count"))?;
    let maneuver = |s: Seat| &state.seat(s).fighter().sheet.maneuvers[picks[&s].0];
    let mut turns = Vec::new();
    for (&seat, (idx, _)) in picks {
        let st = state.seat(seat);
        let m = maneuver(seat);
        turns.push(Turn {
            seat,
            member: st.active,
            maneuver: *idx,
            name: m.full_name(),
            colour: m.colour,
            page: m.page,
            set_aside: choices(state, seat).set_aside,
        });
    }
    let mut blows: Vec<Blow> = Vec::new();
    for &a in picks.keys() {
        let attacker = state.seat(a);
        let sheet = &attacker.fighter().sheet;
        let m = maneuver(a);
        for d in state.foes(a) {
            let defender = &state.seat(d).fighter().sheet;
            let (a_page, x_column) = turned_page(state, a, d, m);
            let (d_page, _) = turned_page(state, d, a, maneuver(d));
            let mut pic = sighted(state, seen, a, d, a_page, d_page)?;
            let instead_of = match seen {
                None => conditional_turn(state, a, d, a_page, d_page)?,
                // The table turns the pages itself, and reports where it ended.
                Some(_) => None,
            }
            .map(|turned| std::mem::replace(&mut pic, turned).picture);
            let picture = pic.picture;
            let tell = read(
                &pic.tell,
                &format!("picture {picture} of {}'s book", state.seat_name(d)),
            )?;
            let mut parts = Vec::new();
            let mut total = 0;
            if let Some(score) = pic.score {
                parts.push(Part {
                    label: "score".into(),
                    value: score,
                });
                parts.push(Part {
                    label: m.full_name(),
                    value: m.modifier,
                });
                let h = match turn::effective_heights(state, a, d) {
                    Some((mine, theirs)) => turn::terrain_height_bonus(mine, theirs, m.colour),
                    None => height_adjustment(sheet, defender, m.colour),
                };
                if h != 0 {
                    parts.push(Part {
                        label: "height".into(),
                        value: h,
                    });
                }
                for t in &attacker.orders.next_turn {
                    let b = t.clause.bonus(m);
                    if b != 0 && t.from == Some(d) {
                        parts.push(Part {
                            label: "bonus".into(),
                            value: b,
                        });
                    }
                }
                for t in &attacker.orders.lasting {
                    let p = t.clause.penalty(m);
                    if p != 0 {
                        parts.push(Part {
                            label: "penalty".into(),
                            value: p,
                        });
                    }
                }
                parts.extend(cards::parts(state, a, d, number));
                total = parts
                    .iter()
                    .try_fold(0i32, |sum, p| sum.checked_add(p.value))
                    .ok_or_else(|| overflow(&format!("{}'s damage sum", state.seat_name(a))))?;
            }
            let critical = match (&pic.critical, pic.score) {
                (Some(c), Some(_)) if total >= c.threshold => Some(CriticalHit {
                    threshold: c.threshold,
                    restriction: read(&c.restriction, &format!("critical of picture {picture}"))?,
                }),
                _ => None,
            };
            blows.push(Blow {
                attacker: a,
                defender: d,
                page: a_page,
                x_column,
                picture,
                title: pic.title.clone(),
                caption: pic.caption.clone(),
                range: pic.range,
                party: pic.party,
                reveal: pic.reveal,
                score: pic.score,
                parts,
                total,
                landed: pic.score.is_some(),
                damage: total.max(0),
                critical,
                tell,
                instead_of,
            });
        }
        // Attacks: only so many opponents may be scored on; the attacker's
        // targets come first, then the heaviest blows, then the lowest seat.
        let limit = sheet.attacks_with(m) as usize;
        let targets = &picks[&a].1;
        let mut scoring: Vec<usize> = (0..blows.len())
            .filter(|&i| blows[i].attacker == a && blows[i].score.is_some())
            .collect();
        if ask && targets.is_empty() && scoring.len() > limit {
            return Ok(vec![Fact::TargetsAwaited {
                seat: a,
                scored: scoring.iter().map(|&i| blows[i].defender).collect(),
                attacks: limit as u32,
            }]);
        }
        if scoring.len() > limit {
            scoring.sort_by_key(|&i| {
                let pref = targets
                    .iter()
                    .position(|&t| t == blows[i].defender)
                    .unwrap_or(usize::MAX);
                (pref, -blows[i].damage, blows[i].defender)
            });
            for &i in &scoring[limit..] {
                blows[i].landed = false;
                blows[i].damage = 0;
                blows[i].critical = None;
            }
        }
    }
    let strikes = cards::landing(state, number);
    // Falls: unconscious at 0 or below, dead at -5 or below.
    let mut falls = Vec::new();
    for &d in picks.keys() {
        let st = state.seat(d);
        let hurt = || overflow(&format!("{}'s body points", state.seat_name(d)));
        let struck = strikes
            .iter()
            .filter(|k| k.defender == d)
            .try_fold(0i32, |sum, k| sum.checked_add(k.damage))
            .ok_or_else(hurt)?;
        let taken = blows
            .iter()
            .filter(|b| b.defender == d && b.landed)
            .try_fold(struck, |sum, b| sum.checked_add(b.damage))
            .ok_or_else(hurt)?;
        let body = st.fighter().body.checked_sub(taken).ok_or_else(hurt)?;
        if taken > 0 && body <= 0 {
            let victors = blows
                .iter()
                .filter(|b| b.defender == d && b.landed && b.damage > 0)
                .map(|b| (b.attacker, state.seat(b.attacker).active))
                .chain(
                    strikes
                        .iter()
                        .filter(|k| k.defender == d)
                        .map(|k| (k.seat, k.member)),
                )
                .collect();
            falls.push(Fall {
                seat: d,
                member: st.active,
                body,
                condition: if body <= -5 {
                    Condition::Dead
                } else {
                    Condition::Unconscious
                },
                max_body: st.fighter().sheet.body_points,
                victors,
            });
        }
    }
    // Escape: announced last turn, at extended range now, and not scored upon.
    let mut escaped = Vec::new();
    let mut escapes_failed = Vec::new();
    for &s in picks.keys() {
        if !state.seat(s).escaping {
            continue;
        }
        let scored_on = blows.iter().any(|b| b.defender == s && b.landed);
        let far = blows
            .iter()
            .filter(|b| b.attacker == s)
            .all(|b| b.range == Range::Extended);
        let fell = falls.iter().any(|f| f.seat == s);
        if far && !scored_on && !fell {
            escaped.push(s);
        } else {
            escapes_failed.push(s);
        }
    }
    let resolution = Resolution {
        number,
        turns,
        blows,
        falls,
        escaped,
        escapes_failed,
        strikes,
    };
    if state.field.is_some() {
        // A scenario's combat phase ends after three rounds (or when no one
        // is left to fight), and the turn goes on; the scenario decides
        // the end, not the fight.
        let mut chain = turn::Chain::new(state);
        chain.push(Fact::ExchangeResolved(resolution));
        turn::after_exchange(&mut chain)?;
        return Ok(chain.facts);
    }
    let mut facts = vec![];
    let end = fight_end(state, &resolution)?;
    facts.push(Fact::ExchangeResolved(resolution));
    if let Some(end) = end {
        facts.push(end);
    }
    Ok(facts)
}

/// A rejection for a sum that would not fit: never reached with a pack and
/// reports within their limits, but a sum is never allowed to wrap.
fn overflow(what: &str) -> Rejection {
    Rejection::new(
        "lostworlds.overflow",
        format!("{what} would overflow: a number in play is beyond what a book can print"),
    )
}

/// Whether the fight ends after `r`, and with what experience.
fn fight_end(state: &State, r: &Resolution) -> Result<Option<Fact>, Rejection> {
    let status = |s: Seat| {
        if r.falls.iter().any(|f| f.seat == s) {
            SeatStatus::Down
        } else if r.escaped.contains(&s) {
            SeatStatus::Escaped
        } else {
            state.seat(s).status
        }
    };
    let others: Vec<Seat> = (1..state.seats.len() as Seat).collect();
    let standing: Vec<Seat> = others
        .iter()
        .copied()
        .filter(|&s| status(s) == SeatStatus::Fighting)
        .collect();
    let lone = status(0);
    let outcome = if lone == SeatStatus::Escaped {
        Outcome {
            ending: Ending::Escape,
            victors: vec![],
        }
    } else if lone == SeatStatus::Down {
        if standing.is_empty() {
            Outcome {
                ending: Ending::MutualKnockout,
                victors: vec![],
            }
        } else {
            Outcome {
                ending: Ending::Knockout,
                victors: standing,
            }
        }
    } else if standing.is_empty() {
        if others.iter().any(|&s| status(s) == SeatStatus::Down) {
            Outcome {
                ending: Ending::Knockout,
                victors: vec![0],
            }
        } else {
            Outcome {
                ending: Ending::Escape,
                victors: vec![],
            }
        }
    } else if r.number >= state.exchange_limit {
        Outcome {
            ending: Ending::Draw,
            victors: vec![],
        }
    } else {
        return Ok(None);
    };
    let awards = awards(state, &r.falls, &BTreeMap::new())?;
    Ok(Some(Fact::FightEnded { outcome, awards }))
}

/// Experience at the end: the fallen's maximum body points to whoever
/// landed damage on them in the exchange they fell (the dead gain nothing),
/// plus a scenario's victory points by seat (its active member).
pub(super) fn awards(
    state: &State,
    new_falls: &[Fall],
    victory: &BTreeMap<Seat, u32>,
) -> Result<Vec<Award>, Rejection> {
    let mut points: BTreeMap<(Seat, usize), (u32, u32)> = BTreeMap::new();
    for fall in state.falls.iter().chain(new_falls) {
        for &(s, mi) in &fall.victors {
            let dead = new_falls
                .iter()
                .chain(&state.falls)
                .any(|f| f.seat == s && f.member == mi && f.condition == Condition::Dead);
            if !dead {
                let p = &mut points.entry((s, mi)).or_default().0;
                *p = p
                    .checked_add(fall.max_body.max(0) as u32)
                    .ok_or_else(|| overflow("experience"))?;
            }
        }
    }
    for (&seat, &v) in victory {
        points.entry((seat, state.seat(seat).active)).or_default().1 = v;
    }
    points
        .into_iter()
        .map(|((seat, member), (points, victory))| {
            let sheet = &state.seat(seat).party[member].sheet;
            let before = sheet.defeated_body_points;
            let after = before
                .checked_add(points)
                .filter(|_| {
                    sheet
                        .experience
                        .checked_add(points)
                        .and_then(|e| e.checked_add(victory))
                        .is_some()
                })
                .ok_or_else(|| overflow("experience"))?;
            Ok(Award {
                seat,
                member,
                points,
                advancements: after / BODY_POINTS_PER_ADVANCEMENT
                    - before / BODY_POINTS_PER_ADVANCEMENT,
                victory,
            })
        })
        .collect()
}

// ---------------------------------------------------------------- legal

fn choose(seat: Seat, m: &Maneuver) -> Action {
    Action::Choose {
        seat: Some(seat),
        page: Some(m.page),
        maneuver: Some(m.full_name()),
        targets: vec![],
    }
}

/// A maneuver choice, with its sealed form: commit to `"<page>:<salt>"`
/// now, reveal the page and salt once everyone has chosen.
fn sealable(seat: Seat, m: &Maneuver) -> Legal<Action> {
    let mut legal = Legal::ready(choose(seat, m));
    legal.seal = Some(Seal {
        commit: Action::Commit {
            seat: Some(seat),
            hash: "<hash>".into(),
        },
        preimage: format!("{}:<salt>", m.page),
        reveal: Action::Reveal {
            seat: Some(seat),
            page: Some(m.page),
            salt: Some("<salt>".into()),
            targets: vec![],
        },
    });
    legal
}

/// The fighters still to choose this exchange (an escape is always open,
/// so the default, "any action open", would name everyone).
pub fn to_move(state: &State) -> Vec<Seat> {
    if state.phase != Phase::Fighting {
        return legal_seats(state);
    }
    if let Some(field) = state.field.as_deref() {
        if !field.in_combat() {
            return movement::to_move(state);
        }
    }
    if let Some(a) = &state.awaiting {
        return vec![a.seat];
    }
    (0..state.seats.len() as Seat)
        .filter(|&s| state.seat(s).status == SeatStatus::Fighting)
        .filter(|s| !state.pending.contains_key(s))
        .collect()
}

fn legal_seats(state: &State) -> Vec<Seat> {
    (0..state.seats.len() as Seat)
        .filter(|&s| !legal(state, Some(s)).is_empty())
        .collect()
}

/// Whether every fighter still in the fight has chosen or committed.
fn all_chosen(state: &State) -> bool {
    (0..state.seats.len() as Seat)
        .filter(|&s| state.seat(s).status == SeatStatus::Fighting)
        .all(|s| state.pending.contains_key(&s))
}

/// Every action open now, for one seat or the whole table.
pub fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
    let seats: Vec<Seat> = match seat {
        Some(s) if (s as usize) < state.seats.len() => vec![s],
        Some(_) => return vec![],
        None => (0..state.seats.len() as Seat).collect(),
    };
    if let Some(field) = state.field.as_deref() {
        if state.phase == Phase::Fighting && !field.in_combat() {
            return movement::legal(state, seat);
        }
    }
    let mut out = Vec::new();
    match state.phase {
        // The pages are turned: only the pick of whom the blows hit is open.
        Phase::Fighting if state.awaiting.is_some() => {
            let a = state.awaiting.as_ref().expect("awaiting");
            if seats.contains(&a.seat) {
                for targets in cards::combinations(&a.scored, a.attacks as usize) {
                    out.push(Legal::ready(Action::PickTargets {
                        seat: Some(a.seat),
                        targets,
                    }));
                }
            }
        }
        Phase::Fighting => {
            for &s in &seats {
                let st = state.seat(s);
                if st.status != SeatStatus::Fighting {
                    continue;
                }
                let sheet = &st.fighter().sheet;
                let pending = state.pending.get(&s);
                if state.books_mode == BooksMode::Full {
                    match pending {
                        None => {
                            for &i in &choices(state, s).open {
                                out.push(sealable(s, &sheet.maneuvers[i]));
                            }
                            out.push(Legal::needing(
                                Action::Commit {
                                    seat: Some(s),
                                    hash: "<sha256 of page:salt>".into(),
                                },
                                vec!["hash: lowercase hex SHA-256 of \"<page>:<salt>\" for the maneuver chosen".into()],
                            ));
                        }
                        // Revealing before every other fighter has chosen
                        // would show the page to whoever reads the log first
                        // (the table's owner); the reveal waits for them.
                        Some(Pending::Committed { .. }) if all_chosen(state) => {
                            out.push(Legal::needing(
                                Action::Reveal {
                                    seat: Some(s),
                                    page: Some(0),
                                    salt: Some("<salt>".into()),
                                    targets: vec![],
                                },
                                vec!["page and salt: the ones committed to".into()],
                            ))
                        }
                        Some(Pending::Committed { .. }) => {}
                        Some(Pending::Chosen { .. }) => {}
                    }
                }
                let far = state
                    .foes(s)
                    .iter()
                    .all(|f| st.sights[f].range == Range::Extended);
                if !st.escaping && far && st.withdrawn && state.field.is_none() {
                    out.push(Legal::ready(Action::Escape { seat: Some(s) }));
                }
                if pending.is_none() && state.rules >= 3 && !state.cards.is_empty() {
                    if state.exchanges == 0 {
                        out.push(cards::select_line(state, s));
                    }
                    for (c, targets) in cards::playable(state, s) {
                        for target in targets {
                            out.push(Legal::ready(Action::PlayCard {
                                seat: Some(s),
                                card: c.id.clone(),
                                target,
                            }));
                        }
                    }
                }
                if pending.is_none() && st.party_turn != Some(state.exchanges) {
                    let marks: Vec<PartyMark> = state
                        .foes(s)
                        .iter()
                        .filter_map(|f| state.seat(*f).sights.get(&s).and_then(|x| x.party))
                        .collect();
                    for (mi, f) in st.party.iter().enumerate() {
                        if mi == st.active || f.condition != Condition::Fit {
                            continue;
                        }
                        if marks.contains(&PartyMark::StepIn) {
                            out.push(Legal::ready(Action::StepIn {
                                seat: Some(s),
                                member: f.sheet.id.clone(),
                            }));
                        }
                        if marks.contains(&PartyMark::Missile) && state.rules >= 3 {
                            // The member's unplayed spells and missiles.
                            let mut offered: Vec<&str> = Vec::new();
                            for h in f.cards.iter().filter(|h| !h.played) {
                                let striking = state.cards.get(&h.id).is_some_and(|c| {
                                    c.effect.strike > 0
                                        && matches!(c.kind, CardKind::Spell | CardKind::Item)
                                });
                                if !striking || offered.contains(&h.id.as_str()) {
                                    continue;
                                }
                                offered.push(&h.id);
                                for target in state.foes(s) {
                                    out.push(Legal::ready(Action::FireMissile {
                                        seat: Some(s),
                                        member: f.sheet.id.clone(),
                                        what: String::new(),
                                        card: Some(h.id.clone()),
                                        target: Some(target),
                                    }));
                                }
                            }
                        } else if marks.contains(&PartyMark::Missile) {
                            out.push(Legal::needing(
                                Action::FireMissile {
                                    seat: Some(s),
                                    member: f.sheet.id.clone(),
                                    what: "<spell or missile>".into(),
                                    card: None,
                                    target: None,
                                },
                                vec!["what: the spell or missile fired".into()],
                            ));
                        }
                    }
                }
            }
            if seat.is_none() && state.pending.is_empty() {
                let record = state.books_mode == BooksMode::Record;
                let maneuvers = state
                    .fighting_seats()
                    .into_iter()
                    .map(|s| {
                        let open = choices(state, s).open;
                        let m = &state.seat(s).fighter().sheet.maneuvers
                            [open[(state.exchanges as usize + s as usize) % open.len()]];
                        Move {
                            seat: s,
                            page: Some(m.page),
                            maneuver: Some(m.full_name()),
                            targets: vec![],
                            seen: if record {
                                state
                                    .foes(s)
                                    .into_iter()
                                    .map(|f| Seen {
                                        opponent: Some(f),
                                        ..Seen::default()
                                    })
                                    .collect()
                            } else {
                                vec![]
                            },
                        }
                    })
                    .collect();
                out.push(Legal::needing(
                    Action::Exchange { maneuvers },
                    if record {
                        vec!["seen: per seat and opponent, the picture, range and tell read (and score and critical when printed)".into()]
                    } else {
                        vec![]
                    },
                ));
            }
        }
        Phase::Aftermath => {
            for &s in &seats {
                for f in &state.seat(s).party {
                    if f.condition == Condition::Dead {
                        continue;
                    }
                    let member = Some(f.sheet.id.clone());
                    if f.advancements > 0 {
                        for category in advance_categories(f) {
                            out.push(Legal::ready(Action::Advance {
                                seat: Some(s),
                                member: member.clone(),
                                category,
                            }));
                        }
                    }
                    for (i, m) in f.sheet.maneuvers.iter().enumerate() {
                        if can_improve(f, i) {
                            out.push(Legal::ready(Action::Improve {
                                seat: Some(s),
                                member: member.clone(),
                                maneuver: m.full_name(),
                            }));
                        }
                    }
                }
            }
            let unspent = state
                .seats
                .iter()
                .flat_map(|s| &s.party)
                .any(|f| f.advancements > 0 && f.condition != Condition::Dead);
            if !unspent {
                out.push(Legal::ready(Action::Close));
            }
        }
        Phase::Closed => {}
    }
    out
}

/// Whether anything is left to do after the fight.
pub fn aftermath_open(state: &State) -> bool {
    state.seats.iter().flat_map(|s| &s.party).any(|f| {
        f.condition != Condition::Dead
            && (f.advancements > 0 || (0..f.sheet.maneuvers.len()).any(|i| can_improve(f, i)))
    })
}
