"""docker-compose.yml and the no-Docker script describe the same topology, the proxy config they
share is valid nginx, and compose hands every setting of `.env` to the app containers. No Docker
engine runs here: Debian's docker-compose renders the configuration (`config` needs no daemon),
and the rendered environment of `web` runs the settings."""

import os
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
SCRIPT = (ROOT / "scripts" / "serve-topology.sh").read_text()
SETTINGS = (ROOT / "canfield_site" / "settings.py").read_text()
APP_SERVICES = ("migrate", "web", "heavy", "ws", "scheduler")
DOCKER_COMPOSE = shutil.which("docker-compose")
needs_docker_compose = pytest.mark.skipif(
    DOCKER_COMPOSE is None, reason="no docker-compose (Debian package docker-compose)"
)


def test_compose_runs_the_whole_topology():
    assert set(SERVICES) == {
        "migrate", "web", "heavy", "ws", "scheduler", "proxy", "postgres", "redis",
        "pgbouncer", "metrics",
    }  # fmt: skip


def test_the_app_reaches_postgresql_through_pgbouncer_in_transaction_mode():
    pgbouncer = SERVICES["pgbouncer"]
    app = COMPOSE["x-app"]["environment"]

    assert pgbouncer["command"] == ["bash", "scripts/serve-pgbouncer.sh"]
    assert 'program pgbouncer "bash scripts/serve-pgbouncer.sh"' in SCRIPT
    assert pgbouncer["environment"]["POSTGRES_HOST"] == "postgres"
    assert "env_file" not in pgbouncer  # the upstream's account only, no app setting
    assert app["POSTGRES_HOST"] == "${POSTGRES_HOST:-pgbouncer}"
    assert app["POSTGRES_PORT"] == "${POSTGRES_PORT:-6432}"
    assert app["DATABASE_POOLER"] == "${DATABASE_POOLER:-pgbouncer}"
    assert SERVICES["migrate"]["depends_on"]["pgbouncer"]["condition"] == "service_healthy"
    assert "pool_mode = transaction" in (ROOT / "scripts" / "pgbouncer-conf.py").read_text()


def test_metrics_are_summed_on_the_internal_network_only():
    metrics = SERVICES["metrics"]

    assert metrics["command"][:3] == ["python", "manage.py", "serve_metrics"]
    assert "ports" not in metrics and metrics["expose"] == ["9100"]
    for name in ("web", "heavy", "ws", "metrics"):
        assert "metrics:/metrics" in SERVICES[name]["volumes"]
    assert COMPOSE["x-app"]["environment"]["METRICS_DIR"] == "${METRICS_DIR:-/metrics}"
    assert "program metrics " in SCRIPT


def test_postgres_keeps_its_data_in_a_volume_and_reports_health():
    postgres = SERVICES["postgres"]

    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in postgres["volumes"])
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert set(COMPOSE["volumes"]) == {"pgdata", "metrics", "run"}


def test_migrate_runs_once_before_the_app_processes():
    migrate = SERVICES["migrate"]

    assert migrate["command"][:2] == ["sh", "-c"]
    assert migrate["command"][2].endswith("exec python manage.py migrate --noinput")
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "heavy", "ws", "scheduler"):
        depends = SERVICES[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["redis"]["condition"] == "service_healthy"


def test_app_processes_are_those_the_script_starts():
    # The HTTP server chosen by the API's bench, and the WebSocket server chosen by the live
    # boards' bench (uvicorn), each from one script.
    assert SERVICES["web"]["command"] == ["bash", "scripts/serve-http.sh"]
    assert "bash scripts/serve-http.sh" in SCRIPT
    assert SERVICES["ws"]["command"] == ["bash", "scripts/serve-ws.sh"]
    assert 'program "ws-$n" "bash scripts/serve-ws.sh"' in SCRIPT
    assert SERVICES["heavy"]["command"] == ["bash", "scripts/serve-heavy.sh"]
    assert 'program heavy "bash scripts/serve-heavy.sh"' in SCRIPT
    serve_ws = (ROOT / "scripts" / "serve-ws.sh").read_text()
    assert re.search(r"uvicorn\" \"\$\{ASGI_APP:-canfield_site\.asgi:application\}\"", serve_ws)
    assert "manage.py migrate --noinput" in SCRIPT
    # The scheduler, which creates the daily challenges.
    assert SERVICES["scheduler"]["command"] == ["bash", "scripts/scheduler.sh"]
    assert 'program scheduler "bash scripts/scheduler.sh"' in SCRIPT
    assert "manage.py scheduler" in (ROOT / "scripts" / "scheduler.sh").read_text()


def test_app_processes_are_probed_for_readiness_and_the_proxy_through_both():
    for name in ("web", "heavy", "ws"):
        probe = " ".join(SERVICES[name]["healthcheck"]["test"])
        assert "/readyz" in probe
    proxy_probe = " ".join(SERVICES["proxy"]["healthcheck"]["test"])
    assert "/readyz" in proxy_probe and "/ws/readyz" in proxy_probe
    assert "location = /ws/readyz" in TEMPLATE.read_text()
    assert "/ws/readyz" in SCRIPT


def test_only_the_proxy_is_published_and_it_routes_to_web_and_ws():
    published = [name for name, service in SERVICES.items() if "ports" in service]
    proxy = SERVICES["proxy"]

    assert published == ["proxy"]
    assert proxy["environment"]["WEB_SERVERS"] == "server web:8000;"
    assert proxy["environment"]["WS_SERVERS"] == "server ws:8001;"
    assert proxy["environment"]["HEAVY_SERVERS"] == "server heavy:8002;"
    assert SERVICES["heavy"]["environment"]["HEAVY_BIND"] == "0.0.0.0:8002"
    assert SERVICES["web"]["environment"]["HTTP_BIND"] == "0.0.0.0:8000"
    assert SERVICES["ws"]["environment"]["WS_BIND"] == "0.0.0.0:8001"
    assert any(v.startswith("./deploy/nginx.conf.template:") for v in proxy["volumes"])


def test_every_template_placeholder_is_filled_by_compose_and_by_the_script():
    placeholders = set(re.findall(r"\$\{([A-Z_]+)\}", TEMPLATE.read_text()))
    compose_command = " ".join(SERVICES["proxy"]["command"])

    assert placeholders == {
        "LISTEN", "BALANCER", "WEB_SERVERS", "HEAVY_SERVERS", "WS_SERVERS", "RUN_DIR",
    }  # fmt: skip
    for name in placeholders:
        assert f"$${name}" in compose_command
        assert f'"{name}"' in SCRIPT
        # (BALANCER is made from BALANCER_ADDRESSES, by the command as by the script)
        assert name in SERVICES["proxy"]["environment"] or name == "BALANCER"
    assert "BALANCER_ADDRESSES" in SERVICES["proxy"]["environment"]
    for directives in ("listen 81 proxy_protocol;", "real_ip_header proxy_protocol;"):
        assert directives in compose_command
    assert "proxy_protocol; real_ip_header proxy_protocol;" in SCRIPT
    assert "set_real_ip_from $$address;" in compose_command
    assert "set_real_ip_from $address;" in SCRIPT


BEHIND_A_BALANCER = (
    "listen 127.0.0.1:8081 proxy_protocol; real_ip_header proxy_protocol;"
    " set_real_ip_from 127.0.0.1; set_real_ip_from 10.0.0.0/24;"
)


@pytest.mark.skipif(shutil.which("nginx", path="/usr/sbin:/usr/bin") is None, reason="no nginx")
@pytest.mark.parametrize("balancer", ["", BEHIND_A_BALANCER], ids=["alone", "behind a balancer"])
def test_the_proxy_config_is_valid_nginx(tmp_path, balancer):
    config = string.Template(TEMPLATE.read_text()).safe_substitute(
        LISTEN="127.0.0.1:8080",  # -t only parses: nothing binds
        BALANCER=balancer,
        WEB_SERVERS="server 127.0.0.1:9; server 127.0.0.1:10;",
        WS_SERVERS="server 127.0.0.1:11;",
        HEAVY_SERVERS="server 127.0.0.1:12;",
        RUN_DIR=str(tmp_path),
    )
    (tmp_path / "nginx.conf").write_text(config)
    nginx = shutil.which("nginx", path="/usr/sbin:/usr/bin")

    result = subprocess.run(
        [nginx, "-t", "-e", "stderr", "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=30,
    )

    print(result.stderr)
    assert result.returncode == 0
    assert "syntax is ok" in result.stderr


def settings_variables() -> set[str]:
    """Every environment variable canfield_site/settings.py reads."""
    reads = (
        r"(?:os\.environ\.get\(|os\.getenv\(|os\.environ\[|env_\w+\()\s*[\"']([A-Z][A-Z0-9_]*)[\"']"
    )
    return set(re.findall(reads, SETTINGS))


def render(tmp_path: Path, dotenv: str) -> subprocess.CompletedProcess[str]:
    """`docker-compose config` of our docker-compose.yml beside this `.env`, in a clean
    environment (no variable of this shell may stand in for the file)."""
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    (tmp_path / ".env").write_text(dotenv)
    return subprocess.run(
        [DOCKER_COMPOSE, "--project-directory", str(tmp_path), "-f",
         str(tmp_path / "docker-compose.yml"), "config"],
        env={"PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip


def rendered_services(tmp_path: Path, dotenv: str) -> dict:
    result = render(tmp_path, dotenv)
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)["services"]


def test_settings_read_the_variables_the_readme_documents():
    variables = settings_variables()

    # The parse finds what the settings read (a regex that found nothing would prove nothing).
    assert {
        "DJANGO_SECRET_KEY",
        "DATABASE_URL",
        "POSTGRES_PASSWORD",
        "DAILY_TIME_ZONE",
    } <= variables
    assert {
        "THROTTLE_ACTIONS",
        "REQUEST_LOG_LEVEL",
        "CONN_MAX_AGE",
        "SECURE_HSTS_PRELOAD",
    } <= variables
    readme = (ROOT / "README.md").read_text()
    undocumented = {name for name in variables if f"`{name}`" not in readme}
    assert undocumented == set(), "add them to README.md's configuration table"


@needs_docker_compose
def test_every_variable_the_settings_read_reaches_the_app_containers(tmp_path):
    # given: a .env that sets every variable the settings read, each to a value of its own
    # (characters that would break a URL or a shell line included)
    values = {name: f"{name.lower()}-value@a:b/c" for name in settings_variables()}
    dotenv = "".join(f"{name}={value}\n" for name, value in sorted(values.items()))

    services = rendered_services(tmp_path, dotenv)

    # then: each app service gets exactly those values
    for name in APP_SERVICES:
        environment = services[name]["environment"]
        wrong = {k: environment.get(k) for k, v in values.items() if environment.get(k) != v}
        assert wrong == {}, f"{name}: .env values lost or overridden"
    # and the postgres service has the same account as the app
    postgres = services["postgres"]["environment"]
    for name in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"):
        assert postgres[name] == values[name]


@needs_docker_compose
def test_there_is_no_default_database_password(tmp_path):
    dotenv = (ROOT / "deploy" / "production.env.example").read_text()
    dotenv = re.sub(r"(?m)^POSTGRES_PASSWORD=.*\n", "", dotenv)

    result = render(tmp_path, dotenv)

    assert result.returncode != 0
    assert "set POSTGRES_PASSWORD in .env" in result.stderr


def ping_as_the_container(environment: dict[str, str], host: str) -> tuple[int, str]:
    """GET /api/v1/ping with this Host through the production settings, in the environment the
    rendered compose config gives `web` (Redis left out: no `redis` host here)."""
    env = {k: str(v) for k, v in environment.items() if k != "REDIS_URL"}
    env |= {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "canfield_site.settings"}
    code = (
        "from django.test import Client; "
        f"r = Client().get('/api/v1/ping', HTTP_HOST={host!r}); "
        "print(r.status_code, r.headers.get('Location', ''))"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    status, _, location = result.stdout.splitlines()[-1].partition(" ")
    return int(status), location


def make_env(tmp_path: Path, *args: str) -> str:
    """The `.env` that `make env` writes (scripts/make-env.py), as text."""
    output = tmp_path / "made.env"
    subprocess.run(
        [sys.executable, "scripts/make-env.py", "--output", str(output), *args],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=30,
    )
    return output.read_text()


def test_make_env_generates_the_secrets_and_never_overwrites(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = make_env(tmp_path / "a"), make_env(tmp_path / "b")

    for name in ("DJANGO_SECRET_KEY", "DAILY_SECRET", "POSTGRES_PASSWORD"):
        values = [re.search(rf"(?m)^{name}=(.*)$", text).group(1) for text in (first, second)]
        assert values[0] != values[1] and len(values[0]) >= 50
        assert "CHANGE" not in values[0]
    again = subprocess.run(
        [sys.executable, "scripts/make-env.py", "--output", str(tmp_path / "b" / "made.env")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert again.returncode == 1 and "not overwritten" in again.stderr
    assert (tmp_path / "b" / "made.env").read_text() == second


@needs_docker_compose
def test_make_env_as_it_is_serves_plain_http_on_localhost(tmp_path):
    # given: `make env`, as the README says, and nothing else
    web = rendered_services(tmp_path, make_env(tmp_path))["web"]["environment"]

    # then: http://localhost:8080 answers (no 400 for the host, no redirect to HTTPS), with the
    # secrets the production checks accept
    assert web["DJANGO_DEBUG"] == "0"
    assert "localhost" in web["ALLOWED_HOSTS"].split(",")
    assert ping_as_the_container(web, "localhost:8080") == (200, "")


@needs_docker_compose
def test_make_env_for_a_public_host_redirects_to_https(tmp_path):
    # given: `make env PUBLIC_HOST=play.example.com` (the example's `# public:` values;
    # tests/ops/test_settings.py checks that `check --deploy` is clean with them)
    dotenv = make_env(tmp_path, "--public", "play.example.com")

    web = rendered_services(tmp_path, dotenv)["web"]["environment"]

    assert web["SECURE_SSL_REDIRECT"] == "1"
    assert web["ALLOWED_HOSTS"] == "play.example.com"
    status, location = ping_as_the_container(web, "play.example.com")
    assert status == 301
    assert location == "https://play.example.com/api/v1/ping"
    assert ping_as_the_container(web, "localhost:8080")[0] == 400


def seconds(period: str) -> float:
    """A compose duration such as `40s` or `1m30s`, in seconds."""
    units = {"h": 3600, "m": 60, "s": 1}
    parts = re.findall(r"(\d+(?:\.\d+)?)([hms])", period)
    assert "".join(f"{n}{u}" for n, u in parts) == period, period
    return sum(float(n) * units[u] for n, u in parts)


@needs_docker_compose
def test_stopping_the_app_drains_as_the_topology_script_does(tmp_path):
    # given: the stack as `make env` sets it up
    services = rendered_services(tmp_path, make_env(tmp_path))

    # then: every app process reads one drain file, on a volume they share, and each start
    # (migrate runs before the app) removes the last stop's
    for name in ("migrate", "web", "heavy", "ws"):
        assert services[name]["environment"]["DRAIN_FILE"] == "/run/canfield/drain", name
        mounts = [volume.split(":")[:2] for volume in services[name]["volumes"]]
        assert ["run", "/run/canfield"] in mounts, name
    # (the rendered file escapes the container shell's `$` as `$$`)
    migrate = services["migrate"]["command"][2].replace("$$", "$")
    assert migrate.startswith('rm -f "$DRAIN_FILE" && ')

    # and Docker gives each server longer than its own graceful stop before it kills it:
    # gunicorn's requests in flight (web: gunicorn's default of 30 s; heavy: its
    # --graceful-timeout), uvicorn's WebSockets closed with 1012 (--timeout-graceful-shutdown)
    scripts = ROOT / "scripts"
    serve_http = (scripts / "serve-http.sh").read_text()
    heavy_timeout = re.search(r"--graceful-timeout (\d+)", (scripts / "serve-heavy.sh").read_text())
    ws_timeout = re.search(
        r"--timeout-graceful-shutdown (\d+)", (scripts / "serve-ws.sh").read_text()
    )
    assert "--graceful-timeout" not in serve_http and heavy_timeout and ws_timeout
    own = {"web": 30.0, "heavy": float(heavy_timeout[1]), "ws": float(ws_timeout[1])}
    for name, graceful in own.items():
        assert services[name]["stop_signal"] == "SIGTERM", name
        assert seconds(services[name]["stop_grace_period"]) >= graceful + 5, name
    # and nginx stops gracefully (SIGQUIT: the answers it carries finish), for as long as web
    proxy = services["proxy"]
    assert proxy["stop_signal"] == "SIGQUIT"
    assert seconds(proxy["stop_grace_period"]) >= seconds(services["web"]["stop_grace_period"])
    assert "stopsignal=QUIT" in SCRIPT
    # and the proxy starts only once the app processes answer /readyz
    for name in ("web", "heavy", "ws"):
        assert proxy["depends_on"][name]["condition"] == "service_healthy"
