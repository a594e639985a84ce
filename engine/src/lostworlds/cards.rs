//! Fantasy cards and the choice of whom the blows hit (rules 3).
//!
//! Before the first exchange each fighter takes cards into the fight, paying
//! for tactic, spell and luck cards from the sheet's points of that kind
//! (items cost nothing: the table chooses them to balance a fight). A card
//! is played before its holder chooses a maneuver, once a combat: luck one a
//! turn, an item whenever its holder likes (and then for the rest of the
//! fight), a tactic or spell only when a picture of the holder directs it
//! (`Picture::reveal`). What a card does is written in a small vocabulary
//! (`Effect`): damage added to its holder's scores, armour taken off blows
//! landed on its holder (the exchange after it is played; an item's for the
//! rest of the fight), body points healed at once, or a strike on one
//! opponent that lands as the next exchange resolves, needing no score (a
//! spell, or a missile a party member fires on a (P**) picture).
//!
//! A fighter whose pictures show scores on more opponents than its attacks
//! picks whom they hit once the pages are turned (`pick_targets`), unless it
//! named `targets` when it chose.

use tabletape_events::Seat;

use crate::error::{reject, Rejection};
use crate::lostworlds::actions::{Fact, Part, Played, StrikeLanded};
use crate::lostworlds::content::{Card, CardKind};
use crate::lostworlds::duel::decide::{acting_seat, fighting, in_fight};
use crate::lostworlds::state::{SeatStatus, State};

/// Cards came with rules 3: a fight recorded before never held any.
fn cards_in_play(state: &State) -> Result<(), Rejection> {
    if state.rules < 3 {
        return reject(
            "lostworlds.cards",
            format!(
                "this fight was recorded under rules {}, before fantasy cards were played",
                state.rules
            ),
        );
    }
    if state.cards.is_empty() {
        return reject(
            "lostworlds.cards",
            "this game's pack holds no fantasy cards",
        );
    }
    Ok(())
}

/// A card of the pack by id, or by id or name in any letter case.
pub fn card<'a>(state: &'a State, name: &str) -> Option<&'a Card> {
    let name = name.trim();
    state.cards.get(name).or_else(|| {
        state
            .cards
            .values()
            .find(|c| c.id.eq_ignore_ascii_case(name) || c.name.eq_ignore_ascii_case(name))
    })
}

fn pack_ids(state: &State) -> String {
    state.cards.keys().cloned().collect::<Vec<_>>().join(", ")
}

/// Before a seat chooses in this exchange: cards are played then.
fn before_choosing(state: &State, seat: Seat) -> Result<(), Rejection> {
    if state.pending.contains_key(&seat) {
        return reject(
            "lostworlds.cards",
            format!(
                "{} has already chosen this exchange: cards are played before choosing",
                state.seat_name(seat)
            ),
        );
    }
    Ok(())
}

/// The member a party names (`None`: the one fighting), in any letter case.
fn member_of(state: &State, seat: Seat, member: Option<&str>) -> Result<usize, Rejection> {
    let st = state.seat(seat);
    match member {
        None => Ok(st.active),
        Some(id) => st
            .party
            .iter()
            .position(|f| f.sheet.id.eq_ignore_ascii_case(id.trim()))
            .ok_or_else(|| {
                Rejection::new(
                    "lostworlds.party",
                    format!(
                        "{}'s party has no `{id}`: it is {}",
                        st.player,
                        st.party
                            .iter()
                            .map(|f| f.sheet.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            }),
    }
}

/// The points a member has left for cards of `kind` after `chosen`.
fn points_left(state: &State, seat: Seat, member: usize, kind: CardKind, chosen: &[&Card]) -> i64 {
    let sheet = &state.seat(seat).party[member].sheet;
    let have = kind
        .ability()
        .map_or(0, |a| sheet.abilities.get(a).copied().unwrap_or(0));
    let spent: u32 = chosen
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.points)
        .sum();
    i64::from(have) - i64::from(spent)
}

pub fn select(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: Option<&str>,
    names: &[String],
) -> Result<Vec<Fact>, Rejection> {
    let seat = acting_seat(state, by, seat)?;
    fighting(state)?;
    cards_in_play(state)?;
    // On a scenario's map the cards are taken in before the first
    // exchange wherever the figure stands.
    let on_map = state.field.is_some() && state.seat(seat).status == SeatStatus::Aside;
    if !on_map {
        in_fight(state, seat)?;
    }
    if state.exchanges > 0 {
        return reject(
            "lostworlds.cards.late",
            "cards are taken into a fight before its first exchange",
        );
    }
    before_choosing(state, seat)?;
    let member = member_of(state, seat, member)?;
    let mut chosen: Vec<&Card> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let Some(c) = card(state, name) else {
            return reject(
                "lostworlds.cards.unknown",
                format!(
                    "cards[{i}]: no card `{name}` in the pack{}. Its cards: {}",
                    crate::suggest::did_you_mean(name, state.cards.keys().map(String::as_str)),
                    pack_ids(state)
                ),
            );
        };
        chosen.push(c);
    }
    let sheet = &state.seat(seat).party[member].sheet;
    for kind in [CardKind::Tactic, CardKind::Spell, CardKind::Luck] {
        let left = points_left(state, seat, member, kind, &chosen);
        if left < 0 {
            let ability = kind.ability().unwrap_or_default();
            let have = sheet.abilities.get(ability).copied().unwrap_or(0);
            return reject(
                "lostworlds.cards.points",
                format!(
                    "{}'s {} cards cost {} points, and the sheet has {have} {ability} points",
                    sheet.name,
                    kind.word(),
                    i64::from(have) - left
                ),
            );
        }
    }
    Ok(vec![Fact::CardsSelected {
        seat,
        member,
        count: chosen.len() as u32,
        cards: chosen.iter().map(|c| c.id.clone()).collect(),
    }])
}

/// The opponent a strike flies at: the one named, or the only one.
fn target_of(state: &State, seat: Seat, target: Option<Seat>) -> Result<Seat, Rejection> {
    let foes = state.foes(seat);
    match target {
        Some(t) if foes.contains(&t) => Ok(t),
        Some(t) => reject(
            "lostworlds.cards.target",
            format!("{} does not fight seat {t}", state.seat_name(seat)),
        ),
        None if foes.len() == 1 => Ok(foes[0]),
        None => reject(
            "lostworlds.cards.target",
            format!(
                "name the opponent it flies at in `target`: {}",
                foes.iter()
                    .map(|f| format!("{f} ({})", state.seat_name(*f)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
}

/// The member's unplayed card called `name`, or why there is none.
fn held<'a>(
    state: &'a State,
    seat: Seat,
    member: usize,
    name: &str,
) -> Result<&'a Card, Rejection> {
    let f = &state.seat(seat).party[member];
    let found = card(state, name);
    let holds = |played: bool| {
        f.cards
            .iter()
            .any(|h| h.played == played && found.is_some_and(|c| c.id == h.id))
    };
    match found {
        Some(c) if holds(false) => Ok(c),
        Some(c) if holds(true) => reject(
            "lostworlds.cards.played",
            format!(
                "{} has played {} already: a card is played once a combat",
                f.sheet.name, c.name
            ),
        ),
        _ => {
            let left: Vec<&str> = f
                .cards
                .iter()
                .filter(|h| !h.played)
                .map(|h| h.id.as_str())
                .collect();
            reject(
                "lostworlds.cards.unheld",
                format!(
                    "{} holds no card `{name}` to play{}. Unplayed: {}",
                    f.sheet.name,
                    crate::suggest::did_you_mean(name, left.iter().copied()),
                    if left.is_empty() {
                        "none".to_string()
                    } else {
                        left.join(", ")
                    }
                ),
            )
        }
    }
}

fn played(state: &State, c: &Card, target: Option<Seat>) -> Played {
    Played {
        id: c.id.clone(),
        name: c.name.clone(),
        kind: c.kind,
        effect: c.effect.clone(),
        exchange: state.exchanges + 1,
        target,
    }
}

/// Whether a picture of `seat` (in some opponent's hands) directs it to
/// reveal a card of `kind` now.
fn directed(state: &State, seat: Seat, kind: CardKind) -> bool {
    state.foes(seat).iter().any(|f| {
        state
            .seat(*f)
            .sights
            .get(&seat)
            .is_some_and(|s| s.reveal == Some(kind))
    })
}

/// Why `seat` may not play a card of `kind` now, if it may not.
fn kind_closed(state: &State, seat: Seat, kind: CardKind) -> Option<String> {
    let st = state.seat(seat);
    let name = state.seat_name(seat);
    match kind {
        CardKind::Luck if st.luck_turn == Some(state.exchanges) => Some(format!(
            "{name} has played a luck card this turn: one a turn"
        )),
        CardKind::Tactic | CardKind::Spell if !directed(state, seat, kind) => Some(format!(
            "no picture directs {name} to reveal a {} card now",
            kind.word()
        )),
        CardKind::Tactic | CardKind::Spell if st.reveal_turn == Some(state.exchanges) => Some(
            format!("{name} has revealed the card this picture directs already"),
        ),
        _ => None,
    }
}

pub fn play(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    name: &str,
    target: Option<Seat>,
) -> Result<Vec<Fact>, Rejection> {
    let seat = acting_seat(state, by, seat)?;
    fighting(state)?;
    cards_in_play(state)?;
    in_fight(state, seat)?;
    before_choosing(state, seat)?;
    let member = state.seat(seat).active;
    let c = held(state, seat, member, name)?;
    if let Some(why) = kind_closed(state, seat, c.kind) {
        return reject("lostworlds.cards.closed", why);
    }
    let target = match (c.effect.strike > 0, target) {
        (true, t) => Some(target_of(state, seat, t)?),
        (false, None) => None,
        (false, Some(_)) => {
            return reject(
                "lostworlds.cards.target",
                format!("{} strikes nobody: leave `target` out", c.name),
            )
        }
    };
    Ok(vec![Fact::CardPlayed {
        seat,
        member,
        card: played(state, c, target),
    }])
}

/// A missile fired by a party member (rules 3): one of that member's spell
/// or item cards that strikes.
pub fn missile(
    state: &State,
    seat: Seat,
    member: usize,
    name: Option<&str>,
    target: Option<Seat>,
) -> Result<Played, Rejection> {
    cards_in_play(state)?;
    let Some(name) = name else {
        return reject(
            "lostworlds.cards.missile",
            "name the spell or missile card fired in `card`",
        );
    };
    let c = held(state, seat, member, name)?;
    if c.effect.strike == 0 || !matches!(c.kind, CardKind::Spell | CardKind::Item) {
        return reject(
            "lostworlds.cards.missile",
            format!("{} is no spell or missile: it strikes nobody", c.name),
        );
    }
    Ok(played(state, c, Some(target_of(state, seat, target)?)))
}

/// The cards a member could play now, for `legal`.
pub fn playable(state: &State, seat: Seat) -> Vec<(&Card, Vec<Option<Seat>>)> {
    if state.rules < 3 || state.pending.contains_key(&seat) || state.awaiting.is_some() {
        return Vec::new();
    }
    let f = state.seat(seat).fighter();
    let mut out: Vec<(&Card, Vec<Option<Seat>>)> = Vec::new();
    for h in f.cards.iter().filter(|h| !h.played) {
        let Some(c) = state.cards.get(&h.id) else {
            continue;
        };
        if out.iter().any(|(o, _)| o.id == c.id) || kind_closed(state, seat, c.kind).is_some() {
            continue;
        }
        let targets = if c.effect.strike > 0 {
            state.foes(seat).into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        out.push((c, targets));
    }
    out
}

/// The card ids a member may still afford, for `legal`'s picker.
pub fn affordable(state: &State, seat: Seat) -> Vec<String> {
    let member = state.seat(seat).active;
    state
        .cards
        .values()
        .filter(|c| points_left(state, seat, member, c.kind, &[c]) >= 0)
        .map(|c| c.id.clone())
        .collect()
}

/// The `select_cards` line `legal` offers a seat, with the cards it can
/// afford as picks.
pub fn select_line(
    state: &State,
    seat: Seat,
) -> crate::rules::Legal<crate::lostworlds::actions::Action> {
    let mut line = crate::rules::Legal::needing(
        crate::lostworlds::actions::Action::SelectCards {
            seat: Some(seat),
            member: None,
            cards: vec![],
        },
        vec!["cards: the card ids taken into the fight (tactic, spell and luck cards within the sheet's points)".into()],
    );
    line.picks = vec![crate::rules::Pick {
        field: "cards".into(),
        values: affordable(state, seat),
        many: true,
        count: None,
    }];
    line
}

/// The terms played cards add to a blow's damage sum in exchange `number`:
/// the attacker's damage, the defender's armour.
pub fn parts(state: &State, attacker: Seat, defender: Seat, number: u32) -> Vec<Part> {
    let mut out = Vec::new();
    for b in &state.seat(attacker).boosts {
        if b.damage != 0 && b.works(number) {
            out.push(Part {
                label: b.card.clone(),
                value: b.damage,
            });
        }
    }
    for b in &state.seat(defender).boosts {
        if b.armour != 0 && b.works(number) {
            out.push(Part {
                label: format!("{}'s {}", state.seat_name(defender), b.card),
                value: -b.armour,
            });
        }
    }
    out
}

/// The spells and missiles that land as exchange `number` resolves, on
/// opponents still in the fight.
pub fn landing(state: &State, number: u32) -> Vec<StrikeLanded> {
    let mut out = Vec::new();
    for (s, st) in state.seats.iter().enumerate() {
        for k in st.strikes.iter().filter(|k| k.exchange == number) {
            if state.seat(k.target).status == SeatStatus::Fighting {
                out.push(StrikeLanded {
                    seat: s as Seat,
                    member: k.member,
                    card: k.card.clone(),
                    defender: k.target,
                    damage: k.damage,
                });
            }
        }
    }
    out
}

/// Every way to pick `n` of `from`, in order, for `legal`.
pub fn combinations(from: &[Seat], n: usize) -> Vec<Vec<Seat>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in from.iter().enumerate() {
        for mut rest in combinations(&from[i + 1..], n - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// Checks a fighter's pick of whom its scores hit.
pub fn check_pick(state: &State, seat: Seat, targets: &[Seat]) -> Result<(), Rejection> {
    let Some(a) = state.awaiting.as_ref() else {
        return reject(
            "lostworlds.targets",
            "no fighter is choosing whom its blows hit now",
        );
    };
    if a.seat != seat {
        return reject(
            "lostworlds.targets",
            format!(
                "{} picks whom the blows hit, not seat {seat}",
                state.seat_name(a.seat)
            ),
        );
    }
    let mut seen = Vec::new();
    for t in targets {
        if !a.scored.contains(t) {
            return reject(
                "lostworlds.targets",
                format!(
                    "{} scored on no seat {t} this exchange",
                    state.seat_name(seat)
                ),
            );
        }
        if seen.contains(t) {
            return reject("lostworlds.targets", format!("seat {t} is named twice"));
        }
        seen.push(*t);
    }
    if targets.len() != a.attacks as usize {
        return reject(
            "lostworlds.targets",
            format!(
                "{} hits {} of {}: name that many in `targets`",
                state.seat_name(seat),
                a.attacks,
                a.scored
                    .iter()
                    .map(|s| format!("{s} ({})", state.seat_name(*s)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    Ok(())
}
