//! Lost Worlds: the picture-book duel (the book rules), and the miniatures
//! scenarios around it (option `scenario`; see "Scenarios" below).
//!
//! Each fighter holds the book that shows their opponent. Every exchange both
//! pick a maneuver from their sheet, turn to its page in the opponent's book,
//! and the matrix there, keyed by the page the opponent turned to, names the
//! picture reached. A picture may show a score on the opponent, a critical
//! burst, a party mark, and always an order read to the opponent for their
//! next move. A book duel draws no chance at all: the engine never uses its
//! [`Chance`], in digital or physical dice mode alike (a scenario does:
//! initiative, falls, jumps, throws and recovery are rolled).
//!
//! Readings this module makes, where the rules leave room:
//!
//! - **Opening.** Every sight starts at picture 57 (extended range) and every
//!   fighter starts under "Do only Extended Range next turn".
//! - **Extended Range only when told.** Extended-range maneuvers are open only
//!   while some do-only order in force admits one (by "Extended Range", a
//!   colour such as Black or White, or a name) and no opponent stands close
//!   (rules 4; "Do only Brown" at close range opened the Brown Extended
//!   Range Charge under rules 3, which required only that the opponents not
//!   stand at both ranges).
//! - **Orders.** Next-turn clauses last one exchange and are replaced by the
//!   pictures of that exchange; rest-of-combat clauses and cumulative penalties
//!   stay; a do-only list "until weapon has been retrieved" stays until some
//!   picture reads "May use weapon again". While the weapon is lost, Retrieve
//!   Weapon is always allowed besides the list, since it is the only way the
//!   order can ever lift. "Kick" in a list names the Kick maneuver.
//! - **Colours** (rules 2). The sheet prints no colours; the rule text's
//!   orders fix them. Fake High starts high and scores low and is the answer
//!   to "no Blue", so it is Red; Fake Low is Blue. The lost-weapon order
//!   "Do only Kick, Yellow or Green (except Wild Swing)" excepts Wild Swing
//!   only if Green would admit it, so Wild Swing is Green (the one attack
//!   left to a fighter told "Do only Green or Yellow"); Kick, Dislodge and
//!   Retrieve Weapon are Brown, the Specials. Orders read at extended range
//!   say "Do only Brown or Black" and "Do only Brown or White", so some
//!   extended-range maneuver is Brown: the Charge, the range's one special
//!   move (it closes the range); Black are the long swings and thrusts,
//!   White the guards (Block and Close, Dodge, Jump Back). Orange are the
//!   Down Swings, Red the high attacks, Blue the low ones, Green the Blocks,
//!   Yellow the Jumps.
//! - **The weapon** (rules 2). A fighter read an order "until weapon has
//!   been retrieved" has lost the weapon until a picture reads "May use
//!   weapon again". Meanwhile nothing that strikes with it is open (swings,
//!   thrusts, fakes, Block and Strike, Wild Swing, Dislodge Weapon, the
//!   extended-range Charge, swings and thrusts), even when an order is set
//!   aside; Retrieve Weapon is open only then.
//! - **Conditional orders** (rules 2). "If I am pushed off balance go to p.
//!   19", read by A to B, holds for the next exchange only: if A's own
//!   picture of that exchange shows A in that situation (a picture's
//!   `holder` words, matched inside the order's: "off balance" meets
//!   "pushed off balance"), B turns to that picture of A's book instead of
//!   the one the matrix gives, and reads it as reached. In record mode the
//!   table turns the page itself and reports where it ended. An "If"
//!   sentence naming no page is kept as a note.
//! - **Most restrictive.** All orders are obeyed at once (the lost weapon
//!   first, then lasting, then next-turn orders). An order that would leave no
//!   maneuver at all is set aside for that turn, and the narration says so.
//! - **Damage.** score + the maneuver's modifier + height (taller: +1 on Orange
//!   and Red; shorter: -1 on Orange) + bonuses read to the attacker by that
//!   same opponent + cumulative penalties (each reading counts, except for the
//!   excepted maneuvers). A total of 0 or less does no damage. A critical hit
//!   needs the total to reach the burst's number; its order goes to the hurt
//!   fighter. At 0 or below a fighter is unconscious, at -5 or below dead.
//! - **Who fights as whom** (rules 2). `characters` (or `seatN`) names each
//!   seat's character, by id in any letter case; left out, seat 0 fields
//!   Nowa and every other seat a character no other seat fields (a sample
//!   first). When the pack runs out, the game is refused with the ids to
//!   choose from: a character fights twice only when the table names it so
//!   (rules 1 fielded the first sample again without a word). A maneuver is
//!   named by its full name or by a name only one maneuver on the sheet
//!   bears ("Charge", "Kick"), in any letter case; a wrong name is answered
//!   with the sheet's names.
//! - **Several opponents.** Seat 0 fights every other seat; the others fight
//!   only seat 0. Seat 0 makes one move in every book. When its opponents
//!   stand at both ranges it must pick a close-range maneuver and turns to the
//!   X page against each opponent it sees at extended range; the
//!   extended-range orders of those opponents count as met by the X page.
//!   Any fighter picking a close-range maneuver while seeing an opponent at
//!   extended range turns to the X page. Attacks: on a sheet with starred
//!   maneuvers, only starred ones may score on up to `attacks` opponents and
//!   the rest on one; otherwise every maneuver may score on `attacks`. Extra
//!   scores do not count: the attacker's `targets` come first, then the
//!   heaviest blows, then the lowest seat. A fallen opponent leaves the fight.
//! - **Escape** (rules 2: the first step is taken, not assumed). A fighter
//!   who has maneuvered from close range out to extended range from every
//!   opponent (and stayed there) may announce it, so never from the opening
//!   picture; after the next exchange the fighter escapes if every picture
//!   they see is at extended range and no score landed on them. Seat 0 escaping ends the fight; another
//!   seat escaping leaves it.
//! - **Parties.** A seat may name several characters (`nowa+brakka`). On a
//!   (P) picture of the active fighter another fit member may step in, taking
//!   over the picture and the orders; on a (P**) picture another member may
//!   fire a spell or missile, orders unchanged: from rules 3 one of that
//!   member's spell or item cards that strikes (rules 1 and 2 recorded it as
//!   told, without effect). Once per exchange, before the seat chooses. When
//!   the active fighter falls the seat is out of the fight.
//! - **Fantasy cards** (rules 3; see `cards`). The pack holds cards of our
//!   own (`engine/content/lostworlds/cards.json`; the rule text prints no
//!   card's words). Before the first exchange each fighter (and each party
//!   member) takes cards in with `select_cards`: tactic, spell and luck
//!   cards cost their points from the sheet's tactics, spell and luck
//!   points, and their total of a kind may not pass the sheet's; items cost
//!   nothing (the table picks them to balance a fight); a card may be taken
//!   twice. They are face down: another seat learns how many, not which,
//!   until one is played. `play_card` plays one before its holder chooses,
//!   each card once a combat: a luck card one a turn, an item any time (and
//!   it then works for the rest of the fight), a tactic or spell only when
//!   a picture of its holder directs it (`reveal`, printed on the sample
//!   books' pictures 37 and 39 for tactics and 59 for spells), one per such
//!   picture. Effects: `damage` adds to each score its holder lands, `armour`
//!   takes that much off each blow landed on it (never below nothing), both
//!   in the next exchange (an item's: every exchange); `heal` gives body
//!   points back at once, never above the sheet's; `strike` is a spell or
//!   missile that lands on one opponent as the next exchange resolves,
//!   needing no score, and counts as landing damage for experience.
//! - **Targets after the results** (rules 3). A fighter whose pictures show
//!   scores on more opponents than its attacks, and who named no `targets`
//!   when choosing, picks whom they hit once the pages are turned
//!   (`pick_targets`; nothing else is open meanwhile). An `exchange`
//!   recorded whole by the owner names its targets with it, else the
//!   heaviest blows count (as every exchange did before rules 3).
//! - **End.** The fight ends when seat 0 or all its opponents are out, or
//!   after `exchange_limit` exchanges (default 200) as a draw. Falling on both
//!   sides in one exchange is a mutual knockout with no victor.
//! - **Experience.** Whoever landed damage in the exchange a fighter fell gains
//!   that fighter's maximum body points (the dead gain nothing), once for
//!   each opponent defeated: one that comes to and falls again is not
//!   defeated twice (rules 5; rules 4 counted every fall). Each 50 body
//!   points of defeated opponents (counting earlier fights carried on the
//!   sheet) earn an advancement: +1 body or an ability already on the sheet.
//!   Raising a modifier by 1 costs experience equal to the character's maximum
//!   body points, and every modifier must be raised once before any is raised
//!   again: the sheet's "+" column (`raised`, rules 2) counts the raises and
//!   goes with the sheet to the next fight. The state shows the improved sheet.
//! - **Criticals.** Every critical burst of the sample books can be reached
//!   by either sample character without a bonus (the generator lowers a
//!   threshold no blow reaches), and seeded random duels land each of them.
//! - **Choosing.** `choose` in the clear, or `commit` the lowercase hex
//!   SHA-256 of the UTF-8 text `"<page>:<salt>"` and later `reveal` page and
//!   salt; the exchange resolves when every fighter has chosen. A commitment
//!   may be replaced until revealed. Once everyone has chosen the game
//!   waits on the seats whose seals are still closed (`to_move` names
//!   them). A `commit` may carry a public `nonce`: the web page makes its
//!   salt from the seat's link and that nonce, and the reveal then offered
//!   lists (`unseal`) each page of the sheet with its preimage, so any
//!   device holding the seat's link, or a fork that shares the commitment,
//!   finds the reveal without the salt having been kept anywhere. Whoever
//!   holds the link could work the choice out early, the owner who handed
//!   the links out included; the seat's rivals and the log cannot. The
//!   owner may record a whole `exchange` at once. In `books=record` mode
//!   only `exchange` is used and each seat reports, per opponent, the
//!   picture, range, tell, and score and critical burst when printed.
//! - **What a page can print.** Every number the table reports, or a pack
//!   holds, is one a book or sheet can print, and anything else is refused
//!   with the field and the limit named rather than summed: a score is 0 to
//!   20 (the sample books print 1 to 5), a critical burst 1 to 30 (samples:
//!   4 to 8), a bonus or penalty read aloud 1 to 9 in plain digits with one
//!   sign at most ("Add +2", "Subtract -2"; the samples read 2), a sheet's
//!   modifier -20 to +20 (samples: -6 to +3), height 1 to 20, body points 1
//!   to 100, attacks 1 to 9, ability points 0 to 99, experience and defeated
//!   body points carried in 0 to 1,000,000. Every sum (damage, body points,
//!   experience) is checked besides, so nothing in play ever wraps.
//! - **Record mode reports.** Each `seen` entry of a seat names an opponent
//!   the seat fights (it may leave `opponent` out only with one opponent),
//!   and each opponent is reported exactly once: a second entry for the same
//!   opponent is refused, whether it repeats the first or contradicts it,
//!   naming the entry (`maneuvers[0].seen[1]`). A `title` given is not
//!   blank; tells and criticals are read (and refused, naming the entry)
//!   before the exchange is resolved.
//! - **Written exactly.** A commitment is exactly 64 hex digits with nothing
//!   around them (upper-case digits are the same hash, stored in lower
//!   case); `targets` names each opponent once.
//! - **Secrets.** A maneuver chosen (`choose`) or revealed (`reveal`) before
//!   the exchange resolves is known only to its seat and the owner: other
//!   seats and the public read that the seat has chosen or broken its seal,
//!   with no page, maneuver or targets, in the state (`pending`), the stored
//!   action and fact, and the narration. A reveal is hidden too, because it
//!   can come before an opponent has settled (or while their commitment may
//!   still be replaced). Once the exchange resolves (judged at the head of
//!   the line it was played on, whichever line a reader reads it through)
//!   every maneuver is public, as the resolution itself tells them. A
//!   commitment is public: its hash says nothing without the salt, so a
//!   salt is hidden with its page. Record mode holds nothing back: its
//!   `exchange` is told in one action and resolves at once, and everything
//!   in `seen` is what the fighters read aloud to each other at the table.
//!   A seat whose choice would close an exchange the pack cannot resolve is
//!   not told why (the reason names the other seats' pages). After the
//!   fight everyone sees everything.
//! - **Forks and take-backs.** A seat's fork withdraws every choice held
//!   in secret (a plain `choose` or a sealed one, the forking seat's too):
//!   each fighter chooses again there, so the fork resolves no one's hidden
//!   maneuver. What an unexamined object of a scenario hides is not on a
//!   seat's fork. An exchange that turned up a maneuver chosen in secret
//!   cannot be taken back (the chooser would choose again knowing it), nor
//!   can an examination; the owner of a book duel, which draws no chance,
//!   may still correct its record.
//!
//! # Scenarios
//!
//! `scenario=<id>` plays one of the pack's scenarios (`well-house` and
//! `stair-tower` ship as samples; the map's shape is in `scenario` (`field/content.rs`) and
//! `engine/content/lostworlds/README.md`): the fight has a seat for each
//! figure, in the scenario's order of sides and figures, and the books'
//! fights are fought in each turn's combat phase. By default each figure is
//! a player. A table with fewer players gives `controls=0,1,1`: the player
//! seat that controls each figure. A player controls at least one figure,
//! all of them on one side (it does not fight itself, and its side's win is
//! its own). It acts for each of them, naming which with `seat` (an action
//! that names none is refused, and says which figures it could be); it sees
//! what each keeps to itself (a held choice, its cards) and nothing of any
//! other figure; `legal` offers it every figure's actions, and the game
//! waits on it while it waits on any of its figures. Two figures of one
//! name under one player are told apart by number ("Brakka (Bo, 2)"). A turn is: `roll` for initiative (every conscious
//! figure, highest first; a tie keeps last turn's order, seat order at
//! first), each figure's move in that order (the movement chart's actions,
//! then `end_move` naming its undefended space), `roll` for recovery when
//! someone lies unconscious, the combat phase, `roll` for falls when someone
//! is at risk, and the victory check. In physical mode every roll is given
//! by the table (`dice` in seat order, or the action's `roll`). Readings:
//!
//! - **Movement.** A move has the sheet's height in points, one less while
//!   carrying an object (the chart's carrying cost, paid as the move
//!   begins). Entering a space costs 1, or the change in level when that is
//!   more (climbing); a figure that is down crawls at twice that. Running
//!   adds 2, never two turns running, and rules out the chart's starred
//!   actions (block, crawl, stand up, regain balance, pick up, throw,
//!   examine, slay) before or after it in the turn. A friend's space may be
//!   crossed unless the friend is in an opponent's battle zone; an
//!   opponent's never. A move ends with one conscious figure a space.
//! - **Jumps.** A reckless jump goes down into a lower space beside (1 point
//!   and the table). Jumping onto an opponent needs a start at least a level
//!   above it; whatever the die says, the jumper ends on a space it names
//!   beside the opponent, on the opponent's level or lower (the text names
//!   one only for a miss, but two figures never share a space). A miss hurts
//!   by the levels from the jumper's space to where it lands. A jump over a
//!   space comes on a run after entering two spaces, goes two spaces in a
//!   straight line (2 points), lands no more than a level up and ends the
//!   move; walls and pillars cannot be jumped, and an object stands one
//!   level high (a tall one two) above its space.
//! - **Halting.** A mover entering the battle zone of an opponent who is not
//!   down and has not halted anyone this turn may be halted by it (`halt`,
//!   or `let_pass`), unless it enters the opponent's undefended space. The
//!   halted mover loses the rest of its move (and may not break off); the
//!   halter moves no more this turn (if its move is still to come, it has
//!   none, and from rules 5 it may not run for the running bonus either:
//!   under rules 4 it could run, then move or shove). A halt is offered on entering a zone, not on each step inside,
//!   and not to a mover with no points left (it stops there anyway).
//! - **Other chart entries.** Block: an adjacent opponent still to move this
//!   turn may only regain balance. Shove: the opponent rolls on the falling
//!   down table at once (+1 for two more points); on a fall the shover sets
//!   it down; a hard shover starts the combat phase off balance. What the
//!   roll says holds at once, though the table says "next turn": a shove
//!   comes in the movement phase, so the next thing the figure does is this
//!   turn's combat, which it starts off balance (4, 5) or down (a fall),
//!   unless its own move, later in the turn, regains balance or stands it
//!   up. Slay: the
//!   whole move, untouched, on an unconscious opponent's space, adding 3 to
//!   its next recovery roll. Break off: a free step within one level that
//!   leaves every opponent's battle zone. Pick up an object on the figure's
//!   space weighing no more than its height (one at a time); drop it on the
//!   figure's space or beside it; examine it to read what the scenario says
//!   is found; shove it one space on, no higher, where no one stands. The
//!   chart's facing costs nothing and is not recorded: the undefended space
//!   says all that facing decides.
//! - **Throwing.** An object goes as far as the lesser of the thrower's
//!   height and its range, the range one more downhill and one less uphill
//!   (rules 5: the slope moves the range, not the height; under rules 4 it
//!   was added after the lesser was taken, so a throw downhill went one
//!   space beyond the thrower's height); the
//!   range table decides a hit. On a miss only the target's neighbours on
//!   its level or lower are numbered, clockwise from the east, and a second
//!   die names where it lands (rules 6). The text numbers no more spaces
//!   than that, so a die beyond them is rolled again: with the table's dice
//!   the table gives the die that named a space, and Tabletape's dice roll
//!   one with that many faces, which comes to the same. With no such
//!   neighbour it comes down on the target. (Under rules 5 the six sides
//!   were numbered, and a higher side, a wall or the map's edge dropped it
//!   on the target.) A figure it lands on takes its weight in damage, falls
//!   down and drops its load.
//! - **Combat phase.** A conscious figure may engage the opponents in its
//!   battle zone (adjacent, and the lower figure's height more than the
//!   difference in levels) or hold back (rules 7; rules 6 and before made
//!   every such pair fight). As the phase opens each figure with such an
//!   opponent says whom it engages (`engage`, `foes` by seat; none holds
//!   back), in any order and openly, as a table would say it aloud. A pair
//!   fights when either engages the other, since the one engaged cannot
//!   decline a fight that comes to it; a figure halted this turn and its
//!   halter fight unasked, since the halt demanded battle. When no pair is
//!   left to fight the phase passes without a round. The engaged fight
//!   through the books, so the books' several-
//!   opponent rules (X pages, attacks, targets) apply as they are. Each
//!   pair starts at the situation table's picture (a figure that ran or
//!   shoved hard counts as off balance); in full mode the picture's order
//!   is read as at any picture. Next-turn orders start afresh each phase;
//!   orders for the rest of the combat and a lost weapon go on from phase
//!   to phase. Three rounds, or fewer when no one is left to fight. A
//!   carrier who is engaged drops its load. The books' escape is not used:
//!   a fighter leaves by breaking off. Afterwards a fighter is down if an
//!   opponent's picture of it is 41, off balance if one is 19 or its own
//!   is 1 (the numbers the situation table fixes for every book).
//! - **Effective height.** On different levels each fighter's height is
//!   the sheet's plus its level; the taller adds the difference to Orange
//!   and Red (the rule text's dwarf gains +2), the shorter takes 1 off
//!   Orange. On one level the books' rule stands.
//! - **Falls.** After the combat phase a figure that ran or fought rolls if
//!   it shares a space with an object or stands beside a drop of two levels
//!   or more (+1 off balance, +2 down). A runner or hard shover who fought
//!   no one ends the combat phase off balance, as it began it (rules 5;
//!   rules 4 left it standing, without the +1). A fall is set down by an opponent
//!   it fought, else the nearest conscious one, beside its space on its
//!   level or lower (hemmed in, it falls in place): one damage a level, or
//!   the score on page 41 of its book for a fall on the same level; it
//!   starts next turn down. Set down on a space another conscious figure
//!   stands in (rules 6; rules 5 allowed only free spaces), the fall is the
//!   movement chart's jumping down onto that figure, whoever's side it is
//!   on: the placer names where the faller ends (`land`, beside it on its
//!   level or lower, free, not the space it fell from) and the jump's die
//!   decides. On a hit (1-4) the one below is flattened, disarmed or
//!   staggered as the chart says and the faller ends off balance and
//!   unhurt, since it landed on someone; on a miss (5-6) it ends down,
//!   hurt a point for each level between where it stood and where it ends.
//!   Only a space with room to end beside it is offered.
//! - **Recovery.** After the movement phase each unconscious figure (not
//!   dead, not undead, not moved) rolls on the recovery table; coming to,
//!   it lies down.
//! - **Victory.** Checked as each turn ends: a side whose goal is met wins
//!   (two at once: no winner); a side with no one alive has lost; at the
//!   turn limit a side that holds wins, else no one does. Experience: the
//!   books' combat experience, plus the winning side's victory points
//!   divided evenly (whole points) among its figures still alive.
//! - **Throwing weapons.** A sheet's `thrown_weapon` (club, dagger, hand
//!   axe, rock or spear: the rule text's effective ranges) is thrown at an
//!   opponent up to the thrower's height + 2 away (one more downhill) for
//!   2 points; the range table decides a hit, which knocks the target off
//!   balance for the score on page 19 of its book plus the thrower's
//!   `extended_range_damage`, a point less for each space beyond the
//!   effective range. Hit or miss, the weapon lies on the target's space
//!   (an object of the map) and its owner fights disarmed until picking it
//!   up there, or retrieving it in a fight. The sample Brakka carries a
//!   dagger.
//! - **Regeneration.** A sheet's `regeneration` (its book's best) lets the
//!   figure spend its whole, untouched move regenerating out of every
//!   opponent's battle zone; as the movement phase ends it regains three
//!   times that, up to its body points, unless it ends the phase in an
//!   opponent's zone.
//! - **Magic point regeneration.** A sheet's `spell_regeneration` (the
//!   most spell points its book restores in a turn) works the same way and
//!   with the same `regenerate`, three times that but 2 at most a turn.
//!   Spell cards are paid for as they are taken in; what regeneration
//!   restores is the spare points spent casting beyond extended range
//!   (the spare pool never rises above the sheet's points less the cards').
//! - **Airi and the Wraith** (a sheet's `dematerializes`). Regenerating,
//!   the figure leaves the board: out of turn before anyone has stepped in
//!   the movement phase (the rule text takes it off as the phase begins),
//!   or as its own whole move, never from an opponent's battle zone. While
//!   away it has no battle zone and is no obstacle or target; anyone may
//!   cross or stop on its space. As the phase ends it returns with its
//!   starting body points, never foiled, and touches each conscious figure
//!   on its space for its `touch_damage`; its player then moves each one to
//!   a space beside (`place`, a level up at most, no one standing there;
//!   hemmed in, it stays), a fall of a point a level when that is two or
//!   more levels down.
//! - **Carrying the fallen.** An unconscious or dead figure is a large
//!   object weighing its height: `pick_up` names it (its character or
//!   player) on the carrier's space, and it goes along, is put down with
//!   `drop`, or thrown with `throw` (range as the table's objects of that
//!   weight: seven less it, 1 at least; it strikes whoever it lands on for
//!   its weight). A body moved in the movement phase, or still carried as
//!   it ends, rolls no recovery. An attacked carrier lets it fall.
//! - **What an object hides.** A scenario object's `found` text is the
//!   scenario's secret: no seat and no spectator reads it (in the state or
//!   the game's pack) until someone examines the object; then it is told
//!   to everyone.
//! - **Obstructions** (`obstructions=on`, the optional rules). Around the
//!   figure (its battle zone's six spaces): no side swings with more than
//!   one tall obstruction (a wall or pillar, a rise of one less than its
//!   height or more, a tall object, a friend); no dodging with more than
//!   one figure or object; no jumping away or back when the undefended
//!   space holds a wall, pillar, figure or object (a step is no
//!   obstruction); no Retrieve Weapon while its thrown weapon lies on
//!   another space. They are obeyed like orders, and set aside the same way
//!   when they would leave nothing.
//! - **Spells beyond extended range.** A fighter out of every opponent's
//!   battle zone, standing, may spend its whole untouched move casting one
//!   of the spell cards it took in (cards are taken in on the map before
//!   the first exchange): a strike at an opponent any distance away, or a
//!   heal on itself (range 0). The range table asks for spell points beyond
//!   those its spells cost (the sheet's spell points less the points of
//!   the spell cards it holds, less points already spent so) and a roll;
//!   the extra points are spent, and a fizzle spends the card too.
//! - **Spell durations.** A card's `rounds` makes its damage or armour last
//!   that many exchanges from the next (the sample Stone Skin: 1 armour for
//!   three). On the map it carries from one combat phase to the next, and
//!   ends when its holder starts a combat phase outside every opponent's
//!   battle zone. An item already lasts the whole fight.
//!
//! Nowa's sheet (content/lostworlds/characters/nowa.json) follows the rule
//! text; its Jump Back line is not legible there, so it is read as page 62
//! (the page Jump Away converts to) with modifier -4 (like Dodge).

pub mod actions;
mod cards;
pub mod content;
pub mod duel;
pub mod field;
pub mod options;
pub mod restriction;
pub mod state;

pub use field::content as scenario;

use std::sync::Arc;

use serde_json::Value;
use tabletape_events::Seat;

pub use actions::{Action, Fact};
pub use content::Pack;
pub use duel::decide::commitment;
pub use options::{BooksMode, Options};
pub use state::State;

// The duel's rules, fold and story answer for the whole kind: a scenario
// hands its facts, story and map on to the field.
use duel::{apply, decide, narration};

use crate::chance::Chance;
use crate::error::Rejection;
use crate::rules::{rules_from_modules, Context, Legal, OptionValue, Rules, Setup, Term, Viewer};

/// The Lost Worlds kind.
#[derive(Debug)]
pub struct LostWorlds;

const CHARACTERS: [&str; 2] = [
    include_str!("../../content/lostworlds/characters/nowa.json"),
    include_str!("../../content/lostworlds/characters/brakka.json"),
];
const BOOKS: [&str; 2] = [
    include_str!("../../content/lostworlds/books/nowa.json"),
    include_str!("../../content/lostworlds/books/brakka.json"),
];
/// The sample fantasy cards (rules 3).
const CARDS: &str = include_str!("../../content/lostworlds/cards.json");

/// Whether `viewer` may know the choice `seat` made in the event at
/// `cx.seq`: always its own seat, anyone once that exchange has resolved at
/// `cx.state`. Only the seat and the dates decide, never the choice itself.
fn knows_choice(viewer: Viewer, seat: Option<Seat>, cx: &Context<'_, State>) -> bool {
    seat.is_some_and(|s| cx.state.sees(viewer, s)) || cx.seq <= cx.state.settled
}

fn parse_bundled(text: &str) -> Value {
    serde_json::from_str(text).expect("bundled Lost Worlds content is valid JSON")
}

impl Rules for LostWorlds {
    rules_from_modules!("lostworlds");
    /// 2: the colour table read from the rule text, weapon state, escape
    /// from close range, conditional tells, the sheet's "+" column.
    /// 3: fantasy cards and missiles with effect, targets picked after the
    /// pages are turned.
    /// 4: Extended Range is never open while an opponent stands close, even
    /// when an order's colour admits it.
    /// 5: a figure that halted an opponent may not run (and so move) after;
    /// a throw downhill reaches one space further than the object's range
    /// but never beyond the thrower's height; an opponent who falls twice
    /// gives its victors experience once; a runner who fought no one is
    /// still off balance when the falls are checked.
    /// 6: a figure passing through a friend's space keeps the points to
    /// step out again; a missed throw's scatter die numbers only the
    /// target's neighbours on its level or lower; a fall set down on a
    /// figure is jumping down onto it.
    /// 7: combat is a choice: figures face to face say whom they engage, and
    /// only a halted pair must fight.
    const RULES_VERSION: u32 = 7;

    /// A book duel draws no chance; a scenario rolls initiative and more.
    fn draws_chance(options: &Options) -> bool {
        options.scenario.is_some()
    }

    fn option_values(option: &str) -> Vec<OptionValue> {
        match option {
            "books" => vec![
                OptionValue::new("full", "Tabletape looks the pages up"),
                OptionValue::new("record", "we read our own books"),
            ],
            "obstructions" => vec![
                OptionValue::new("off", "no obstruction restrictions"),
                OptionValue::new("on", "crowded battle zones bar some maneuvers"),
            ],
            "scenario" => Self::default_pack()["scenarios"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| {
                    Some(OptionValue::new(
                        s["id"].as_str()?,
                        s["title"].as_str().unwrap_or_default(),
                    ))
                })
                .collect(),
            "characters" => Self::default_pack()["characters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| {
                    let id = c["id"].as_str()?;
                    let name = c["name"].as_str().unwrap_or(id);
                    let label = match c["title"].as_str() {
                        Some(title) if !title.is_empty() => format!("{name}, {title}"),
                        _ => name.to_string(),
                    };
                    Some(OptionValue::new(id, label))
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn vocabulary() -> Vec<Term> {
        vec![
            Term::new(
                "maneuver",
                "a move from the fighter's character sheet, by its full name or a short one only it bears (Charge, Kick); a wrong name is answered with the sheet's names",
            ),
            Term::new(
                "page, picture",
                "where the books send each fighter: the page a maneuver points to in the other's book, and the picture printed there",
            ),
            Term::new(
                "range",
                "close or extended: the distance the picture shows, which decides the maneuvers open next",
            ),
            Term::new(
                "orders",
                "what a picture allows the next choice, by the colours of the maneuvers (\"no Red\"); the kind's documentation gives each colour's reading",
            ),
            Term::new(
                "characters",
                "sheet ids as `kinds` lists them under `characters`, read in any letter case",
            ),
            Term::new(
                "cards",
                "fantasy cards by id (the pack's own samples): tactic, spell and luck cards paid from the sheet's points, items free; taken in face down before the first exchange, each played once",
            ),
            Term::new(
                "space",
                "a scenario's hex by column letter and row number (c3); even rows sit half a space to the right, and a space's neighbours are numbered 1-6 clockwise from the east",
            ),
            Term::new(
                "battle zone, undefended",
                "the spaces around a figure where it fights (none across a drop its lower figure's height cannot reach), and the one it names at the end of its move as unprotected",
            ),
            Term::new(
                "targets",
                "the opponents a fighter's scores hit when it scores on more than its attacks: named when choosing, or picked once the pages are turned",
            ),
        ]
    }

    fn default_pack() -> Value {
        serde_json::json!({
            "pack": "lostworlds-default",
            "version": 1,
            "characters": CHARACTERS.iter().map(|t| parse_bundled(t)).collect::<Vec<_>>(),
            "books": BOOKS.iter().map(|t| parse_bundled(t)).collect::<Vec<_>>(),
            "cards": parse_bundled(CARDS),
            "scenarios": field::content::SAMPLES.iter().map(|t| parse_bundled(t)).collect::<Vec<_>>(),
        })
    }

    fn setup(setup: Setup<'_, Options, Pack>, _chance: &mut Chance) -> Result<State, Rejection> {
        duel::decide::setup(
            setup.players,
            &setup.options,
            &setup.pack,
            setup.rules_version,
            setup.dice,
        )
    }

    /// Every figure the seat controls, each with its party.
    fn plays(state: &State, seat: Seat) -> Option<String> {
        let names: Vec<&str> = state
            .figures_of(seat)
            .into_iter()
            .flat_map(|f| &state.seat(f).party)
            .map(|f| f.sheet.name.as_str())
            .collect();
        (!names.is_empty()).then(|| names.join(" and "))
    }

    /// A player acts for each figure it controls.
    fn acts_for(state: &State, seat: Seat, named: Seat) -> bool {
        state.controller(named) == seat
    }

    fn describe(state: &State, action: &Action) -> Option<String> {
        duel::narration::describe(state, action)
            .or_else(|| field::narration::describe(state, action))
    }

    fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
        if Self::is_over(state) {
            return Vec::new();
        }
        match seat {
            // A player who controls several figures acts for each of them.
            Some(player) if !state.controllers.is_empty() => {
                let mut out: Vec<Legal<Action>> = Vec::new();
                for f in state.figures_of(player) {
                    for l in duel::decide::legal(state, Some(f)) {
                        // A roll for the whole table is offered once.
                        if !out.iter().any(|o| o.action == l.action) {
                            out.push(l);
                        }
                    }
                }
                out
            }
            _ => duel::decide::legal(state, seat),
        }
    }

    /// The players the game waits on: each figure's controller.
    fn to_move(state: &State, _seats: usize) -> Vec<Seat> {
        let mut players: Vec<Seat> = duel::decide::to_move(state)
            .into_iter()
            .map(|f| state.controller(f))
            .collect();
        players.sort_unstable();
        players.dedup();
        players
    }

    fn title(state: &State) -> Option<String> {
        Some(duel::narration::title(state))
    }

    fn is_over(state: &State) -> bool {
        match state.phase {
            state::Phase::Fighting => false,
            state::Phase::Aftermath => !duel::decide::aftermath_open(state),
            state::Phase::Closed => true,
        }
    }

    /// The fighters left standing won; a duel keeps no points.
    fn result(state: &State) -> Option<crate::PlayResult> {
        let outcome = state.outcome.as_ref()?;
        let mut players: Vec<Seat> = outcome
            .victors
            .iter()
            .map(|&f| state.controller(f))
            .collect();
        players.sort_unstable();
        players.dedup();
        Some(crate::PlayResult::won_by(players))
    }

    fn redact(fact: &Fact, viewer: Viewer, cx: &Context<'_, State>) -> Fact {
        match fact {
            Fact::ManeuverChosen { seat, .. } if !knows_choice(viewer, Some(*seat), cx) => {
                Fact::ManeuverChosen {
                    seat: *seat,
                    page: None,
                    maneuver: None,
                    targets: Vec::new(),
                }
            }
            Fact::ManeuverRevealed { seat, .. } if !knows_choice(viewer, Some(*seat), cx) => {
                Fact::ManeuverRevealed {
                    seat: *seat,
                    page: None,
                    maneuver: None,
                    targets: Vec::new(),
                }
            }
            // The cards a seat took in are face down to everyone else.
            Fact::CardsSelected {
                seat,
                member,
                count,
                ..
            } if !cx.state.sees(viewer, *seat) => Fact::CardsSelected {
                seat: *seat,
                member: *member,
                cards: Vec::new(),
                count: *count,
            },
            _ => fact.clone(),
        }
    }

    /// A scenario's objects keep what is found in them from the seats.
    fn redact_pack(pack: &mut Value, _viewer: Viewer) {
        for scenario in pack
            .get_mut("scenarios")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            for o in scenario
                .get_mut("objects")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                if let Some(map) = o.as_object_mut() {
                    map.remove("found");
                }
            }
        }
    }

    /// A `choose` or `reveal` sent with a seat's token names no seat: the
    /// chooser is then the actor, `cx.by`.
    fn redact_action(action: &Action, viewer: Viewer, cx: &Context<'_, State>) -> Action {
        match action {
            Action::SelectCards { seat, member, .. }
                if !seat
                    .or_else(|| cx.state.only_figure(cx.by))
                    .is_some_and(|s| cx.state.sees(viewer, s)) =>
            {
                Action::SelectCards {
                    seat: *seat,
                    member: member.clone(),
                    cards: Vec::new(),
                }
            }
            Action::Choose { seat, .. }
                if !knows_choice(viewer, seat.or_else(|| cx.state.only_figure(cx.by)), cx) =>
            {
                Action::Choose {
                    seat: *seat,
                    page: None,
                    maneuver: None,
                    targets: Vec::new(),
                }
            }
            Action::Reveal { seat, .. }
                if !knows_choice(viewer, seat.or_else(|| cx.state.only_figure(cx.by)), cx) =>
            {
                Action::Reveal {
                    seat: *seat,
                    page: None,
                    salt: None,
                    targets: Vec::new(),
                }
            }
            _ => action.clone(),
        }
    }

    /// Every choice held in secret (plain or sealed, the forking seat's
    /// too) is withdrawn, to be made again, and what an unexamined object
    /// of the scenario hides is left out: a seat's fork resolves no one's
    /// hidden maneuver and finds nothing the line it left keeps hidden.
    fn redeal(state: &mut State, _rng: &mut crate::rng::TableRng) {
        state.pending.clear();
        if let Some(field) = state.field.as_mut() {
            let examined = field.examined.clone();
            let scenario = std::sync::Arc::make_mut(&mut field.scenario);
            for object in &mut scenario.objects {
                if !examined.contains(&object.id) {
                    object.found.clear();
                }
            }
        }
    }

    /// An exchange that turned up a maneuver chosen in secret stands (the
    /// chooser who took it back would choose again knowing the other's),
    /// and so does an object examined.
    fn cannot_take_back(before: &State, facts: &[Fact]) -> Option<Rejection> {
        let examined = facts.iter().any(|f| {
            matches!(
                f,
                Fact::Stepped {
                    deed: actions::Deed::Examined { .. },
                    ..
                }
            )
        });
        if examined {
            return Some(Rejection::new(
                "undo.revealed",
                "an object was examined and what it holds is known: taking it back would hide it again",
            ));
        }
        let held = before
            .pending
            .values()
            .any(|p| matches!(p, state::Pending::Chosen { .. }));
        if !held {
            return None;
        }
        let mut after = before.clone();
        for fact in facts {
            Self::apply(&mut after, fact);
        }
        after.pending.is_empty().then(|| {
            Rejection::new(
                "undo.revealed",
                "the exchange turned up a maneuver chosen in secret: taking it back would let a fighter choose again knowing it",
            )
        })
    }

    fn folded(state: &mut State, seq: u64) {
        if state.pending.is_empty() {
            state.settled = seq;
        }
    }

    /// The state with the books named by character id: they are pack content
    /// (tens of kilobytes each) that never change in play, and every state
    /// view would otherwise carry them. The fold keeps them for look-ups.
    /// A sheet shows without its maneuvers (the pack's, in the creation),
    /// listing under `raised` those experience improved, with their
    /// modifiers now. Another seat's held choice shows only as made.
    fn view(state: &State, viewer: Viewer) -> Value {
        // The books are the box's, not the fight's: a view names them only,
        // and never writes them out just to drop them (a clone shares them).
        let mut bare = state.clone();
        let books = std::mem::take(&mut bare.books);
        let cards = std::mem::take(&mut bare.cards);
        // So are a sheet's maneuvers (nine tenths of a view): the sheet
        // keeps its name and numbers, and of its maneuvers only those whose
        // modifier experience raised.
        let mut raised = Vec::new();
        for (i, seat) in bare.seats.iter_mut().enumerate() {
            for (j, f) in seat.party.iter_mut().enumerate() {
                let improved: Vec<Value> = f
                    .sheet
                    .maneuvers
                    .iter()
                    .filter(|m| m.raised > 0)
                    .map(|m| {
                        serde_json::json!({
                            "maneuver": m.full_name(),
                            "mod": m.modifier,
                            "raised": m.raised,
                        })
                    })
                    .collect();
                f.sheet = Arc::new(f.sheet.without_maneuvers());
                raised.push((i, j, improved));
            }
        }
        let mut view = serde_json::to_value(&bare).expect("Lost Worlds states serialize");
        for (i, j, improved) in raised {
            if let Some(sheet) = view["seats"][i]["party"][j]["sheet"].as_object_mut() {
                sheet.remove("maneuvers");
                if !improved.is_empty() {
                    sheet.insert("raised".into(), improved.into());
                }
            }
        }
        let samples: Vec<&String> = books
            .iter()
            .filter(|(_, b)| b.sample)
            .map(|(id, _)| id)
            .collect();
        view["sample_books"] = serde_json::json!(samples);
        if let Some(note) = duel::narration::samples_note(state) {
            view["sample_note"] = note.into();
        }
        view["books"] = books.into_keys().collect::<Vec<_>>().into();
        // The pack's cards, like its books, by name only: the box, not the fight.
        if !cards.is_empty() {
            view["cards"] = cards.keys().cloned().collect::<Vec<_>>().into();
        }
        if let Some(map) = view.as_object_mut() {
            map.remove("settled");
        }
        // What an object hides is the scenario's secret until examined.
        if viewer != Viewer::Owner {
            if let (Some(field), Some(objects)) = (
                &state.field,
                view.pointer_mut("/field/scenario/objects")
                    .and_then(Value::as_array_mut),
            ) {
                for o in objects {
                    let examined = o["id"]
                        .as_str()
                        .is_some_and(|id| field.examined.iter().any(|e| e == id));
                    if !examined {
                        if let Some(map) = o.as_object_mut() {
                            map.remove("found");
                        }
                    }
                }
            }
        }
        for (seat, held) in &state.pending {
            if matches!(held, state::Pending::Chosen { .. }) && !state.sees(viewer, *seat) {
                view["pending"][seat.to_string()] = serde_json::json!({ "held": "chosen" });
            }
        }
        // Another seat's cards are face down until played: how many, not which.
        for (i, st) in state.seats.iter().enumerate() {
            if state.sees(viewer, i as Seat) {
                continue;
            }
            for (j, f) in st.party.iter().enumerate() {
                if f.cards.is_empty() {
                    continue;
                }
                let played: Vec<&state::HeldCard> = f.cards.iter().filter(|h| h.played).collect();
                let fighter = &mut view["seats"][i]["party"][j];
                fighter["cards"] = serde_json::json!(played);
                fighter["face_down"] = (f.cards.len() - played.len()).into();
            }
        }
        view
    }

    fn render(state: &State, viewer: Viewer) -> String {
        duel::narration::render(state, viewer)
    }

    fn render_svg(state: &State, viewer: Viewer) -> String {
        duel::svg::render(state, viewer)
    }
}
