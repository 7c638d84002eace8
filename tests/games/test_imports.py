"""One direction between apps: `games` announces ranked games' changes and is lent the daily
boards at start (leaderboard.apps), but no module of `games` imports `leaderboard`."""

import ast
from pathlib import Path

import games

GAMES = Path(games.__file__).parent


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_no_module_of_games_imports_leaderboard():
    sources = [p for p in GAMES.rglob("*.py") if "migrations" not in p.parts]
    assert len(sources) > 10  # the scan sees the app
    offenders = {
        str(path.relative_to(GAMES)): sorted(
            name for name in imported_modules(path) if name.split(".")[0] == "leaderboard"
        )
        for path in sources
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_scan_sees_an_import_of_leaderboard(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import os\nfrom leaderboard import services as s\n")
    assert "leaderboard" in imported_modules(module)
