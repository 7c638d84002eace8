"""Under ASGI the middleware chain runs in the request's thread (canfield_site/middleware.py,
SyncChainMiddleware): a request hops to a thread a few times, not twice per middleware."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import SyncToAsync, async_to_sync
from django.conf import settings
from django.test import AsyncClient, override_settings

SYNC_CHAIN = "canfield_site.middleware.SyncChainMiddleware"


def hops(monkeypatch: pytest.MonkeyPatch, path: str) -> list[str]:
    """The functions an ASGI request (Django's AsyncClient: the chain built as ASGIHandler
    builds it) ran through sync_to_async, in order."""
    ran: list[str] = []
    original = SyncToAsync.__call__

    async def counted(self: SyncToAsync[Any, Any], *args: Any, **kwargs: Any) -> Any:
        ran.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await original(self, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(SyncToAsync, "__call__", counted)
        response = async_to_sync(AsyncClient().get)(path)
    assert response.status_code == 200
    return ran


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/ping", "/"])
def test_an_asgi_request_runs_its_middleware_in_one_thread(monkeypatch, path):
    assert settings.MIDDLEWARE[-1] == SYNC_CHAIN
    with_chain = hops(monkeypatch, path)
    with override_settings(MIDDLEWARE=settings.MIDDLEWARE[:-1]):
        without = hops(monkeypatch, path)

    # without it, each middleware that runs both ways ran async, its process_request and
    # process_response each in a thread of their own; with it, the chain is one hop (beside
    # the signals', the view middleware's, the view's and the response's close)
    def per_middleware(names: list[str]) -> list[str]:
        return [name for name in names if name.endswith(("process_request", "process_response"))]

    assert len(per_middleware(without)) > 8, without
    assert per_middleware(with_chain) == [], with_chain
    assert with_chain.count("convert_exception_to_response.<locals>.inner") == 1, with_chain
    assert 2 * len(with_chain) < len(without), (with_chain, without)
