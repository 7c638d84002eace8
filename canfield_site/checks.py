"""System checks of the production secrets (canfield.E001, canfield.E002, canfield.E003), and
the notices of development dailies (canfield.W001) and of matches turned off (canfield.W002).

Registered for every `manage.py` command that runs checks (check, check --deploy, migrate,
runserver) and run again by the WSGI and ASGI entry points, which Django does not check: with
DJANGO_DEBUG=0 a server whose secret key or daily secret is a placeholder, short, or shared
refuses to start. The daily secret derives every daily deal (games.days): anyone who
knows it knows every future deal, and if it were the session key, rotating that key would
change the deals of the days already created. In debug (`make run`) the daily secret may be the
public development one: W001 says so at every start, since anyone with the repository can
compute those dailies.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Warning, register
from django.core.exceptions import ImproperlyConfigured

MIN_LENGTH = 50
# Words of example values (deploy/production.env.example says CHANGE-ME) and of the
# development defaults: never in a value made with `secrets.token_urlsafe(50)` in practice.
PLACEHOLDER_WORDS = ("change", "example", "placeholder", "insecure", "dev-only", "secret-key")
GENERATE = "generate one with `python -c 'import secrets; print(secrets.token_urlsafe(50))'`"


def _weakness(value: str) -> str | None:
    if not value:
        return "is not set"
    lowered = value.lower()
    for word in PLACEHOLDER_WORDS:
        if word in lowered:
            return f"looks like a placeholder (it contains {word!r})"
    if len(value) < MIN_LENGTH:
        return f"has {len(value)} characters, fewer than {MIN_LENGTH}"
    if len(set(value)) < 5:
        return "has fewer than 5 different characters"
    return None


def secrets_problems() -> list[CheckMessage]:
    """The secrets' faults when DEBUG is off (nothing in development)."""
    if settings.DEBUG:
        return []
    problems: list[CheckMessage] = []
    weakness = _weakness(settings.SECRET_KEY)
    if weakness:
        problems.append(
            Error(
                f"DJANGO_SECRET_KEY {weakness}.",
                hint=f"With DJANGO_DEBUG=0 it must be {MIN_LENGTH}+ random characters: {GENERATE}.",
                id="canfield.E001",
            )
        )
    weakness = _weakness(settings.DAILY_SECRET)
    if weakness is None and settings.DAILY_SECRET == settings.SECRET_KEY:
        weakness = "is the same as DJANGO_SECRET_KEY"
    if weakness:
        problems.append(
            Error(
                f"DAILY_SECRET {weakness}.",
                hint=(
                    f"With DJANGO_DEBUG=0 it must be {MIN_LENGTH}+ random characters of its own "
                    "(not the secret key, so that rotating that key never changes the daily "
                    f"deals): {GENERATE}."
                ),
                id="canfield.E002",
            )
        )
    if settings.MATCH_SECRET:
        # The match deals' key (R32): like the daily secret, anyone who knows it knows the
        # deals of matches to come. Unset, matches are off (503), which W002 says.
        weakness = _weakness(settings.MATCH_SECRET)
        if weakness is None and settings.MATCH_SECRET in (
            settings.SECRET_KEY,
            settings.DAILY_SECRET,
        ):
            weakness = "is the same as DJANGO_SECRET_KEY or DAILY_SECRET"
        if weakness:
            problems.append(
                Error(
                    f"MATCH_SECRET {weakness}.",
                    hint=(
                        f"With DJANGO_DEBUG=0 it must be {MIN_LENGTH}+ random characters of its "
                        f"own, or unset (no matches): {GENERATE}."
                    ),
                    id="canfield.E003",
                )
            )
    return problems


def matches_off() -> list[CheckMessage]:
    """In production without MATCH_SECRET, matches answer 503: say so at start."""
    if settings.DEBUG or settings.MATCH_SECRET:
        return []
    return [
        Warning(
            "MATCH_SECRET is not set: matches are off (joining one answers 503 unavailable).",
            hint=f"Set MATCH_SECRET to turn matches on: {GENERATE}.",
            id="canfield.W002",
        )
    ]


def development_dailies() -> list[CheckMessage]:
    """In debug, a notice when the daily deals come from a development secret."""
    weakness = _weakness(settings.DAILY_SECRET)
    if not settings.DEBUG or weakness is None:
        return []
    return [
        Warning(
            f"The daily deals are development ones: DAILY_SECRET {weakness}, so anyone with "
            "the repository can compute them.",
            hint=(
                "Fine on a developer machine. A server others play on runs with DJANGO_DEBUG=0 "
                f"and a DAILY_SECRET of its own: {GENERATE}."
            ),
            id="canfield.W001",
        )
    ]


@register("security")
def check_secrets(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    return secrets_problems() + development_dailies() + matches_off()


def refuse_unsafe_secrets() -> None:
    """For the server entry points: stop with the checks' messages rather than serve."""
    problems = secrets_problems()
    if problems:
        raise ImproperlyConfigured(
            "; ".join(f"{problem.id}: {problem.msg} {problem.hint}" for problem in problems)
        )
