"""Generate the sample Lost Worlds books (and Brakka's sheet) for Tabletape.

Run from anywhere: ``python3 engine/content/lostworlds/books/generate.py``. It reads
``characters/nowa.json``, writes ``characters/brakka.json``, ``books/nowa.json`` and
``books/brakka.json``, validates them, and plays a few thousand random duels to check
that fights end. Only the JSON output is shipped; this script documents how it was made.

Combat logic (our own, not the printed books):

* A book shows one character. The holder turns to the matrix of their own maneuver and
  looks up the book character's maneuver, reaching a picture of what the holder sees.
* Everything that changes BOTH fighters' positions (range, slipping behind, knock-downs,
  off balance, disarming, weapon binds) is decided by shared maneuver logic that does not
  depend on either character, so the two pictures of one exchange always agree with each
  other, whichever compatible book the opponent brings.
* Whether the holder's blow lands, how hard it scores and what a critical does depend on
  the book character (their agility, armour, weapon): that only shows in the holder's
  picture, so it may differ between books without breaking the pairing.
* Close range: high attacks beat low blocks and are ducked; low attacks beat high blocks and
  are jumped over; down swings are dodged, Bash smashes through any block, Smash only
  through a low block; side swings catch dodgers and thrusters; thrusts catch jumpers going
  Away and are pre-empted by nothing but a side swing; a much faster attack (by two speed
  steps) lands before a slow one; blocks stop fakes; like side swings (or like Block and
  Strikes) bind each other. Kick knocks down anyone not attacking or jumping clear and
  fells the kicker otherwise; a missed Wild Swing leaves the swinger off balance; Dislodge
  Weapon disarms thrusts and fakes; Retrieve Weapon works unless the fighter is hit.
  Dodging a down swing or ducking a Strong or Wild swing slips the jumper behind.
  Jump Away reaches extended range unless the opponent thrusts or blocks-and-strikes.
* A fighter whose weapon is lost may only kick, block, jump or retrieve it; if
  the fight drifts out to extended range meanwhile, the engine sets the "Do only
  Extended Range" order aside and turns the close-range maneuver to its X page.
* Extended range: Charge always closes (hitting a fighter who jumps back or charges too,
  and being hit by any swing or thrust); Block and Close closes unless the other jumps
  back; thrusts outreach swings and catch a Jump Back; Dodge avoids everything.
"""

from __future__ import annotations

import json
import random
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACK = HERE.parent
CHARACTERS = PACK / "characters"

CLOSE_PAGES = list(range(2, 49, 2))
EXTENDED_PAGES = list(range(50, 65, 2))
ALL_PAGES = CLOSE_PAGES + EXTENDED_PAGES
ODD_PAGES = list(range(1, 64, 2))

# --------------------------------------------------------------------------------------
# The shared page scheme: what each even page means in any compatible book.
# Pages 6, 38 and 48 belong to maneuvers neither sample sheet has; the sample books read
# them as a plain guard that neither attacks nor defends in any special way.
# --------------------------------------------------------------------------------------
CLOSE = {
    36: dict(kind="down", line="down", speed=1, name="Bash"),
    24: dict(kind="down", line="down", speed=2, name="Smash"),
    28: dict(kind="side", line="high", speed=2, name="Strong"),
    10: dict(kind="side", line="high", speed=3, name="High"),
    2: dict(kind="side", line="low", speed=3, name="Low"),
    32: dict(kind="thrust", line="high", speed=4),
    14: dict(kind="thrust", line="low", speed=4),
    44: dict(kind="bs", line="high", speed=2),
    22: dict(kind="bs", line="low", speed=2),
    12: dict(kind="fake", line="high", speed=3),  # Fake Low: starts low, lands high
    42: dict(kind="fake", line="low", speed=3),  # Fake High: starts high, lands low
    34: dict(kind="kick"),
    40: dict(kind="wild", line="wild", speed=1),
    30: dict(kind="dislodge"),
    46: dict(kind="retrieve"),
    26: dict(kind="block", line="high"),
    4: dict(kind="block", line="low"),
    18: dict(kind="up"),
    8: dict(kind="dodge"),
    20: dict(kind="duck"),
    16: dict(kind="away"),
    6: dict(kind="guard"),
    38: dict(kind="guard"),
    48: dict(kind="guard"),
}
ATTACKS = {"down", "side", "thrust", "bs", "fake", "wild"}
CHARGE, SWING_HIGH, SWING_LOW, THRUST_HIGH, THRUST_LOW = 50, 64, 58, 54, 60
BLOCK_CLOSE, DODGE, JUMP_BACK = 56, 52, 62
EXT_ATTACKS = {SWING_HIGH, SWING_LOW, THRUST_HIGH, THRUST_LOW}
EXT_THRUSTS = {THRUST_HIGH, THRUST_LOW}
# Extended-range conversion for a holder whose sheet we do not know: Nowa's X column,
# filled in by main(); the unlisted guard pages convert to Dodge.
CANON_X = {6: DODGE, 38: DODGE, 48: DODGE}

# --------------------------------------------------------------------------------------
# Brakka: a sample character of our own invention.
# --------------------------------------------------------------------------------------
# A sword rather than a staff: her thrusts and long swings beat Nowa's, her overhead
# blows, fakes and kicks are weaker; no Jump Up, she is too heavy for it.
BRAKKA_MODS = {  # page -> (mod, two_attacks)
    36: (2, False), 24: (1, False), 28: (1, True), 10: (0, False), 2: (0, False),
    32: (-1, False), 14: (-2, False), 44: (-1, False), 22: (-2, False), 12: (-1, False),
    42: (-1, False), 34: (-1, False), 40: (2, False), 30: (-3, False), 46: (-6, False),
    26: (0, False), 4: (0, False), 8: (-5, False), 20: (-5, False), 16: (-5, False),
    50: (2, False), 64: (2, False), 58: (1, False), 54: (0, False), 60: (0, False),
    56: (0, False), 52: (-5, False), 62: (-5, False),
}


def make_brakka(nowa: dict) -> dict:
    by_page = {m["page"]: m for m in nowa["maneuvers"]}
    maneuvers = []
    for page, (mod, two) in BRAKKA_MODS.items():
        m = dict(by_page[page])
        m["mod"] = mod
        m["two_attacks"] = two
        maneuvers.append(m)
    maneuvers.sort(key=lambda m: [mm["page"] for mm in nowa["maneuvers"]].index(m["page"]))
    return {
        "id": "brakka",
        "name": "Brakka",
        "title": "Sample Swordswoman",
        "sample": True,
        "height": 5,
        "body_points": 12,
        "attacks": 1,
        "abilities": {"luck": 3},
        "maneuvers": maneuvers,
        # A dagger in her belt, for scenarios: thrown in the movement phase.
        "thrown_weapon": "dagger",
        "extended_range_damage": 1,
    }


# --------------------------------------------------------------------------------------
# Per-book traits: they only decide whether the holder's blow lands and how hard.
# --------------------------------------------------------------------------------------
TRAITS = {
    "nowa": {
        # Light on her feet and hard to hit squarely: her dodge hops a low cut or a low
        # fake, her leap away outpaces a low thrust, and her blows received score lower.
        "lands": {(2, 8): False, (14, 16): False, (42, 8): False},
        "scores": {"trade": 2, "body": 2, "head": 4, "legs": 2, "arm": 3, "heavy": 4,
                   "exposed": 4, "kick": 1, "charge": 3, "extended": 2, "crushed": 4},
        "thresholds": {"head": 7, "legs": 5, "arm": 4, "heavy": 8},
    },
    "brakka": {
        # Big and strong: her crossguard stops even Bash, but she jumps late and offers a
        # large target, so blows on her score a little higher.
        "lands": {(36, 26): False, (36, 44): False, (32, 8): True, (10, 20): True},
        "scores": {"trade": 3, "body": 3, "head": 5, "legs": 3, "arm": 3, "heavy": 5,
                   "exposed": 5, "kick": 2, "charge": 4, "extended": 2, "crushed": 4},
        "thresholds": {"head": 8, "legs": 6, "arm": 4, "heavy": 8},
    },
}

# --------------------------------------------------------------------------------------
# Pictures: number -> (key, range, score key or None, party, tell, critical restriction)
# --------------------------------------------------------------------------------------
EXT_TELL = "Do only Extended Range next turn"
# Every tell below is one the rule text prints (the samples keep them all); the
# pictures they sit on, the titles and the scores are our own.
LOST = "Do only Kick, Yellow or Green (except Wild Swing) until weapon has been retrieved."
NO_SPECIALS = "Do no Specials (except 'Retrieve Weapon') for the rest of the combat."
PICTURES = {
    # extended range
    57: ("at_range", "extended", None, None, EXT_TELL, None),
    59: ("leapt_back", "extended", None, None, "Do only Brown or White next turn.", None),
    51: ("falls_short", "extended", None, None, "Do only Brown or Black next turn.", None),
    53: ("sidesteps", "extended", None, "P", "Do only EXTENDED RANGE next turn.", None),
    61: ("edges_in", "extended", None, "P**",
         "Do only EXTENDED RANGE next turn, but add +2 to any Charge or Swing that Scores next turn.",
         None),
    55: ("score_extended", "extended", "extended", None, EXT_TELL, None),
    # close range: the book character's maneuver
    5: ("down_swing", "close", None, None, "Do no Red next turn.", None),
    7: ("high_attack", "close", None, None, "Do no Blue next turn.", None),
    9: ("low_attack", "close", None, None, "Do no Red or Orange next turn.", None),
    37: ("jumps_clear", "close", None, None,
         "Do no Blue next turn, but add +2 to any Orange that Scores next turn.", None),
    39: ("block_holds", "close", None, None,
         "Add +2 to any Block and Strike High or Block and Strike Low that scores next turn", None),
    47: ("special", "close", None, None, "Do no Kick or Dislodge Weapon next turn", None),
    29: ("charged_in", "close", None, None, "Do no Green or Yellow next turn.", None),
    45: ("closed_in", "close", None, None,
         "Do no Orange next turn. If I am 'Pushed Off Balance' go to p. 19.", None),
    35: ("bind", "close", None, None, "No restrictions next turn.", None),
    # close range: positions
    1: ("holder_down", "close", None, "P", "Add +2 if you Score next turn.", None),
    19: ("off_balance", "close", None, None, "Do only Green or Yellow next turn.", None),
    41: ("knocked_down", "close", None, None, "Do only Blocks, Jumps or Retrieve Weapon next turn", None),
    21: ("holder_behind", "close", None, None, "Do only Brown next turn.", None),
    23: ("slipped_behind", "close", None, "P", "Add +2 to any Down or Side Swing that Scores next turn.",
         None),
    31: ("disarmed", "close", None, None, LOST, None),
    33: ("retrieved", "close", None, None, "May use weapon again. Do no Orange next turn.", None),
    # close range: the holder scores
    3: ("score_trade", "close", "trade", "P", "Do no Blue or Yellow next turn.", None),
    11: ("score_body", "close", "body", None, "Do no Orange next turn.", None),
    13: ("score_head", "close", "head", None, "Do only Jumps next turn.",
         "Do no Red for the rest of the combat."),
    15: ("score_legs", "close", "legs", None, "Do no Red or Orange next turn.",
         "Do no Blue for the rest of the combat."),
    17: ("score_arm", "close", "arm", None, "Do only Green or Yellow next turn.",
         "Do no Orange for the rest of the combat"),
    25: ("score_heavy", "close", "heavy", None, "Do no Red or Orange next turn.", NO_SPECIALS),
    27: ("score_exposed", "close", "exposed", "P**", "Do no Orange next turn.", None),
    43: ("score_kick", "close", "kick", None, "Do no Red, Orange or Blue next turn", None),
    49: ("score_charge", "close", "charge", None, "Do only Green, Yellow or Red next turn", None),
    63: ("score_crushed", "close", "crushed", None,
         "Subtract -2 from all Scores, cumulative, (except Kick) for the rest of the game.", None),
}
# What a picture shows of its holder, for the conditional on picture 45: the
# holder staggers on picture 1 (kicked, fallen, or reeling from a wild swing).
HOLDER = {1: ["off balance", "down"]}
# Pictures where the book's character has just used its training or magic:
# it reveals a tactic or spell card it took into the fight (rules 3).
REVEAL = {37: "tactic", 39: "tactic", 59: "spell"}
BY_KEY = {v[0]: k for k, v in PICTURES.items()}

TITLES = {
    "at_range": "{n} stands off at extended range, weapon ready",
    "leapt_back": "{n} springs backwards out of your reach",
    "falls_short": "{n}'s long stroke falls short of you",
    "sidesteps": "{n} sidesteps lightly, still out of reach",
    "edges_in": "{n} edges forward behind a raised guard",
    "score_extended": "Your long reach catches {n} before they can close",
    "down_swing": "{n} brings the weapon down overhead",
    "high_attack": "{n} strikes high at your head and chest",
    "low_attack": "{n} cuts low at your legs",
    "jumps_clear": "{n} leaps clear of your blow",
    "block_holds": "{n}'s guard meets your weapon squarely",
    "special": "{n} tries something unexpected",
    "charged_in": "{n} rushes in to close quarters",
    "closed_in": "{n} closes in behind a guard",
    "bind": "Your weapons lock together with {n}'s",
    "holder_down": "You stagger, and {n} looms over you",
    "off_balance": "{n} stumbles, off balance",
    "knocked_down": "{n} sprawls on the ground",
    "holder_behind": "You have slipped past {n}'s guard to the unprotected side",
    "slipped_behind": "{n} has slipped round to your unprotected side",
    "disarmed": "{n}'s weapon spins out of reach",
    "retrieved": "{n} snatches the weapon back up",
    "score_trade": "You trade blows; yours lands on {n}",
    "score_body": "Your blow lands on {n}'s body",
    "score_head": "You strike {n} about the head",
    "score_legs": "Your blow bites into {n}'s leg",
    "score_arm": "You catch {n}'s weapon arm",
    "score_heavy": "Your overhead blow crashes down on {n}",
    "score_exposed": "{n} is wide open and you hit hard",
    "score_kick": "Your kick sweeps {n} off their feet",
    # Reached when the holder charges a fighter who jumps back (or charges too) and when
    # the book character charges into the holder's long weapon: the title names no rush.
    "score_charge": "As the gap closes, your blow lands solidly on {n}",
    "score_crushed": "You crush {n}'s hand as they reach for the weapon",
}

# The same pictures told in the story's voice: {h} is the holder (filled in when the
# story is told, since any fighter may hold the book), {n} the book character.
CAPTIONS = {
    "at_range": "{n} stands off at extended range, weapon ready",
    "leapt_back": "{n} springs backwards out of {h}'s reach",
    "falls_short": "{n}'s long stroke falls short of {h}",
    "sidesteps": "{n} sidesteps lightly, still out of {h}'s reach",
    "edges_in": "{n} edges forward behind a raised guard",
    "score_extended": "{h}'s long reach catches {n} before the gap can close",
    "down_swing": "{n} brings the weapon down on {h} overhead",
    "high_attack": "{n} strikes high at {h}'s head and chest",
    "low_attack": "{n} cuts low at {h}'s legs",
    "jumps_clear": "{n} leaps clear of {h}'s blow",
    "block_holds": "{n}'s guard meets {h}'s weapon squarely",
    "special": "{n} tries something unexpected",
    "charged_in": "{n} rushes in on {h} to close quarters",
    "closed_in": "{n} closes in on {h} behind a guard",
    "bind": "{h}'s weapon and {n}'s lock together",
    "holder_down": "{h} staggers, and {n} looms over them",
    "off_balance": "{n} stumbles, off balance",
    "knocked_down": "{n} sprawls on the ground",
    "holder_behind": "{h} slips past {n}'s guard to the unprotected side",
    "slipped_behind": "{n} slips round to {h}'s unprotected side",
    "disarmed": "{n}'s weapon spins out of reach",
    "retrieved": "{n} snatches the weapon back up",
    "score_trade": "{h} and {n} trade blows, and {h}'s lands",
    "score_body": "{h}'s blow lands on {n}'s body",
    "score_head": "{h} strikes {n} about the head",
    "score_legs": "{h}'s blow bites into {n}'s leg",
    "score_arm": "{h} catches {n}'s weapon arm",
    "score_heavy": "{h}'s overhead blow crashes down on {n}",
    "score_exposed": "{n} is wide open, and {h} hits hard",
    "score_kick": "{h}'s kick sweeps {n} off their feet",
    "score_charge": "As the gap closes, {h}'s blow lands solidly on {n}",
    "score_crushed": "{h} crushes {n}'s hand as they reach for the weapon",
}


# --------------------------------------------------------------------------------------
# Shared exchange logic
# --------------------------------------------------------------------------------------
def close_range_kept(a: int, b: int) -> bool:
    """False when a Jump Away carries the fight out to extended range."""
    for jumper, other in ((a, b), (b, a)):
        if CLOSE[jumper]["kind"] == "away" and CLOSE[other]["kind"] not in ("thrust", "bs"):
            return False
    return True


def binds(a: int, b: int) -> bool:
    ma, mb = CLOSE[a], CLOSE[b]
    if ma["kind"] == mb["kind"] == "side":
        return ma["line"] == mb["line"]
    if ma["kind"] == mb["kind"] == "bs":
        return ma["line"] == mb["line"]
    return False


def lands(h: int, b: int) -> bool:
    """Does the holder's close-range attack h reach a fighter doing b? (no traits)"""
    mh, mb = CLOSE[h], CLOSE[b]
    if mh["kind"] not in ATTACKS:
        return False
    if binds(h, b):
        return False
    if slips_behind(b, h):
        return False
    kind, line = mh["kind"], mh["line"]
    d = mb["kind"]
    if d == "block" or (d == "bs" and kind != "bs"):
        guard = mb["line"]
        if kind == "fake" or kind == "wild":
            return False
        if kind == "down":
            return h == 36 or guard == "low"
        if line == guard:
            return False
        if d == "block":
            return True
        # the Block and Strike fighter's block missed; fall through to the attack clash
    if d == "up":
        return line not in ("low",)
    if d == "dodge":
        return kind not in ("down", "thrust")
    if d == "duck":
        return line not in ("high", "wild")
    if d == "away":
        return True  # only reached when range stays close: a thrust or Block and Strike
    if d in ("kick", "retrieve", "guard"):
        return True
    if d == "dislodge":
        return kind not in ("thrust", "fake")
    if d == "wild" or d in ATTACKS:
        if kind == "side" and d == "thrust":
            return True
        if line == "high" and d == "thrust" and mb["line"] == "low":
            return True
        return mb["speed"] - mh["speed"] < 2
    raise AssertionError((h, b))


def kick_lands(kicker_move: int, other: int) -> bool:
    return CLOSE[kicker_move]["kind"] == "kick" and CLOSE[other]["kind"] in (
        "block", "retrieve", "dislodge", "guard", "duck")


def kick_falls(kicker_move: int, other: int) -> bool:
    """A kick that meets a jump, or another kick, puts the kicker on the ground."""
    return CLOSE[kicker_move]["kind"] == "kick" and CLOSE[other]["kind"] in ("up", "dodge", "kick")


def slips_behind(jumper: int, striker: int) -> bool:
    j, s = CLOSE[jumper]["kind"], CLOSE[striker]
    return (j == "dodge" and s["kind"] == "down") or (j == "duck" and striker in (28, 40))


def disarms(dislodger: int, other: int) -> bool:
    return CLOSE[dislodger]["kind"] == "dislodge" and CLOSE[other]["kind"] in ("thrust", "fake")


def off_balance(move: int, other: int) -> bool:
    """A Wild Swing that does not land leaves the swinger reeling."""
    m = CLOSE[move]["kind"]
    if m == "wild":
        return not lands(move, other) and CLOSE[other]["kind"] != "away"
    return False


def close_picture(h: int, b: int, traits: dict) -> str:
    """Key of the picture the holder (doing h) sees of the book character (doing b)."""
    if not close_range_kept(h, b):
        return "leapt_back" if CLOSE[b]["kind"] == "away" else "at_range"
    mh, mb = CLOSE[h], CLOSE[b]
    hit = traits["lands"].get((h, b), lands(h, b)) and not disarms(b, h)
    if kick_lands(h, b):
        return "score_kick"
    if hit:
        if mb["kind"] == "retrieve":
            return "score_crushed" if h == 36 else "score_body"
        if mb["kind"] in ("kick", "wild", "dislodge") and mh["kind"] != "down":
            return "score_exposed"
        if mh["kind"] == "down":
            return "score_heavy"
        if mh["line"] == "high" and (mb["kind"] in ("up",) or mb.get("line") == "low"):
            return "score_head"
        if mh["line"] == "low":
            return "score_legs"
        if mh["kind"] == "thrust" and mb["kind"] in ("side", "down", "bs"):
            return "score_arm"
        if mb["kind"] in ATTACKS:
            return "score_trade"
        return "score_body"
    if slips_behind(h, b):
        return "holder_behind"
    if slips_behind(b, h):
        return "slipped_behind"
    if disarms(h, b):
        return "disarmed"
    if kick_falls(b, h):
        return "knocked_down"
    if off_balance(b, h):
        return "off_balance"
    if kick_lands(b, h) or kick_falls(h, b) or off_balance(h, b):
        return "holder_down"
    if binds(h, b):
        return "bind"
    kind = mb["kind"]
    if kind == "retrieve":
        return "retrieved"
    if kind == "block":
        return "block_holds"
    if kind == "bs" and mh["kind"] in ATTACKS and not lands(b, h) and not binds(h, b):
        return "block_holds"
    if kind in ("up", "dodge", "duck", "away"):
        return "jumps_clear"
    if kind == "down":
        return "down_swing"
    if kind in ("kick", "wild", "dislodge"):
        return "special"
    return "high_attack" if mb["line"] == "high" else "low_attack"


def ext_range_closes(h: int, b: int) -> bool:
    if CHARGE in (h, b):
        return True
    if BLOCK_CLOSE in (h, b):
        other = b if h == BLOCK_CLOSE else h
        return other != JUMP_BACK
    return False


def ext_lands(h: int, b: int) -> bool:
    if h in EXT_ATTACKS:
        if b == CHARGE:
            return True
        if b == JUMP_BACK:
            return h in EXT_THRUSTS
        if b in EXT_ATTACKS:
            return h in EXT_THRUSTS
        return False
    if h == CHARGE:
        return b in (JUMP_BACK, CHARGE)
    return False


def ext_picture(h: int, b: int) -> str:
    closes = ext_range_closes(h, b)
    if ext_lands(h, b):
        return "score_charge" if closes else "score_extended"
    if closes:
        if b == CHARGE:
            return "charged_in"
        if b == BLOCK_CLOSE:
            return "bind" if h in (BLOCK_CLOSE,) else "closed_in"
        if b in EXT_ATTACKS:
            return "high_attack" if b in (SWING_HIGH, THRUST_HIGH) else "low_attack"
        if h == CHARGE and b == BLOCK_CLOSE:
            return "closed_in"
        return "jumps_clear"  # Dodge or Jump Back, run down by a charge
    if b == JUMP_BACK:
        return "leapt_back"
    if b == DODGE:
        return "sidesteps"
    if b == BLOCK_CLOSE:
        return "edges_in"
    if b in EXT_ATTACKS:
        return "falls_short"
    return "at_range"


def picture_key(h: int, b: int, traits: dict, book_sheet: dict) -> str:
    h_ext, b_ext = h >= 50, b >= 50
    if not h_ext and not b_ext:
        return close_picture(h, b, traits)
    if not h_ext:
        h = CANON_X.get(h, h)
    if not b_ext:
        b = book_sheet[b]["x"]
    return ext_picture(h, b)


# --------------------------------------------------------------------------------------
# Restrictions: the phrasing family the books may use, parsed into maneuver filters.
# --------------------------------------------------------------------------------------
COLOURS = {"orange", "red", "blue", "green", "yellow", "brown", "black", "white"}
CATEGORIES = {
    "jumps": "Jump", "specials": "Special", "thrusts": "Thrust", "down swings": "Down Swing",
    "side swings": "Side Swing", "blocks": "Block", "fakes": "Fake",
}


def split_list(text: str) -> list[str]:
    """"Down or Side Swing" -> ["down swing", "side swing"], as the engine reads lists."""
    raw = [p.strip().lower() for p in re.split(r",\s*|\s+or\s+", text) if p.strip()]
    out = []
    for i, word in enumerate(raw):
        if " " not in word and word not in COLOURS and word not in CATEGORIES and i + 1 < len(raw):
            completed = f"{word} {raw[i + 1].rsplit(' ', 1)[-1]}"
            if completed in CATEGORIES or completed + "s" in CATEGORIES:
                word = completed
        out.append(word)
    return out


def item_matches(item: str, m: dict) -> bool:
    item = item.lower()
    full = f"{m['category']} {m['name']}".lower()
    if item in COLOURS:
        return m["colour"] == item
    if item in CATEGORIES:
        return m["category"] == CATEGORIES[item]
    if item + "s" in CATEGORIES:
        return m["category"] == CATEGORIES[item + "s"]
    if item == "extended range":
        return m["category"] == "Extended Range"
    if item in (full, m["name"].lower()):
        return True
    # a single word ("Swing", "Charge") names every maneuver with that word
    return " " not in item and item in full.split(" ")


def known_item(item: str, sheets: list[dict]) -> bool:
    return any(item_matches(item, m) for s in sheets for m in s["maneuvers"])


def wields_weapon(m: dict) -> bool:
    """As the engine reads it: a fighter whose weapon is lost cannot do these."""
    cat, name = m["category"].lower(), m["name"].lower()
    if cat in ("down swing", "side swing", "thrust", "block and strike", "fake"):
        return True
    if cat == "special":
        return name in ("wild swing", "dislodge weapon")
    if cat == "extended range":
        return name == "charge" or name.startswith(("swing", "thrust"))
    return False


def sentences(text: str) -> list[str]:
    """Split at a full stop followed by a space and a letter ("p. 19" stays whole)."""
    return [p.strip() for p in re.split(r"\.\s+(?=[A-Za-z])", text.strip().rstrip(".")) if p.strip()]


class Restriction:
    """One parsed tell: filters for next turn, for the rest of the combat, bonuses."""

    def __init__(self, text: str, sheets: list[dict]):
        self.text = text
        self.next_only = None  # list of items, or None
        self.next_no: list[str] = []
        self.rest_no: list[tuple[list[str], list[str]]] = []  # (items, excepts)
        self.lost: tuple[list[str], list[str]] | None = None
        self.retrieved = False
        self.bonus_all = 0
        self.bonus_items: list[str] = []
        self.cumulative = False
        self.conditional: tuple[str, int] | None = None
        cleaned = re.sub(r"[\"'‘’“”]", "", text)
        cleaned = cleaned.replace(", (", " (")
        for sentence in sentences(cleaned):
            low = sentence.lower()
            if low == "may use weapon again":
                self.retrieved = True
                continue
            m = re.fullmatch(r"if i am (.+?),? go to p\. (\d+)", low)
            if m:
                self.conditional = (m.group(1), int(m.group(2)))
                continue
            for clause in re.split(r",\s*but\s+", sentence):
                self._clause(clause.strip().rstrip("."), sheets)

    def _items(self, text: str, sheets: list[dict]) -> list[str]:
        items = split_list(text)
        for it in items:
            if not known_item(it, sheets):
                raise ValueError(f"unknown restriction item {it!r} in {self.text!r}")
        return items

    def _clause(self, c: str, sheets: list[dict]) -> None:
        low = c.lower()
        if low == "no restrictions next turn":
            return
        if low == "add +2 if you score next turn":
            self.bonus_all = 2
            return
        if re.fullmatch(r"subtract -?2 from all scores,? cumulative,? \(except kick\) for the rest of the (combat|game)", low):
            self.cumulative = True
            return
        m = re.fullmatch(r"add \+2 to any (.+) that scores next turn", low)
        if m:
            self.bonus_items = self._items(m.group(1), sheets)
            return
        m = re.fullmatch(r"do only (.+) \(except (.+)\) until weapon has been retrieved", low)
        if m:
            self.lost = (self._items(m.group(1), sheets), self._items(m.group(2), sheets))
            return
        m = re.fullmatch(r"do (only|no) (.+?)(?: \(except (.+)\))? (next turn|for the rest of the combat)", low)
        if m:
            items = self._items(m.group(2), sheets)
            excepts = self._items(m.group(3), sheets) if m.group(3) else []
            if m.group(4) == "next turn":
                if excepts:
                    raise ValueError(f"'except' only in rest-of-combat tells: {self.text!r}")
                if m.group(1) == "only":
                    self.next_only = items
                else:
                    self.next_no = items
            else:
                if m.group(1) == "only":
                    raise ValueError(f"sample books avoid 'Do only ... for the rest': {self.text!r}")
                self.rest_no.append((items, excepts))
            return
        raise ValueError(f"restriction outside the allowed phrasing: {self.text!r}")


def open_to(m: dict, fighter: "Fighter", at_range: bool) -> bool:
    """What the fighter's range and weapon allow, before any order."""
    extended = m["category"] == "Extended Range"
    disarmed_far = at_range and fighter.lost is not None
    if extended != (at_range and not disarmed_far):
        return False
    if fighter.lost is not None:
        return not wields_weapon(m)
    return m["name"] != "Retrieve Weapon"


def obeys(m: dict, fighter: "Fighter", tell: Restriction | None, at_range: bool) -> bool:
    """Whether m obeys the lasting orders and the weapon, and (if given) the tell."""
    disarmed_far = at_range and fighter.lost is not None
    if tell is not None:
        only = tell.next_only
        if only is not None and not (disarmed_far and only == ["extended range"]):
            if not any(item_matches(i, m) for i in only):
                return False
        if any(item_matches(i, m) for i in tell.next_no):
            return False
    for items, excepts in fighter.rest_no:
        if any(item_matches(i, m) for i in items) and not any(item_matches(e, m) for e in excepts):
            return False
    if fighter.lost is not None and m["name"] != "Retrieve Weapon":
        items, excepts = fighter.lost
        if not any(item_matches(i, m) for i in items) or any(item_matches(e, m) for e in excepts):
            return False
    return True


def legal_moves(fighter: "Fighter", tell: Restriction | None, at_range: bool) -> list[dict]:
    """The maneuvers open, as the engine decides them: a next-turn order that would
    leave nothing is set aside for the turn (the lasting ones and the weapon never are
    in the sample books)."""
    base = [m for m in fighter.sheet["maneuvers"] if open_to(m, fighter, at_range)]
    legal = [m for m in base if obeys(m, fighter, tell, at_range)]
    if not legal:
        legal = [m for m in base if obeys(m, fighter, None, at_range)]
    return legal


class Fighter:
    def __init__(self, sheet: dict):
        self.sheet = sheet
        self.body = sheet["body_points"]
        self.rest_no: list[tuple[list[str], list[str]]] = []
        self.lost = None
        self.cumulative = 0


# --------------------------------------------------------------------------------------
# Build
# --------------------------------------------------------------------------------------
def build_book(char: dict) -> dict:
    traits = TRAITS[char["id"]]
    sheet = {m["page"]: m for m in char["maneuvers"]}
    pictures = {}
    for num in ODD_PAGES:
        key, rng, score_key, party, tell, crit = PICTURES[num]
        score = traits["scores"][score_key] if score_key else None
        critical = None
        if crit:
            critical = {"threshold": traits["thresholds"][score_key], "restriction": crit}
        pictures[str(num)] = {
            "title": TITLES[key].format(n=char["name"]),
            "caption": CAPTIONS[key].format(n=char["name"], h="{holder}"),
            "range": rng, "score": score, "critical": critical, "tell": tell, "party": party,
        }
        if num in HOLDER:
            pictures[str(num)]["holder"] = HOLDER[num]
        if num in REVEAL:
            pictures[str(num)]["reveal"] = REVEAL[num]
    matrices = {}
    for h in ALL_PAGES:
        matrices[str(h)] = {str(b): BY_KEY[picture_key(h, b, traits, sheet)] for b in sorted(sheet)}
    return {"character": char["id"], "sample": True, "pictures": pictures, "matrices": matrices}


def validate(book: dict, char: dict, sheets: list[dict]) -> None:
    pics = book["pictures"]
    assert sorted(int(k) for k in pics) == ODD_PAGES, "every odd picture 1..63"
    assert pics["57"]["range"] == "extended" and pics["57"]["tell"] == EXT_TELL
    assert sorted(int(k) for k in book["matrices"]) == ALL_PAGES, "a matrix for every even page"
    own = sorted(m["page"] for m in char["maneuvers"])
    for page, row in book["matrices"].items():
        assert all(isinstance(k, str) for k in row), "matrix keys are strings"
        assert sorted(int(k) for k in row) == own, f"matrix {page} covers the sheet"
        for target in row.values():
            assert str(target) in pics and target % 2 == 1, f"matrix {page} -> {target}"
    used = {t for row in book["matrices"].values() for t in row.values()}
    assert used == set(ODD_PAGES), f"unused pictures: {set(ODD_PAGES) - used}"
    for num, p in pics.items():
        assert p["range"] in ("close", "extended") and p["party"] in (None, "P", "P**")
        tell = Restriction(p["tell"], sheets)
        if tell.conditional:
            assert str(tell.conditional[1]) in pics, (num, tell.conditional)
        if p["critical"]:
            assert p["score"] is not None
            Restriction(p["critical"]["restriction"], sheets)
        # from every picture, each sheet keeps a legal maneuver, whatever criticals and
        # weapon loss the reader already carries
        at_range = p["range"] == "extended"
        for s in sheets:
            # a fighter whose weapon is lost can only meet pictures its remaining
            # maneuvers lead to (and any extended-range one, via Jump Away)
            lost_here = at_range or reachable_while_lost(book, int(num), s)
            for state in restriction_states(sheets):
                f = Fighter(s)
                f.rest_no, f.lost = state
                if f.lost is not None and not lost_here:
                    continue
                if tell.lost is not None:
                    f.lost = tell.lost
                if tell.retrieved:
                    f.lost = None
                legal = legal_moves(f, tell, at_range)
                if not legal:
                    raise AssertionError(f"{char['id']} picture {num}: nothing legal for {s['id']} in {state}")
                if f.lost is not None and not at_range:
                    # a next-turn order may hold retrieval off for a turn, no longer
                    names = [m["name"] for m in legal_moves(f, None, at_range)]
                    if "Retrieve Weapon" not in names:
                        raise AssertionError(f"{char['id']} picture {num}: disarmed {s['id']} cannot retrieve: {names}")


def reachable_while_lost(book: dict, num: int, sheet: dict) -> bool:
    """Can the book character reach this picture while its weapon is lost?"""
    lost = Restriction(PICTURES[31][4], [sheet]).lost
    f = Fighter(sheet)
    f.lost = lost
    pages = {m["page"] for m in legal_moves(f, None, False)}
    rows = [book["matrices"][str(h)] for h in CLOSE_PAGES]
    return any(row.get(str(p)) == num for row in rows for p in pages)


def restriction_states(sheets: list[dict]):
    """Every combination of rest-of-combat criticals, with and without a lost weapon."""
    crits = [Restriction(v[5], sheets).rest_no[0] for v in PICTURES.values() if v[5]]
    lost = Restriction(LOST, sheets).lost
    for mask in range(1 << len(crits)):
        chosen = [c for i, c in enumerate(crits) if mask >> i & 1]
        for weapon in (None, lost):
            yield chosen, weapon


def check_pairing(books: dict, chars: dict) -> None:
    """Both pictures of one exchange agree on range and on who ended up behind whom."""
    mirror = {"holder_behind": "slipped_behind", "slipped_behind": "holder_behind",
              "disarmed": "special", "holder_down": {"knocked_down", "off_balance", "score_kick"},
              "bind": "bind"}
    for a in chars.values():
        for b in chars.values():
            for ma in a["maneuvers"]:
                for mb in b["maneuvers"]:
                    pa = books[b["id"]]["matrices"][str(ma["page"])][str(mb["page"])]
                    pb = books[a["id"]]["matrices"][str(mb["page"])][str(ma["page"])]
                    ra = books[b["id"]]["pictures"][str(pa)]["range"]
                    rb = books[a["id"]]["pictures"][str(pb)]["range"]
                    assert ra == rb, ("range", a["id"], ma["page"], b["id"], mb["page"])
                    ka, kb = PICTURES[pa][0], PICTURES[pb][0]
                    want = mirror.get(ka)
                    if isinstance(want, str):
                        assert kb == want, (ka, kb, ma["page"], mb["page"])
                    elif isinstance(want, set):
                        # the fallen fighter may still have been hit as well
                        assert kb in want or kb.startswith("score_"), (ka, kb, ma["page"], mb["page"])


# --------------------------------------------------------------------------------------
# Simulation: random legal play until a knockout
# --------------------------------------------------------------------------------------
def damage(pic: dict, m: dict, me: Fighter, foe: Fighter, tell: Restriction | None) -> int:
    if pic["score"] is None:
        return 0
    total = pic["score"] + m["mod"]
    if me.sheet["height"] > foe.sheet["height"] and m["colour"] in ("orange", "red"):
        total += 1
    if me.sheet["height"] < foe.sheet["height"] and m["colour"] == "orange":
        total -= 1
    if tell is not None:
        total += tell.bonus_all
        if any(item_matches(i, m) for i in tell.bonus_items):
            total += 2
    if m["name"] != "Kick":
        total -= 2 * me.cumulative
    return total


def turned(m: dict, at_range: bool) -> int:
    """The page turned to: a close-range maneuver at extended range uses its X page."""
    return m["x"] if at_range and m["x"] is not None else m["page"]


# Criticals landed in the simulated duels, by (book, picture).
CRITICALS: dict[tuple[str, int], int] = {}


def height_mod(me: dict, foe: dict, m: dict) -> int:
    if me["height"] > foe["height"] and m["colour"] in ("orange", "red"):
        return 1
    if me["height"] < foe["height"] and m["colour"] == "orange":
        return -1
    return 0


def reach_criticals(books: dict, chars: dict) -> list[str]:
    """Every critical burst must be reachable without a bonus by every sample holder:
    some maneuver of the holder reaches the picture against some maneuver of the book
    character with a damage total at the threshold. A threshold some holder cannot reach
    is lowered to that holder's best total."""
    notes = []
    for cid, book in books.items():
        char = chars[cid]
        for num, pic in book["pictures"].items():
            if not pic["critical"]:
                continue
            bests = []
            for holder in chars.values():
                best = None
                for mh in holder["maneuvers"]:
                    for mb in char["maneuvers"]:
                        if book["matrices"][str(mh["page"])][str(mb["page"])] != int(num):
                            continue
                        total = pic["score"] + mh["mod"] + height_mod(holder, char, mh)
                        best = total if best is None else max(best, total)
                assert best is not None, (cid, num, holder["id"], "no exchange reaches it")
                bests.append(best)
            best = min(bests)
            threshold = pic["critical"]["threshold"]
            if best < threshold:
                pic["critical"]["threshold"] = max(best, 1)
                notes.append(f"{cid} picture {num}: threshold {threshold} -> {max(best, 1)}")
    return notes


def duel(a: dict, b: dict, books: dict, rnd: random.Random, limit: int = 200) -> int:
    sheets = [a, b]
    fa, fb = Fighter(a), Fighter(b)
    start = Restriction(EXT_TELL, sheets)
    tells = {id(fa): start, id(fb): start}
    at_range = True
    for turn in range(1, limit + 1):
        moves = {}
        for f in (fa, fb):
            legal = legal_moves(f, tells[id(f)], at_range)
            assert legal, (f.sheet["id"], tells[id(f)].text)
            moves[id(f)] = rnd.choice(legal)
        new_tells = {}
        ranges = set()
        for me, foe in ((fa, fb), (fb, fa)):
            mine, theirs = moves[id(me)], moves[id(foe)]
            num = books[foe.sheet["id"]]["matrices"][str(turned(mine, at_range))][str(turned(theirs, at_range))]
            pic = books[foe.sheet["id"]]["pictures"][str(num)]
            ranges.add(pic["range"])
            dealt = damage(pic, mine, me, foe, tells[id(me)])
            if dealt > 0:
                foe.body -= dealt
            new_tells[id(foe)] = Restriction(pic["tell"], sheets)
            if pic["critical"] and pic["score"] is not None and dealt >= pic["critical"]["threshold"]:
                foe.rest_no += Restriction(pic["critical"]["restriction"], sheets).rest_no
                CRITICALS[(foe.sheet["id"], num)] = CRITICALS.get((foe.sheet["id"], num), 0) + 1
        assert len(ranges) == 1, ranges
        at_range = ranges.pop() == "extended"
        for f in (fa, fb):
            t = new_tells[id(f)]
            if t.retrieved:
                f.lost = None
            if t.lost is not None:
                f.lost = t.lost
            if t.cumulative:
                f.cumulative += 1
            f.rest_no += t.rest_no
        tells = new_tells
        if fa.body <= 0 or fb.body <= 0:
            return turn
    return limit


def main() -> int:
    nowa = json.loads((CHARACTERS / "nowa.json").read_text())
    CANON_X.update({m["page"]: m["x"] for m in nowa["maneuvers"] if m["x"] is not None})
    brakka = make_brakka(nowa)
    chars = {"nowa": nowa, "brakka": brakka}
    sheets = [nowa, brakka]
    books = {cid: build_book(c) for cid, c in chars.items()}
    for cid, c in chars.items():
        validate(books[cid], c, sheets)
    check_pairing(books, chars)
    adjusted = reach_criticals(books, chars)

    rnd = random.Random(20240601)
    report = []
    for a, b in ((nowa, brakka), (nowa, nowa), (brakka, brakka)):
        lengths = sorted(duel(a, b, books, rnd) for _ in range(3000))
        med = statistics.median(lengths)
        p10, p90 = lengths[len(lengths) // 10], lengths[len(lengths) * 9 // 10]
        report.append(f"{a['id']} v {b['id']}: median {med}, 10%..90% {p10}..{p90}, max {lengths[-1]}")
        assert 5 <= med <= 25, report[-1]
        assert lengths[-1] < 200, report[-1]

    for cid, book in books.items():
        for num, pic in book["pictures"].items():
            if pic["critical"]:
                landed = CRITICALS.get((cid, int(num)), 0)
                report.append(f"critical on {cid} picture {num}: {landed} in the simulated duels")
                assert landed > 0, report[-1]
    report += adjusted

    (CHARACTERS / "brakka.json").write_text(json.dumps(brakka, indent=2) + "\n")
    for cid, book in books.items():
        (HERE / f"{cid}.json").write_text(json.dumps(book, indent=2) + "\n")
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
