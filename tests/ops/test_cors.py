"""Third-party browser clients: CORS answers for the allowed origins only."""

from django.test import override_settings

ALLOWED = "https://client.example.net"


@override_settings(CORS_ALLOWED_ORIGINS=[ALLOWED])
def test_preflight_from_an_allowed_origin_may_send_a_token(client, db):
    response = client.options(
        "/api/v1/games",
        HTTP_ORIGIN=ALLOWED,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert "authorization" in response["Access-Control-Allow-Headers"]


@override_settings(CORS_ALLOWED_ORIGINS=[ALLOWED])
def test_answers_expose_the_request_id_to_allowed_origins(client, db):
    response = client.get("/api/v1/games", HTTP_ORIGIN=ALLOWED)

    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert "x-request-id" in response["Access-Control-Expose-Headers"].lower()


@override_settings(CORS_ALLOWED_ORIGINS=[ALLOWED])
def test_other_origins_get_no_cors_grant(client, db):
    response = client.get("/api/v1/games", HTTP_ORIGIN="https://evil.example.com")

    assert "Access-Control-Allow-Origin" not in response
