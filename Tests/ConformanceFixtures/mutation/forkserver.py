"""A fork server for the reference verifier, so a mutation run does not start Python and import `cryptography` once
per case and variant (that alone would take several minutes on two cores).

    python3 forkserver.py SOCKET_PATH

It imports refverify once, listens on a Unix socket and forks a child per connection. The child reads one JSON line
{"dir": CASE_FOLDER, "mutant": NAME}, plays that variant on that case exactly as `refverify.py CASE_FOLDER` would,
and answers one JSON line {"rc": exit status, "stdout": ..., "stderr": ...}. client.py is the command target's side.
"""
import io
import json
import os
import signal
import socket
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))

import mutants  # noqa: E402
import refverify  # noqa: E402


def serve_one(conn):
    """In the child: one request, one answer."""
    reader = conn.makefile("rb")
    request = json.loads(reader.readline().decode("utf-8"))
    mutants.select(request.get("mutant", ""))
    out, err = io.StringIO(), io.StringIO()
    sys.stdout, sys.stderr = out, err
    try:
        rc = refverify.main(["refverify.py", request["dir"]])
    except BaseException as e:  # a crash of the verifier is an error of the run, not a verdict
        err.write("forkserver: %s\n" % refverify.escaped(repr(e)))
        rc = 2
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    answer = json.dumps({"rc": rc, "stdout": out.getvalue(), "stderr": err.getvalue()}) + "\n"
    conn.sendall(answer.encode("utf-8"))


def main(path):
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(16)
    print("ready", flush=True)  # run.py waits for this line
    while True:
        conn, _ = server.accept()
        if os.fork() == 0:
            server.close()
            try:
                serve_one(conn)
            finally:
                conn.close()
                os._exit(0)
        conn.close()


if __name__ == "__main__":
    main(sys.argv[1])
