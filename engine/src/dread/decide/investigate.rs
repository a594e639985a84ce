//! Investigations: Dread cards met by icons against their difficulty, Plot
//! cards by Personality flips and action dice against their outcome table,
//! and what every encounter shares (Investigation cards, Items, Virtues,
//! Allies, rolls and rerolls), plus the Items a Plot card gives.

use super::*;
use crate::dread::actions::Source;
use crate::dread::apply::fists;
use crate::dread::content::{Segment, Trait};
use crate::dread::state::{Encounter, Face, Place, Target};

fn encounter(state: &State) -> Result<&Encounter, Rejection> {
    state
        .encounter
        .as_ref()
        .ok_or_else(|| Rejection::new("dread.no_encounter", "no investigation is under way"))
}

/// `c`'s share of the encounter under way, checking who plays it.
fn in_encounter(state: &State, by: Option<Seat>, c: usize) -> Result<&Share, Rejection> {
    plays(state, by, c)?;
    encounter(state)?.share(c).ok_or_else(|| {
        Rejection::new(
            "dread.not_present",
            format!(
                "{} takes no part in this encounter",
                state.characters[c].name
            ),
        )
    })
}

pub(super) fn open(out: &mut Out, place: Place, luck: &mut Luck<'_>) -> Result<(), Rejection> {
    let Phase::Story { action } = out.s.phase else {
        return wrong_phase(&out.s, "an investigation");
    };
    if action == 0 {
        return reject(
            "dread.not_yet",
            "the first action has not been called yet (`next_action`)",
        );
    }
    super::story::settled(&out.s)?;
    let present = out.s.at(place);
    if present.is_empty() {
        return reject(
            "dread.nobody_there",
            format!("no investigator is at {place}"),
        );
    }
    if out.s.met.contains(&place) {
        return reject(
            "dread.once",
            format!("{place} has been investigated this action already"),
        );
    }
    match out.s.face_at(place).cloned() {
        Some(Face::Dread(card)) => {
            out.push(Fact::EncounterOpened {
                target: Target::Dread { place, card },
                present,
            });
        }
        Some(Face::Plot(letter)) => {
            let plot = out
                .s
                .plot(letter)
                .cloned()
                .expect("plots on the board exist");
            if out.s.next_plot() != Some(letter) {
                let next = out.s.next_plot().map_or("none".to_string(), String::from);
                return reject(
                    "dread.plot_order",
                    format!(
                        "Plot cards are investigated in letter order: {next} comes before {letter}"
                    ),
                );
            }
            let now = Segment::of_action(action);
            if now < plot.time {
                return reject(
                    "dread.time_code",
                    format!(
                        "Plot {letter}, {}, can be investigated from the {} on; it is the {}",
                        plot.name,
                        plot.time.word(),
                        now.word()
                    ),
                );
            }
            if plot.endgame {
                // Automatic: whoever is here begins the Endgame, and each
                // helper brings 2 Confidence.
                let helpers = present.len() as u32;
                out.push(Fact::EndgameTriggered {
                    place,
                    letter,
                    helpers,
                });
                confidence(out, luck, 2 * helpers, None)?;
                return super::story::end_chapter(out, luck);
            }
            out.push(Fact::EncounterOpened {
                target: Target::Plot { place, letter },
                present,
            });
        }
        Some(Face::Ally(_)) => {
            return reject(
                "dread.ally",
                format!("an Ally waits at {place}: `recruit` it rather than investigate"),
            )
        }
        None => {
            return reject(
                "dread.face_down",
                format!("nothing face up at {place} to investigate"),
            )
        }
    }
    Ok(())
}

/// Whether the encounter asks for a Personality flip.
fn flips(target: &Target) -> bool {
    matches!(target, Target::Plot { .. } | Target::Challenge { .. })
}

pub(super) fn flip(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    luck: &mut Luck<'_>,
) -> Result<(), Rejection> {
    let share = in_encounter(&out.s, by, c)?;
    let target = encounter(&out.s)?.target.clone();
    if !flips(&target) {
        return reject(
            "dread.no_flip",
            "Personality cards are flipped at Plot cards and Endgame Challenges",
        );
    }
    if share.flipped.is_some() {
        return reject(
            "dread.flipped",
            format!("{} has already flipped a Personality card", out.name(c)),
        );
    }
    let deck: Vec<String> = out.s.characters[c]
        .personality
        .iter()
        .map(|p| p.name.clone())
        .collect();
    let what = format!("Personality card of {}", out.name(c));
    let card = luck.card(&what, &deck)?;
    out.push(Fact::Flipped { character: c, card });
    let flipped = out.s.characters[c].personality[card].clone();
    match flipped.kind {
        Trait::Plain => {}
        Trait::Talent => gain(out, luck, c, &flipped.effect)?,
        Trait::Trauma => {
            let faces = out.s.cards.trauma_die.clone();
            let face = luck.trauma(&faces)?;
            out.push(Fact::TraumaRolled { character: c, face });
            match face {
                TraumaFace::Injured => out.afflict(c, Condition::Injured),
                TraumaFace::Unhinged => out.afflict(c, Condition::Unhinged),
                TraumaFace::Dread(n) => {
                    let why = format!("{}'s Trauma", out.name(c));
                    out.raise(n, why)
                }
            }
        }
    }
    // A challenger fallen to their Trauma leaves the line.
    if matches!(target, Target::Challenge { .. }) {
        super::endgame::between_challenges(out);
    }
    Ok(())
}

/// Every present character has flipped (where flips are asked).
fn all_flipped(e: &Encounter) -> bool {
    !flips(&e.target) || e.shares.iter().all(|s| s.flipped.is_some())
}

/// `c`'s share, once flipped where the encounter asks for a flip.
fn flipped_share(state: &State, by: Option<Seat>, c: usize) -> Result<&Share, Rejection> {
    let share = in_encounter(state, by, c)?;
    if flips(&encounter(state)?.target) && share.flipped.is_none() {
        return reject(
            "dread.flip_first",
            format!(
                "{} flips a Personality card first",
                state.characters[c].name
            ),
        );
    }
    Ok(share)
}

/// Checks `c` may still add to their share: flipped where asked, not yet
/// rolled where dice are rolled.
fn adding(state: &State, by: Option<Seat>, c: usize) -> Result<(), Rejection> {
    if flipped_share(state, by, c)?.rolled.is_some() {
        return reject(
            "dread.rolled",
            format!("{} has already rolled", state.characters[c].name),
        );
    }
    Ok(())
}

pub(super) fn draw(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    luck: &mut Luck<'_>,
) -> Result<(), Rejection> {
    adding(&out.s, by, c)?;
    if out.s.in_endgame() {
        return reject(
            "dread.hand",
            "in the Endgame the Investigation cards are in hand: `play` one",
        );
    }
    if out.s.investigation.is_empty() {
        return reject("dread.deck_empty", "the Investigation deck is empty");
    }
    let deck = out.s.investigation.clone();
    let i = luck.card("Investigation card", &deck)?;
    out.push(Fact::CardAdded {
        character: c,
        card: deck[i].clone(),
        from_hand: false,
    });
    Ok(())
}

/// Items, virtues and allies help an encounter for a character taking
/// part: once flipped (where a flip is asked), before rolling, or after
/// it for what changes a roll. What works on its own (healing, Confidence,
/// Virtues, Items, dread) may be used at any moment of the story phase or
/// the Endgame, so a healing comes first when a second Condition looms.
fn may_use(state: &State, by: Option<Seat>, c: usize, effect: &Effect) -> Result<(), Rejection> {
    plays(state, by, c)?;
    if matches!(state.phase, Phase::Planning { .. }) {
        return reject(
            "dread.planning",
            "Items, Virtues and Allies are not used during planning",
        );
    }
    if effect.works_alone() {
        return Ok(());
    }
    let share = flipped_share(state, by, c)?;
    if share.rolled.is_some() && effect.rerolls == 0 && effect.successes == 0 {
        return reject(
            "dread.rolled",
            format!(
                "{} has rolled; only what adds successes or rerolls helps now",
                state.characters[c].name
            ),
        );
    }
    Ok(())
}

pub(super) fn use_item(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    item: &str,
    deplete: bool,
    luck: &mut Luck<'_>,
) -> Result<(), Rejection> {
    plays(&out.s, by, c)?;
    let Some(held) = out.s.characters[c].holds(item).cloned() else {
        return reject(
            "dread.no_item",
            format!(
                "{} holds no `{item}`{}",
                out.name(c),
                crate::suggest::did_you_mean(
                    item,
                    out.s.characters[c].items.iter().map(|h| h.name.as_str())
                )
            ),
        );
    };
    if held.tilted {
        return reject(
            "dread.tilted",
            format!("{item} is tilted (used) until the Items are readied"),
        );
    }
    let card = out.s.cards.items[item].clone();
    let effect = if deplete {
        card.deplete
    } else {
        card.use_effect
    };
    may_use(&out.s, by, c, &effect)?;
    out.push(Fact::ItemUsed {
        character: c,
        item: item.to_string(),
        depleted: deplete,
    });
    gain(out, luck, c, &effect)
}

pub(super) fn spend_virtue(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    luck: &mut Luck<'_>,
) -> Result<(), Rejection> {
    let ch = plays(&out.s, by, c)?;
    if ch.virtues == 0 {
        return reject(
            "dread.no_virtue",
            format!("{} has no Virtue token", ch.name),
        );
    }
    let effect = ch.virtue.clone();
    may_use(&out.s, by, c, &effect)?;
    out.push(Fact::VirtueSpent { character: c });
    gain(out, luck, c, &effect)
}

pub(super) fn sacrifice(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    ally: &str,
    luck: &mut Luck<'_>,
) -> Result<(), Rejection> {
    let ch = plays(&out.s, by, c)?;
    if !ch.allies.iter().any(|a| a == ally) {
        return reject(
            "dread.no_ally",
            format!(
                "{} has no Ally `{ally}`{}",
                ch.name,
                crate::suggest::did_you_mean(ally, ch.allies.iter().map(String::as_str))
            ),
        );
    }
    let effect = out.s.cards.allies[ally].sacrifice.clone();
    may_use(&out.s, by, c, &effect)?;
    out.push(Fact::AllySacrificed {
        character: c,
        ally: ally.to_string(),
    });
    gain(out, luck, c, &effect)
}

/// How many Action dice `c` rolls now: one per action point at a Plot
/// card, the dice earned at the Showdown.
fn dice_for(state: &State, share: &Share) -> u32 {
    match &encounter(state).map(|e| &e.target) {
        Ok(Target::Plot { letter, .. }) => {
            let icons = state
                .plot(*letter)
                .map(|p| p.icons.clone())
                .unwrap_or_default();
            points(state, share, &icons, None)
        }
        Ok(Target::Showdown) => state.characters[share.character].dice,
        _ => 0,
    }
}

pub(super) fn roll(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    luck: &mut Luck<'_>,
) -> Result<(), Rejection> {
    let e = encounter(&out.s)?;
    if !matches!(e.target, Target::Plot { .. } | Target::Showdown) {
        return reject(
            "dread.no_dice",
            "no dice are rolled here: the icons are counted against the difficulty",
        );
    }
    if !all_flipped(e) {
        return reject(
            "dread.flip_first",
            "everyone present flips a Personality card before anyone rolls",
        );
    }
    adding(&out.s, by, c)?;
    let share = e.share(c).expect("checked present").clone();
    let n = dice_for(&out.s, &share);
    let faces = out.s.cards.action_die.clone();
    let fists = (0..n)
        .map(|_| luck.die(&faces))
        .collect::<Result<Vec<u32>, _>>()?;
    out.push(Fact::DiceRolled {
        character: c,
        fists,
        rerolled: 0,
    });
    Ok(())
}

pub(super) fn reroll(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    luck: &mut Luck<'_>,
) -> Result<(), Rejection> {
    let share = in_encounter(&out.s, by, c)?.clone();
    let Some(rolled) = share.rolled.clone() else {
        return reject(
            "dread.not_rolled",
            format!("{} has not rolled yet", out.name(c)),
        );
    };
    let blanks = rolled.iter().filter(|&&f| f == 0).count() as u32;
    let k = share.rerolls.min(blanks);
    if k == 0 {
        return reject(
            "dread.reroll",
            format!("{} has no reroll, or no die without a fist", out.name(c)),
        );
    }
    let faces = out.s.cards.action_die.clone();
    let mut left = k;
    let mut fists = Vec::with_capacity(rolled.len());
    for f in rolled {
        if f == 0 && left > 0 {
            left -= 1;
            fists.push(luck.die(&faces)?);
        } else {
            fists.push(f);
        }
    }
    out.push(Fact::DiceRolled {
        character: c,
        fists,
        rerolled: k,
    });
    Ok(())
}

pub(super) fn resolve(out: &mut Out, luck: &mut Luck<'_>) -> Result<(), Rejection> {
    let e = encounter(&out.s)?.clone();
    match &e.target {
        Target::Dread { place, card } => {
            let dc = out.s.cards.dread[card].clone();
            let total: u32 = e
                .shares
                .iter()
                .map(|s| points(&out.s, s, &dc.icons, None))
                .sum();
            out.push(Fact::DreadCardMet {
                place: *place,
                card: card.clone(),
                points: total,
                beaten: total >= dc.difficulty,
            });
        }
        Target::Plot { place, letter } => {
            if let Some(s) = e.shares.iter().find(|s| s.rolled.is_none()) {
                return reject(
                    "dread.roll_first",
                    format!("{} has not rolled yet", out.name(s.character)),
                );
            }
            super::record::reverse_known(&out.s, *letter)?;
            let plot = out.s.plot(*letter).cloned().expect("plots exist");
            let got = fists(&e);
            let tier = plot
                .tiers
                .iter()
                .rposition(|t| t.successes <= got)
                .unwrap_or(0);
            let top = plot.tiers.len() - 1;
            let impeccable = if tier == top && out.s.impeccable {
                got - plot.tiers[top].successes
            } else {
                0
            };
            out.push(Fact::PlotResolved {
                place: *place,
                letter: *letter,
                fists: got,
                tier,
                impeccable,
            });
            let present: Vec<usize> = e.shares.iter().map(|s| s.character).collect();
            let why = format!("the outcome of Plot {letter}, {}", plot.name);
            outcome(out, luck, &present, &plot.tiers[tier].effect, why)?;
            if impeccable > 0 {
                confidence(out, luck, impeccable, None)?;
            }
        }
        Target::Challenge { .. } => super::endgame::meet(out, luck)?,
        Target::Showdown => super::endgame::showdown(out)?,
    }
    Ok(())
}

/// A Plot card's outcome for the characters present: resources shared as
/// evenly as possible, a Condition or a healing for each of them.
fn outcome(
    out: &mut Out,
    luck: &mut Luck<'_>,
    present: &[usize],
    effect: &Effect,
    why: String,
) -> Result<(), Rejection> {
    let present: Vec<usize> = present
        .iter()
        .copied()
        .filter(|&c| !out.s.characters[c].defeated)
        .collect();
    if present.is_empty() {
        return Ok(());
    }
    for c in spread(&present, effect.virtues) {
        virtues(out, c, 1);
    }
    if effect.items > 0 {
        owe_items(out, &spread(&present, effect.items));
    }
    for c in spread(&present, effect.random_items) {
        random_item(out, luck, c, false)?;
    }
    if effect.confidence > 0 {
        confidence(out, luck, effect.confidence, None)?;
    }
    for &c in &present {
        if let Some(h) = effect.heal {
            heal(out, c, h);
        }
        if let Some(cond) = effect.condition {
            out.afflict(c, cond);
        }
    }
    dread_change(out, effect.dread, why);
    Ok(())
}

pub(super) fn walk_away(out: &mut Out) -> Result<(), Rejection> {
    let e = encounter(&out.s)?;
    let place = match &e.target {
        Target::Dread { place, .. } => *place,
        Target::Plot { place, .. } => {
            if e.shares.iter().any(|s| s.flipped.is_some()) {
                return reject(
                    "dread.committed",
                    "a Personality card is flipped: the investigators are committed",
                );
            }
            *place
        }
        _ => {
            return reject(
                "dread.no_walking_away",
                "there is no walking away from the Endgame; bow out before a challenge",
            )
        }
    };
    out.push(Fact::WalkedAway { place });
    Ok(())
}

pub(super) fn take_item(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    from: &Source,
    luck: &mut Luck<'_>,
) -> Result<(), Rejection> {
    plays(&out.s, by, c)?;
    if out.s.item_picks.first() != Some(&c) {
        return match out.s.item_picks.first() {
            Some(&o) => reject(
                "dread.item_owed",
                format!("{} takes the next Item", out.name(o)),
            ),
            None => reject("dread.no_item_owed", "no Item is owed"),
        };
    }
    match from {
        Source::Supply(name) => {
            if !out.s.supply.contains(name) {
                return reject(
                    "dread.supply",
                    format!(
                        "`{name}` is not in the Supply ({})",
                        out.s.supply.join(", ")
                    ),
                );
            }
            out.push(Fact::ItemGained {
                character: c,
                item: name.clone(),
                owed: true,
            });
            // The gap is filled from the top of the deck.
            let mut supply = out.s.supply.clone();
            if out.s.item_deck_left() {
                let deck = out.s.item_deck.clone();
                if let Some(i) = luck.card_or_none("Item for the Supply", &deck, Pile::Items)? {
                    supply.push(deck[i].clone());
                    out.push(Fact::SupplySet { supply });
                }
            }
        }
        Source::Deck => {
            if !out.s.item_deck_left() {
                return reject("dread.deck_empty", "the Item deck is empty");
            }
            random_item(out, luck, c, true)?;
            // Taking the top card sends the whole Supply to the discards.
            deal_supply(out, luck)?;
        }
    }
    Ok(())
}
