"""What the code and the docs cite of the docs exists: every `docs/<page>.md "Heading"` (or
`docs/<page>.md, "Heading"`, and the README's headings the same way) named in code, tests,
scripts or Markdown is a heading of that page, and every Markdown file they name is in the
repository (a clone has docs/api.md, not the contract's original beside the project)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("*.py", "*.js", "*.mjs", "*.c", "*.h", "*.html", "*.sh", "*.yaml", "*.yml", "*.toml",
        "*.template", "*.md", "Makefile", "Dockerfile", ".ci/*")  # fmt: skip
# A page, then (after an optional comma, maybe on the next comment line) a quoted heading that
# may run over comment lines.
CITED = re.compile(r'((?:[\w./-]+/)?[\w-]+\.md),?(?: |\n\s*(?:#|//|\*)?\s*)["“]([^"”]{1,120})["”]')
NAMED = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.md)\b")
QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "`": ""})


def code_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", *CODE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed if "node_modules/" not in name]


def page(name: str, cited_in: Path) -> Path | None:
    """The file a name means: from the root, in docs/, or (a link in Markdown) beside the
    citing file."""
    for candidate in (ROOT / name, ROOT / "docs" / name, cited_in.parent / name):
        if candidate.is_file():
            return candidate
    return None


def normal(text: str) -> str:
    """One line, lower case, straight quotes, no backticks, comment markers and Markdown
    emphasis dropped at line breaks inside a quoted heading."""
    text = re.sub(r"\n\s*(#|//|\*|>)?", " ", text.translate(QUOTES))
    return " ".join(text.split()).lower()


def headings(path: Path) -> set[str]:
    """The page's headings (lines that start with #, outside fenced code)."""
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif line.startswith("#") and not fenced:
            found.add(normal(line.lstrip("#")))
    return found


def cited_headings() -> list[tuple[Path, str, str]]:
    return [
        (path, *cited.groups())
        for path in code_files()
        for cited in CITED.finditer(path.read_text(encoding="utf-8", errors="replace"))
    ]


def test_every_cited_heading_exists():
    missing = []
    for path, name, heading in cited_headings():
        found = page(name, path)
        if found is None or normal(heading) not in headings(found):
            missing.append(f"{path.relative_to(ROOT)}: {name} {heading!r}")
    assert not missing, "\n".join(missing)


def test_the_references_are_found():
    # given the forms the code and the docs use (a reference test that finds none checks nothing)
    cited = {(path.relative_to(ROOT).as_posix(), name) for path, name, _ in cited_headings()}
    # then each form is read: a comment, a docstring, a comma, Markdown, the README
    assert ("games/solver/_core.c", "docs/solver.md") in cited
    assert ("accounts/management/commands/forget_oauth.py", "docs/api.md") in cited
    assert ("README.md", "docs/deploy.md") in cited
    assert ("accounts/services.py", "docs/api.md") in cited
    assert ("CHANGELOG.md", "docs/api.md") in cited
    assert normal("the “`live` board”\n  # (R32)") == 'the "live board" (r32)'


def test_every_markdown_file_named_is_in_the_repository():
    missing = []
    for path in code_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for named in NAMED.finditer(text):
            name = named.group(1)
            if page(name, path) is None:
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "\n".join(sorted(set(missing)))
