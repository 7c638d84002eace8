"""Exit 1 with a clear message when HOST:PORT is already taken (`make run PORT=...` checks first:
the development server would otherwise keep running while another server answers)."""

import socket
import sys

host, port = sys.argv[1], int(sys.argv[2])
with socket.socket() as sock:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT is free
    try:
        sock.bind((host, port))
    except OSError as error:
        sys.exit(f"port {port} on {host} is not free ({error.strerror}): try `make run PORT=8001`")
