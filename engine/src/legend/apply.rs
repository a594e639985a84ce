//! Folds LEGEND facts into the state. No checks: `decide` made them.

use super::actions::{Fact, Fate, Outcome};
use super::state::{At, Phase, State};

pub fn apply(state: &mut State, fact: &Fact) {
    if super::narration::weaves(state, fact) {
        state.telling.said = None;
    }
    match fact {
        Fact::SeatIntroduced {
            seat,
            corner,
            avatar,
            talisman,
            symbol,
            ability,
            custom,
        } => {
            let s = &mut state.seats[*seat as usize];
            if let Some(c) = corner {
                s.corner = *c;
            }
            s.avatar = Some(avatar.id);
            s.talisman = Some(talisman.id);
            s.symbol = symbol.clone();
            s.ability = *ability;
            s.custom_ability = custom
                .as_ref()
                .map(|c| (c.name.clone(), c.description.clone()));
            state.pieces.insert(avatar.id, avatar.clone());
            state.pieces.insert(talisman.id, talisman.clone());
            state.next_id = state.next_id.max(avatar.id.max(talisman.id) + 1);
        }
        Fact::RoundBegan { round } => {
            state.phase = Phase::Playing;
            state.round = *round;
            if *round == 1 && state.rules >= 2 {
                // Turns go clockwise round the map from the first player's
                // Corner, whichever Corners were claimed.
                let first = state.order[0];
                let from = state.seats[first as usize].corner;
                state
                    .order
                    .sort_by_key(|&s| (state.seats[s as usize].corner + 4 - from) % 4);
            }
        }
        Fact::Explained { seat, text } => state.telling.said = Some((*seat, text.clone())),
        Fact::VoteTaken { .. }
        | Fact::BattleFought { .. }
        | Fact::MonumentOccupied { .. }
        | Fact::CustomAbilityUsed { .. }
        | Fact::DuelFought { .. }
        | Fact::ObstacleHeld { .. } => {}
        Fact::ActionTaken { .. } => state.actions_used += 1,
        Fact::AbilityUsed { .. } => state.ability_used = true,
        Fact::AvatarMoved { piece, from, to } => {
            state.telling.arriving =
                super::narration::into_blank(state, *piece, to).then(|| from.clone());
            state.telling.again = state.telling.mover == Some(*piece);
            state.telling.mover = Some(*piece);
            set_at(state, *piece, to.clone())
        }
        Fact::SceneryDrawn { square, text, .. } => {
            state.telling.arriving = None;
            state.telling.drawn.push(*square);
            state.scenery.insert(*square, text.clone());
        }
        Fact::TerritoryClaimed { seat, large, .. } => {
            state.claims.insert(*large, *seat);
        }
        Fact::ItemPickedUp { piece, item, left } => {
            if let Some(left) = left {
                let square = state.pieces[piece].squares().to_vec();
                set_at(state, *left, At::Map { squares: square });
            }
            set_at(state, *item, At::Held { by: *piece });
        }
        Fact::TalismanTaken { piece, talisman } => {
            set_at(state, *talisman, At::Held { by: *piece })
        }
        Fact::ObstaclePassed {
            piece, obstacle, ..
        } => {
            if let Some(seat) = state.pieces.get(piece).map(|p| p.controller) {
                state.seats[seat as usize].passed.insert(*obstacle);
            }
        }
        Fact::ItemSpent { item, seat } => set_at(state, *item, At::Stockpile { seat: *seat }),
        Fact::AttackRepelled { piece, back_to, .. } => set_at(state, *piece, back_to.clone()),
        Fact::Defeated {
            piece,
            fate,
            dropped,
            square,
        } => {
            if let Some(sq) = square {
                for d in dropped {
                    set_at(state, *d, At::Map { squares: vec![*sq] });
                }
            }
            let to = match fate {
                Fate::Respawned { corner } => At::Corner { corner: *corner },
                Fate::Stockpiled { seat } => At::Stockpile { seat: *seat },
                Fate::Destroyed => At::Destroyed,
            };
            set_at(state, *piece, to);
        }
        Fact::ObjectPlaced { piece, .. } => {
            state.next_id = state.next_id.max(piece.id + 1);
            state.pieces.insert(piece.id, piece.clone());
        }
        Fact::Swapped {
            first,
            second,
            first_to,
            second_to,
        } => {
            set_at(state, *first, first_to.clone());
            set_at(state, *second, second_to.clone());
        }
        Fact::Charmed { object, seat } => {
            if let Some(p) = state.pieces.get_mut(object) {
                p.controller = *seat;
            }
        }
        Fact::Transformed {
            object,
            into,
            at,
            dropped,
        } => {
            let square = at.clone();
            for d in dropped {
                set_at(state, *d, square.clone());
            }
            if let Some(p) = state.pieces.get_mut(object) {
                p.category = *into;
                p.at = at.clone();
            }
        }
        Fact::Removed {
            object, to, left, ..
        } => {
            let square = state.pieces[object].squares().first().copied();
            if let Some(sq) = square {
                for l in left {
                    set_at(state, *l, At::Map { squares: vec![sq] });
                }
            }
            set_at(state, *object, to.clone());
        }
        Fact::GambleFlipped {
            seat,
            call_heads,
            heads,
            second,
            ..
        } => {
            if call_heads == heads {
                state.actions_allowed += 2;
            } else {
                state.actions_used = state.actions_allowed;
                if *second {
                    state.skip_next.insert(*seat);
                }
            }
        }
        Fact::TurnPassed { seat, skipped } => {
            for s in skipped {
                state.skip_next.remove(s);
            }
            state.turn = state.order.iter().position(|s| s == seat).unwrap_or(0);
            state.actions_used = 0;
            state.actions_allowed = 2;
            state.ability_used = false;
        }
        Fact::GameWon { outcome } | Fact::GameEnded { outcome } => {
            state.phase = Phase::Over;
            state.outcome = Some(outcome.clone());
            if let Outcome::Points { .. } = outcome {
                state.round = state.round.max(super::state::ROUNDS);
            }
        }
    }
}

fn set_at(state: &mut State, id: u32, at: At) {
    if let Some(p) = state.pieces.get_mut(&id) {
        p.at = at;
    }
}
