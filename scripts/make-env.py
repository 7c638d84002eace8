"""Writes `.env` for docker-compose.yml from deploy/production.env.example (`make env`).

Every CHANGE-ME value (the secret key, the daily secret, the database password) becomes a
random one of its own. With `--public HOST`, each variable with a `# public:` line takes the
value given there, for that host name (TLS in front of the proxy); without, the result serves
plain HTTP on localhost. An existing file is never overwritten.

    python3 scripts/make-env.py [--public canfield.example.org] [--output .env]
"""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "deploy" / "production.env.example"
EXAMPLE_HOST = "canfield.example.org"


def render(example: str, public_host: str | None) -> str:
    lines = []
    public: dict[str, str] = {}
    for line in example.splitlines():
        if line.startswith("# public: "):
            name, value = line.removeprefix("# public: ").split("=", 1)
            public[name] = value
        elif line and not line.startswith("#"):
            name, value = line.split("=", 1)
            if value.startswith("CHANGE-ME"):
                value = secrets.token_urlsafe(50)
            elif public_host is not None and name in public:
                value = public[name].replace(EXAMPLE_HOST, public_host)
            line = f"{name}={value}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--public", metavar="HOST", help="settings for this public host name")
    parser.add_argument("--output", type=Path, default=ROOT / ".env")
    args = parser.parse_args()
    if args.output.exists():
        print(f"{args.output} exists: not overwritten (remove it first)", file=sys.stderr)
        return 1
    args.output.write_text(render(EXAMPLE.read_text(), args.public))
    args.output.chmod(0o600)
    where = f"https://{args.public}" if args.public else "http://localhost:8080"
    print(f"wrote {args.output} with new secrets; `docker compose up --build -d` serves {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
