#!/usr/bin/env bash
# Browser tests drive Debian's chromium through Playwright; install it when missing and we may.
# gettext (msgfmt) comes along for editing translations (locale/translations.py); the compiled
# .mo files are committed, so running the app needs neither.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v msgfmt >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "chromium is not installed (needs root to apt-get install it); browser tests will skip" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium gettext >/dev/null
