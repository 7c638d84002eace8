"""Property-based checks of the live OpenAPI schema with every schemathesis check (no 5xx,
statuses, content types, headers and bodies as documented): each operation on its own, then
stateful, following the schema's links from a created game to the operations on it, so that
actions, legal actions, logs and texts run against real games."""

from collections import Counter
from itertools import count

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from schemathesis.checks import ALL_CHECKS
from schemathesis.specs.openapi.checks import ignored_auth

from accounts.services import key_create
from canfield_site.wsgi import application

schema = schemathesis.from_wsgi("/api/v1/schema/?format=json", application)
# ignored_auth re-sends a case without its credentials expecting a 401, but the token set below
# rides along with it; tests/games/test_contract.py checks the 401s themselves.
CHECKS = tuple(check for check in ALL_CHECKS if check is not ignored_auth)


@pytest.fixture
def keep_test_connection():
    """Calls go straight to the WSGI app, whose end-of-request hook would close the test's
    connection (and its transaction) as Django's test client knows not to."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token(db, user):
    return key_create(user=user, name="fuzz")[1]


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_schema(case, token, keep_test_connection):
    case.headers = {**(case.headers or {}), "Authorization": f"Token {token}"}
    case.call_and_validate(checks=CHECKS)


def test_api_conforms_to_its_schema_along_its_links(make_user, keep_test_connection):
    answered: Counter[tuple[str, int]] = Counter()
    players = count()

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self):
            # A new player for each run of the machine: what one run dealt (today's daily game
            # above all) must not change what the next one is answered.
            player = make_user(f"fuzz{next(players)}")
            self.token = key_create(user=player, name="fuzz")[1]

        def before_call(self, case):
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {self.token}"}

        def _add_results_to_targets(self, targets, results):
            # schemathesis 3.39 files each answer under the link it can feed (`POST /api/v1/games
            # -> 201`) by overriding `_add_result_to_targets`, which hypothesis 6.139 renamed: do
            # it under the new name, or no link is ever followed.
            for result in results:
                target = self._get_target_for_result(result) if result is not None else None
                if target is not None:
                    super()._add_results_to_targets((target,), [result])

        def after_call(self, response, case):
            answered[case.operation.verbose_name, response.status_code] += 1

        def validate_response(self, response, case, additional_checks=()):
            case.validate_response(response, checks=CHECKS + tuple(additional_checks))

    transitions = Workflow._transition_stats_template.transitions
    assert "POST /api/v1/games" in transitions  # the links are there to follow

    run_state_machine_as_test(
        Workflow,
        settings=settings(
            max_examples=40,
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        ),
    )
    # The links led to real games: operations on a game answered as for a game that exists.
    on_games = {
        name for (name, status), _ in answered.items() if "{game_id}" in name and status != 404
    }
    assert len(on_games) >= 3, answered
    assert "POST /api/v1/games/{game_id}/actions" in on_games, answered
