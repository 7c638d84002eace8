"""Production settings: `check --deploy` is clean with the example env; no key, no start."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_ENV = ROOT / "deploy" / "production.env.example"


def example_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    for line in EXAMPLE_ENV.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, value = line.split("=", 1)
            env[name] = value
    return env


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_deploy_is_clean_with_the_production_example_env():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=example_env())

    print(result.stdout, result.stderr)
    assert result.returncode == 0
    assert "no issues" in result.stdout


def test_check_deploy_flags_a_weakened_production_env():
    # given: the example env without HSTS and with debug on
    env = example_env() | {"SECURE_HSTS_SECONDS": "0", "DJANGO_DEBUG": "1"}

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


def test_production_settings_hash_passwords_with_pbkdf2_and_tests_with_md5():
    # given: the production settings module, not the suite's
    env = example_env() | {"DJANGO_SETTINGS_MODULE": "canfield_site.settings"}
    code = "from django.conf import settings; print(settings.PASSWORD_HASHERS[0])"

    production = manage("shell", "-c", code, env=env)
    suite = manage(
        "shell", "-c", code, env=example_env() | {"DJANGO_SETTINGS_MODULE": "tests.settings"}
    )

    assert production.stdout.split()[-1] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert suite.stdout.split()[-1] == "django.contrib.auth.hashers.MD5PasswordHasher"
