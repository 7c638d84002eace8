"""The client's challenges against a real server: anna challenges bela by name, he sees it
among his, declines one and accepts the next; the duel is a match both play; the errors come
as their exceptions."""

from __future__ import annotations

import asyncio

import pytest
from canfield_client import AsyncClient, ChallengeClosed, ChallengePending, Forbidden, NotFound

from tests.clients.test_matches import fill_match_deals, player_from
from tests.web.helpers import PASSWORD, unique_name


def test_a_challenge_through_the_client(base_url, run_on_server):
    fill_match_deals(run_on_server, draw=1, size=1)
    anna_name, bela_name = unique_name("anna"), unique_name("bela")
    with (
        player_from(base_url, "10.33.0.1") as anna,
        player_from(base_url, "10.33.0.2") as bela,
    ):
        anna.register(anna_name, PASSWORD)
        bela.register(bela_name, PASSWORD)

        # given: anna's challenge, declined by bela
        first = anna.challenge(bela_name, draw=1, rated=True)
        assert (first.challenger, first.player, first.draw, first.rated) == (
            anna_name,
            bela_name,
            1,
            True,
        )
        assert first.status == "pending" and first.expires_at is not None
        with pytest.raises(ChallengePending) as pending:
            bela.challenge(anna_name)
        assert pending.value.params == {"challenge": first.id}
        with pytest.raises(Forbidden):
            anna.challenge_accept(first)
        assert bela.challenge_decline(first).status == "declined"
        with pytest.raises(ChallengeClosed) as closed:
            bela.challenge_accept(first.id)
        assert closed.value.params == {"status": "declined"}

        # when: a second one, seen in bela's list first, accepted unrated
        second = anna.challenge(bela_name, draw=1, rated=True)
        listed = bela.challenges()
        assert listed.count == 2 and [c.id for c in listed.results] == [second.id, first.id]
        match = bela.challenge_accept(second, rated=False)

        # then: the duel, both seats taken, his game dealt; her read of it names her game
        assert (match.duel, match.unrated, match.size, match.draw) == (True, True, 2, 1)
        assert [seat.player for seat in match.players] == [anna_name, bela_name]
        assert match.game is not None and bela.game(match.game).match == match.id
        assert anna.challenge_get(second).match == match.id
        assert anna.match(match.id).game not in (None, match.game)

        # and the async client reads the same, and cancels
        async def cancel() -> None:
            async with AsyncClient(base_url, token=anna.token) as client:
                third = await client.challenge(bela_name)
                assert (await client.challenges()).results[0].id == third.id
                assert (await client.challenge_cancel(third)).status == "cancelled"
                with pytest.raises(NotFound):
                    await client.challenge_get("00000000-0000-0000-0000-000000000000")

        asyncio.run(cancel())
