"""Property-based checks of the live OpenAPI schema: no 5xx, every response as documented."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import ignored_auth

from canfield_site.wsgi import application

schema = schemathesis.from_wsgi("/api/v1/schema/?format=json", application)


@pytest.fixture
def keep_test_connection():
    """Calls go straight to the WSGI app, whose end-of-request hook would close the test's
    connection (and its transaction) as Django's test client knows not to."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_schema(case, db, user, keep_test_connection):
    token, _ = Token.objects.get_or_create(user=user)
    case.headers = {**(case.headers or {}), "Authorization": f"Token {token.key}"}
    # ignored_auth re-sends the case expecting a 401, but the token above rides along with it.
    case.call_and_validate(excluded_checks=[ignored_auth])
