"""The developer tooling: the lock files' freshness check, `make run`'s port check and the bench
runner's convention, each run as a user runs it (scripts in a subprocess)."""

import shutil
import socket
import subprocess
import sys
from pathlib import Path

from scripts.ports import free_port

ROOT = Path(__file__).resolve().parents[2]


def run(
    *command: str, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_the_committed_lock_files_match_pyproject():
    result = run(sys.executable, "scripts/lock.py", "--check")

    assert result.returncode == 0, result.stderr


def test_a_dependency_added_without_make_lock_fails_setup_clearly(tmp_path):
    # given: a copy of the project's lock inputs, and a range added to pyproject.toml
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "lock.py", tmp_path / "scripts")
    for name in ("requirements.lock", "requirements-dev.lock"):
        shutil.copy(ROOT / name, tmp_path)
    pyproject = (ROOT / "pyproject.toml").read_text()
    (tmp_path / "pyproject.toml").write_text(
        pyproject.replace('"pytest>=8,<9",', '"pytest>=8,<9", "rich",')
    )
    assert (tmp_path / "pyproject.toml").read_text() != pyproject

    result = run(sys.executable, "scripts/lock.py", "--check", cwd=tmp_path)

    assert result.returncode == 1
    assert "out of date" in result.stderr and "make lock" in result.stderr

    # and: an edit outside the dependency tables (tool settings) does not
    (tmp_path / "pyproject.toml").write_text(pyproject + "\n# a comment\n")
    assert run(sys.executable, "scripts/lock.py", "--check", cwd=tmp_path).returncode == 0


def test_every_locked_package_is_pinned_with_a_hash():
    for name in ("requirements.lock", "requirements-dev.lock"):
        text = (ROOT / name).read_text()
        pins = [
            line for line in text.splitlines() if line and not line[0].isspace() and line[0] != "#"
        ]
        assert pins, name
        assert all("==" in pin for pin in pins), name
        assert text.count("--hash=sha256:") >= len(pins)


def test_make_run_refuses_a_port_that_is_taken():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        result = run(sys.executable, "scripts/port-free.py", "127.0.0.1", str(port))

    assert result.returncode == 1
    assert f"port {port} on 127.0.0.1 is not free" in result.stderr
    assert run(sys.executable, "scripts/port-free.py", "127.0.0.1", str(port)).returncode == 0


def test_make_run_takes_the_port_from_port():
    result = run("make", "-n", "run", "PORT=8001")

    assert "scripts/port-free.py 127.0.0.1 8001" in result.stdout
    assert "runserver 127.0.0.1:8001" in result.stdout


def test_free_ports_are_handed_out_once_below_the_ephemeral_range(tmp_path):
    # given: a counter of its own (TMPDIR) whose next port is held by a server here
    env = {"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    held = socket.socket()
    held.bind(("127.0.0.1", free_port()))
    held.listen()
    held_port = held.getsockname()[1]
    (tmp_path / "canfield-ports").write_text(str(held_port - 10_000))
    ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    hand_out = "from scripts.ports import free_port; print(*[free_port() for _ in range(30)])"

    # when: four processes ask for 30 ports each at once, and the script for one more
    with held:
        askers = [
            subprocess.Popen(
                [sys.executable, "-c", hand_out], env=env, stdout=subprocess.PIPE, text=True
            )
            for _ in range(4)
        ]
        ports = [int(port) for asker in askers for port in asker.communicate(timeout=60)[0].split()]
        last = run(sys.executable, "scripts/ports.py", env=env)

    # then: 121 ports, each once, the held one skipped, none in the kernel's ephemeral range
    ports.append(int(last.stdout))
    assert len(ports) == len(set(ports)) == 121
    assert held_port not in ports
    assert all(10_000 <= port < ephemeral for port in ports)
    assert (tmp_path / "canfield-ports").exists()


def test_the_bench_runner_runs_each_benchmark_quick_and_prints_one_table(tmp_path):
    # given: a bench directory with the runner, a benchmark that follows the convention, one
    # that fails and one without --quick
    bench = tmp_path / "bench"
    bench.mkdir()
    shutil.copy(ROOT / "bench" / "run.py", bench)
    (bench / "fast.py").write_text(
        "import sys\n"
        "assert sys.argv[1:] == ['--quick']  # the convention: '--quick'\n"
        "print('warming up')\nprint('lookups: 1,234/s')\nprint('p99: 5.5 ms')\n"
    )
    (bench / "broken.py").write_text("import sys  # '--quick'\nsys.exit('no database')\n")
    (bench / "old.py").write_text("print('rate: 1/s')\n")

    result = run(sys.executable, str(bench / "run.py"), cwd=tmp_path)

    lines = result.stdout.splitlines()
    assert lines[0] == "| benchmark | status | s | figure |"
    assert any(line.startswith("| fast | ok |") and "lookups: 1,234/s" in line for line in lines)
    assert "|  |  |  | p99: 5.5 ms |" in lines
    assert not any("warming up" in line for line in lines)
    assert any(line.startswith("| broken | failed (1): no database |") for line in lines)
    assert any(line.startswith("| old | skipped: no --quick flag |") for line in lines)
    assert result.returncode == 1  # one failed
