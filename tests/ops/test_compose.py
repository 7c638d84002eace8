"""docker-compose.yml and the no-Docker script describe the same topology, and the proxy config
they share is valid nginx (no Docker engine runs here, so this checks the files themselves)."""

import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
SCRIPT = (ROOT / "scripts" / "serve-topology.sh").read_text()


def test_compose_runs_the_whole_topology():
    assert set(SERVICES) == {"migrate", "web", "ws", "proxy", "postgres", "redis"}


def test_postgres_keeps_its_data_in_a_volume_and_reports_health():
    postgres = SERVICES["postgres"]

    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in postgres["volumes"])
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert set(COMPOSE["volumes"]) == {"pgdata"}


def test_migrate_runs_once_before_the_app_processes():
    migrate = SERVICES["migrate"]

    assert migrate["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "ws"):
        depends = SERVICES[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["redis"]["condition"] == "service_healthy"


def test_app_processes_are_those_the_script_starts():
    # The HTTP server chosen by the API's bench, and daphne for WebSockets.
    assert SERVICES["web"]["command"] == ["bash", "scripts/serve-http.sh"]
    assert "bash scripts/serve-http.sh" in SCRIPT
    ws = SERVICES["ws"]["command"]
    assert ws[0] == "daphne" and ws[-1] == "canfield_site.asgi:application"
    assert re.search(r"daphne .*canfield_site\.asgi:application", SCRIPT)
    assert "manage.py migrate --noinput" in SCRIPT


def test_app_processes_are_probed_for_readiness():
    for name in ("web", "ws"):
        probe = " ".join(SERVICES[name]["healthcheck"]["test"])
        assert "/readyz" in probe


def test_only_the_proxy_is_published_and_it_routes_to_web_and_ws():
    published = [name for name, service in SERVICES.items() if "ports" in service]
    proxy = SERVICES["proxy"]

    assert published == ["proxy"]
    assert proxy["environment"]["WEB_SERVERS"] == "server web:8000;"
    assert proxy["environment"]["WS_SERVERS"] == "server ws:8001;"
    assert SERVICES["web"]["environment"]["HTTP_BIND"] == "0.0.0.0:8000"
    assert "8001" in SERVICES["ws"]["command"]
    assert any(v.startswith("./deploy/nginx.conf.template:") for v in proxy["volumes"])


def test_production_settings_come_from_the_environment():
    env = SERVICES["web"]["environment"]

    assert env["DJANGO_DEBUG"] == "0"
    assert env["DJANGO_SECRET_KEY"].startswith("${DJANGO_SECRET_KEY:?")
    assert (
        env["DATABASE_URL"].startswith("postgres://") and "@postgres:5432/" in env["DATABASE_URL"]
    )
    assert env["REDIS_URL"] == "redis://redis:6379/0"


def test_every_template_placeholder_is_filled_by_compose_and_by_the_script():
    placeholders = set(re.findall(r"\$\{([A-Z_]+)\}", TEMPLATE.read_text()))
    compose_command = " ".join(SERVICES["proxy"]["command"])

    assert placeholders == {"LISTEN", "WEB_SERVERS", "WS_SERVERS", "RUN_DIR"}
    for name in placeholders:
        assert f"$${name}" in compose_command
        assert name in SERVICES["proxy"]["environment"]
        assert f'"{name}"' in SCRIPT


@pytest.mark.skipif(shutil.which("nginx", path="/usr/sbin:/usr/bin") is None, reason="no nginx")
def test_the_proxy_config_is_valid_nginx(tmp_path):
    config = string.Template(TEMPLATE.read_text()).safe_substitute(
        LISTEN="127.0.0.1:8080",  # -t only parses: nothing binds
        WEB_SERVERS="server 127.0.0.1:9; server 127.0.0.1:10;",
        WS_SERVERS="server 127.0.0.1:11;",
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
