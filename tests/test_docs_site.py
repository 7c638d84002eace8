"""The documentation site (mkdocs.yml, docs/) builds in strict mode: a broken link, a missing
anchor or a page left out of the navigation fails it."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_documentation_site_builds_strictly(tmp_path):
    mkdocs = Path(sys.executable).with_name("mkdocs")

    result = subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    pages = ("index.html", "api/index.html", "getting-started/index.html", "changelog/index.html")
    for page in pages:
        assert (tmp_path / "site" / page).is_file(), page
    changelog = (tmp_path / "site" / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Keep a Changelog" in changelog  # the snippet brought the repository's CHANGELOG.md
