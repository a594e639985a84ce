//! LEGEND: players explore an unmapped world with an Avatar made of a found
//! object, drawing Scenery, claiming Reaches, placing Items, Monsters,
//! Obstacles and Monuments, and try to carry another player's Talisman into a
//! Monument (an instant win) or to hold the most points after seven rounds.
//! Tabletape keeps the common record the rules ask for: every object with its
//! name, category and description, every Obstacle passage, every explanation.
//!
//! The map: squares `a1`..`f6` (columns west to east, rows north to south),
//! Large Squares ("Reaches") of 2x2, crossings `+a1`..`+g7` (`+c3` is the
//! north-west corner of c3) and boundaries between them (`-c3` the line
//! along the north of c3, `|c3` along its west). The Corners, clockwise from
//! the north-west, are `nw`, `ne`, `se`, `sw` (by a1, f1, f6, a6); a seat's
//! starting Large Square is the Reach beside its Corner. Objects are
//! numbered (`#3`) as they enter play, and every answer that makes one says
//! its number.
//!
//! **Rules versions.** Rules 2 (today) corrected rules 1: ties share the
//! victory, sieges from either Monument square, the victor tells the story,
//! the passage record is the player's, players claim their Corners, Obstacles
//! also go on boundaries and are described, a Monster needs no Scenery, and
//! Entropy sends every chosen object to a Stockpile. Rules 3 corrected rules
//! 2: a Monster *placed* in blank squares draws Scenery there like any
//! placed object; the text spares only a Monster moved into them. Games
//! recorded under earlier rules keep their stored facts and read as before.
//!
//! Readings this module makes, where the rules leave room:
//!
//! - **Setup.** Each seat sends `introduce` (Avatar, Talisman, Symbol, an
//!   Ability when Abilities are on, and the `corner` it claims); Symbols and
//!   Corners must differ. A seat naming no Corner takes its own number's,
//!   or the next free one clockwise. Option `first` is the seat the oldest
//!   player chose; turns then go clockwise round the map from that seat's
//!   Corner (rules 1: seat i held Corner i and turns went in seat order).
//! - **Turns.** Two actions; an Ability action is one of them, at most one
//!   Ability per turn. `pass` ends the turn early. After the last seat of
//!   round 7 the game ends on points.
//! - **Move.** One Move may move any number of the seat's pieces (`pieces`,
//!   each with its `path` of one or two squares, diagonals allowed); `legal`
//!   lists one-piece moves (one path per destination) to stay small.
//!   Entering from a Corner (path = the Corner's square) or leaving into one
//!   (`exit`, from that square) is the whole move of that piece. Battles
//!   happen only where a piece ends. Entering a blank square needs its
//!   Scenery in `scenery`; entering an unclaimed Reach claims it.
//! - **Items.** Picked up on every square entered while the carrier has room
//!   (one, two with Pocket); `swap` trades the held Item instead. Used Items
//!   go to the user's Stockpile. Loose Items score for whoever placed them.
//! - **Obstacles** sit on crossings or boundaries (rules 1: crossings only)
//!   and are described as they are placed (`object.description`, rules 2);
//!   entering any square one touches needs an
//!   Item and a `story`, unless the player passed it before with any of
//!   their pieces (the passage record is the player's, rules 2) or the
//!   Obstacle is the mover's own. Placement needs every Reach the crossing
//!   or boundary touches claimed by the placer, none an opponent's start.
//! - **Battles.** Avatar/Hero onto an enemy Monster: with an Item it wins
//!   (Item and Monster to its Stockpile), without it is defeated. Monster onto
//!   a Monster: the mover wins. Monster onto an Avatar/Hero: armed defenders
//!   win and lose the Item, unarmed ones are defeated; against a Monument's
//!   occupant the same, except an unarmed occupant also destroys the Monster
//!   (removed from the game, no one's Stockpile). A Monster landing on any
//!   square of a Monument besieges its occupant, whichever square the
//!   occupant stands on (rules 2). The victor tells the story (rules 2): the
//!   mover's side in `story`, the other side in `their_story` (asked of it
//!   when an armed Avatar or Hero would beat the attacking Monster, optional
//!   when an enemy Monster beats the mover), and the story is told as that
//!   player's; a `their_story` for a battle the other side did not win is
//!   refused. Games recorded under rules 1 tell the story as the victor's.
//!   A defeated Avatar returns to its Corner, a Hero goes to the victor's
//!   Stockpile; what it carried stays on the square.
//! - **Monuments.** One Reach, claimed by the builder. An Avatar/Hero on a
//!   Monument's square occupies it; no other Avatar/Hero may enter while it
//!   is occupied. The occupant's own player may still move it out (only
//!   others need a Monster). Entering an unoccupied Monument holding another
//!   player's Talisman wins at once, even in passing.
//! - **Talismans.** Taken by leaving the map into the owner's Corner; a
//!   dropped one is picked up in passing by anyone but its owner.
//! - **Placement.** Heroes at the placer's own Corner; Items anywhere but the
//!   placer's starting Reach, one loose Item per square; Monsters on squares
//!   of the placer's own Reaches, as many as it covers (they must touch);
//!   Monuments on squares of one own Reach. No Monster or Monument on a square
//!   holding a character or Monster. Placing into blank squares draws their
//!   Scenery, except under a Monster (rules 2), which needs none placed or
//!   moved.
//! - **Large Monsters** move by steps of their first square; a step that
//!   touches more than one new square ends the move.
//! - **Voting** (`voting=on`): an Item use may carry `votes`; a failed vote
//!   may be `retold` and voted again; ties go to the teller. Twice failed: at
//!   an Obstacle the piece keeps its Item and stops before it; attacking a
//!   Monster it keeps its Item and falls back; attacked by a Monster it is
//!   defeated and its Item stays on the square.
//! - **Duels** (`duels=on`) are an action between characters on one square,
//!   both armed or both unarmed; both accounts and the others' votes are
//!   recorded; a tie is a coin flip (heads: the challenger wins). The loser
//!   is defeated as in a battle; Items are kept.
//! - **Abilities** (`abilities=on`): Rewrite (free during a Move via
//!   `rewrite`, or an action), Shift (single-square objects and Obstacles of
//!   one category, Avatars and Heroes counting as one; no battle follows),
//!   Recycle (`place` with `recycle`: ignores Territory and home rules, not
//!   Scenery), Long Arm (one target within two squares, or two Monsters next
//!   to the user), Pocket (passive), Gamble (a named player flips; a loss on
//!   the second action also skips the next turn), Charm (a Hero or Monster
//!   with a square in a Reach the user claimed), Guile (a Placement action;
//!   Obstacle to Monument needs a crossing inside one own Reach; Monument to
//!   Obstacle names the crossing), Entropy (each seat removes one object to
//!   its Stockpile, in turn order from the user, as the text says, an Avatar
//!   too: removal is not defeat, so it does not come back, scores nothing
//!   there, and its player plays on with Heroes; rules 1 sent a chosen Avatar
//!   home), and a custom Ability voted in at introduction and narrated.
//! - **Score table.** Hero 1, Item 1 (held: its holder; loose: its placer),
//!   Stockpiled Item/Hero/Monster 2, Obstacle 1, Monster 1, Monument 3
//!   (the occupant's player if occupied), held Talisman 5; other Stockpiled
//!   objects score nothing. The rules know no tie-break: players level on
//!   the most points after round 7 share the victory (rules 2; rules 1
//!   broke ties by Talismans, Monuments and Stockpile).
//! - **Written forms.** A square is exactly a lower-case column `a`-`f` and
//!   a row digit `1`-`6` (`c4`), a crossing `+` with a column `a`-`g` and a
//!   row `1`-`7` (`+c3`); anything else (`A1`, `a04`, `a+4`, ` a1`, a letter
//!   outside ASCII) is refused with the accepted form, never truncated.
//! - **Nothing given is dropped.** `votes` on a Move step that uses no Item,
//!   a second tally (`retold_for`, `retold_against`) without `retold`,
//!   `votes` at an introduction without a custom Ability, and Guile's `at`
//!   for anything but a Monument turned Obstacle are refused, not ignored.
//!   One step's `votes` judge every Item use of that step.
//! - **Placeholder Symbols.** `legal` offers each seat a placeholder Symbol
//!   (`<symbol of Ada>`) that no seat has drawn, as written or in its own
//!   words without the brackets (`<symbol 2 of Ada>` and on when taken), so
//!   a seat can always be introduced while its Symbol would differ.
//! - **Secrets.** None: every object, passage and explanation is on the
//!   common record, so every viewer sees the whole state, every event and
//!   every rejection. Duel accounts are written apart but arrive together in
//!   one `duel` action, so nothing is held between events.
//! - **The story** (`narration`). The legend is told character-first: each
//!   turn is one paragraph, each round a chapter ("The Third Round"); a
//!   player's explanation is quoted right after the deed it explains; a
//!   step into a blank square is told with the Scenery its player draws
//!   there ("Sir Kettle goes on and finds a hill of crumbs (b2)"), the one
//!   time a square's grid name appears, and afterwards the square is called
//!   by its Scenery. A turn's end is not a line of its own; a turn ended
//!   early is told only when the player said why. The epilogue says how it
//!   ended (a tie as a shared victory), where every Avatar and Hero stands,
//!   where every Talisman is, and the score table; the appendix lists every
//!   object by category with its number, who made it and what became of it.
//!   The HTML story shows the map at the end of each chapter. The title is
//!   the one given at `new`, else "The Legend of" the Avatars; `narrate
//!   --title` names it when it is told.
//!
//! Not modelled: the larger-map variant for five or more players.

pub mod actions;
mod apply;
pub mod content;
mod decide;
mod narration;
mod options;
mod state;
mod svg;

use serde_json::Value;
use tabletape_events::Seat;

pub use actions::{AbilityName, Action, Category, Fact, Outcome, Score, Step, Use, Votes};
pub use content::Pack;
pub use decide::{scores, winners};
pub use options::Options;
pub use state::State;

use crate::chance::Chance;
use crate::error::Rejection;
use crate::rules::{rules_from_modules, Legal, OptionValue, Rules, Setup, Term, Viewer};

/// The LEGEND kind.
#[derive(Debug)]
pub struct Legend;

impl Rules for Legend {
    rules_from_modules!("legend");
    /// 2: a tie on points is a shared victory, a Monster on any square of a
    /// Monument besieges it, the victor tells the battle's story, an
    /// Obstacle passed once is passed for the player.
    /// 3: a placed Monster draws Scenery in its blank squares, as every
    /// placement does (only a Monster moved there is spared).
    const RULES_VERSION: u32 = 3;

    fn default_pack() -> Value {
        serde_json::json!({ "pack": "legend-default", "version": 1 })
    }

    fn setup(setup: Setup<'_, Options, Pack>, _chance: &mut Chance) -> Result<State, Rejection> {
        let mut state = decide::setup(setup.players, &setup.options, setup.dice)?;
        state.rules = setup.rules_version;
        Ok(state)
    }

    fn option_values(option: &str) -> Vec<OptionValue> {
        match option {
            "first" => (0..4)
                .map(|s| OptionValue::new(s.to_string(), format!("seat {s}")))
                .collect(),
            "voting" | "duels" | "abilities" => ["on", "off"]
                .into_iter()
                .map(|v| OptionValue::new(v, v))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn vocabulary() -> Vec<Term> {
        vec![
            Term::new(
                "a1 .. f6",
                "the Small Squares: columns a-f west to east, rows 1-6 north to south",
            ),
            Term::new(
                "+c3",
                "the crossing of lines at the north-west corner of c3 (+a1 to +g7)",
            ),
            Term::new(
                "-c3, |c3",
                "the boundary along the north of c3, and along its west (rules 2)",
            ),
            Term::new("nw, ne, se, sw", "the Corners, by a1, f1, f6 and a6"),
            Term::new(
                "#7",
                "an object's number, given as it enters play; actions name pieces by it",
            ),
            Term::new(
                "Rewrite",
                "claim another player's Large Square where your piece stands",
            ),
            Term::new(
                "Shift",
                "swap two objects of one category outside every starting Large Square",
            ),
            Term::new(
                "Recycle",
                "place an object from your Stockpile anywhere, ignoring placement rules",
            ),
            Term::new(
                "Long Arm",
                "use an Item from two squares away, or on two adjacent Monsters",
            ),
            Term::new("Pocket", "carry two Items instead of one"),
            Term::new(
                "Gamble",
                "a coin you call: win two more actions, or lose the rest of the turn",
            ),
            Term::new(
                "Charm",
                "take control of a Hero or Monster in a square you have claimed",
            ),
            Term::new(
                "Guile",
                "turn your Monster into a Hero or your Obstacle into a Monument, or back",
            ),
            Term::new(
                "Entropy",
                "every player removes one object from the map to their Stockpile",
            ),
        ]
    }

    fn describe(state: &State, action: &Action) -> Option<String> {
        Some(narration::describe(state, action))
    }

    /// The player's Avatar, once introduced.
    fn plays(state: &State, seat: Seat) -> Option<String> {
        let avatar = state.seats.get(seat as usize)?.avatar?;
        state
            .piece(avatar)
            .map(|p| format!("the Avatar {}", p.name))
    }

    fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
        let mut legal = decide::legal(state, seat);
        for l in &mut legal {
            if decide::explains(&l.action) {
                l.may
                    .push("explanation: how it happens, in the player's own words".into());
            }
            if matches!(
                l.action,
                Action::Introduce {
                    corner: Some(_),
                    ..
                }
            ) {
                l.may.push(format!(
                    "corner: the Corner this player claims, nw, ne, se or sw (free: {})",
                    decide::free_corners(state).join(", ")
                ));
            }
        }
        legal
    }

    fn folded(state: &mut State, _seq: u64) {
        state.telling = state::Telling::default();
    }

    /// A turn is one paragraph.
    fn paragraph(state: &State) -> Option<String> {
        (state.phase == state::Phase::Playing).then(|| format!("{}.{}", state.round, state.turn))
    }

    fn quiet_chapter(state: &State) -> Option<String> {
        narration::quiet_round(state)
    }

    fn appendix(state: &State) -> Vec<(String, Vec<String>)> {
        narration::appendix(state)
    }

    fn title(state: &State) -> Option<String> {
        narration::title(state)
    }

    fn is_over(state: &State) -> bool {
        state.phase == state::Phase::Over
    }

    /// A Talisman's bearer wins outright; after seven rounds the score
    /// table's totals decide, and they are the seats' scores.
    fn result(state: &State) -> Option<crate::PlayResult> {
        Some(match state.outcome.as_ref()? {
            actions::Outcome::Talisman { winner, .. } => crate::PlayResult::won_by(vec![*winner]),
            actions::Outcome::Points { scores, winners } => {
                let mut totals = vec![0; state.seats.len()];
                for s in scores {
                    if let Some(total) = totals.get_mut(s.seat as usize) {
                        *total = s.total;
                    }
                }
                crate::PlayResult::won_by(winners.clone()).scored(totals)
            }
        })
    }

    fn render(state: &State, _viewer: Viewer) -> String {
        narration::render(state)
    }

    /// The map, the Corners and the players' panel (see `svg`); nothing is
    /// secret, so every viewer gets the same drawing.
    fn render_svg(state: &State, _viewer: Viewer) -> String {
        svg::render(state)
    }
}
