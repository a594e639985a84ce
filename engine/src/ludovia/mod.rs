//! The Rooftops of Ludovia: thieves on the rooftops of a rich district, police
//! moved by dice, and a race to 15 Fame and Fortune.
//!
//! **Board geometry.** The rules say a board has 7 (3-4 players, 49 white
//! cards) or 10 (5-6 players, 70 cards) ordinary blocks beside the Lair and
//! the Prison, and every rooftop gets a card, so an ordinary block has 49/7 =
//! 70/10 = 7 rooftops. With the block's two alleys that makes 9 spaces: the
//! middle section of a piece is read as a 3x3 square (7 rooftops, 2 alleys).
//! Block pieces meet along aisles; each side of a block is one street, and
//! lamp posts stand where block corners meet, so a grid of `rows x cols`
//! blocks has `(rows+1) x (cols+1)` lamp posts and every street runs between
//! two neighbouring posts; posts and streets on the board's edge simply
//! border fewer pieces. The 3x4 board is 3 rows by 4 columns. Where each
//! piece's alleys sit is content (`content/ludovia/blocks.json`, sample);
//! alleys never sit in the middle square, so each touches a street. See
//! [`board`] for the names of spaces (`h1.2`, `v0.3`, `s4.7`, `p1.2`).
//!
//! **Rules versions.** Rules 2 (today) corrected rules 1 where the text
//! says otherwise: pieces lie turned (a table writes `mint@90`; a seeded
//! board turns each piece at random); policemen may share a lamp post when
//! placed; leaving a street that became watched passes it; a spare blue item
//! is used at once; the worked example prices the Bolas. Games recorded
//! under rules 1 keep their stored facts and read as before.
//!
//! **Turned pieces.** A piece turned by 90, 180 or 270 degrees clockwise
//! lies with its printed layout turned so; its spaces are named where they
//! lie on the board. A table describing its own box loads a pack with its
//! pieces (ids and layouts as printed) and names them in `layout`.
//!
//! Readings this module makes, where the rules leave room:
//!
//! - **Adjacency.** A block space touches the streets on the sides of the
//!   block it borders (a corner space touches two). Rooftops and alleys link
//!   orthogonally within a block; a thief climbs only from an alley. The two
//!   alleys of a block link directly when one is a Black Market. The Lair and
//!   the Prison are single spaces touching their block's four streets; a
//!   thief walks into the Lair, but into the Prison only under arrest. A jump
//!   goes from a block-edge rooftop to the rooftop straight across the street
//!   in the next block, and only if that space is a rooftop.
//! - **Face-down cards.** Which card lies on which rooftop is drawn (through
//!   `Chance`) when the rooftop is robbed, from the cards still face down.
//!   That is the same as a shuffled face-down deal, and it lets a physical
//!   table name the card it turned up (`drew`). The equipment deck works the
//!   same way: unseen cards are drawn by chance, cards put under the deck come
//!   back in order once the unseen ones are gone.
//! - **Turn order.** Everyone rolls; those tied for the highest roll again.
//!   Play goes up the seat numbers from the winner ("clockwise"). The last
//!   player in turn order places the first policeman, then the second-last.
//!   Policemen may share a lamp post, placed or moved (rules 1 kept placed
//!   ones apart).
//! - **Policemen.** Turning and advancing follow the die (1-2 left, 3-4 right,
//!   5-6 advance); a policeman left facing the edge turns about. He watches
//!   every street ahead of him in a straight line to the board's edge, not
//!   behind him. A thief carrying treasure is arrested when entering a watched
//!   street (by moving, falling, or being knocked down onto it), and when
//!   leaving one that became watched while they stood on it: the text's
//!   "passes" covers both (rules 1 let such a thief go); standing still is
//!   not passing. A Mask covers either. A policeman at a lamp
//!   post stops a thief with treasure moving from street to street through
//!   that post. An arrest ends the arrested thief's turn.
//! - **Robbing** costs 1 AP and needs room under the carrying limit (3, or 4
//!   with the Backpack); only treasures are carried. Treasure does not end
//!   the turn; an event is shown, resolved, discarded, and ends the turn. A
//!   Dog on a thief with nothing to lose only ends the turn. A Stake-out
//!   arrests the thief and, while fewer than players+1 policemen patrol and a
//!   corner of the Prison is free, the thief places one there.
//! - **Duels.** Steal and knock-down need both thieves on one rooftop. A steal
//!   needs the target to carry treasure and the attacker to have room; ties go
//!   to the target; the card taken is drawn by chance from the target's hand.
//!   A knock-down's tie goes to the attacker, who names the street (of the
//!   target's block) with the attempt. Losing ends the attacker's turn.
//! - **Buying** (1 AP, Lair or Black Market) pays with any treasures covering
//!   the price; change is lost. A thief cannot buy an item they already hold;
//!   a fourth item must be given up at once (the thief chooses which). A
//!   duplicate red or green item from an Equipment event is discarded at
//!   once. A duplicate blue one is used at once, as the text says: before the
//!   turn ends the thief takes the one action it serves, free of action
//!   points (a masked move, a sure jump, a made-up steal or knock-down, a
//!   Bolas throw, a Whistle), or lets it go unused (`discard_equipment`).
//!   Rules 1 counted it used up with nothing to use it on.
//! - **Item colours.** The colour says how an item is used (blue once, no
//!   action point; red always; green an action point each use, that of the
//!   action it serves where it serves one). The text's worked example fixes
//!   three: the Whistle green at $300, the Backpack red at $200, the Bolas
//!   blue at $100 (checked when a rules-2 game is set up); the pack says the
//!   rest. An effect always at work must be red, one used at a moment blue
//!   or green.
//! - **Turn ends.** A turn ends when the thief says so, when the last action
//!   point is spent, or when a fall, lost duel, event, arrest or conviction
//!   cuts it short; from rules 2 the fact says which, and the story says the
//!   first two.
//! - **Cashing in** (1 AP, Lair) turns any chosen treasures (all by default)
//!   into Fame and Fortune, $100 a point. 15 points win at once.
//! - **Prison.** A prisoner's turn opens by moving a policeman as they choose;
//!   with treasure they stand trial (6 acquits, or 5 with the Lucky Charm),
//!   else they are released. Acquitted or released, they play on from the
//!   Prison. Convicted, they give up a chosen treasure and the turn ends.
//! - **Secrets.** A thief's hand is secret from the other seats (its size is
//!   not); the cards still face down are secret from every seat (a seat sees
//!   only how many). Discards, purchases and cash-ins are public. A treasure
//!   robbed is known to the robber; a card stolen to the thief and the one
//!   robbed (in the facts, and in the action's `drew`/`took` when a seat's
//!   token acted; when the owner acted, the action names no seat, so its card
//!   is hidden from every seat). Rejections and `legal` never list a hidden
//!   card: a physical draw refused asks for "a card from Bo's hand" or "a
//!   rooftop card still face down". With digital dice a named `took` or
//!   `found` is refused before any die is cast, so the refusal cannot tell
//!   what the dice would have done. After the game, everyone sees everything.
//! - **Forks and take-backs.** A seat's fork deals anew every treasure no
//!   one else sees: the thieves' hands (each keeps its size) and the
//!   rooftop cards still face down, events staying on the rooftops. A rob,
//!   a card taken in a steal, equipment drawn, and treasure shown (turned
//!   into Fame, discarded, paid) cannot be taken back; a die rolled and
//!   taken back rolls the same when the move is recorded again.
//! - **Written forms.** Spaces and lamp posts are read exactly as they are
//!   written (`lair`, `prison`, `h1.2`, `v0.3`, `s4.7`, `p1.2`): plain ASCII
//!   digits without sign or leading zero, nothing around them. `v2.0\t`,
//!   `v2.0000`, `v+2.0` are refused with the accepted form.
//! - **What a box holds.** A treasure card is worth $100 to $1,500 in whole
//!   hundreds ($1,500 is the 15 Fame and Fortune that win outright; the
//!   sample's are $100 to $400) and the equipment deck has at most the 24
//!   cards of the box, so no hand's worth or Fame and Fortune can wrap; the
//!   sums are checked besides. A `took` named for a steal that failed is
//!   refused, not dropped.
//! - **End.** 15 Fame and Fortune wins at once. When the last rooftop is robbed
//!   and its event settled, the night ends: most Fame and Fortune, then most
//!   treasure carried, else shared Great Thieves. As a safeguard so random play
//!   always ends, the night also ends that way after `round_limit` rounds
//!   (default 100).
//!
//! Sample equipment effects (our design, in the content pack): Mask (blue,
//! one move past the police), Make-up (blue, +2 on your duel die), Rope and
//! Grapple (blue, a sure jump), Backpack (red, carry 4), Lucky Charm (red, a
//! 5 acquits too), Soft Shoes (red, +1 on jump rolls), Whistle (green, 1 AP:
//! move a policeman by a die), Bolas (blue, once: knock down a thief on a
//! neighbouring rooftop of your block).

pub mod actions;
mod apply;
pub mod board;
pub mod content;
pub mod decide;
mod narration;
pub mod options;
pub mod state;
mod svg;

use serde_json::{json, Value};
use tabletape_events::Seat;

pub use actions::{Action, Fact, Step};
pub use content::Pack;
pub use options::Options;
pub use state::State;

use crate::chance::Chance;
use crate::error::Rejection;
use crate::rules::{rules_from_modules, Context, Legal, OptionValue, Rules, Setup, Term, Viewer};

/// The Rooftops of Ludovia kind.
#[derive(Debug)]
pub struct Ludovia;

impl Rules for Ludovia {
    rules_from_modules!("ludovia");
    const RULES_VERSION: u32 = 2;

    fn physical_dice_options() -> &'static [&'static str] {
        &["layout", "offer"]
    }

    fn option_values(option: &str) -> Vec<OptionValue> {
        let pack = Self::default_pack();
        let listed = |field: &str, key: &str| -> Vec<OptionValue> {
            pack[field]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|item| {
                    let value = item[key].as_str()?;
                    let label = item["name"].as_str().unwrap_or(value);
                    Some(OptionValue::new(value, label))
                })
                .collect()
        };
        match option {
            "layout" => listed("blocks", "id"),
            "offer" => listed("equipment", "name"),
            _ => Vec::new(),
        }
    }

    fn prologue(state: &State) -> Vec<String> {
        narration::prologue(state)
    }

    fn describe(state: &State, action: &Action) -> Option<String> {
        Some(narration::describe(state, action))
    }

    fn vocabulary() -> Vec<Term> {
        let pack: Pack =
            serde_json::from_value(Self::default_pack()).expect("the bundled pack reads");
        let mut out = vec![
            Term::new("lair, prison", "the Lair and the Prison, one space each"),
            Term::new(
                "h<r>.<c>",
                "a street along lamp-post row r, between posts c and c+1 (h1.2)",
            ),
            Term::new(
                "v<r>.<c>",
                "a street down lamp-post column c, between post rows r and r+1 (v0.3)",
            ),
            Term::new(
                "s<row>.<col>",
                "a rooftop or alley on the board's fine grid, three to a block each way (s4.7)",
            ),
            Term::new("p<r>.<c>", "a lamp post, where block corners meet (p1.2)"),
            Term::new(
                "mint@90",
                "in `layout`, a block piece turned clockwise by 90, 180 or 270 degrees as it lies",
            ),
            Term::new(
                "left, right, advance",
                "a policeman's move: turn left, turn right, or walk to the next lamp post",
            ),
        ];
        for item in &pack.equipment {
            out.push(Term::new(
                item.name.clone(),
                format!("{:?}, ${}: {}", item.colour, item.cost, item.text),
            ));
        }
        out
    }

    fn default_pack() -> Value {
        content::bundled()
    }

    fn setup(setup: Setup<'_, Options, Pack>, chance: &mut Chance) -> Result<State, Rejection> {
        decide::setup(
            setup.players,
            &setup.options,
            &setup.pack,
            setup.dice,
            setup.rules_version,
            chance,
        )
    }

    fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
        decide::legal(state, seat, state.dice)
    }

    fn is_over(state: &State) -> bool {
        matches!(state.phase, state::Phase::Over)
    }

    /// The Great Thief (or thieves) won; each thief's Fame and Fortune is
    /// its score. Treasure still carried breaks a tie in Fame, so a winner
    /// may share the top score with a loser: the winners are named, not
    /// read off the scores.
    fn result(state: &State) -> Option<crate::PlayResult> {
        let outcome = state.outcome.as_ref()?;
        let fame = state.thieves.iter().map(|t| t.fame).collect();
        Some(crate::PlayResult::won_by(outcome.winners.clone()).scored(fame))
    }

    fn redact(fact: &Fact, viewer: Viewer, _cx: &Context<'_, State>) -> Fact {
        let mut fact = fact.clone();
        match &mut fact {
            Fact::RooftopRobbed {
                seat, card, event, ..
            } if event.is_none() && !viewer.sees(*seat) => *card = None,
            Fact::StealTried {
                seat, from, card, ..
            } if !viewer.sees(*seat) && !viewer.sees(*from) => *card = None,
            _ => {}
        }
        fact
    }

    fn redact_action(action: &Action, viewer: Viewer, cx: &Context<'_, State>) -> Action {
        let mut action = action.clone();
        // The thief who acted saw the card; the one robbed knows what they
        // lost. When the owner acted for the table no seat is named, so the
        // card stays hidden from every seat (the facts still tell the thief).
        let actor_sees = cx.by.is_some_and(|b| viewer.sees(b));
        match &mut action {
            Action::Rob { drew, .. } if !actor_sees => *drew = None,
            Action::Steal { from, took, .. } if !actor_sees && !viewer.sees(*from) => *took = None,
            _ => {}
        }
        action
    }

    /// Every treasure no one else sees (the thieves' hands and the
    /// rooftop cards still face down) is dealt anew, each hand keeping its
    /// size: a seat's fork steals and robs nothing the line it left hides.
    fn redeal(state: &mut State, rng: &mut crate::rng::TableRng) {
        let treasure =
            |name: &String| matches!(state.faces.get(name), Some(state::Face::Treasure(_)));
        let mut hidden: Vec<String> = state.pool.iter().filter(|c| treasure(c)).cloned().collect();
        let events: Vec<String> = state
            .pool
            .iter()
            .filter(|c| !treasure(c))
            .cloned()
            .collect();
        for thief in &state.thieves {
            hidden.extend(thief.hand.iter().cloned());
        }
        hidden.sort();
        rng.shuffle(&mut hidden);
        let mut dealt = hidden.into_iter();
        for thief in &mut state.thieves {
            let size = thief.hand.len();
            thief.hand = dealt.by_ref().take(size).collect();
        }
        state.pool = events.into_iter().chain(dealt).collect();
        state.pool.sort();
    }

    /// A card drawn from the rooftops or the equipment deck, a card taken
    /// from another thief, and treasure shown to the table stand.
    fn cannot_take_back(_before: &State, facts: &[Fact]) -> Option<Rejection> {
        facts.iter().find_map(|fact| {
            let what = match fact {
                Fact::RooftopRobbed { .. } => "a rooftop card was drawn",
                Fact::StealTried { card: Some(_), .. } => {
                    "a card was taken from another thief's hand"
                }
                Fact::EquipmentFound { item: Some(_), .. } => "an equipment card was drawn",
                Fact::OfferRenewed { drawn, .. } if !drawn.is_empty() => {
                    "equipment cards were drawn for the offer"
                }
                Fact::FameGained { .. } | Fact::TreasureDiscarded { .. } => {
                    "treasure was shown to the table"
                }
                Fact::EquipmentBought { paid, .. } if !paid.is_empty() => {
                    "treasure was shown to the table"
                }
                _ => return None,
            };
            Some(Rejection::revealed(what))
        })
    }

    fn hide(state: &State, viewer: Viewer, view: &mut Value) {
        for (i, t) in state.thieves.iter().enumerate() {
            if !viewer.sees(i as Seat) {
                view["thieves"][i]["hand"] = json!({ "secret": t.hand.len() });
            }
        }
        view["pool"] = json!({ "face_down": state.pool.len() });
    }

    fn render(state: &State, viewer: Viewer) -> String {
        narration::render(state, viewer)
    }

    fn render_svg(state: &State, viewer: Viewer) -> String {
        svg::render(state, viewer)
    }
}
