"""A short Lost Worlds duel played through a client generated from the
served OpenAPI document, as someone who never read Tabletape's source
would: start a game, ask what is legal, act, read the state and the story.

Usage: duel.py BASE_URL (the generated package `tabletape_client` on the path).
"""

import sys

from tabletape_client import AuthenticatedClient, Client
from tabletape_client.api.games import act, create_game, legal, narrative, state
from tabletape_client.models import ActBody, CreateBody, CreateBodyKind, ErrorBody, NarrativeFormat

# Exchanges to play: each is both fighters choosing a maneuver.
EXCHANGES = 3


def answer(reply, what):
    """The parsed answer of a call, or the test fails naming what the server said."""
    if reply is None or isinstance(reply, ErrorBody):
        sys.exit(f"{what}: {reply}")
    return reply


def main(base_url):
    anyone = Client(base_url=base_url, raise_on_unexpected_status=True)
    created = answer(
        create_game.sync(
            client=anyone,
            body=CreateBody(kind=CreateBodyKind.LOSTWORLDS, players=["Nowa", "Grimbold"], seed=7),
        ),
        "create",
    )
    game = created.game
    tokens = {s.seat: s.token for s in created.seats}
    assert created.seq == 1, created
    assert sorted(tokens) == [0, 1], created.seats

    seq = 1
    for _ in range(EXCHANGES):
        # Each fighter, with only its own seat's token, picks its first open maneuver.
        for seat in (0, 1):
            fighter = AuthenticatedClient(
                base_url=base_url, token=tokens[seat], raise_on_unexpected_status=True
            )
            open_now = answer(legal.sync(game, client=fighter, seat=seat), f"legal for seat {seat}")
            chosen = next(
                (l.action for l in open_now if not l.needs and l.action.get("seat") == seat),
                None,
            )
            if chosen is None:
                sys.exit(f"seat {seat} has nothing to choose at seq {seq}: {open_now}")
            acted = answer(
                act.sync(game, client=fighter, body=ActBody(action=chosen, expect_seq=seq)),
                f"act for seat {seat}",
            )
            assert acted.seq > seq, (acted.seq, seq)
            seq = acted.seq

    owner = AuthenticatedClient(
        base_url=base_url, token=created.owner_token, raise_on_unexpected_status=True
    )
    now = answer(state.sync(game, client=owner), "state")
    assert now.seq == seq, (now.seq, seq)
    story = answer(narrative.sync(game, client=owner, format_=NarrativeFormat.JSON), "narrative")
    told = [line for chapter in story.chapters for line in chapter.lines]
    # Both fighters are named in the story of their fight.
    for fighter in ("Nowa", "Grimbold"):
        assert any(fighter in line for line in told), (fighter, told)
    print(f"duel {game}: {seq} events, {len(told)} lines of story")


if __name__ == "__main__":
    main(sys.argv[1])
