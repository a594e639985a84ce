//! Lost Worlds told as prose: each exchange's maneuvers and pages, what each
//! fighter saw, the damage sums, body points left and orders read; the end
//! of the fight and the experience it brought; and [`render`], the text
//! picture of the duel.

use super::actions::{Blow, Condition, Ending, Fact, Part};
use super::content::Maneuver;
use super::state::{Pending, Phase, SeatStatus, State};

fn signed(n: i32) -> String {
    if n >= 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// "score 4 + Bash +3 + height +1 = 8".
pub fn sum(parts: &[Part], total: i32) -> String {
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i == 0 {
            out.push_str(&format!("{} {}", p.label, p.value));
        } else {
            out.push_str(&format!(" + {} {}", p.label, signed(p.value)));
        }
    }
    format!("{out} = {total}")
}

fn name(state: &State, seat: u32) -> String {
    state.seat(seat).name().to_string()
}

fn blow_lines(state: &State, b: &Blow, body_after: i32, max_body: i32) -> Vec<String> {
    let a = name(state, b.attacker);
    let d = name(state, b.defender);
    let mut lines = Vec::new();
    let x = if b.x_column {
        format!(" (the X page, {d} being at extended range)")
    } else {
        String::new()
    };
    lines.push(format!(
        "{a} turns to page {}{x} in {d}'s book and sees picture {}: \"{}\".",
        b.page, b.picture, b.title
    ));
    if b.score.is_some() {
        if !b.landed {
            lines.push(format!("{a} scores on {d} as well, but has no attack left this turn: the blow does not count."));
        } else if b.damage > 0 {
            lines.push(format!(
                "{a} scores: {} damage. {d} has {body_after} of {max_body} body points left.",
                sum(&b.parts, b.total)
            ));
        } else {
            lines.push(format!(
                "{a} scores, but {}: no damage.",
                sum(&b.parts, b.total)
            ));
        }
        if let Some(c) = &b.critical {
            lines.push(format!(
                "Critical hit ({} reaches {})! {d} must obey \"{}\".",
                b.total, c.threshold, c.restriction.text
            ));
        }
    }
    lines.push(format!("{a} tells {d}: \"{}\"", b.tell.text));
    if let Some(mark) = b.party {
        lines.push(format!(
            "The picture bears the party mark ({}).",
            mark.symbol()
        ));
    }
    lines
}

fn maneuver_words(m: &Maneuver) -> String {
    format!("{} (page {}, {})", m.full_name(), m.page, m.colour.name())
}

/// Prose for one fact, told from the state before it.
pub fn narrate(state: &State, fact: &Fact) -> Vec<String> {
    match fact {
        Fact::ManeuverChosen { seat, .. } => {
            vec![format!("{} settles on a maneuver.", name(state, *seat))]
        }
        Fact::ManeuverCommitted { seat, hash } => {
            vec![format!(
                "{} seals a maneuver (commitment {}...).",
                name(state, *seat),
                &hash[..8.min(hash.len())]
            )]
        }
        Fact::ManeuverRevealed { seat, maneuver, .. } => {
            vec![format!(
                "{} breaks the seal: {maneuver}, as committed.",
                name(state, *seat)
            )]
        }
        Fact::EscapeAnnounced { seat } => {
            vec![format!("{} calls out \"Escaping!\"", name(state, *seat))]
        }
        Fact::MemberSteppedIn { seat, from, to } => {
            let st = state.seat(*seat);
            vec![format!(
                "{} steps aside and {} takes their place.",
                st.party[*from].sheet.name, st.party[*to].sheet.name
            )]
        }
        Fact::MissileFired { seat, member, what } => {
            let st = state.seat(*seat);
            vec![format!(
                "{} looses {what} past {}; the orders stand as they were.",
                st.party[*member].sheet.name,
                st.name()
            )]
        }
        Fact::ExchangeResolved(r) => {
            let mut lines = Vec::new();
            let called: Vec<String> = r
                .turns
                .iter()
                .map(|t| {
                    let m = &state.seat(t.seat).party[t.member].sheet.maneuvers[t.maneuver];
                    format!(
                        "{}: {}",
                        state.seat(t.seat).party[t.member].sheet.name,
                        maneuver_words(m)
                    )
                })
                .collect();
            lines.push(called.join("; ") + ".");
            for t in &r.turns {
                for text in &t.set_aside {
                    lines.push(format!(
                        "{} cannot obey \"{text}\" together with the other orders; it is set aside this turn.",
                        state.seat(t.seat).party[t.member].sheet.name
                    ));
                }
            }
            for b in &r.blows {
                let d = state.seat(b.defender);
                let taken: i32 = r
                    .blows
                    .iter()
                    .filter(|x| x.defender == b.defender && x.landed)
                    .map(|x| x.damage)
                    .sum();
                let after = d.fighter().body - taken;
                lines.extend(blow_lines(state, b, after, d.fighter().sheet.body_points));
            }
            for f in &r.falls {
                let who = &state.seat(f.seat).party[f.member].sheet.name;
                lines.push(match f.condition {
                    Condition::Dead => format!(
                        "{who} falls at {} body points and does not rise again: dead.",
                        f.body
                    ),
                    _ => format!("{who} collapses at {} body points, unconscious.", f.body),
                });
            }
            for &s in &r.escaped {
                lines.push(format!(
                    "{} slips away unscored upon: escaped!",
                    name(state, s)
                ));
            }
            for &s in &r.escapes_failed {
                lines.push(format!("{}'s escape fails.", name(state, s)));
            }
            lines
        }
        Fact::FightEnded { outcome, awards } => {
            let mut lines = vec![ending_line(state, outcome.ending, &outcome.victors)];
            for a in awards {
                let f = &state.seat(a.seat).party[a.member];
                lines.push(format!(
                    "{} gains {} experience (now {}).",
                    f.sheet.name,
                    a.points,
                    f.sheet.experience + a.points
                ));
                if a.advancements > 0 {
                    lines.push(format!(
                        "{} has now defeated {} body points of opponents: {} advancement{} to spend.",
                        f.sheet.name,
                        f.sheet.defeated_body_points + a.points,
                        a.advancements,
                        if a.advancements == 1 { "" } else { "s" }
                    ));
                }
            }
            lines
        }
        Fact::Advanced {
            seat,
            member,
            category,
        } => {
            let f = &state.seat(*seat).party[*member];
            let now = if category == "body" {
                f.sheet.body_points + 1
            } else {
                f.sheet.abilities.get(category).copied().unwrap_or(0) as i32 + 1
            };
            vec![format!(
                "{} advances: {category} rises to {now}.",
                f.sheet.name
            )]
        }
        Fact::ModifierImproved {
            seat,
            member,
            maneuver,
            cost,
        } => {
            let f = &state.seat(*seat).party[*member];
            let m = &f.sheet.maneuvers[*maneuver];
            vec![format!(
                "{} trains {}: its modifier rises to {} for {cost} experience ({} left).",
                f.sheet.name,
                m.full_name(),
                signed(m.modifier + 1),
                f.sheet.experience.saturating_sub(*cost)
            )]
        }
        Fact::JournalClosed => vec!["The book is closed.".into()],
    }
}

fn ending_line(state: &State, ending: Ending, victors: &[u32]) -> String {
    let names: Vec<String> = victors.iter().map(|&s| name(state, s)).collect();
    match ending {
        Ending::Knockout => format!("{} stands victorious.", names.join(" and ")),
        Ending::MutualKnockout => "Both sides fall together: nobody wins.".into(),
        Ending::Escape => "The fight ends with an escape: nobody wins.".into(),
        Ending::Draw => format!(
            "After {} exchanges the fight is called a draw.",
            state.exchanges
        ),
    }
}

pub fn chapter(state: &State) -> String {
    match state.phase {
        Phase::Fighting => format!("Exchange {}", state.exchanges + 1),
        _ => "After the fight".into(),
    }
}

pub fn epilogue(state: &State) -> Vec<String> {
    let mut lines = Vec::new();
    match &state.outcome {
        Some(o) => lines.push(ending_line(state, o.ending, &o.victors)),
        None => lines.push(format!(
            "The fight is still on after {} exchange{}.",
            state.exchanges,
            if state.exchanges == 1 { "" } else { "s" }
        )),
    }
    for st in &state.seats {
        for f in &st.party {
            let condition = match f.condition {
                Condition::Fit => "on their feet",
                Condition::Unconscious => "unconscious",
                Condition::Dead => "dead",
            };
            lines.push(format!(
                "{} ({}): {} of {} body points, {condition}; {} experience.",
                f.sheet.name, st.player, f.body, f.sheet.body_points, f.sheet.experience
            ));
        }
    }
    lines
}

/// The text picture of the duel: each fighter's body points, the picture
/// they see, the orders in force and what is held for this exchange.
pub fn render(state: &State) -> String {
    let mut out = format!("Lost Worlds: {}\n", chapter(state));
    for (i, st) in state.seats.iter().enumerate() {
        let f = st.fighter();
        let status = match st.status {
            SeatStatus::Fighting if st.escaping => "fighting, escaping",
            SeatStatus::Fighting => "fighting",
            SeatStatus::Down => "down",
            SeatStatus::Escaped => "escaped",
        };
        out.push_str(&format!(
            "\nSeat {i} ({}): {}, {}; height {}; body {}/{} [{status}]\n",
            st.player, f.sheet.name, f.sheet.title, f.sheet.height, f.body, f.sheet.body_points
        ));
        for (mi, member) in st.party.iter().enumerate() {
            if mi != st.active {
                out.push_str(&format!(
                    "  party: {} body {}/{}\n",
                    member.sheet.name, member.body, member.sheet.body_points
                ));
            }
        }
        for (foe, sight) in &st.sights {
            let mark = sight
                .party
                .map(|m| format!(" ({})", m.symbol()))
                .unwrap_or_default();
            out.push_str(&format!(
                "  sees {}: picture {} \"{}\", {}{mark}\n",
                state.seat(*foe).name(),
                sight.picture,
                sight.title,
                sight.range.words()
            ));
        }
        let texts = st.orders.texts();
        if texts.is_empty() {
            out.push_str("  orders: none\n");
        }
        for t in texts {
            out.push_str(&format!("  orders: \"{t}\"\n"));
        }
        for n in &st.orders.notes {
            out.push_str(&format!("  note: {n}\n"));
        }
        match state.pending.get(&(i as u32)) {
            Some(Pending::Committed { .. }) => out.push_str("  choice: sealed\n"),
            Some(Pending::Chosen { .. }) => out.push_str("  choice: made\n"),
            None => {}
        }
        if state.phase != Phase::Fighting {
            out.push_str(&format!(
                "  experience {}, defeated {} body points, advancements to spend {}\n",
                f.sheet.experience, f.sheet.defeated_body_points, f.advancements
            ));
        }
    }
    if let Some(o) = &state.outcome {
        out.push_str(&format!("\n{}\n", ending_line(state, o.ending, &o.victors)));
    }
    out
}
