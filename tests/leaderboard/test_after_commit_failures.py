"""After-commit work that raises (a board write) never turns a stored action into an error:
the answer is 200 with the action as stored, the failure is logged and counted."""

from core import metrics
from games.models import Action
from leaderboard import boards
from tests.leaderboard.test_api import act, daily


def _failures(step: str) -> float:
    value = metrics.AFTER_COMMIT_ERRORS.labels(step)._value.get()
    return float(value)


def test_a_board_write_that_raises_after_commit_answers_200_with_the_stored_action(
    noon, auth_client, caplog, monkeypatch, django_capture_on_commit_callbacks
):
    # given: a daily game, and a board store whose write raises
    game = daily(auth_client).json()

    def broken(*args, **kwargs):
        raise RuntimeError("board write failed")

    monkeypatch.setattr(boards.store(), "entries_changed", broken)
    step = "leaderboard.services.entry_committed"
    before = _failures(step)

    # when: an action, its after-commit callbacks run (act() asserts the answer is 200)
    with django_capture_on_commit_callbacks(execute=True):
        body = act(auth_client, game["id"], {"type": "draw"})

    # then: the answer is the stored action; the failure was logged and counted
    stored = Action.objects.get(game_id=game["id"])
    assert body["action"]["n"] == stored.n == 1
    assert body["action"]["type"] == stored.type == "draw"
    assert body["game"]["moves"] == 1
    assert _failures(step) == before + 1
    assert any("board write failed" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
