"""Each entry point starts with the garbage collector paused and ends its start-up with it on
and the start-up's objects frozen (core/startup.py): a process that forgot to turn it back on
would never free a reference cycle again."""

import subprocess
import sys

import pytest

from tests.ops.test_settings import ROOT, example_env, with_secrets

# What each entry point's process reports once the project is loaded, as production starts it.
REPORT = "import gc; print(gc.isenabled(), gc.get_freeze_count())"
ENTRIES = {
    "manage.py": [sys.executable, "manage.py", "shell", "-c", REPORT],
    "wsgi": [sys.executable, "-c", f"import canfield_site.wsgi; {REPORT}"],
    "asgi": [sys.executable, "-c", f"import canfield_site.asgi; {REPORT}"],
}


def started(command: list[str]) -> str:
    """The output of `command`, run as production starts the project (its example env)."""
    run = subprocess.run(
        command,
        cwd=ROOT,
        env=with_secrets(example_env()),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize("entry", ENTRIES)
def test_start_up_ends_with_the_collector_on_and_its_objects_frozen(entry):
    output = started(ENTRIES[entry])
    # (the last line: `shell` first says what it imported automatically)
    enabled, frozen = output.splitlines()[-1].split()
    assert enabled == "True"
    # (the project's modules, classes and settings: some 190,000 objects)
    assert int(frozen) > 50_000


def test_the_collector_frees_by_itself_the_cycles_made_after_the_start_up():
    # given a process started as gunicorn's master loads the app
    code = (
        "import canfield_site.wsgi, gc, weakref\n"
        "class Node: pass\n"
        "a, b = Node(), Node(); a.other, b.other = b, a\n"
        "alive = weakref.ref(a); del a, b\n"
        "made = [[] for _ in range(10_000)]\n"
        "print(alive() is None)"
    )
    # when a reference cycle made afterwards is dropped, and the process goes on allocating
    # (the collector's own thresholds start its collections: none is asked for)
    output = started([sys.executable, "-c", code])
    # then it is freed
    assert output.split() == ["True"]
