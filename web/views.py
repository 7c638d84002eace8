"""Pages of the browser front end. They render the shell of each page; the JavaScript modules
then talk to the REST API and the WebSocket like any other client."""

from __future__ import annotations

import datetime
import hashlib
import math
import uuid
from pathlib import Path
from typing import NamedTuple, cast

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    login,
)
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseRedirect,
    JsonResponse,
)
from django.middleware.csrf import rotate_token
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.dates import WEEKDAYS, WEEKDAYS_ABBR
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import JavaScriptCatalog

from accounts.identity import (
    account_create,
    guest_convert,
    guest_create,
    guest_slot_take,
    player_is_bot,
    player_is_guest,
    signup_slot_take,
)
from core.clients import client_address_hash, client_device_hash
from core.errors import Forbidden, NotFound
from core.throttling import throttles_wait
from games import selectors as game_selectors
from games import services as game_services
from games.api import GAME_CREATE_THROTTLES, GameListCreateApi
from games.days import day_today, month_parse
from games.engine import RULESETS
from games.models import Game
from leaderboard.selectors import HEAT_DAYS, player_history_stats
from web import charts, review, selectors
from web.forms import SignupForm


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/home.html",
        {
            "today": day_today().isoformat(),
            "rulesets": list(RULESETS),
        },
    )


def _throttled(request: HttpRequest, message: str, wait: float) -> HttpResponse:
    response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(math.ceil(wait))
    return response


def _guest_keep(request: HttpRequest) -> None:
    """A guest's session lasts GUEST_DAYS from its last visit to a table: as long as the guest
    itself (`manage.py remove_guests`)."""
    request.session.set_expiry(settings.GUEST_DAYS * 86400)


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """The home page's Play now: a random deal at once, for anyone. A visitor without an account
    becomes a guest (an account behind this browser session, GUEST_LIMIT an hour per address,
    GUEST_GLOBAL_LIMIT a minute in all); the game counts in `POST games`' limits."""
    if request.user.is_authenticated:
        return _deal(request)
    if _session_cookie_names_none(request):
        # A guest is made where nginx sends a Play now without a session cookie (the heavy
        # pool, deploy/nginx.conf.template), never in the web pool's few workers: a cookie
        # that names no session (expired, or made up to reach the web pool) is deleted (the
        # session middleware deletes an empty session's cookie) and the same POST asked
        # again, without it (307 keeps the method and the form).
        return HttpResponseRedirect(request.get_full_path(), status=307)
    refused = guest_slot_take(request)
    if refused is not None:
        wait, reason = refused
        return _throttled(request, reason, wait)
    # The guest and its game in one commit, not six (each a flush to disk while a worker
    # waits: issue 30); the session middleware's save (the new session) is the only other.
    with transaction.atomic():
        _guest_login(request, guest_create())
        _guest_keep(request)
        return _deal(request)


GUEST_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _session_cookie_names_none(request: HttpRequest) -> bool:
    """Whether the request has a session cookie that names no session in the store (an empty
    one is none, as for nginx's `$cookie_sessionid`)."""
    if not request.COOKIES.get(settings.SESSION_COOKIE_NAME):
        return False
    request.session.keys()  # loads it: a key that names no session becomes None
    return request.session.session_key is None


def _guest_login(request: HttpRequest, user: User) -> None:
    """`django.contrib.auth.login` for a guest `guest_create` has just made, without the work
    a new account has no use for (issue 30: 5 of Play now's 15 queries): a new visitor's
    session is not written twice (login's `cycle_key` inserts it empty, then the middleware
    updates it: here the middleware's insert is the one write), `last_login` is set by the
    account's insert, and no `user_logged_in` signal runs (its receivers: that `last_login`
    update, and django-axes clearing the failed logins of a name no one ever tried). A
    visitor who brought a session of its own (anonymous) gets a new key, as login gives,
    so that a session planted before cannot become the guest's; the CSRF token is rotated,
    as login does."""
    session = request.session
    if session.session_key is not None:  # (a cookie naming no session was sent back: 307)
        session.cycle_key()
    session[SESSION_KEY] = user._meta.pk.value_to_string(user)
    session[BACKEND_SESSION_KEY] = GUEST_BACKEND
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    request.user = user
    rotate_token(request)


def _deal(request: HttpRequest) -> HttpResponse:
    """Play now's game for the account of the request, within `POST games`' limits."""
    wait = throttles_wait(request, GameListCreateApi, GAME_CREATE_THROTTLES)
    if wait is not None:
        return _throttled(request, _("Too many games were dealt. Try later."), wait)
    game = game_services.game_create(
        owner=request.user,
        address_hash=client_address_hash(request),
        device_hash=client_device_hash(request),
    )
    return redirect("play", game_id=game.id)


@login_required
def play(request: HttpRequest, game_id: str) -> HttpResponse:
    if player_is_guest(user=request.user):
        _guest_keep(request)
    return render(request, "web/play.html", {"game_id": str(game_id), "play_tips": True})


FRAMES_MARK = "<!-- replay frames -->"


def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = game_services.game_get_for(game_id=game_id, user=request.user)
    except NotFound:
        raise Http404("no such game") from None
    if game.status == game.Status.PLAYING:
        return redirect("play", game_id=game.id)
    # R37: the review (the analysis under the replay) once the deal may be shown (R19).
    reviewed = review.review_for(game)
    context: dict[str, object] = {
        "game": game,
        "code": game_selectors.game_code_shown(game),
        "frames": FRAMES_MARK,
        "review": reviewed,
    }
    if reviewed["state"] != "hidden":
        result = reviewed.get("result")
        address = request.build_absolute_uri(reverse("replay", args=[game.pk]))
        context["card"] = {
            "title": review.card_title(game),
            "description": review.card_description(game),
            "image": request.build_absolute_uri(reverse("result-card", args=[game.pk])),
            "address": address,
        }
        if result is not None:
            context["share"] = review.share_text(
                game=game, result=result, streak=review.share_streak(game), address=address
            )
    response = render(request, "web/replay.html", context)
    # The frames (megabytes for a long game) go in as the cached bytes they are: through the
    # template engine they would be copied at every level of the page's blocks.
    response.content = response.content.replace(
        FRAMES_MARK.encode(), selectors.replay_frames_script(game=game), 1
    )
    return response


def result_card(request: HttpRequest, game_id: str) -> HttpResponse:
    """R37: a finished game's result card (the Open Graph image of its review's link), a PNG;
    404 while its deal may not be shown (R19), whoever asks, as for a game one may not see."""
    try:
        game = game_services.game_get_for(game_id=game_id, user=request.user)
    except NotFound:
        raise Http404("no such game") from None
    if game_selectors.game_is_private(game):
        raise Http404("not yet")
    png, seconds = review.result_card(game)
    response = HttpResponse(png, content_type="image/png")
    patch_cache_control(response, public=True, max_age=seconds)
    return response


def daily_today(request: HttpRequest) -> HttpResponse:
    return redirect("daily", day=day_today().isoformat(), draw=3)


def daily_archive(request: HttpRequest) -> HttpResponse:
    """The archive: a month of dailies (`?month=YYYY-MM`, this month by default), each past
    day with its boards, the viewer's own games and a practice of its deal (R19: once the day
    is over; today's deal is never shown)."""
    today = day_today()
    text = request.GET.get("month")
    month = today.replace(day=1) if text is None else month_parse(text)
    if month is None or month > today:
        raise Http404("no such month")
    return render(
        request,
        "web/archive.html",
        {
            "today": today.isoformat(),
            "archive": selectors.archive_month(
                month=month, viewer=request.user, now=timezone.now()
            ),
            "weekdays": [(WEEKDAYS[day], WEEKDAYS_ABBR[day]) for day in range(7)],
        },
    )


def daily(request: HttpRequest, day: str, draw: int) -> HttpResponse:
    try:
        date = datetime.date.fromisoformat(day)
    except ValueError:
        raise Http404("no such day") from None
    if draw not in (1, 3):
        raise Http404("no such draw mode")
    today = day_today()
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 0
    # The first rows come with the page (no shift as the script fills it in); a page number the
    # API would refuse is left to the script, which says so.
    board = (
        selectors.board_first_rows(
            date=date, draw=draw, bots=request.GET.get("players") == "bots", page=page
        )
        if 1 <= page <= 100_000
        else None
    )
    return render(
        request,
        "web/daily.html",
        {
            "day": date.isoformat(),
            "draw": draw,
            "today": today.isoformat(),
            "past": date < today,
            "board": board,
        },
    )


def rules(request: HttpRequest, ruleset: str) -> HttpResponse:
    """How to play, for one rule set of docs/rules.md, in the page's language."""
    if ruleset not in RULESETS:
        raise Http404("no such rule set")
    return render(request, "web/rules.html", {"ruleset": ruleset, "rulesets": list(RULESETS)})


def favicon(request: HttpRequest) -> HttpResponse:
    return redirect(static("web/icon.svg"), permanent=True)


def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the table installs on a phone's home screen."""
    return JsonResponse(
        {
            "name": "Canfield Club",
            "short_name": "Canfield",
            "description": _("Canfield solitaire: daily challenges and a live leaderboard."),
            "lang": get_language(),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "orientation": "any",
            "background_color": "#0a3a24",
            "theme_color": "#0a3a24",
            "icons": [
                {
                    "src": static(f"web/icon-{size}.png"),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                }
                for size in (192, 512)
            ]
            + [{"src": static("web/icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
        },
        content_type="application/manifest+json",
    )


class HistoryRow(NamedTuple):
    """A game of a player's history as their page lists it."""

    game: Game
    counts: bool  # in the player's figures (games.selectors.game_counts)
    home: int  # cards on its foundations


def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: figures by draw mode, dailies (a 30-day calendar and the list) and the
    history, a page at a time. Guests have none."""
    # PostgreSQL refuses NUL in text: no such name can exist.
    owner = (
        None
        if "\x00" in username
        else get_user_model().objects.filter(username=username).exclude(player__guest=True).first()
    )
    if owner is None:
        raise Http404("no such player")
    now = timezone.now()
    dailies = selectors.player_dailies(player=owner, viewer=request.user, now=now)
    games = Paginator(
        selectors.player_history(player=owner, viewer=request.user), selectors.HISTORY_PAGE_SIZE
    ).get_page(request.GET.get("page"))
    rows = [
        HistoryRow(game, game_selectors.game_counts(game), selectors.cards_home(game))
        for game in games
    ]
    history = player_history_stats(player=owner, now=now)
    today = day_today(now)
    return render(
        request,
        "web/player.html",
        {
            "username": owner.username,
            "bot": player_is_bot(user=owner),
            "streak": history["streak"],
            "history": history,
            "heat": charts.heat_map(days=history["days"], today=today, span=HEAT_DAYS),
            "win": charts.win_rate_chart(weeks=history["weeks"]),
            "par": charts.par_chart(points=history["par"], today=today, span=HEAT_DAYS),
            "figures": selectors.player_figures(player=owner),
            "dailies": dailies,
            "calendar": selectors.daily_calendar(dailies=dailies, now=now),
            "games": games,
            "history_rows": rows,
        },
    )


# The match modes (R32): (size, draw), in the order the pages list them.
MATCH_MODES = [(2, 3), (2, 1), (4, 3), (4, 1)]


def matches(request: HttpRequest) -> HttpResponse:
    """Issue 23: play a match, the player's open and recent matches, their ratings."""
    return render(request, "web/matches.html", {"modes": MATCH_MODES})


def match(request: HttpRequest, match_id: uuid.UUID) -> HttpResponse:
    """One match, live until it is finished (the page reads it from the API: a match that does
    not exist says so there)."""
    return render(request, "web/match.html", {"match_id": str(match_id)})


def ratings(request: HttpRequest, size: int, draw: int) -> HttpResponse:
    """The ratings board of one mode (R33), best first."""
    if (size, draw) not in MATCH_MODES:
        raise Http404("no such mode")
    return render(request, "web/ratings.html", {"size": size, "draw": draw, "modes": MATCH_MODES})


def _next_url(request: HttpRequest) -> str | None:
    """The page to go back to after signing up (`next`, on this site only)."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def signup(request: HttpRequest) -> HttpResponse:
    """Sign up: a new account, or for a guest the same account with a name and a password, so
    that its games and figures stay (then back to `next`, e.g. the game being played)."""
    guest = player_is_guest(user=request.user)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not guest:
            wait = signup_slot_take(request)
            if wait is not None:
                return _throttled(
                    request, _("Too many accounts were created from this address. Try later."), wait
                )
        username, password = form.cleaned_data["username"], form.cleaned_data["password1"]
        try:
            if guest:
                # `guest`: the request's user is an account, never anonymous.
                user = guest_convert(
                    user=cast(User, request.user), username=username, password=password
                )
            else:
                user = account_create(username, password)
        except ValidationError as taken:
            form.add_error("username", taken)
        except Forbidden as refused:
            form.add_error(None, refused.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            request.session.set_expiry(None)  # an account's session: the site's usual length
            return redirect(_next_url(request) or "home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "guest": guest, "next": _next_url(request) or ""},
    )


def _catalogue_version() -> str:
    """A digest of the JavaScript catalogues (locale/*/LC_MESSAGES/djangojs.mo): the version the
    pages ask the catalogue of, so that a release with new words is a new URL."""
    digest = hashlib.sha256()
    for path in sorted(Path(settings.LOCALE_PATHS[0]).glob("*/LC_MESSAGES/djangojs.mo")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


CATALOGUE_VERSION = _catalogue_version()
_catalogue = JavaScriptCatalog.as_view()


def javascript_catalog(request: HttpRequest) -> HttpResponseBase:
    """Django's JavaScript catalogue. Asked for with this release's version and a language
    (`?l=hu&v=...`, as base.html asks), it is that language's, the same for everyone, and
    cacheable for a year; otherwise the request's language, not cached."""
    lang = request.GET.get("l", "")
    if request.GET.get("v") == CATALOGUE_VERSION and lang in dict(settings.LANGUAGES):
        with override(lang):
            response = _catalogue(request)
        response["Cache-Control"] = "public, max-age=31536000, immutable"
        return response
    return _catalogue(request)
