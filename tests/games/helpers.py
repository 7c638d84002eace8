"""Decks, plays and a stream reader shared by the game API tests."""

import socket
import threading
import time

import httpx

SUITS = "HSDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def cards_of(suit: str) -> list[str]:
    return [rank + suit for rank in RANKS]


def easy_deck() -> list[str]:
    """A deck dealt by R5 that wins by playing everything straight up, in draw 1.

    Base AH; the reserve, top first: 2H..KH then AS; columns 2S..5S; the stock, first drawn
    first: 6S..KS, then diamonds and clubs A..K.
    """
    hearts, spades = cards_of("H"), cards_of("S")
    reserve_top_first = hearts[1:] + ["AS"]
    deck = list(reversed(reserve_top_first))  # d[12] is the reserve's top
    deck.append("AH")  # d[13], the base card
    deck += spades[1:5]  # d[14..17], columns 1..4
    deck += spades[5:] + cards_of("D") + cards_of("C")  # d[18..51], d[18] drawn first
    assert len(deck) == 52 and len(set(deck)) == 52
    return deck


def winning_actions() -> list[dict]:
    """The 85 actions that win `easy_deck()` (13 from the reserve, 4 columns, 34 draws)."""
    actions: list[dict] = [{"type": "move", "from": "reserve", "to": "foundation"}] * 13
    actions += [{"type": "move", "from": f"tableau:{i}", "to": "foundation"} for i in range(1, 5)]
    for _ in range(34):
        actions += [{"type": "draw"}, {"type": "move", "from": "waste", "to": "foundation"}]
    return actions


class StreamLines:
    """The lines of an open stream, read in a thread, each with the moment it arrived."""

    def __init__(self, client: httpx.Client, path: str, headers: dict[str, str]) -> None:
        self.received: list[tuple[float, bytes]] = []
        self.status: int | None = None
        self.response: httpx.Response | None = None
        self.headers: dict[str, str] = {}
        self.arrived = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(client, path, headers))
        self.thread.start()

    def _read(self, client: httpx.Client, path: str, headers: dict[str, str]) -> None:
        try:
            with client.stream("GET", path, headers=headers) as response:
                with self.arrived:
                    self.response = response
                    self.status, self.headers = response.status_code, dict(response.headers)
                    self.arrived.notify_all()
                for line in response.iter_lines():
                    with self.arrived:
                        self.received.append((time.monotonic(), line.encode()))
                        self.arrived.notify_all()
        except httpx.TransportError:  # the test ended (its client closed) or the server went
            pass
        with self.arrived:
            self.received.append((time.monotonic(), b"<closed>"))
            self.arrived.notify_all()

    def close(self, timeout: float = 10.0) -> None:
        """Hangs up, as a client that goes away: shuts the connection's socket down, which ends
        the reader's wait at once (closing the client left it blocked until the server's next
        line, a keep-alive up to 10 s away)."""
        assert self.response is not None, "the stream never opened"
        stream = self.response.extensions["network_stream"]
        stream.get_extra_info("socket").shutdown(socket.SHUT_RDWR)
        self.thread.join(timeout)
        assert not self.thread.is_alive()

    def wait_open(self, timeout: float = 10.0) -> int:
        """The answer's status, once its headers arrived."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: self.status is not None or self.received, timeout)
            assert self.status is not None, self.received
            return self.status

    def wait(self, count: int, timeout: float = 10.0) -> list[tuple[float, bytes]]:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.received) >= count, timeout)
            return self.received[:count]

    def wait_closed(self, timeout: float) -> list[bytes]:
        """Every line, once the stream has closed (within `timeout` seconds from now)."""
        with self.arrived:
            closed = self.arrived.wait_for(lambda: self.received[-1][1] == b"<closed>", timeout)
            assert closed, [line for _, line in self.received]
            return [line for _, line in self.received[:-1]]
