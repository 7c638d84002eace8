import pytest
from oauth2_provider.models import get_application_model

REDIRECT = "https://app.example/callback"


@pytest.fixture
def public_app(db):
    """A registered public OAuth client (PKCE, no secret) that redirects to REDIRECT."""
    return get_application_model().objects.create(
        name="Solver Buddy",
        client_type="public",
        authorization_grant_type="authorization-code",
        redirect_uris=REDIRECT,
    )
