#!/usr/bin/python3
"""docs/deploy/nginx.conf in front of two verify-server instances: a rolling restart under load shows no
client-visible error (issue 47).

The test copies the given binary to a temporary folder and runs the copy, twice (instances A and B, one SQLite store
between them, on free loopback ports). It generates nginx's configuration from the shipped docs/deploy/nginx.conf
(its upstream block and server block as they are, with the instances' ports, a plain-HTTP loopback listener instead
of `listen 443 ssl` and no certificate lines) and runs Debian's nginx (/usr/sbin/nginx, package nginx-light) on it.
Four client threads then loop through nginx, for the whole test: POST /v1/transactions (201), GET
/v1/transactions/{requestId} (200), GET /healthz (200). Meanwhile instance A gets SIGTERM, is waited for, started
again and waited for on /healthz, then the same for B. Every answer that is not the expected status, and every
exception (connection reset, timeout), is a client-visible error; there must be none. It also checks the shipped
file's operator lines: through nginx /metrics, /readyz and /v1/operator/revocation answer 404, while an instance
answers /readyz itself with 200 and its status alone, and serves /metrics and the detailed /readyz only on its private
operator listener (operatorPort).

Run from anywhere (Debian's python3, standard library only):

    Tests/Deploy/nginx_rolling_restart.py <verify-server binary>

Exit status 0 when everything held; otherwise the failures, the tails of nginx's error log and of the instances'
logs are printed and the status is 1.
"""
import collections
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "docs/deploy/nginx.conf"
NGINX = "/usr/sbin/nginx"
ORIGIN = "https://shop.example"
CREATE_BODY = json.dumps({
    "format": "annex-c",
    "origin": ORIGIN,
    "documents": [{"docType": "org.iso.18013.5.1.mDL", "nameSpaces": {"org.iso.18013.5.1": {"family_name": False}}}],
}).encode()
CLIENTS = 4
CLIENT_TIMEOUT = 20  # above the example's proxy_read_timeout (15 s): nginx answers before the client gives up
START = time.monotonic()

# No proxy from the environment: every request goes straight to 127.0.0.1.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def now():
    return time.monotonic() - START


def log(message):
    print(f"[{now():6.2f}s] {message}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(url, method="GET", body=None, key=None, timeout=CLIENT_TIMEOUT):
    """The status and body of one request; an HTTP error status is an answer, not an exception."""
    headers = {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    if body is not None:
        headers["Content-Type"] = "application/json"
    try:
        with OPENER.open(urllib.request.Request(url, data=body, method=method, headers=headers), timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def wait_healthy(url, process=None, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{url}: the process exited with {process.returncode} before answering")
        try:
            if request(url, timeout=1)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer 200 within {seconds} s")


def nginx_configuration(folder, listen_port, upstream_ports):
    """The shipped example, rewritten for the test: the upstream servers' ports, a loopback plain-HTTP listener, no
    certificate lines; wrapped in a top-level configuration whose files are all under `folder`."""
    shipped = SHIPPED.read_text()
    text, count = re.subn(r"^(\s*)listen\s+443\s+ssl\s*;", rf"\g<1>listen 127.0.0.1:{listen_port};", shipped, flags=re.M)
    if count != 1:
        raise RuntimeError(f"{SHIPPED}: expected one `listen 443 ssl;`, found {count}")
    text, count = re.subn(r"^\s*ssl_certificate(_key)?\s+[^;]*;[^\n]*\n", "", text, flags=re.M)
    if count != 2:
        raise RuntimeError(f"{SHIPPED}: expected ssl_certificate and ssl_certificate_key, found {count} lines")
    upstream = re.search(r"^upstream\s+\S+\s*\{[^}]*\}", text, flags=re.M)
    if not upstream:
        raise RuntimeError(f"{SHIPPED}: no upstream block")
    servers = iter(upstream_ports)
    block, count = re.subn(r"(^\s*server\s+)[^\s;:]+:\d+", lambda m: f"{m.group(1)}127.0.0.1:{next(servers)}",
                           upstream.group(0), flags=re.M)
    if count != len(upstream_ports):
        raise RuntimeError(f"{SHIPPED}: expected {len(upstream_ports)} servers in the upstream block, found {count}")
    text = text[:upstream.start()] + block + text[upstream.end():]
    user = "user root;\n" if os.geteuid() == 0 else ""  # as root, workers would run as nobody (no access to folder)
    temp = "\n".join(f"    {name}_temp_path {folder}/{name}_temp;" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"{user}daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
            f"events {{}}\n"
            f"http {{\n    access_log {folder}/access.log;\n{temp}\n\n"
            f"    # From {SHIPPED.relative_to(ROOT)}:\n{text}\n}}\n")


def shipped_fail_timeout():
    """The largest fail_timeout (seconds) of the shipped upstream servers; nginx's default is 10 s."""
    values = re.findall(r"\bfail_timeout=(\d+)s?\b", SHIPPED.read_text())
    return max(map(int, values)) if values else 10


class Instance:
    def __init__(self, name, binary, config, port, operator_port, folder):
        self.name, self.binary, self.config, self.port, self.operator_port = name, binary, config, port, operator_port
        self.log_path = folder / f"instance-{name}.log"
        self.process = None
        self.base = f"http://127.0.0.1:{port}"
        self.operator_base = f"http://127.0.0.1:{operator_port}"

    def start(self):
        env = dict(os.environ, VERIFY_SERVER_PORT=str(self.port), VERIFY_SERVER_OPERATOR_PORT=str(self.operator_port))
        with open(self.log_path, "ab") as output:
            self.process = subprocess.Popen([self.binary, "--config", str(self.config)], cwd=ROOT, env=env,
                                            stdout=output, stderr=subprocess.STDOUT)
        started = time.monotonic()
        wait_healthy(self.base + "/healthz", self.process)
        return time.monotonic() - started

    def stop(self, timeout):
        """SIGTERM and the wait for the exit: (seconds, exit status), status None when it did not exit in time."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            status = None
        return time.monotonic() - started, status

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class Load:
    """CLIENTS threads looping create, status and healthz through nginx; every outcome is recorded."""

    def __init__(self, base, key):
        self.base, self.key = base, key
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.outcomes = []  # (time, client, what, status or None, exception text or None)
        self.threads = [threading.Thread(target=self.client, args=(n,), daemon=True) for n in range(CLIENTS)]

    def record(self, client, what, status, error=None):
        with self.lock:
            self.outcomes.append((now(), client, what, status, error))

    def call(self, client, what, *args, **kwargs):
        try:
            status, body = request(*args, **kwargs)
        except Exception as error:  # a reset, a timeout, a refused connection: all client-visible
            self.record(client, what, None, f"{type(error).__name__}: {error}")
            return None, None
        self.record(client, what, status)
        return status, body

    def client(self, n):
        while not self.stop.is_set():
            status, body = self.call(n, "create", self.base + "/v1/transactions", "POST", CREATE_BODY, self.key)
            if status == 201:
                try:
                    request_id = json.loads(body)["requestId"]
                except (ValueError, KeyError) as error:
                    self.record(n, "create-body", None, f"no requestId in {body[:200]!r}: {error}")
                else:
                    self.call(n, "status", f"{self.base}/v1/transactions/{request_id}", key=self.key)
            self.call(n, "healthz", self.base + "/healthz")

    def start(self):
        for thread in self.threads:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(CLIENT_TIMEOUT + 5)


EXPECTED = {"create": 201, "status": 200, "healthz": 200}


def upstream_errors(path):
    """nginx's error log lines about an upstream, counted by cause and request method."""
    counts = collections.Counter()
    try:
        lines = pathlib.Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return counts
    for line in lines:
        cause = re.search(r"\] \d+#\d+: \*\d+ (.*?) while ", line)
        method = re.search(r'request: "(\S+)', line)
        if cause and "upstream" in line:
            counts[f"{method.group(1) if method else '?'} {cause.group(1)}"] += 1
    return counts


def tail(path, lines=30):
    try:
        return "\n".join(pathlib.Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError as error:
        return f"({error})"


def main():
    if len(sys.argv) != 2:
        raise SystemExit(f"usage: {sys.argv[0]} <verify-server binary>")
    if not os.access(NGINX, os.X_OK):
        raise SystemExit(f"{NGINX} is missing: install Debian's nginx-light (apt-get install nginx-light)")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="verify-server-nginx-"))
    children = []
    instances = []
    load = None
    failures = []
    try:
        # The binary may be rebuilt while the test runs: run a copy.
        binary = folder / "verify-server"
        shutil.copy2(sys.argv[1], binary)

        made = subprocess.run([binary, "--new-api-key", "rolling"], capture_output=True, text=True, check=True).stdout
        key = next(line.strip() for line in made.splitlines() if line.strip().startswith("vsk_"))
        digest = re.search(r"sha256:\s*([0-9a-f]{64})", made).group(1)

        reference = subprocess.run([binary, "--print-config-reference"], capture_output=True, text=True, check=True).stdout
        config = {
            "host": "127.0.0.1", "port": 0, "testMode": True, "storeURL": f"sqlite:{folder}/store.sqlite",
            "revocationFetch": False, "logLevel": "error", "trustedProxies": ["127.0.0.1"],
            "maxConnectionsPerIP": 1024, "rateLimit": 0, "apiKeyRateLimit": 0, "shutdownGrace": 10,
            "apiKeys": [{"id": "rolling", "sha256": digest, "origins": [ORIGIN]}],
            "trustStore": [str(ROOT / "Certificates/test/mdoctesting-seed-1-iaca.pem")],
        }
        unknown = [name for name in config if f"| `{name}` |" not in reference]
        api_keys_row = next((line for line in reference.splitlines() if line.startswith("| `apiKeys` |")), "")
        unknown += [f"apiKeys.{name}" for name in ("id", "sha256", "origins") if name not in api_keys_row]
        if unknown:
            raise RuntimeError(f"keys not in --print-config-reference: {unknown}")
        config_path = folder / "verify-server.json"
        config_path.write_text(json.dumps(config))

        port_a, port_b, port_nginx = free_port(), free_port(), free_port()
        nginx_conf = folder / "nginx.conf"
        nginx_conf.write_text(nginx_configuration(folder, port_nginx, [port_a, port_b]))
        checked = subprocess.run([NGINX, "-t", "-q", "-c", str(nginx_conf), "-p", str(folder), "-e", str(folder / "error.log")],
                                 capture_output=True, text=True)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the generated configuration:\n{checked.stderr}\n{nginx_conf.read_text()}")

        instances = [Instance("A", binary, config_path, port_a, free_port(), folder),
                     Instance("B", binary, config_path, port_b, free_port(), folder)]
        for instance in instances:
            seconds = instance.start()
            log(f"instance {instance.name} up on {instance.port} ({seconds:.2f} s)")
        with open(folder / "nginx.out", "wb") as output:
            nginx = subprocess.Popen([NGINX, "-c", str(nginx_conf), "-p", str(folder), "-e", str(folder / "error.log")],
                                     stdout=output, stderr=subprocess.STDOUT)
        children.append(nginx)
        front = f"http://127.0.0.1:{port_nginx}"
        wait_healthy(front + "/healthz", nginx)
        log(f"nginx up on {port_nginx}")

        # The shipped file's operator lines: 404 through nginx, while an instance answers /readyz itself.
        for path in ("/metrics", "/readyz", "/v1/operator/revocation"):
            status, _ = request(front + path)
            if status != 404:
                failures.append(f"through nginx GET {path} answered {status}, not 404")
        for instance in instances:
            status, body = request(instance.base + "/readyz")
            if status != 200 or json.loads(body or b"{}") != {"status": "ready"}:
                failures.append(f"instance {instance.name} GET /readyz answered {status}, not 200 with its status alone: {body[:200]!r}")
            status, _ = request(instance.base + "/metrics")
            if status != 404:
                failures.append(f"instance {instance.name} GET /metrics on its public listener answered {status}, not 404")
            status, body = request(instance.operator_base + "/readyz")
            if status != 200 or b'"trustAnchors"' not in (body or b""):
                failures.append(f"instance {instance.name} operator listener GET /readyz answered {status}: {body[:200]!r}")
            status, body = request(instance.operator_base + "/metrics")
            if status != 200 or b"verify_server_http_requests_total" not in (body or b""):
                failures.append(f"instance {instance.name} operator listener GET /metrics answered {status}")

        # nginx takes a server it marked failed (max_fails) back only fail_timeout after: the next instance may be
        # stopped only then, or nginx has no live server for a moment and answers 502 without trying either.
        settle = max(2, shipped_fail_timeout() + 1)
        load = Load(front, key)
        load.start()
        log(f"load started: {CLIENTS} clients")
        time.sleep(2)
        exits = {}
        for instance in instances:
            log(f"SIGTERM to instance {instance.name}")
            seconds, status = instance.stop(timeout=config["shutdownGrace"] + 5)
            exits[instance.name] = (seconds, status)
            if status is None:
                failures.append(f"instance {instance.name} still ran {seconds:.1f} s after SIGTERM")
                instance.kill()
            elif status != 0:
                failures.append(f"instance {instance.name} exited with {status} after SIGTERM, not 0")
            log(f"instance {instance.name} exited with {status} {seconds:.2f} s after SIGTERM")
            seconds = instance.start()
            log(f"instance {instance.name} up again ({seconds:.2f} s); {settle} s for nginx to take it back")
            time.sleep(settle)
        load.finish()
        log("load stopped")
        if nginx.poll() is not None:
            failures.append(f"nginx exited with {nginx.returncode} during the test")

        outcomes = sorted(load.outcomes, key=lambda outcome: outcome[0])
        by = collections.Counter((what, status if status is not None else "exception") for _, _, what, status, _ in outcomes)
        visible = [o for o in outcomes if o[4] is not None or o[3] != EXPECTED.get(o[2])]
        print(f"requests made: {len(outcomes)}")
        for (what, status), count in sorted(by.items(), key=str):
            print(f"  {what:8} {status}: {count}")
        for name, (seconds, status) in exits.items():
            print(f"instance {name}: exit status {status}, {seconds:.2f} s after SIGTERM")
        print("nginx's upstream errors (each passed on to the other instance unless a client saw an error):")
        for reason, count in sorted(upstream_errors(folder / "error.log").items()):
            print(f"  {reason}: {count}")
        print(f"client-visible errors: {len(visible)}")
        for at, client, what, status, error in visible:
            failures.append(f"{at:6.2f}s client {client} {what}: " + (error or f"{status}, not {EXPECTED.get(what)}"))
        # A client that sat out the whole test in one request would leave the others' counts looking fine.
        if len(visible) == 0 and by[("create", 201)] < CLIENTS:
            failures.append(f"only {by[('create', 201)]} transactions were created")
    except Exception as error:
        failures.append(f"{type(error).__name__}: {error}")
    finally:
        if load is not None:
            load.stop.set()
        for process in children:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        for instance in instances:
            instance.kill()
        if failures:
            print(f"FAILED: {len(failures)} failure(s); the first 20:")
            for failure in failures[:20]:
                print(f"  {failure}")
            print(f"--- nginx error log (tail) ---\n{tail(folder / 'error.log')}")
            for instance in instances:
                print(f"--- instance {instance.name} log (tail) ---\n{tail(instance.log_path)}")
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        sys.exit(1)
    print("passed")


if __name__ == "__main__":
    main()
