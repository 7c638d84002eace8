"""The layers (docs/contributing.md, "Layers"): every module of every app imports only its own app,
the layers below it and, among the feature apps, the siblings listed in SIBLINGS. Imports are
read from the source (ast) wherever they are: at the top, inside functions, under `if`. Foreign
keys, which name their model in a string and so escape the scan, are read from Django's apps
registry: every key of every model points to its own app or a lower layer (no sibling either)."""

import ast
from importlib.util import resolve_name
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db.models import ForeignKey, ManyToManyField

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. `games.engine` is the pure rules (no Django, nothing else of the project):
# the words and the error shape of `core` name its cards and piles.
LAYERS = (
    ("games.engine",),
    ("core",),
    ("accounts", "keys"),
    ("games",),
    ("matches", "leaderboard", "fairplay"),
    ("web",),
    ("canfield_site",),
)
LAYER_OF = {package: n for n, packages in enumerate(LAYERS) for package in packages}
# Imports within one layer between apps, without a cycle: the boards show match ratings and
# route the match sockets; the review of a ranked game speaks to the boards and the ratings.
SIBLINGS = {
    "matches": set(),
    "leaderboard": {"matches"},
    "fairplay": {"leaderboard", "matches"},
    "accounts": set(),
    "keys": set(),
}


def owner(module: str) -> str | None:
    """The layered package `module` belongs to (the longest known prefix), None outside them."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in LAYER_OF:
            return ".".join(parts[:n])
    return None


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, at any depth; `from a import b` counts as `a.b` (a module or
    a name of `a`: `owner` reads both alike)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = resolve_name("." * node.level + base, package).rstrip(".")
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def forbidden(importer: str, imported: str) -> bool:
    if importer == imported or imported.startswith(importer + "."):
        return False  # an app's own modules (the engine's, inside games: never the reverse)
    if importer.startswith(imported + "."):
        return True  # games.engine importing the rest of games
    if LAYER_OF[imported] < LAYER_OF[importer]:
        return False
    return imported not in SIBLINGS.get(importer, set())


def key_allowed(holder: str, target: str) -> bool:
    """Whether a model of the app `holder` may hold a key to a model of `target`: its own app's,
    or a lower layer's (for keys, the siblings are no exception: a row refers down)."""
    return holder == target or LAYER_OF[target] < LAYER_OF[holder]


def upward_keys() -> list[str]:
    """Every foreign key, one-to-one or many-to-many key of a model of a layered app that
    points elsewhere than `key_allowed` lets it (the models of other packages: Django's, OAuth's,
    count as below every layer)."""
    found = []
    for model in apps.get_models():
        holder = owner(model._meta.app_config.name)
        for field in model._meta.get_fields():
            if holder is None or not isinstance(field, ForeignKey | ManyToManyField):
                continue
            target = owner(field.related_model._meta.app_config.name)
            if target is not None and not key_allowed(holder, target):
                found.append(
                    f"{model._meta.label}.{field.name} -> {field.related_model._meta.label}"
                )
    return sorted(found)


def offences() -> dict[str, list[str]]:
    found = {}
    for package in LAYER_OF:
        for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
            importer = owner(module_name(path))
            assert importer is not None
            bad = sorted(
                name
                for name in imported_modules(path)
                if (imported := owner(name)) is not None and forbidden(importer, imported)
            )
            if bad:
                found[str(path.relative_to(ROOT))] = bad
    return found


def test_every_app_imports_only_the_layers_below_it():
    # given: every module of every layered package
    sources = [path for package in LAYER_OF for path in (ROOT / package).rglob("*.py")]
    assert len(sources) > 100  # the scan sees the apps

    # when / then
    assert offences() == {}


def test_every_key_points_to_its_own_app_or_a_lower_layer():
    # given: the keys of the layered apps' models (a game's to its day, a seat's to its game, ...)
    keys = [
        field
        for model in apps.get_models()
        if owner(model._meta.app_config.name) is not None
        for field in model._meta.get_fields()
        if isinstance(field, ForeignKey | ManyToManyField)
    ]
    assert len(keys) > 20  # the check sees them

    # then
    assert upward_keys() == []


def test_the_key_rule_refuses_upward_and_sibling_keys():
    # then
    assert not key_allowed("games", "leaderboard")  # a game refers to its day, which is games'
    assert not key_allowed("games", "matches")  # a match's seat refers to its game
    assert not key_allowed("leaderboard", "matches")  # an import may go there; a key may not
    assert not key_allowed("accounts", "games")
    assert key_allowed("leaderboard", "games")
    assert key_allowed("matches", "games")
    assert key_allowed("fairplay", "accounts")
    assert key_allowed("games", "games")


def test_every_app_of_the_project_has_a_layer():
    # given: the apps of this repository that the settings install
    ours = {name.split(".")[0] for name in settings.INSTALLED_APPS if (ROOT / name).is_dir()}
    ours |= {name.split(".")[0] for name in settings.INSTALLED_APPS if name.startswith("canfield")}

    # then
    assert ours - set(LAYER_OF) == set()


def test_the_feature_apps_import_one_another_without_a_cycle():
    # given: the allowed imports between the apps of one layer
    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            step == goal or (step not in seen and reaches(step, goal, seen | {step}))
            for step in SIBLINGS[start]
        )

    # then
    assert [app for app in SIBLINGS if reaches(app, app)] == []


def test_the_scan_sees_imports_at_any_depth_and_relative_ones(tmp_path, monkeypatch):
    # given: a module of games importing upwards inside a function, relatively and absolutely
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "games").mkdir()
    module = tmp_path / "games" / "m.py"
    module.write_text(
        "import os\nfrom . import services\n\n"
        "def f():\n    if True:\n        from leaderboard.services import x\n"
        "    import matches.models\n"
    )

    # when
    imported = imported_modules(module)

    # then
    assert imported >= {"os", "games.services", "leaderboard.services.x", "matches.models"}
    upward = sorted(name for name in imported if (app := owner(name)) and forbidden("games", app))
    assert upward == ["leaderboard.services.x", "matches.models"]


def test_the_rules_refuse_upward_sibling_and_engine_imports():
    # then
    assert forbidden("core", "accounts")
    assert forbidden("accounts", "games")
    assert forbidden("games", "canfield_site")
    assert forbidden("matches", "leaderboard")  # the other direction is the allowed one
    assert forbidden("games.engine", "games")
    assert forbidden("games.engine", "core")
    assert not forbidden("core", "games.engine")
    assert not forbidden("games", "games.engine")
    assert not forbidden("leaderboard", "matches")
    assert not forbidden("web", "games")
