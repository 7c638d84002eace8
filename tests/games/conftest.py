"""Fixtures of the games tests."""

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher


@pytest.fixture
def hashes(monkeypatch) -> list[str]:
    """Every password hash computed (tests hash with MD5): one entry per hash."""
    computed: list[str] = []
    encode = MD5PasswordHasher.encode

    def counting(self, password, salt):
        computed.append(password)
        return encode(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "encode", counting)
    return computed
