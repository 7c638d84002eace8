"""The one way in (docs/contributing.md, "Input"): an API view reads its query with
core.api.query_read and its body with core.api.body_read (or body_object), each a DRF serializer's
`is_valid` and the one mapping of its refusals to the API's errors. No module of an API view
touches the request's input itself; the modules are found from the URLs (every DRF view the
project serves), their source read with ast."""

import ast
import inspect
import sys
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

ROOT = Path(__file__).resolve().parent.parent
# What a request holds of the client's input, by the attributes DRF and Django give it.
INPUTS = {"data", "query_params", "GET", "POST", "body", "FILES", "stream"}
# The one place that reads it.
READER = ROOT / "core" / "api.py"


def api_view_modules() -> set[Path]:
    """The source files of every DRF view of the project the URLs serve."""
    found = set()
    pending = list(get_resolver().url_patterns)
    while pending:
        entry = pending.pop()
        if isinstance(entry, URLResolver):
            pending.extend(entry.url_patterns)
            continue
        assert isinstance(entry, URLPattern)
        view = getattr(entry.callback, "cls", None) or getattr(entry.callback, "view_class", None)
        if isinstance(view, type) and issubclass(view, APIView):
            path = Path(inspect.getfile(sys.modules[view.__module__]))
            if path.is_relative_to(ROOT) and not path.relative_to(ROOT).parts[0].startswith("."):
                found.add(path)  # the project's, not a library's in .venv
    return found


def input_reads(path: Path) -> list[str]:
    """Where `path` reads a request's input itself: `request.data`, `self.request.GET`..."""
    reads = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Attribute) or node.attr not in INPUTS:
            continue
        owner = node.value
        name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", None)
        if name in {"request", "_request"}:
            reads.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    return sorted(reads, key=lambda read: int(read.split(":")[1].split()[0]))


def test_no_api_view_reads_its_input_but_through_core_api():
    # given: the modules of every API view
    modules = api_view_modules()
    names = {str(path.relative_to(ROOT)) for path in modules}
    assert {"games/api.py", "accounts/api.py", "matches/api.py", "leaderboard/api.py"} <= names

    # when
    reads = [read for path in sorted(modules - {READER}) for read in input_reads(path)]

    # then
    assert reads == []


def test_the_scan_sees_every_way_of_reading_the_input(tmp_path, monkeypatch):
    # given: a view module reading the body, the query and the raw request by hand
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    module = tmp_path / "views.py"
    module.write_text(
        "def get(self, request):\n"
        "    a = request.data\n"
        "    b = self.request.query_params.get('x')\n"
        "    c = request._request.GET\n"
        "    d = data.get('x')\n"
    )

    # when
    reads = input_reads(module)

    # then
    assert reads == ["views.py:2 .data", "views.py:3 .query_params", "views.py:4 .GET"]


def test_the_reader_is_where_the_input_is_read():
    # the scan finds what core.api reads (so a test that cannot fail would show here)
    assert {read.rsplit(" ", 1)[1] for read in input_reads(READER)} >= {
        ".data",
        ".query_params",
        ".stream",
    }
