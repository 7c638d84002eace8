"""The operator's files in deploy/: Prometheus's alert rules are valid and fire on the series
they should (promtool, from Debian's `prometheus` package), the scrape configuration is valid,
and the Grafana dashboard's every query is valid PromQL over metrics the app really exports."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client.metrics import MetricWrapperBase

from core import metrics

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana" / "canfield-dashboard.json"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="no promtool (Debian prometheus)")
# What the scrape adds beside the processes' metrics (metrics.StatusCollector), and Prometheus's.
SCRAPE_METRICS = {
    "canfield_queue_length",
    "canfield_queue_oldest_seconds",
    "canfield_database_up",
    "canfield_redis_up",
    "up",
}


def promtool(*args: str, cwd: Path = PROMETHEUS) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PROMTOOL), *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def app_metrics() -> list[MetricWrapperBase]:
    return [value for value in vars(metrics).values() if isinstance(value, MetricWrapperBase)]


def exported() -> set[str]:
    """Every series name the app's metrics produce (a histogram's _bucket, _sum and _count)."""
    names = set(SCRAPE_METRICS)
    for value in app_metrics():
        base = value._name
        if value._type == "counter":
            names.add(f"{base}_total")
        elif value._type == "histogram":
            names |= {f"{base}_bucket", f"{base}_sum", f"{base}_count"}
        else:
            names.add(base)
    return names


def dashboard_queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]


def alert_queries() -> list[str]:
    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    return [rule["expr"] for group in rules["groups"] for rule in group["rules"]]


@needs_promtool
def test_alert_rules_and_the_scrape_configuration_are_valid():
    rules = promtool("check", "rules", "alerts.yml")
    config = promtool("check", "config", "prometheus.yml")

    assert rules.returncode == 0, rules.stdout + rules.stderr
    assert "SUCCESS: 10 rules found" in rules.stdout
    assert config.returncode == 0, config.stdout + config.stderr


@needs_promtool
def test_each_alert_fires_on_its_series_and_not_on_healthy_ones():
    result = promtool("test", "rules", "alerts_test.yml")

    assert result.returncode == 0, result.stdout + result.stderr
    tested = {
        check["alertname"]
        for case in yaml.safe_load((PROMETHEUS / "alerts_test.yml").read_text())["tests"]
        for check in case["alert_rule_test"]
        if check["exp_alerts"]
    }
    assert tested >= {
        "CanfieldServerErrors", "CanfieldSlowRequests", "CanfieldLiveBatchLag",
        "CanfieldReviewQueueLong", "CanfieldReviewQueueOld", "CanfieldRedisDown",
    }  # fmt: skip


@needs_promtool
def test_every_dashboard_query_is_valid_promql(tmp_path):
    # given: the panels' queries as recording rules (promtool parses each one)
    queries = dashboard_queries()
    rules = {
        "groups": [
            {
                "name": "dashboard",
                "rules": [
                    {"record": f"dashboard:query_{n}", "expr": q} for n, q in enumerate(queries)
                ],
            }
        ]
    }
    (tmp_path / "dashboard.yml").write_text(yaml.safe_dump(rules))

    result = promtool("check", "rules", "dashboard.yml", cwd=tmp_path)

    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(queries)} rules found" in result.stdout


def test_dashboard_and_alerts_name_only_metrics_the_app_exports():
    names = exported()
    used = {
        name
        for query in dashboard_queries() + alert_queries()
        for name in re.findall(r"\b(canfield_[a-z_]+)\b", query)
    }

    assert "canfield_http_request_duration_seconds_bucket" in names
    assert used, "the queries name no metric"
    assert used <= names, used - names
    # and every metric the app exports has a panel
    panels = " ".join(dashboard_queries())
    bases = {value._name for value in app_metrics()} | SCRAPE_METRICS
    assert {base for base in bases - {"up"} if base not in panels} == set()
