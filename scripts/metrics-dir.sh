# Sourced by scripts/serve-http.sh, serve-heavy.sh and serve-ws.sh: with METRICS_DIR set, this
# process group counts its Prometheus metrics in files of its own, METRICS_DIR/METRICS_NAME
# (default: the host's name, unique per container), emptied first: what a previous run of this
# group left would otherwise be added again (live gauges included). `manage.py serve_metrics`
# adds up every group's files (core/metrics.py).
if [ -n "${METRICS_DIR:-}" ]; then
    export PROMETHEUS_MULTIPROC_DIR="$METRICS_DIR/${METRICS_NAME:-$(hostname)}"
    mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
    find "$PROMETHEUS_MULTIPROC_DIR" -maxdepth 1 -name '*.db' -delete
fi
