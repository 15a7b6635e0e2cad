#!/usr/bin/python3
"""Loopback status-list server for the chaos soak: serves DIR/<name>.cwt at /lists/<name>.

SIGUSR1: answer slowly (the delay in seconds is read from DIR/slow-seconds); SIGUSR2: answer at once again.
Standard library only.
"""
import http.server
import os
import signal
import sys
import time

directory = sys.argv[2]
delay = 0.0


def slow(_signum, _frame):
    global delay
    try:
        with open(os.path.join(directory, "slow-seconds")) as f:
            delay = float(f.read().strip())
    except (OSError, ValueError):
        delay = 3.0


def fast(_signum, _frame):
    global delay
    delay = 0.0


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if delay:
            time.sleep(delay)
        name = self.path.rsplit("/", 1)[-1]
        path = os.path.join(directory, name + ".cwt")
        if not self.path.startswith("/lists/") or not name.isalnum() or not os.path.exists(path):
            self.send_error(404)
            return
        with open(path, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/statuslist+cwt")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (time.strftime("%H:%M:%S"), fmt % args))


signal.signal(signal.SIGUSR1, slow)
signal.signal(signal.SIGUSR2, fast)
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
server.daemon_threads = True
server.serve_forever()  # SIGTERM ends the process
