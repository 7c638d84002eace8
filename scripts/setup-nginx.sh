#!/usr/bin/env bash
# The production topology's reverse proxy is nginx: install Debian's package when missing and we
# may (the topology and fault tests skip without it).
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "nginx is not installed (needs root to apt-get install it); topology tests will skip" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d or no init: the package's own service may not start, and we do not want it to.
apt-get install -y -qq nginx >/dev/null
