"""Stop or start programs of scripts/serve-topology.sh's supervisord and return once each has
stopped or is running, as `supervisorctl stop|start` do, printing the same `NAME: stopped` or
`NAME: started` lines.

    python scripts/programs.py RUN_DIR/supervisor.sock stop|start NAME [NAME ...]

Not `supervisorctl` itself: supervisord answers its stop or start only once the programs have
stopped or started, and while that answer waits, supervisord's loop spins on it, a core for as
long as gunicorn finishes its requests or a program starts (6-12 CPU-seconds a topology's stop
under load in CI, 2026-12-07). Here each stop or start is asked for without a wait, and the
programs' states are read every 0.1 s until each is there (at most 30 s: a program still
stopping after stopwaitsecs, 20, is killed by supervisord).
"""

from __future__ import annotations

import contextlib
import sys
import time
import xmlrpc.client

from supervisor.xmlrpc import SupervisorTransport

DONE = {"stop": {"STOPPED", "EXITED", "FATAL"}, "start": {"RUNNING", "FATAL"}}
SAID = {"stop": "stopped", "start": "started"}


def main() -> int:
    socket, action, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    transport = SupervisorTransport(serverurl=f"unix://{socket}")
    supervisor = xmlrpc.client.ServerProxy("http://127.0.0.1", transport=transport).supervisor
    call = supervisor.stopProcess if action == "stop" else supervisor.startProcess
    for name in names:
        # (a Fault: not running, or running already; its state says so below)
        with contextlib.suppress(xmlrpc.client.Fault):
            call(name, False)
    deadline = time.monotonic() + 30
    waiting, failed = list(names), False
    while waiting and time.monotonic() < deadline:
        for name in list(waiting):
            state = supervisor.getProcessInfo(name)["statename"]
            if state in DONE[action]:
                failed |= state == "FATAL" and action == "start"  # (a stop's FATAL: not running)
                print(f"{name}: {'FATAL' if state == 'FATAL' else SAID[action]}", flush=True)
                waiting.remove(name)
        if waiting:
            time.sleep(0.1)
    for name in waiting:
        print(f"{name}: not {SAID[action]} after 30 s")
    return 1 if waiting or failed else 0


if __name__ == "__main__":
    sys.exit(main())
