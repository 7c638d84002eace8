"""What the code cites of the docs exists: every `docs/<page>.md "Heading"` named in a comment
or docstring is a heading of that page, and every Markdown file the code names is in the
repository (a clone has docs/api.md, not the contract's original beside the project)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("*.py", "*.js", "*.mjs", "*.c", "*.html", "*.sh", "*.yaml", "*.yml", "*.toml",
        "*.template", "Makefile", "Dockerfile")  # fmt: skip
# A page, then (after an optional comma) a quoted heading that may run over comment lines.
CITED = re.compile(r'((?:[\w./-]+/)?[\w-]+\.md),? "([^"]{1,120})"')
NAMED = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.md)\b")
# Named in prose but not files of this repository: the rule book's and contract's originals
# beside it (../shared), and third-party files.
ELSEWHERE = {"CHANGELOG.md"}


def code_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", *CODE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed if not name.startswith("tests/web/node_modules")]


def page(name: str) -> Path | None:
    for candidate in (ROOT / name, ROOT / "docs" / name):
        if candidate.is_file():
            return candidate
    return None


def headings(path: Path) -> list[str]:
    return [
        " ".join(line.lstrip("#").split()).lower()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    ]


def plain(text: str) -> str:
    """A quoted heading as one line: comment markers and line breaks inside it dropped."""
    return " ".join(re.sub(r"\n\s*(#|//|\*)?", " ", text).split()).lower()


def test_every_cited_heading_exists():
    missing = []
    for path in code_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for cited in CITED.finditer(text):
            name, heading = cited.groups()
            found = page(name)
            if found is None or not any(plain(heading) in h for h in headings(found)):
                missing.append(f"{path.relative_to(ROOT)}: {name} {heading!r}")
    assert not missing, "\n".join(missing)


def test_every_markdown_file_the_code_names_is_in_the_repository():
    missing = []
    for path in code_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for named in NAMED.finditer(text):
            name = named.group(1)
            if name not in ELSEWHERE and page(name) is None:
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "\n".join(sorted(set(missing)))
