//! Duels (advanced play): two Avatars or Heroes give their accounts and the
//! other players vote on the victor; a tie is settled by a coin.

use super::*;

#[allow(clippy::too_many_arguments)]
pub(super) fn duel(
    sim: &mut Sim,
    seat: Seat,
    piece: u32,
    opponent: u32,
    account: &str,
    opponent_account: &str,
    votes: &[Ballot],
    heads: Option<bool>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    if !sim.s.options.duels {
        return reject("legend.duel.off", "this game is played without Duels");
    }
    let (a, b) = (sim.piece(piece)?, sim.piece(opponent)?);
    own(&sim.s, &a, seat)?;
    if !a.is_character() || !b.is_character() || b.controller == seat {
        return reject(
            "legend.duel.characters",
            "a Duel is between your Avatar or Hero and another player's",
        );
    }
    if a.square().is_none() || a.square() != b.square() {
        return reject(
            "legend.duel.same_square",
            format!("{} and {} are not on the same square", a.name, b.name),
        );
    }
    if sim.s.items_of(a.id).is_empty() != sim.s.items_of(b.id).is_empty() {
        return reject(
            "legend.duel.items",
            "only two armed or two unarmed characters may duel",
        );
    }
    text_given("account", "legend.duel.account", account)?;
    text_given("opponent_account", "legend.duel.account", opponent_account)?;
    let (mut va, mut vb) = (0, 0);
    let mut voted = BTreeSet::new();
    for Ballot {
        seat: voter,
        piece: choice,
    } in votes
    {
        if !voted.insert(*voter) {
            return reject("legend.duel.vote", format!("seat {voter} voted twice"));
        }
        if *voter == seat || *voter == b.controller || *voter as usize >= sim.s.seats.len() {
            return reject(
                "legend.duel.vote",
                format!("seat {voter} cannot vote: the other players judge a Duel"),
            );
        }
        match *choice {
            c if c == a.id => va += 1,
            c if c == b.id => vb += 1,
            c => return reject("legend.duel.vote", format!("#{c} is not in this Duel")),
        }
    }
    let coin = if va == vb {
        Some(chance.coin("Duel tie coin", "heads", heads)?)
    } else if heads.is_some() {
        return reject(
            "legend.duel.coin",
            "the vote was not tied: no coin is flipped",
        );
    } else {
        None
    };
    let a_wins = va > vb || coin == Some(true);
    let (victor, loser) = if a_wins {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    };
    sim.emit(Fact::ActionTaken {
        seat,
        kind: "duel".into(),
    });
    sim.emit(Fact::DuelFought {
        piece,
        opponent,
        account: account.to_string(),
        opponent_account: opponent_account.to_string(),
        votes: votes.to_vec(),
        coin_heads: coin,
        victor: victor.id,
    });
    defeat(sim, loser.id, victor.controller);
    Ok(())
}
