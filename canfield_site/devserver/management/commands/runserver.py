"""`manage.py runserver`: daphne's (HTTP and WebSockets), failing a WebSocket with a close frame
rather than by dropping its connection (autobahn's default, which a client sees as 1006): a
client frame over WS_MAX_MESSAGE (DAPHNE_WEBSOCKET_MAX_* in settings.py) closes with 1009, as
on uvicorn in production (core/sockets.py)."""

from daphne.management.commands.runserver import Command as DaphneRunserver
from daphne.server import Server
from twisted.internet import reactor


class ClosingServer(Server):
    def run(self) -> None:
        # The factory is made in run(), before the reactor starts serving.
        reactor.callWhenRunning(self._close_with_frames)
        # daphne is in untyped_calls_exclude, which mypy does not apply through super()
        # (python/mypy#16653).
        super().run()  # type: ignore[no-untyped-call]

    def _close_with_frames(self) -> None:
        self.ws_factory.setProtocolOptions(failByDrop=False)


class Command(DaphneRunserver):
    server_cls = ClosingServer
