//! Choosing: a maneuver in the clear (`choose`), sealed (`commit`, then
//! `reveal`), or a whole `exchange` recorded at once (in record mode with
//! what each fighter saw). The last choice resolves the exchange.

use crate::hex_text;
use sha2::{Digest, Sha256};

use super::*;
use crate::lostworlds::actions::{Move, Seen};
use crate::lostworlds::content::{CRITICAL_MAX, SCORE_MAX};
use crate::lostworlds::restriction::Restriction;

/// The commitment of a sealed choice: lowercase hex SHA-256 of `"<page>:<salt>"`.
pub fn commitment(page: u32, salt: &str) -> String {
    hex_text::of(Sha256::digest(format!("{page}:{salt}").as_bytes()))
}

/// `choose`: a maneuver in the clear, held until every fighter has chosen.
pub(super) fn choose(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    page: Option<u32>,
    maneuver: Option<&str>,
    targets: &[Seat],
) -> Result<Vec<Fact>, Rejection> {
    let seat = acting_seat(state, by, seat)?;
    fighting(state)?;
    in_fight(state, seat)?;
    not_record(state)?;
    if state.pending.contains_key(&seat) {
        return reject(
            "lostworlds.chosen",
            format!("{} has already chosen this exchange", state.seat_name(seat)),
        );
    }
    let idx = find_maneuver(state, seat, page, maneuver)?;
    check_maneuver(state, seat, idx)?;
    check_targets(state, seat, targets)?;
    let m = &state.seat(seat).fighter().sheet.maneuvers[idx];
    let fact = Fact::ManeuverChosen {
        seat,
        page: Some(m.page),
        maneuver: Some(m.full_name()),
        targets: targets.to_vec(),
    };
    held_then_resolve(state, by, seat, m.page, targets, fact)
}

/// `commit`: a sealed choice, the hash of `"<page>:<salt>"`.
pub(super) fn commit(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    hash: &str,
    nonce: Option<&str>,
) -> Result<Vec<Fact>, Rejection> {
    let seat = acting_seat(state, by, seat)?;
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
    if nonce
        .is_some_and(|n| n.is_empty() || n.len() > 64 || !n.bytes().all(|c| c.is_ascii_hexdigit()))
    {
        return reject(
            "lostworlds.commit",
            "`nonce` must be 1 to 64 hex digits: the public part of a seal's salt",
        );
    }
    Ok(vec![Fact::ManeuverCommitted {
        seat,
        hash: hash.to_ascii_lowercase(),
        nonce: nonce.map(str::to_ascii_lowercase),
    }])
}

/// `reveal`: opens a sealed choice, checked against its commitment.
pub(super) fn reveal(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    page: Option<u32>,
    salt: Option<&str>,
    targets: &[Seat],
) -> Result<Vec<Fact>, Rejection> {
    let seat = acting_seat(state, by, seat)?;
    fighting(state)?;
    in_fight(state, seat)?;
    let Some(Pending::Committed { hash, .. }) = state.pending.get(&seat) else {
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
    let got = commitment(page, salt);
    if &got != hash {
        return reject(
            "lostworlds.reveal",
            format!(
                "page {page} with that salt does not match {}'s commitment (SHA-256 of \"{page}:<salt>\" differs)",
                state.seat_name(seat)
            ),
        );
    }
    let idx = find_maneuver(state, seat, Some(page), None)?;
    check_maneuver(state, seat, idx)?;
    check_targets(state, seat, targets)?;
    let m = &state.seat(seat).fighter().sheet.maneuvers[idx];
    let fact = Fact::ManeuverRevealed {
        seat,
        page: Some(page),
        maneuver: Some(m.full_name()),
        targets: targets.to_vec(),
    };
    held_then_resolve(state, by, seat, page, targets, fact)
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

pub(super) fn exchange(state: &State, moves: &[Move]) -> Result<Vec<Fact>, Rejection> {
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
