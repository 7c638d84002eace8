"""/healthz and /readyz, answered before host checks and the HTTPS redirect."""

import pytest
from django.db import connection
from django.test import override_settings

from scripts.ports import free_port
from tests.conftest import requires_postgres


def test_healthz_answers_whatever_the_host_and_scheme(client):
    # given: a probe's Host header that ALLOWED_HOSTS does not list, over plain HTTP
    with override_settings(SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["canfield.example.org"]):
        response = client.get("/healthz", HTTP_HOST="10.1.2.3:8000")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_is_ready_when_database_and_redis_answer(client, db):
    response = client.get("/readyz")

    print(response.json())
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "checks": {"database": "ok", "redis": "ok"}}


def test_readyz_is_503_when_redis_is_unreachable(client, db):
    # given: a Redis address where nothing listens
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0"):
        response = client.get("/readyz")

    body = response.json()
    print(body)
    assert response.status_code == 503
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith("unavailable")


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_readyz_is_503_when_the_database_is_unreachable(client):
    # given: the connection points at a port where no PostgreSQL listens
    connection.close()
    saved = dict(connection.settings_dict)
    connection.settings_dict.update({"HOST": "127.0.0.1", "PORT": str(free_port())})
    try:
        response = client.get("/readyz")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)

    body = response.json()
    print(body)
    assert response.status_code == 503
    assert body["checks"]["database"].startswith("unavailable")
