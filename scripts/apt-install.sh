#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are missing, when we may (root).
# `make test` needs chromium (browser tests), nginx (the production topology's proxy) and
# gettext (msgfmt, for editing translations; the compiled .mo files are committed).
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
# The nginx package's own service may not start here, and we do not want it to.
apt-get install -y -qq "${missing[@]}" >/dev/null
