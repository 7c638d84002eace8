"""Property-based checks of the live OpenAPI schema: no 5xx, every response as documented."""

import schemathesis
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import ignored_auth

from canfield_site.wsgi import application

schema = schemathesis.from_wsgi("/api/v1/schema/?format=json", application)


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_schema(case, db, user):
    token, _ = Token.objects.get_or_create(user=user)
    case.headers = {**(case.headers or {}), "Authorization": f"Token {token.key}"}
    # ignored_auth re-sends the case expecting a 401, but the token above rides along with it.
    case.call_and_validate(excluded_checks=[ignored_auth])
