"""Production settings: they are the default (no DJANGO_DEBUG: no secrets, no start); `check
--deploy` is clean with the example env set for a public host; no key, no start; the database
from DATABASE_URL or from POSTGRES_* parts. Development asks for debug (`make run`) and says its
dailies are development ones."""

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scripts.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_ENV = ROOT / "deploy" / "production.env.example"


def example_values(*, public: bool) -> dict[str, str]:
    """The example's variables as they are (localhost), or as its `# public:` lines say to set
    them for a public host."""
    values: dict[str, str] = {}
    for line in EXAMPLE_ENV.read_text().splitlines():
        line = line.strip()
        if line.startswith("# public: ") and public:
            name, value = line.removeprefix("# public: ").split("=", 1)
            values[name] = value
        elif line and not line.startswith("#"):
            name, value = line.split("=", 1)
            values.setdefault(name, value)
    return values


def example_env(*, public: bool = True) -> dict[str, str]:
    """This process's environment with the example's values, on the embedded defaults, with the
    project's settings module (the suite's asks for debug whatever the environment says)."""
    drop = {"DATABASE_URL", "REDIS_URL", "POSTGRES_HOST"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["DJANGO_SETTINGS_MODULE"] = "canfield_site.settings"
    return env | {k: v for k, v in example_values(public=public).items() if k not in drop}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def with_secrets(env: dict[str, str]) -> dict[str, str]:
    """`env` with the example's CHANGE-ME secrets replaced, as its comments ask."""
    return env | {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SECRET": secrets.token_urlsafe(50),
        "MATCH_SECRET": secrets.token_urlsafe(50),
    }


def test_check_deploy_is_clean_with_the_example_env_set_for_a_public_host():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=with_secrets(example_env()))

    print(result.stdout, result.stderr)
    assert result.returncode == 0
    assert "no issues" in result.stdout


@pytest.mark.parametrize("deploy", [[], ["--deploy"]], ids=["check", "check --deploy"])
def test_the_example_env_as_it_is_does_not_pass_the_checks(deploy):
    result = manage("check", *deploy, env=example_env())

    assert result.returncode != 0
    assert "(canfield.E001) DJANGO_SECRET_KEY looks like a placeholder" in result.stderr
    assert "(canfield.E002) DAILY_SECRET looks like a placeholder" in result.stderr
    assert "(canfield.E003) MATCH_SECRET looks like a placeholder" in result.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"DJANGO_SECRET_KEY": "k" * 20 + "abcdefghij"},
            "(canfield.E001) DJANGO_SECRET_KEY has 30",
        ),
        ({"DJANGO_SECRET_KEY": "ab" * 40}, "(canfield.E001) DJANGO_SECRET_KEY has fewer than 5"),
        ({"DJANGO_SECRET_KEY": "example-" + "x1y2z3" * 10}, "(canfield.E001)"),
        ({"DAILY_SECRET": ""}, "(canfield.E002) DAILY_SECRET is not set"),
        ({"DAILY_SECRET": "short-daily-secret"}, "(canfield.E002) DAILY_SECRET has 18"),
        ({"DAILY_SECRET": "KEY"}, "(canfield.E002) DAILY_SECRET is the same as DJANGO_SECRET_KEY"),
        ({"MATCH_SECRET": "short-match-secret"}, "(canfield.E003) MATCH_SECRET has 18"),
        ({"MATCH_SECRET": "KEY"}, "(canfield.E003) MATCH_SECRET is the same as DJANGO_SECRET_KEY"),
    ],
)
def test_unsafe_secrets_fail_the_check_with_their_own_ids(change, message):
    env = with_secrets(example_env())
    env |= {
        name: env["DJANGO_SECRET_KEY"] if value == "KEY" else value
        for name, value in change.items()
    }

    result = manage("check", env=env)

    assert result.returncode != 0
    assert message in result.stderr


def test_without_a_match_secret_matches_are_off_and_the_check_says_so():
    env = with_secrets(example_env())
    env["MATCH_SECRET"] = ""

    result = manage("check", env=env)

    assert result.returncode == 0  # a warning: the rest of the site serves
    assert "(canfield.W002) MATCH_SECRET is not set: matches are off" in result.stderr


def test_development_needs_no_secrets_and_says_its_dailies_are_development_ones():
    env = example_env() | {"DJANGO_DEBUG": "1"}
    del env["DAILY_SECRET"]

    result = manage("check", env=env)

    assert result.returncode == 0
    assert "(canfield.W001) The daily deals are development ones" in result.stderr
    # and: a daily secret of one's own in development, no notice
    assert "canfield.W001" not in manage("check", env=with_secrets(env)).stderr


def bare_env() -> dict[str, str]:
    """This process's environment without anything that chooses the settings: no
    DJANGO_DEBUG, no secrets, the project's own settings module (not the suite's, which asks
    for debug), the embedded database."""
    chosen = {"DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DAILY_SECRET", "DJANGO_SETTINGS_MODULE"}
    drop = chosen | {"DATABASE_URL", "REDIS_URL", "POSTGRES_HOST"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def test_without_django_debug_the_settings_are_production_ones():
    # given: no DJANGO_DEBUG at all
    server = [sys.executable, "-c", "import canfield_site.wsgi; print('started')"]
    code = (
        "from django.conf import settings; "
        "print(settings.DEBUG, settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE, "
        "settings.DAILY_SECRET == 'd' * 60)"
    )
    keys = {"DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DAILY_SECRET": "d" * 60}

    refused = subprocess.run(
        server, cwd=ROOT, env=bare_env(), capture_output=True, text=True, timeout=60
    )
    started = manage("shell", "-c", code, env=bare_env() | keys)
    no_daily = manage("check", env=bare_env() | {"DJANGO_SECRET_KEY": keys["DJANGO_SECRET_KEY"]})

    # the server refuses to start without its secrets
    assert refused.returncode != 0 and "started" not in refused.stdout
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in refused.stderr
    # with them, debug is off and HTTPS on
    assert started.returncode == 0, started.stderr
    assert started.stdout.split()[-4:] == ["False", "True", "True", "True"]
    # and the development daily secret is never used: no daily secret, no start
    assert no_daily.returncode != 0
    assert "(canfield.E002) DAILY_SECRET is not set" in no_daily.stderr


def test_make_run_asks_for_debug_and_says_the_dailies_are_development_ones(tmp_path):
    # given: a shell that says production (DJANGO_DEBUG=0) and has no secrets
    port = free_port()
    # (a make of its own, not a sub-make of the one that may run the suite)
    env = {k: v for k, v in bare_env().items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    env |= {
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
    }
    log = tmp_path / "run.log"

    with log.open("wb") as out:
        run = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 90
            while b"Quit the server with" not in log.read_bytes() and run.poll() is None:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        finally:
            # Not SIGTERM: make forwards it, so the reloader's parent gets two, and Django's
            # handler (sys.exit) raised again while it kills its child, or inside a finalizer
            # (where it is ignored), can leave the server running and make waiting on it (a
            # parent given two SIGTERMs 0-1 ms apart left its child alive 4 times in 40). This
            # test is about the start; SIGKILL ends the whole group at once.
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(30)

    text = log.read_text()
    assert "Quit the server with" in text, text
    notice = text.index("(canfield.W001) The daily deals are development ones")
    assert notice < text.index(f"development server at http://127.0.0.1:{port}/")


@pytest.mark.parametrize("entry", ["canfield_site.wsgi", "canfield_site.asgi"])
def test_servers_refuse_to_start_with_unsafe_secrets(entry):
    # gunicorn and uvicorn import these modules and run no system check themselves
    start = [sys.executable, "-c", f"import {entry}; print('started')"]
    env = example_env()

    refused = subprocess.run(start, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    started = subprocess.run(
        start, cwd=ROOT, env=with_secrets(env), capture_output=True, text=True, timeout=60
    )

    assert refused.returncode != 0 and "started" not in refused.stdout
    assert "ImproperlyConfigured: canfield.E001" in refused.stderr
    assert "canfield.E002: DAILY_SECRET" in refused.stderr
    assert started.returncode == 0 and started.stdout.strip() == "started", started.stderr


def test_check_deploy_flags_a_weakened_production_env():
    # given: the example env without HSTS and with debug on
    env = with_secrets(example_env()) | {"SECURE_HSTS_SECONDS": "0", "DJANGO_DEBUG": "1"}

    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)

    assert result.returncode != 0
    assert "security.W004" in result.stderr  # HSTS
    assert "security.W018" in result.stderr  # DEBUG


def test_refuses_to_start_without_a_secret_key_when_not_in_debug():
    env = example_env()
    del env["DJANGO_SECRET_KEY"]

    result = manage("check", env=env)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def setting(name: str, env: dict[str, str]) -> object:
    """The setting `name` as the settings module of `env` (DJANGO_SETTINGS_MODULE) makes it
    from `env`: the module alone, imported in a process of its own (what Django's settings
    read from it; no app is loaded, a third of a `manage.py` run)."""
    code = (
        "import importlib, json, os; "
        "module = importlib.import_module(os.environ['DJANGO_SETTINGS_MODULE']); "
        f"print(json.dumps(getattr(module, {name!r}), default=str))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_production_settings_hash_passwords_with_pbkdf2_and_tests_with_md5():
    # given: the production settings module, not the suite's
    production = setting("PASSWORD_HASHERS", example_env())
    suite = setting(
        "PASSWORD_HASHERS", example_env() | {"DJANGO_SETTINGS_MODULE": "tests.settings"}
    )

    # (Django's PBKDF2, hashing in one of the host's password slots: docs/fairplay.md, "Floods")
    assert production[0] == "accounts.identity.SlotPBKDF2PasswordHasher"
    assert suite[0] == "django.contrib.auth.hashers.MD5PasswordHasher"


def database_settings(env: dict[str, str]) -> dict[str, object]:
    database = setting("DATABASES", env)
    assert isinstance(database, dict)
    return database["default"]


def test_the_database_comes_from_postgres_parts_with_any_password():
    # given: the parts docker-compose.yml passes, a password that would break a URL
    password = "p@ss:w/rd%2F?#x"
    env = example_env() | {
        "POSTGRES_HOST": "postgres",
        "POSTGRES_PORT": "5433",
        "POSTGRES_DB": "club",
        "POSTGRES_USER": "dealer",
        "POSTGRES_PASSWORD": password,
    }

    database = database_settings(env)

    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"]) == ("postgres", "5433")
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == (
        "club",
        "dealer",
        password,
    )
    assert database["CONN_HEALTH_CHECKS"] is True


def test_database_url_takes_precedence_over_the_parts():
    env = example_env() | {
        "POSTGRES_HOST": "postgres",
        "DATABASE_URL": "postgres://dealer:p%40ss@db.example.org:5432/club",
    }

    database = database_settings(env)

    assert (database["HOST"], database["NAME"], database["PASSWORD"]) == (
        "db.example.org",
        "club",
        "p@ss",
    )


@pytest.mark.parametrize(
    ("database_url", "pooled"),
    [
        ("postgres://canfield@db.example:5432/canfield", True),
        ("sqlite:///pool.sqlite3", False),
    ],
)
def test_the_pool_size_gives_postgresql_a_pool_and_no_persistent_connections(database_url, pooled):
    # (tests/ops/test_database_pool.py: the pool at work in the suite's server)
    database = database_settings(
        example_env() | {"DATABASE_URL": database_url, "DATABASE_POOL_SIZE": "16"}
    )

    if pooled:
        assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 16, "timeout": 5}
    else:
        assert "pool" not in database.get("OPTIONS", {})
    assert database["CONN_MAX_AGE"] == 0
