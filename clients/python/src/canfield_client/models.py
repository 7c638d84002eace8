"""The API's resources as typed, read-only values (field names are those of the API contract,
`from` spelled `from_pile` since `from` is a Python keyword). Fields the server adds later are
ignored; a field an older server does not send yet takes its documented default."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeAlias, TypeVar

Json: TypeAlias = dict[str, Any]
T = TypeVar("T")
# A pile as a source or a logged destination (docs/api.md "Pile names")...
ConcretePile: TypeAlias = Literal[
    "stock", "waste", "reserve", "tableau:1", "tableau:2", "tableau:3", "tableau:4",
    "foundation:H", "foundation:S", "foundation:D", "foundation:C",
]  # fmt: skip
# ... and as a move's destination, where plain "foundation" is the card's suit's.
Pile: TypeAlias = ConcretePile | Literal["foundation"]
Card: TypeAlias = str  # "10H", "QC"...
Ruleset: TypeAlias = Literal["app", "cardgames", "classic"]
Draw: TypeAlias = Literal[1, 3]
Status: TypeAlias = Literal["playing", "won", "resigned"]
# The fair-play review of a daily game (R35), shown to its owner.
Review: TypeAlias = Literal["held", "cleared"]
Language: TypeAlias = Literal["en", "hu", "pl"]
Scope: TypeAlias = Literal["account:read", "account:write", "game:play", "board:read"]
# Why a finished game ended; "day_over": a daily game the server ended when its day ended;
# "match_over": a match game still running when its match closed (R32).
EndReason: TypeAlias = Literal["won", "resigned", "day_over", "match_over"]
ActionType: TypeAlias = Literal["move", "tap", "draw", "recycle", "undo", "resign", "finish"]


def _time(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def _date(value: str) -> dt.date:
    return dt.date.fromisoformat(value)


@dataclass(frozen=True, slots=True)
class RateLimit:
    """The `RateLimit-*` headers of the last throttled answer: requests allowed per window,
    requests left in it, seconds until it resets."""

    limit: int
    remaining: int
    reset: int

    @classmethod
    def from_headers(cls, headers: Any) -> RateLimit | None:
        try:
            return cls(
                int(headers["RateLimit-Limit"]),
                int(headers["RateLimit-Remaining"]),
                int(headers["RateLimit-Reset"]),
            )
        except (KeyError, ValueError):
            return None


@dataclass(frozen=True, slots=True)
class Move:
    """An action to send (or one the server lists as legal, or a hint): `legal_actions()` and
    `hint()` return these, and `act()` accepts them back unchanged."""

    type: ActionType
    from_pile: ConcretePile | None = None
    to: Pile | None = None
    count: int | None = None
    columns: bool | None = None  # taps only: False = foundation only

    def to_json(self) -> Json:
        body: Json = {"type": self.type}
        for key, value in (
            ("from", self.from_pile),
            ("to", self.to),
            ("count", self.count),
            ("columns", self.columns),
        ):
            if value is not None:
                body[key] = value
        return body

    @classmethod
    def from_json(cls, data: Json) -> Move:
        return cls(data["type"], data.get("from"), data.get("to"), data.get("count"))

    def __str__(self) -> str:
        if self.type == "move":
            count = f" ({self.count} cards)" if self.count and self.count > 1 else ""
            return f"move {self.from_pile} -> {self.to}{count}"
        if self.type == "tap":
            return f"tap {self.from_pile}"
        return self.type


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game's action log."""

    n: int
    type: ActionType
    from_pile: ConcretePile | None
    to: ConcretePile | None
    count: int | None
    cards: list[Card] | None
    score_delta: int
    auto_fill: Card | None
    undoes: int | None
    at: dt.datetime | None

    @classmethod
    def from_json(cls, data: Json) -> Action:
        return cls(
            n=data["n"],
            type=data["type"],
            from_pile=data.get("from"),
            to=data.get("to"),
            count=data.get("count"),
            cards=data.get("cards"),
            score_delta=data.get("score_delta", 0),
            auto_fill=data.get("auto_fill"),
            undoes=data.get("undoes"),
            at=_time(data.get("at")),
        )

    @property
    def moves_counted(self) -> int:
        """What this action added to the game's `moves` (R25): a finish the moves it made, one
        per card it sent home (R20b); a resign nothing; any other action 1."""
        if self.type == "finish":
            return self.count or 0
        return 0 if self.type == "resign" else 1

    def matches(self, move: Move) -> bool:
        """Whether this logged action is what `move` asked for (a tap is logged as the move it
        became, a move to `foundation` with the foundation's suit)."""
        if move.type == "tap":
            return self.type == "move" and self.from_pile == move.from_pile
        if self.type != move.type:
            return False
        if move.type != "move":
            return True
        to_matches = self.to == move.to or (
            move.to == "foundation" and (self.to or "").startswith("foundation:")
        )
        return self.from_pile == move.from_pile and to_matches and self.count == (move.count or 1)


class GameDaily(dt.date):
    """A ranked daily game's `daily`: the day (it is that date, as before) with the game's
    standing on its board once it is over (`rank` of `players`) and, for its owner, the
    fair-play `review` (R35)."""

    rank: int | None
    players: int | None
    review: Review | None

    def __new__(
        cls,
        day: dt.date,
        rank: int | None = None,
        players: int | None = None,
        review: Review | None = None,
    ) -> GameDaily:
        self = super().__new__(cls, day.year, day.month, day.day)
        self.rank, self.players, self.review = rank, players, review
        return self

    @property
    def date(self) -> dt.date:
        return dt.date(self.year, self.month, self.day)

    @classmethod
    def from_json(cls, data: Json | None) -> GameDaily | None:
        if not data:
            return None
        return cls(_date(data["date"]), data.get("rank"), data.get("players"), data.get("review"))


@dataclass(frozen=True, slots=True)
class Foundation:
    suit: str
    count: int
    top: Card | None


@dataclass(frozen=True, slots=True)
class Game:
    id: str
    ruleset: Ruleset
    draw: Draw
    code: str | None
    daily: GameDaily | None
    status: Status
    score: int
    moves: int
    seconds: float
    created_at: dt.datetime | None
    finished_at: dt.datetime | None
    end_reason: EndReason | None
    starting_rank: str | None
    stock_count: int
    waste_count: int
    waste_fan: list[Card]
    reserve_count: int
    reserve_top: Card | None
    foundations: list[Foundation]
    tableau: list[list[Card]]
    undo_available: int
    stuck: bool  # R20a
    hints: int
    actions: list[Action] | None  # the replay of a finished game someone else played
    # Dealt from a code or a deck the player chose: never ranked, never in player figures.
    practice: bool = False
    match: str | None = None  # the match's id, for a game of a match (R32)
    # R20c: two whole passes through the talon went by and nothing came home or into play.
    no_progress: bool = False

    @property
    def over(self) -> bool:
        return self.status != "playing"

    @classmethod
    def from_json(cls, data: Json) -> Game:
        actions = data.get("actions")
        return cls(
            id=data["id"],
            ruleset=data["ruleset"],
            draw=data["draw"],
            code=data.get("code"),
            daily=GameDaily.from_json(data.get("daily")),
            status=data["status"],
            score=data["score"],
            moves=data["moves"],
            seconds=data.get("seconds", 0.0),
            created_at=_time(data.get("created_at")),
            finished_at=_time(data.get("finished_at")),
            end_reason=data.get("end_reason"),
            starting_rank=data.get("starting_rank"),
            stock_count=data["stock"]["count"],
            waste_count=data["waste"]["count"],
            waste_fan=list(data["waste"]["fan"]),
            reserve_count=data["reserve"]["count"],
            reserve_top=data["reserve"].get("top"),
            foundations=[
                Foundation(f["suit"], f["count"], f.get("top")) for f in data["foundations"]
            ],
            tableau=[list(column) for column in data["tableau"]],
            undo_available=data.get("undo_available", 0),
            stuck=data.get("stuck", False),
            hints=data.get("hints", 0),
            actions=None if actions is None else [Action.from_json(a) for a in actions],
            practice=data.get("practice", False),
            match=data.get("match"),
            no_progress=data.get("no_progress", False),
        )


@dataclass(frozen=True, slots=True)
class Acted:
    """The answer to an action: the logged action and the game after it."""

    action: Action
    game: Game


@dataclass(frozen=True, slots=True)
class Hint:
    """The next action of a winning line (`action`), or none: `winnable` False when no line
    wins from here, None when the solver could not decide in its budget."""

    action: Move | None
    winnable: bool | None


@dataclass(frozen=True, slots=True)
class Analysis:
    """Where the win was lost (R37). `done` False while the server computes it (`progress`:
    the share of positions decided); then `winnable` has one verdict per position of the line
    the player kept (`kept`: the log's `n` of its actions; the deal first, then after each
    kept action; None: undecided), `lost_at` the `n` of the action that lost the win, `line`
    the solver's winning line from after action `line_after` (0: the deal), and a daily's
    `par` and `over_par`."""

    done: bool
    progress: float
    kept: list[int] = field(default_factory=list)
    winnable: list[bool | None] = field(default_factory=list)
    lost_at: int | None = None
    line_after: int | None = None
    line: list[Move] = field(default_factory=list)
    undecided: int = 0
    moves: int | None = None
    kept_moves: int | None = None
    par: int | None = None
    par_exact: bool | None = None
    over_par: int | None = None

    @classmethod
    def from_json(cls, data: Json) -> Analysis:
        if data.get("status") != "done":
            return cls(False, float(data.get("progress", 0.0)))
        line = data.get("line") or {}
        par = data.get("par") or {}
        return cls(
            True,
            1.0,
            kept=list(data["kept"]),
            winnable=list(data["winnable"]),
            lost_at=data.get("lost_at"),
            line_after=line.get("after"),
            line=[Move.from_json(action) for action in line.get("actions", [])],
            undecided=data.get("undecided", 0),
            moves=data.get("moves"),
            kept_moves=data.get("kept_moves"),
            par=par.get("moves"),
            par_exact=par.get("exact"),
            over_par=data.get("over_par"),
        )


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    count: int
    next: str | None
    previous: str | None
    results: list[T]


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's line on a daily board; `rank` is None in the provisional section (R36:
    `provisional` entries are listed apart and never ranked)."""

    rank: int | None
    player: str
    score: int
    moves: int
    seconds: float
    status: str
    game: str | None
    provisional: bool = False

    @classmethod
    def from_json(cls, data: Json) -> Entry:
        return cls(
            rank=data["rank"],
            player=data["player"],
            score=data["score"],
            moves=data["moves"],
            seconds=data["seconds"],
            status=data["status"],
            game=data.get("game"),
            provisional=bool(data.get("provisional", False)),
        )


@dataclass(frozen=True, slots=True)
class Par:
    """R31, once the day is over: the fewest moves of a winning line the solver found; `exact`
    when proved the fewest possible (else read it as "at most `moves`")."""

    moves: int
    exact: bool

    @classmethod
    def from_json(cls, data: Json | None) -> Par | None:
        return None if data is None else cls(data["moves"], data.get("exact", False))


@dataclass(frozen=True, slots=True)
class Leaderboard:
    date: dt.date
    draw: int
    par: Par | None
    count: int
    next: str | None
    previous: str | None
    results: list[Entry]

    @classmethod
    def from_json(cls, data: Json) -> Leaderboard:
        return cls(
            date=_date(data["date"]),
            draw=data["draw"],
            par=Par.from_json(data.get("par")),
            count=data["count"],
            next=data.get("next"),
            previous=data.get("previous"),
            results=[Entry.from_json(e) for e in data["results"]],
        )


@dataclass(frozen=True, slots=True)
class DailyBoard:
    draw: int
    players: int
    code: str | None  # revealed once the day is over
    par: Par | None  # revealed once the day is over


@dataclass(frozen=True, slots=True)
class Daily:
    date: dt.date
    ends_at: dt.datetime | None
    boards: list[DailyBoard]

    @classmethod
    def from_json(cls, data: Json) -> Daily:
        return cls(
            date=_date(data["date"]),
            ends_at=_time(data.get("ends_at")),
            boards=[
                DailyBoard(b["draw"], b["players"], b.get("code"), Par.from_json(b.get("par")))
                for b in data["boards"]
            ],
        )


@dataclass(frozen=True, slots=True)
class DailyMonth:
    """A month of the archive: its days with a daily up to today, oldest first, and the
    nearest months before and after that have one ("YYYY-MM", None where there is none)."""

    month: str
    previous: str | None
    next: str | None
    days: list[Daily]

    @classmethod
    def from_json(cls, data: Json) -> DailyMonth:
        return cls(
            month=data["month"],
            previous=data.get("previous"),
            next=data.get("next"),
            days=[Daily.from_json(day) for day in data["days"]],
        )


@dataclass(frozen=True, slots=True)
class StatsDay:
    date: dt.date
    played: int  # finished ranked dailies that day
    won: int


@dataclass(frozen=True, slots=True)
class StatsWeek:
    week: dt.date  # its Monday
    games: int
    wins: int
    win_rate: int | None  # whole percent; None without a game


@dataclass(frozen=True, slots=True)
class ParPoint:
    date: dt.date
    draw: int
    moves: int
    par: int
    over: int  # moves - par


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's daily streak (consecutive days with a finished ranked daily) and history."""

    username: str
    streak: int
    best_streak: int
    days: list[StatsDay]
    weeks: list[StatsWeek]
    par: list[ParPoint]

    @classmethod
    def from_json(cls, data: Json) -> PlayerStats:
        return cls(
            username=data["username"],
            streak=data["streak"]["current"],
            best_streak=data["streak"]["best"],
            days=[StatsDay(_date(d["date"]), d["played"], d["won"]) for d in data["days"]],
            weeks=[
                StatsWeek(_date(w["week"]), w["games"], w["wins"], w.get("win_rate"))
                for w in data["weeks"]
            ],
            par=[
                ParPoint(_date(p["date"]), p["draw"], p["moves"], p["par"], p["over"])
                for p in data["par"]
            ],
        )


@dataclass(frozen=True, slots=True)
class Player:
    username: str
    games: int
    wins: int
    best_score: int | None
    best_win_seconds: float | None
    best_win_moves: int | None
    daily_streak: int
    bot: bool = False  # declared a bot (R34)
    # R33: one rating per mode played, keyed "size-draw" ("2-3", "4-1"...).
    ratings: dict[str, Rating] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Json) -> Player:
        return cls(
            username=data["username"],
            games=data.get("games", 0),
            wins=data.get("wins", 0),
            best_score=data.get("best_score"),
            best_win_seconds=data.get("best_win_seconds"),
            best_win_moves=data.get("best_win_moves"),
            daily_streak=data.get("daily_streak", 0),
            bot=data.get("bot", False),
            ratings={
                mode: Rating.from_json(rating)
                for mode, rating in (data.get("ratings") or {}).items()
            },
        )

    def rating(self, size: int, draw: int) -> Rating | None:
        """The rating of that mode, None if the player never finished a match of it."""
        return self.ratings.get(f"{size}-{draw}")


# -- matches and ratings (R32, R33) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one mode: `rating` is the conservative ordinal (mu - 3 sigma)
    scaled to start at 1500; provisional for the first 10 matches."""

    rating: float
    mu: float
    sigma: float
    matches: int
    provisional: bool

    @classmethod
    def from_json(cls, data: Json) -> Rating:
        return cls(
            rating=data["rating"],
            mu=data.get("mu", 0.0),
            sigma=data.get("sigma", 0.0),
            matches=data.get("matches", 0),
            provisional=data.get("provisional", True),
        )


@dataclass(frozen=True, slots=True)
class Seat:
    """One player of a match: their figures (never their cards or actions while the match is
    open), and once it is finished their place and rating after it."""

    player: str
    bot: bool
    score: int
    moves: int
    seconds: float
    status: str  # playing, won, resigned
    end_reason: EndReason | None  # "match_over": still playing when the match closed
    aborted: bool  # R33a: its game ended with fewer than 10 actions: no place, no rating change
    place: int | None
    rating_before: float | None
    rating_after: float | None

    @property
    def rating_change(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before

    @classmethod
    def from_json(cls, data: Json) -> Seat:
        return cls(
            player=data["player"],
            bot=data.get("bot", False),
            score=data.get("score", 0),
            moves=data.get("moves", 0),
            seconds=data.get("seconds", 0.0),
            status=data.get("status", "playing"),
            end_reason=data.get("end_reason"),
            aborted=data.get("aborted", False),
            place=data.get("place"),
            rating_before=data.get("rating_before"),
            rating_after=data.get("rating_after"),
        )


@dataclass(frozen=True, slots=True)
class Match:
    """A match of 2 or 4 players on one deal (R32). `game` is the caller's game in it (None
    for a match the caller does not play); `code` stays None until the match is finished."""

    id: str
    size: int
    draw: int
    status: str  # open, finished
    cancelled: bool  # finished with fewer than two players: no rating changes
    rated: bool  # its ratings changed (after the fair-play review of its games, R35)
    created: dt.datetime | None
    ends_at: dt.datetime | None
    finished_at: dt.datetime | None
    code: str | None
    game: str | None
    players: list[Seat]
    duel: bool = False  # a challenge's match: its two seats were reserved
    unrated: bool = False  # a duel played unrated: its ratings never change

    @property
    def over(self) -> bool:
        return self.status != "open"

    def seat(self, player: str) -> Seat | None:
        return next((seat for seat in self.players if seat.player == player), None)

    @classmethod
    def from_json(cls, data: Json) -> Match:
        return cls(
            id=str(data["id"]),
            size=data["size"],
            draw=data["draw"],
            status=data["status"],
            cancelled=data.get("cancelled", False),
            rated=data.get("rated", False),
            created=_time(data.get("created")),
            ends_at=_time(data.get("ends_at")),
            finished_at=_time(data.get("finished_at")),
            code=data.get("code"),
            game=data.get("game"),
            players=[Seat.from_json(row) for row in data.get("players", [])],
            duel=data.get("duel", False),
            unrated=data.get("unrated", False),
        )


@dataclass(frozen=True, slots=True)
class Challenge:
    """One player's invitation of another to a duel (a match of two on a fresh deal), pending
    for 24 hours. `rated`: the challenger asked for a rated duel; `match` is the duel's id once
    accepted."""

    id: str
    challenger: str
    player: str  # the challenged player
    draw: int
    rated: bool
    status: str  # pending, accepted, declined, cancelled, expired
    created: dt.datetime | None
    expires_at: dt.datetime | None
    decided_at: dt.datetime | None
    match: str | None

    @classmethod
    def from_json(cls, data: Json) -> Challenge:
        return cls(
            id=str(data["id"]),
            challenger=data["challenger"],
            player=data["player"],
            draw=data["draw"],
            rated=data.get("rated", False),
            status=data["status"],
            created=_time(data.get("created")),
            expires_at=_time(data.get("expires_at")),
            decided_at=_time(data.get("decided_at")),
            match=data.get("match"),
        )


@dataclass(frozen=True, slots=True)
class RatingEntry:
    """A line of a ratings board (best first)."""

    rank: int
    player: str
    rating: float
    matches: int
    provisional: bool

    @classmethod
    def from_json(cls, data: Json) -> RatingEntry:
        return cls(
            rank=data["rank"],
            player=data["player"],
            rating=data["rating"],
            matches=data.get("matches", 0),
            provisional=data.get("provisional", False),
        )


@dataclass(frozen=True, slots=True)
class Account:
    """The caller's account, and the scopes of the key in use."""

    username: str
    bot: bool
    created: dt.datetime | None
    scopes: list[Scope]

    @classmethod
    def from_json(cls, data: Json) -> Account:
        return cls(
            username=data["username"],
            bot=data.get("bot", False),
            created=_time(data.get("created")),
            scopes=list(data.get("scopes", [])),
        )


@dataclass(frozen=True, slots=True)
class ApiToken:
    """An API key of the account: `token` (the key itself) only in the answer that made it."""

    id: str
    name: str
    scopes: list[Scope]
    created: dt.datetime | None
    expires: dt.datetime | None
    last_used: dt.datetime | None
    token: str | None = None

    @classmethod
    def from_json(cls, data: Json) -> ApiToken:
        return cls(
            id=str(data["id"]),
            name=data.get("name", ""),
            scopes=list(data.get("scopes", [])),
            created=_time(data.get("created")),
            expires=_time(data.get("expires")),
            last_used=_time(data.get("last_used")),
            token=data.get("token"),
        )


@dataclass(frozen=True, slots=True)
class GameEvent:
    """A line of a game's stream: the game as it is (`"game"`, first; after a reconnection
    too), after an applied `action` (`"action"`), or as it ended (`"end"`, last)."""

    type: Literal["game", "action", "end"]
    game: Game
    action: Action | None = None

    @classmethod
    def from_json(cls, data: Json) -> GameEvent | None:
        """None for a line this client does not know (a newer server's)."""
        kind = data.get("type")
        if kind not in ("game", "action", "end"):
            return None
        action = data.get("action")
        return cls(kind, Game.from_json(data["game"]), action and Action.from_json(action))


# The type of an account event stream's first line: its id is where the stream starts (the
# position to resume from when no event came yet); the clients keep it, never give it.
OPENED = "stream_opened"


@dataclass(frozen=True, slots=True)
class AccountEvent:
    """A line of the account event stream (docs/api.md, "Streams and exports"): `type` one of
    game_started, game_ended, challenge_created, challenge_accepted, challenge_declined,
    challenge_cancelled, challenge_expired, match_seat_filled, match_found, match_finished,
    match_rated, review_decided, analysis_ready, daily_published (or a newer server's), `data`
    its fields; `id` resumes after it (`since`). The stream's first line, `stream_opened`
    (OPENED: where it starts), is never given: the client keeps its id as `since`."""

    id: int
    type: str
    at: dt.datetime
    data: Json

    @classmethod
    def from_json(cls, data: Json) -> AccountEvent:
        at = _time(data["at"])
        assert at is not None
        return cls(data["id"], data["type"], at, data["data"])


# -- the live board's messages ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The board's first page, sent on every (re)connection."""

    count: int
    results: list[Entry]


@dataclass(frozen=True, slots=True)
class Entries:
    """Entries whose figures changed since the last message, each with its current rank."""

    count: int | None  # None from a server that sends one entry per message
    entries: list[Entry]


@dataclass(frozen=True, slots=True)
class Removed:
    """A disqualified player's entry left the board."""

    player: str


BoardEvent: TypeAlias = Snapshot | Entries | Removed


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One match's change of a player's rating (their history, oldest first)."""

    match: str
    at: dt.datetime | None
    place: int
    rating_before: int
    rating_after: int

    @classmethod
    def from_json(cls, data: Json) -> RatingChange:
        return cls(
            match=str(data["match"]),
            at=_time(data.get("at")),
            place=data["place"],
            rating_before=data["rating_before"],
            rating_after=data["rating_after"],
        )


@dataclass(frozen=True, slots=True)
class WeeklyEntry:
    """A line of a weekly board: the sum of the player's rating changes this week."""

    rank: int
    player: str
    gain: int
    matches: int

    @classmethod
    def from_json(cls, data: Json) -> WeeklyEntry:
        return cls(data["rank"], data["player"], data["gain"], data.get("matches", 0))


@dataclass(frozen=True, slots=True)
class WeeklyBoard:
    """The week's best rating gains in one mode (the week begins on Monday)."""

    size: int
    draw: int
    week: dt.date
    count: int
    next: str | None
    previous: str | None
    results: list[WeeklyEntry]

    @classmethod
    def from_json(cls, data: Json) -> WeeklyBoard:
        return cls(
            size=data["size"],
            draw=data["draw"],
            week=_date(data["week"]),
            count=data["count"],
            next=data.get("next"),
            previous=data.get("previous"),
            results=[WeeklyEntry.from_json(e) for e in data["results"]],
        )


# -- the live match's messages ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchSnapshot:
    """The match as it is, sent on every (re)connection."""

    match: Match


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """One player's figures changed (or a player took a seat)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """The match is over: places, rating changes and the deal's code."""

    match: Match


@dataclass(frozen=True, slots=True)
class MatchRated:
    """A finished match that waited for the fair-play review of its games (R35) or for staff
    (R33a) is rated: the match with its rating changes. It follows `MatchFinished` when that
    came with `rated` false."""

    match: Match


MatchEvent: TypeAlias = MatchSnapshot | SeatChanged | MatchFinished | MatchRated


def match_event(data: Json) -> MatchEvent | None:
    """A live match message as an event; None for a message this client does not know."""
    kind = data.get("type")
    if kind == "snapshot":
        return MatchSnapshot(Match.from_json(data["match"]))
    if kind == "player":
        row = data.get("player")
        # docs/api.md: the row's fields sit in the message itself; a nested row is read as well.
        return SeatChanged(Seat.from_json(row if isinstance(row, dict) else data))
    if kind == "finished":
        return MatchFinished(Match.from_json(data["match"]))
    if kind == "rated":
        return MatchRated(Match.from_json(data["match"]))
    return None


def board_event(data: Json) -> BoardEvent | None:
    """A live board message as an event; None for a message this client does not know (a
    newer server's). Servers before the batches sent `{"type": "entry", "entry": ENTRY}` and a
    snapshot without `count`: both are read as the batch form."""
    kind = data.get("type")
    if kind == "snapshot":
        results = [Entry.from_json(e) for e in data["results"]]
        return Snapshot(data.get("count", len(results)), results)
    if kind == "entries":
        return Entries(data.get("count"), [Entry.from_json(e) for e in data["entries"]])
    if kind == "entry":
        return Entries(None, [Entry.from_json(data["entry"])])
    if kind == "removed":
        return Removed(data["player"])
    return None


@dataclass(frozen=True)
class GameFilters:
    """The filters of the lists of games and the export (docs/api.md "Conventions", lists:
    filters): each left None keeps every game. `since` and `until` bound when a game was dealt;
    `max` caps how many come in all."""

    since: dt.datetime | dt.date | None = None
    until: dt.datetime | dt.date | None = None
    max: int | None = None
    daily: bool | None = None
    draw: Draw | None = None
    ruleset: Ruleset | None = None
    match: bool | None = None

    def params(self) -> dict[str, str]:
        """The query parameters, as the API spells them."""
        params: dict[str, str] = {}
        for name, value in vars(self).items():
            if isinstance(value, bool):
                params[name] = "true" if value else "false"
            elif isinstance(value, dt.date):
                params[name] = value.isoformat()
            elif value is not None:
                params[name] = str(value)
        return params
