#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are missing, when we may (root).
# `make test` needs chromium-headless-shell (the browser tests), chromium (Lighthouse), nginx (the production topology's proxy), gettext
# (msgfmt, for editing translations; the compiled .mo files are committed) and docker-compose
# (renders docker-compose.yml in tests/ops/test_compose.py).
# Without root, a missing package is reported and the tests that need it skip.
set -euo pipefail
missing=()
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != "0" ]; then
    echo "not installed (needs root to apt-get install): ${missing[*]}; tests needing them skip" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The nginx package's own service may not start here, and we do not want it to. docker-compose
# only renders the compose file in the tests: without the Docker engine it recommends.
apt-get install -y -qq -o APT::Install-Recommends=false "${missing[@]}" >/dev/null
