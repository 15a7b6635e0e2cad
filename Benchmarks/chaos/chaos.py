#!/usr/bin/python3
"""Chaos soak of verify-server (issue 40): two instances on one PostgreSQL, steady load, seeded faults, invariants.

Loopback only. Run as root (the cluster runs as the postgres user, as .ci/run starts it). Standard library only.
See Benchmarks/README.md ("Chaos soak") for what it does and docs/reliability.md for the figures.
"""
import argparse
import base64
import csv
import io
import json
import os
import random
import shutil
import signal
import sqlite3
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import http.client

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MDL = "org.iso.18013.5.1.mDL"
NS = "org.iso.18013.5.1"
# A create's tag: the intent-to-retain bits of these elements (its sequence number modulo 1024), so a row found in
# the database is matched to the create call that stored it, also when that call got no 201.
TAG_ELEMENTS = ["family_name", "given_name", "birth_date", "issue_date", "expiry_date", "issuing_country",
                "issuing_authority", "document_number", "age_over_18", "age_over_21"]
ORIGIN = "https://chaos.example"
FORMATS = ["apple-app", "annex-c", "openid4vp"]
# Faulty responses: kit faults and the code each must produce (every format). encrypted-to-other-key's code
# depends on the format; the kit's case.json names it.
FAULTS = ["tampered-element-value", "issuer-signature-corrupted", "mso-expired", "device-signature-other-transcript",
          "untrusted-root", "encrypted-to-other-key", "status-suspended"]
KINDS = [("normal", 58), ("replay", 10), ("race", 4), ("late", 6), ("faulty", 11), ("revoked", 11)]
FAULT_CLASSES = ["kill9", "sigterm", "pg_restart", "pg_stop", "pg_hang", "trust_reload", "status_down", "status_slow"]
MERCHANT_ID = "merchant.chaos.example"
TEAM_ID = "CHAOS12345"


def now():
    return time.time()


def log(msg):
    sys.stderr.write("%s chaos: %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


def free_port(start):
    port = start
    while True:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                port += 1


class Recorder:
    """Every call and event, as JSON lines, and in memory for the checks."""

    def __init__(self, path):
        self.lock = threading.Lock()
        self.file = open(path, "w")
        self.calls = []
        self.events = []
        self.samples = []
        self.next_id = 0
        self.inflight = {}

    def begin(self, inst, op, rid=None, job=None):
        with self.lock:
            self.next_id += 1
            cid = self.next_id
            self.inflight[cid] = (inst, op, rid, job)
        return cid

    def end(self, cid, rec):
        with self.lock:
            self.inflight.pop(cid, None)
            rec["call"] = cid
            self.calls.append(rec)
            self.file.write(json.dumps(rec) + "\n")

    def inflight_on(self, inst):
        with self.lock:
            return [cid for cid, v in self.inflight.items() if v[0] == inst]

    def event(self, **rec):
        rec.setdefault("t", now())
        with self.lock:
            self.events.append(rec)
            self.file.write(json.dumps(dict(rec, record="event")) + "\n")
        return rec

    def sample(self, rec):
        with self.lock:
            self.samples.append(rec)
            self.file.write(json.dumps(dict(rec, record="sample")) + "\n")


def http_call(port, method, path, body=None, timeout=30.0):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", "Connection": "close"})
        response = conn.getresponse()
        return response.status, response.read(), None
    except Exception as error:  # a refused, reset or timed-out call: its answer is lost
        return None, None, "%s: %s" % (type(error).__name__, error)
    finally:
        conn.close()


def error_code(data):
    try:
        return json.loads(data)["error"]["code"]
    except Exception:
        return None


def report_codes(data):
    try:
        report = json.loads(data)
        report = report.get("report", report)  # /v1/inspect wraps it: {report, cbor}
        codes = [e.get("code") for e in report.get("errors", []) if isinstance(e, dict)]
        return report.get("verified"), codes
    except Exception:
        return None, []


class Postgres:
    def __init__(self, work):
        self.bin = sorted(os.listdir("/usr/lib/postgresql"), key=lambda v: [int(x) for x in v.split(".")])[-1]
        self.bin = "/usr/lib/postgresql/%s/bin" % self.bin
        self.dir = os.path.join(work, "pg")
        os.makedirs(self.dir)
        shutil.chown(self.dir, "postgres", "postgres")
        self.port = free_port(55432)
        self.url = "postgres://verify_server:verify_server@127.0.0.1:%d/verify_server?sslmode=disable" % self.port

    def su(self, command, check=True, timeout=120):
        return subprocess.run(["su", "postgres", "-s", "/bin/sh", "-c", command], check=check, timeout=timeout,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def init(self):
        self.su("'%s/initdb' -D '%s/data' -U postgres --auth-local=trust --auth-host=scram-sha-256 >'%s/initdb.log'"
                % (self.bin, self.dir, self.dir))
        self.start()
        self.psql("CREATE USER verify_server PASSWORD 'verify_server'", db="postgres")
        self.psql("CREATE DATABASE verify_server OWNER verify_server", db="postgres")

    def start(self):
        return self.su("'%s/pg_ctl' -D '%s/data' -l '%s/server.log' -w -t 60 -o \"-c listen_addresses=127.0.0.1 -p %d "
                       "-k '%s' -c max_connections=200\" start" % (self.bin, self.dir, self.dir, self.port, self.dir),
                       check=False)

    def stop(self, mode="fast"):
        return self.su("'%s/pg_ctl' -D '%s/data' -m %s -w -t 60 stop" % (self.bin, self.dir, mode), check=False)

    def restart(self):
        # Not `pg_ctl restart`: it starts the server without the log file, on pg_ctl's output.
        stop = self.stop()
        return self.start() if stop.returncode == 0 else stop

    def psql(self, sql, db="verify_server"):
        result = subprocess.run(["su", "postgres", "-s", "/bin/sh", "-c",
                                 "psql -q -X -h '%s' -p %d -U postgres -d %s -v ON_ERROR_STOP=1 -At"
                                 % (self.dir, self.port, db)], input=sql, check=True, timeout=300,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return result.stdout

    def pids(self):
        try:
            with open(os.path.join(self.dir, "data", "postmaster.pid")) as f:
                master = int(f.readline())
        except (OSError, ValueError):
            return []
        pids = [master]
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open("/proc/%s/stat" % entry) as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    if int(fields[1]) == master:
                        pids.append(int(entry))
                except (OSError, IndexError, ValueError):
                    pass
        return pids

    def signal_all(self, sig):
        pids = self.pids()
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        return len(pids)


AUDIT_SQL = """
CREATE TABLE chaos_audit (seq bigserial PRIMARY KEY, id text NOT NULL, op text NOT NULL, attempts bigint,
    policy text, created_at timestamptz, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE FUNCTION chaos_audit_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO chaos_audit (id, op, attempts, policy, created_at)
        VALUES (NEW.id, 'insert', NEW.attempts, NEW.policy, NEW.created_at);
    ELSIF NEW.attempts IS DISTINCT FROM OLD.attempts THEN
        INSERT INTO chaos_audit (id, op, attempts, created_at) VALUES (NEW.id, 'consume', NEW.attempts, NEW.created_at);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER chaos_audit AFTER INSERT OR UPDATE ON verify_requests FOR EACH ROW EXECUTE FUNCTION chaos_audit_row();
"""


SQLITE_AUDIT_SQL = """
CREATE TABLE chaos_audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, op TEXT NOT NULL, attempts INTEGER,
    policy TEXT, created_at INTEGER, at REAL);
CREATE TRIGGER chaos_audit_insert AFTER INSERT ON verify_requests BEGIN
    INSERT INTO chaos_audit (id, op, attempts, policy, created_at, at)
    VALUES (NEW.id, 'insert', NEW.attempts, NEW.policy, NEW.created_at, (julianday('now') - 2440587.5) * 86400.0);
END;
CREATE TRIGGER chaos_audit_consume AFTER UPDATE OF attempts ON verify_requests WHEN NEW.attempts IS NOT OLD.attempts BEGIN
    INSERT INTO chaos_audit (id, op, attempts, created_at, at)
    VALUES (NEW.id, 'consume', NEW.attempts, NEW.created_at, (julianday('now') - 2440587.5) * 86400.0);
END;
"""


class Instance:
    """One verify-server process, restarted by its supervisor (as systemd would) until it is ready."""

    def __init__(self, name, binary, config_path, port, work, rec):
        self.name, self.binary, self.config, self.port, self.rec = name, binary, config_path, port, rec
        self.log = open(os.path.join(work, "%s.log" % name), "ab")
        self.proc = None
        self.gen = 0
        self.lock = threading.Lock()
        self.expected_exit = False

    def spawn(self):
        self.gen += 1
        self.expected_exit = False
        self.log.write(("\n=== chaos: start %s generation %d at %s ===\n" % (self.name, self.gen, time.strftime("%H:%M:%S"))).encode())
        self.log.flush()
        self.proc = subprocess.Popen([self.binary, "--config", self.config], stdout=self.log, stderr=self.log,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        self.rec.event(kind="spawn", inst=self.name, gen=self.gen, pid=self.proc.pid)

    def readyz(self, timeout=3.0):
        status, data, _ = http_call(self.port, "GET", "/readyz", timeout=timeout)
        anchors = None
        if data:
            try:
                anchors = json.loads(data).get("trustAnchors")
            except ValueError:
                pass
        if anchors is not None:
            self.rec.event(kind="anchors", inst=self.name, anchors=anchors, status=status)
        return status, anchors

    def start_until_ready(self, limit=180.0):
        """Starts the process (again when it exits, e.g. refusing to start while the database is down); ready time."""
        begin = now()
        self.spawn()
        while now() - begin < limit:
            if self.proc.poll() is not None:
                self.rec.event(kind="start_refused", inst=self.name, gen=self.gen, rc=self.proc.returncode)
                time.sleep(1.0)
                self.spawn()
                continue
            status, _ = self.readyz(timeout=2.0)
            if status == 200:
                self.rec.event(kind="ready", inst=self.name, gen=self.gen, seconds=round(now() - begin, 3))
                return now()
            time.sleep(0.2)
        self.rec.event(kind="not_ready", inst=self.name, gen=self.gen, seconds=round(now() - begin, 3))
        return None

    def send(self, sig):
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
            return True
        return False

    def stop(self, timeout=30.0):
        if self.proc and self.proc.poll() is None:
            self.expected_exit = True
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Chaos:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.work = args.work_dir or tempfile.mkdtemp(prefix="verify-server-chaos.")
        os.makedirs(self.work, exist_ok=True)
        if not args.work_dir:
            os.chmod(self.work, 0o755)  # mkdtemp's 0700 would keep the postgres user out of pg/ below it
        self.out = args.out or os.path.join(self.work, "results")
        os.makedirs(self.out, exist_ok=True)
        self.rec = Recorder(os.path.join(self.out, "calls.jsonl"))
        self.stop_load = threading.Event()
        self.jobs = []
        self.job_threads = []
        self.jobs_lock = threading.Lock()
        self.create_seq = 0
        self.fault_threads = []
        self.faults = []
        self.locks = {k: threading.Lock() for k in ["a", "b", "pg", "trust", "status", "disk"]}
        self.mounted = False
        self.status_proc = None
        self.sim_count = 0
        self.sim_seconds = 0.0
        self.finished = False
        self.victim_seq = 0

    # ---------- set-up ----------

    def copy_binaries(self):
        source = self.args.bin_dir
        if not source:
            release = os.path.join(REPO, ".build", "release")
            have_release = all(os.path.exists(os.path.join(release, b)) for b in ["verify-server", "mdocverify"])
            source = release if have_release else os.path.join(REPO, ".build", "debug")
        bindir = os.path.join(self.work, "bin")
        os.makedirs(bindir, exist_ok=True)
        for attempt in range(10):
            try:
                for name in ["verify-server", "mdocverify"]:
                    shutil.copy2(os.path.join(source, name), os.path.join(bindir, name))
                # A binary copied while another build was linking it would not run: check both, else copy again.
                subprocess.run([os.path.join(bindir, "mdocverify"), "--version"], check=True, timeout=60,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                subprocess.run([os.path.join(bindir, "verify-server"), "--help"], check=True, timeout=60,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                break
            except (OSError, subprocess.SubprocessError) as error:
                log("copying the binaries from %s failed (%s); again in 15 s" % (source, error))
                time.sleep(15)
        else:
            raise SystemExit("chaos: no usable verify-server and mdocverify in %s" % source)
        self.server_bin = os.path.join(bindir, "verify-server")
        self.kit = os.path.join(bindir, "mdocverify")
        self.bin_source = source
        log("binaries from %s copied to %s" % (source, bindir))

    def simulate(self, args, out):
        begin = now()
        result = subprocess.run([self.kit, "simulate"] + args + ["--out", out], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, timeout=120)
        with self.jobs_lock:
            self.sim_count += 1
            self.sim_seconds += now() - begin
        if result.returncode != 0:
            raise RuntimeError("simulate failed: %s" % result.stderr.strip()[-300:])
        with open(os.path.join(out, "case.json")) as f:
            return json.load(f)

    def prepare_material(self):
        w = self.work
        subprocess.run([self.kit, "keygen", "--out", os.path.join(w, "keys")], check=True, stdout=subprocess.DEVNULL)
        self.merchant_public = os.path.join(w, "keys", "merchant-public.pem")
        self.trust_dir = os.path.join(w, "trust")
        os.makedirs(self.trust_dir)
        self.kit_anchor = os.path.join(self.trust_dir, "mdoctesting-seed-1-iaca.pem")
        self.kit_anchor_parked = os.path.join(w, "mdoctesting-seed-1-iaca.pem.removed")
        shutil.copy(os.path.join(REPO, "Certificates/test/mdoctesting-seed-1-iaca.pem"), self.kit_anchor)
        shutil.copy(os.path.join(REPO, "Certificates/test/apple-passkit-identity-test-issuer-root.pem"), self.trust_dir)
        # Status lists: 1 has the kit's index valid, 2 revoked, 3 suspended; signed under the kit's PKI.
        self.status_dir = os.path.join(w, "status")
        os.makedirs(self.status_dir)
        self.status_port = free_port(56100)
        lists = [("good", "1", []), ("revoked", "2", ["--fault", "status-revoked"]),
                 ("suspended", "3", ["--fault", "status-suspended"])]
        self.status_uri = {key: "http://127.0.0.1:%d/lists/%s" % (self.status_port, name) for key, name, _ in lists}
        for key, name, extra in lists:
            out = os.path.join(w, "list%s" % name)
            self.simulate(["apple-app", "--merchant-key", self.merchant_public, "--merchant-id", MERCHANT_ID,
                           "--team-id", TEAM_ID, "--nonce", "00", "--status-uri", self.status_uri[key]] + extra, out)
            shutil.copy(os.path.join(out, "status-list.cwt"), os.path.join(self.status_dir, "%s.cwt" % name))
            if name == "1":  # the kit IACA's CRL (revokes nothing): the hard policy needs one
                self.crl = os.path.join(w, "kit-iaca.crl")
                shutil.copy(os.path.join(out, "iaca.crl"), self.crl)
        # The device-response stream (POST /v1/inspect): one response over Annex D's session transcript.
        transcript = os.path.join(REPO, "TestVectors/iso18013-5/annex-d/session_transcript_bytes.hex")
        out = os.path.join(w, "device-response")
        self.simulate(["device-response", "--session-transcript", transcript, "--status-uri", self.status_uri["good"]], out)
        with open(os.path.join(out, "device-response.cbor"), "rb") as f:
            self.device_response = f.read().hex()
        with open(transcript) as f:
            self.transcript_hex = "".join(f.read().split())

    def start_status_server(self):
        self.status_proc = subprocess.Popen(
            [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "status_server.py"),
             str(self.status_port), self.status_dir], stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(self.work, "status.log"), "ab"), start_new_session=True)
        for _ in range(50):
            status, _, _ = http_call(self.status_port, "GET", "/lists/1", timeout=2)
            if status == 200:
                return
            time.sleep(0.1)
        raise SystemExit("chaos: the status-list server did not start")

    def write_config(self, name, port):
        config = {
            "host": "127.0.0.1", "port": port, "operatorListener": "shared", "merchantID": MERCHANT_ID, "teamID": TEAM_ID,
            "decryptionKeys": [os.path.join(self.work, "keys", "merchant-private.pem")],
            "trustStore": [self.trust_dir], "trustWatchInterval": 0, "testMode": True, "inspector": True, "legacyAPI": "on",
            "requestTTL": self.args.request_ttl,
            "storeURL": "sqlite://" + self.sqlite_path if self.args.store == "sqlite-disk-full" else self.pg.url, "storeTimeout": self.args.store_timeout,
            "maxOutstandingRequests": 1000000, "maxOutstandingRequestsPerClient": 1000000,
            "purgeInterval": 10, "revocation": "hard", "crls": [self.crl], "revocationFetch": True,
            "revocationFetchAllow": ["127.0.0.0/8"], "revocationFetchTimeout": 3, "logLevel": "info",
        }
        # All the load comes from 127.0.0.1: the per-client rate limit (where the server has one) is turned off.
        config["rateLimit"] = 0
        path = os.path.join(self.work, "%s.json" % name)
        with open(path, "w") as f:
            json.dump(config, f, indent=1)
        check = subprocess.run([self.server_bin, "--config", path, "--check-config"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=120)
        if check.returncode != 0 and "unknown key `rateLimit`" in check.stdout:
            del config["rateLimit"]
            with open(path, "w") as f:
                json.dump(config, f, indent=1)
        return path

    def setup(self):
        if os.geteuid() != 0:
            raise SystemExit("chaos: run as root (the PostgreSQL cluster runs as the postgres user)")
        self.copy_binaries()
        self.prepare_material()
        self.start_status_server()
        if self.args.store == "sqlite-disk-full":
            return self.setup_sqlite()
        self.pg = Postgres(self.work)
        self.pg.init()
        self.instances = {}
        for name in ["a", "b"]:
            port = free_port(56200 if name == "a" else 56300)
            self.instances[name] = Instance(name, self.server_bin, self.write_config(name, port), port, self.work, self.rec)
        if self.instances["a"].start_until_ready() is None:
            raise SystemExit("chaos: instance a did not become ready (see %s/a.log)" % self.work)
        self.pg.psql(AUDIT_SQL)  # the table exists now: audit every insert and every consumption
        if self.instances["b"].start_until_ready() is None:
            raise SystemExit("chaos: instance b did not become ready (see %s/b.log)" % self.work)
        _, self.anchors_full = self.instances["a"].readyz()
        threading.Thread(target=self.supervise, daemon=True).start()
        log("work folder %s; PostgreSQL on %d; instances on %d and %d; status lists on %d" % (
            self.work, self.pg.port, self.instances["a"].port, self.instances["b"].port, self.status_port))

    def setup_sqlite(self):
        """One instance on SQLite in a small tmpfs of its own, which the disk_full fault fills."""
        self.fs = os.path.join(self.work, "sqlite-fs")
        os.makedirs(self.fs)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%dk,mode=0700" % self.args.tmpfs_kib, "tmpfs", self.fs],
                       check=True)
        self.mounted = True
        self.sqlite_path = os.path.join(self.fs, "verify-server.sqlite")
        port = free_port(56200)
        self.instances = {"a": Instance("a", self.server_bin, self.write_config("a", port), port, self.work, self.rec)}
        if self.instances["a"].start_until_ready() is None:
            raise SystemExit("chaos: instance a did not become ready (see %s/a.log)" % self.work)
        db = sqlite3.connect(self.sqlite_path, timeout=10)
        db.executescript(SQLITE_AUDIT_SQL)
        db.close()
        _, self.anchors_full = self.instances["a"].readyz()
        threading.Thread(target=self.supervise, daemon=True).start()
        log("work folder %s; SQLite in a %d KiB tmpfs; instance on %d; status lists on %d" % (
            self.work, self.args.tmpfs_kib, port, self.status_port))

    def supervise(self):
        """Restarts an instance that exited when no fault stopped it (and records that as unexpected)."""
        while not self.finished:
            for inst in self.instances.values():
                with inst.lock:
                    if inst.proc.poll() is not None and not inst.expected_exit:
                        self.rec.event(kind="unexpected_exit", inst=inst.name, gen=inst.gen, rc=inst.proc.returncode)
                        inst.start_until_ready()
            time.sleep(0.5)

    # ---------- load ----------

    def policy(self, fmt, tag):
        elements = {e: bool(tag >> i & 1) for i, e in enumerate(TAG_ELEMENTS)}
        body = {"format": fmt, "documents": [{"docType": MDL, "nameSpaces": {NS: elements}}]}
        if fmt != "apple-app":
            body["origin"] = ORIGIN
        return body

    def call(self, inst, op, path, body, job, rid=None, timeout=30.0, extra=None):
        cid = self.rec.begin(inst.name, op, rid, job["job"])
        t0 = now()
        status, data, err = http_call(inst.port, "POST", path, body, timeout=timeout)
        rec = {"op": op, "inst": inst.name, "job": job["job"], "rid": rid, "t0": round(t0, 4), "t1": round(now(), 4),
               "status": status, "err": err, "kind": job["kind"], "format": job["format"]}
        if status is not None and status != 200 and status != 201:
            rec["code"] = error_code(data) if status != 422 else None
        if status == 422 or (status == 200 and op in ("verify", "replay", "inspect")):
            rec["verified"], rec["codes"] = report_codes(data)
        if job.get("fault"):
            rec["fault"] = job["fault"]
        if extra:
            rec.update(extra)
        if op == "create" and status == 201:
            rec["rid"] = json.loads(data)["requestId"]
        self.rec.end(cid, rec)
        return rec, data

    def other(self, inst):
        return self.instances.get("b" if inst.name == "a" else "a", inst)

    def create(self, job, inst):
        """Creates the job's request, retrying (a new request each time) on 503, 429 or a lost answer; the 201's body."""
        give_up = now() + self.args.retry_seconds
        while now() < give_up:
            with self.jobs_lock:
                self.create_seq += 1
                seq = self.create_seq
            tag = seq % (1 << len(TAG_ELEMENTS))
            job["policy"] = self.policy(job["format"], tag)
            rec, data = self.call(inst, "create", "/v1/requests", job["policy"], job, extra={"tag": tag})
            if rec["status"] == 201:
                return json.loads(data)
            time.sleep(self.job_rng(job).uniform(0.5, 2.0))
            inst = self.other(inst)
        return None

    def job_rng(self, job):
        return job.setdefault("_rng", random.Random("%d-%d" % (self.args.seed, job["job"])))

    def answer(self, job, created):
        folder = tempfile.mkdtemp(prefix="j%d." % job["job"], dir=self.sim_dir)
        try:
            request_file = os.path.join(folder, "request.json")
            with open(request_file, "w") as f:
                json.dump(job["policy"], f)
            lists = "revoked" if job["kind"] == "revoked" else "suspended" if job.get("fault") == "status-suspended" else "good"
            common = ["--request", request_file, "--status-uri", self.status_uri[lists]]
            if job.get("fault"):
                common += ["--fault", job["fault"]]
            out = os.path.join(folder, "out")
            fmt = job["format"]
            if fmt == "apple-app":
                # --name=value: a base64url value may start with "-".
                case = self.simulate(["apple-app", "--merchant-key", self.merchant_public, "--merchant-id", MERCHANT_ID,
                                      "--team-id", TEAM_ID, "--nonce=" + created["nonce"]] + common, out)
                with open(os.path.join(out, "response.cbor"), "rb") as f:
                    response = base64.b64encode(f.read()).decode()
            elif fmt == "annex-c":
                case = self.simulate(["annex-c", "--encryption-info=" + created["data"]["encryptionInfo"],
                                      "--origin", ORIGIN] + common, out)
                with open(os.path.join(out, "response.txt")) as f:
                    response = f.read().strip()
            else:
                dc = os.path.join(folder, "dc-request.json")
                with open(dc, "w") as f:
                    json.dump({"protocol": created["protocol"], "data": created["data"]}, f)
                case = self.simulate(["openid4vp", "--dc-request", dc, "--origin", ORIGIN] + common, out)
                with open(os.path.join(out, "response.json")) as f:
                    response = f.read().strip()
            job["expected_code"] = case["expected"].get("code")
            return response
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def verify_until_answered(self, job, body, inst, op="verify"):
        """Posts the answer until a call gets a final answer (not 503, 429 or lost), alternating instances."""
        give_up = now() + self.args.retry_seconds
        while True:
            rec, _ = self.call(inst, op, "/v1/verify", body, job, rid=body["requestId"])
            if rec["status"] is not None and rec["status"] < 500 and rec["status"] != 429:
                return rec
            if now() > give_up:
                return None
            time.sleep(self.job_rng(job).uniform(0.5, 2.0))
            inst = self.other(inst)

    def run_job(self, job):
        try:
            rng = self.job_rng(job)
            first = self.instances[job["create_on"]]
            created = self.create(job, first)
            if created is None:
                job["outcome"] = "create_gave_up"
                return
            job["rid"] = created["requestId"]
            job["expires_at"] = created["expiresAt"]
            job["created_t"] = now()
            response = self.answer(job, created)
            body = {"requestId": job["rid"], "response": response}
            verify_on = self.instances[job["verify_on"]]
            if job["kind"] == "late":
                time.sleep(max(0.0, job["created_t"] + self.args.request_ttl + 2.0 - now()))
            if job["kind"] == "race":
                results = []
                threads = [threading.Thread(target=lambda i=i: results.append(self.verify_until_answered(job, body, i)))
                           for i in (verify_on, self.other(verify_on))]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                job["outcome"] = "done"
                return
            final = self.verify_until_answered(job, body, verify_on)
            if final is None:
                job["outcome"] = "verify_gave_up"
                return
            if job["kind"] == "replay":
                time.sleep(rng.uniform(0.0, 1.0))
                self.verify_until_answered(job, body, self.other(verify_on), op="replay")
            job["outcome"] = "done"
        except Exception as error:
            job["outcome"] = "driver_error"
            job["error"] = "%s: %s" % (type(error).__name__, error)
            self.rec.event(kind="driver_error", job=job["job"], error=job["error"])

    def load(self):
        interval = 1.0 / self.args.rate
        kinds, weights = zip(*KINDS)
        due = now()
        number = 0
        limiter = threading.BoundedSemaphore(self.args.max_jobs)
        while not self.stop_load.is_set():
            due += interval
            time.sleep(max(0.0, due - now()))
            number += 1
            kind = self.rng.choices(kinds, weights)[0]
            job = {"job": number, "kind": kind, "format": self.rng.choice(FORMATS),
                   "create_on": self.rng.choice(sorted(self.instances)), "verify_on": self.rng.choice(sorted(self.instances)),
                   "fault": self.rng.choice(FAULTS) if kind == "faulty" else None, "t": now()}
            if not limiter.acquire(blocking=False):
                self.rec.event(kind="load_shed", job=number)
                continue

            def run(job=job):
                try:
                    self.run_job(job)
                finally:
                    limiter.release()

            with self.jobs_lock:
                self.jobs.append(job)
            t = threading.Thread(target=run, daemon=True)
            t.start()
            self.job_threads.append(t)

    def inspect_stream(self):
        body = {"format": "device-response", "response": self.device_response, "sessionTranscript": self.transcript_hex}
        number = 0
        while not self.stop_load.is_set():
            number += 1
            inst = self.instances[self.rng.choice(sorted(self.instances))]
            job = {"job": -number, "kind": "inspect", "format": "device-response"}
            self.call(inst, "inspect", "/v1/inspect", body, job, timeout=30)
            self.stop_load.wait(self.args.inspect_interval)

    def sampler(self):
        while not self.finished:
            for inst in self.instances.values():
                proc = inst.proc
                if proc is None or proc.poll() is not None:
                    continue
                try:
                    with open("/proc/%d/status" % proc.pid) as f:
                        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
                    fds = len(os.listdir("/proc/%d/fd" % proc.pid))
                except (OSError, StopIteration):
                    continue
                self.rec.sample({"t": now(), "inst": inst.name, "gen": inst.gen, "pid": proc.pid, "rss_kb": rss, "fds": fds})
            time.sleep(self.args.sample_seconds)

    # ---------- faults ----------

    def schedule(self):
        """The seeded fault schedule: (offset seconds, class, parameters); every class in each shuffled round."""
        frng = random.Random("faults-%d" % self.args.seed)
        duration = self.args.minutes * 60
        short = duration < 600
        if self.args.store == "sqlite-disk-full":
            return self.disk_schedule(frng, duration)
        warmup = 10 if short else 120
        cooldown = 20 if short else 150
        span = duration - warmup - cooldown
        count = max(len(FAULT_CLASSES), int(span / self.args.fault_every))
        classes = []
        while len(classes) < count:
            round_ = FAULT_CLASSES[:]
            frng.shuffle(round_)
            classes += round_
        classes = classes[:count]
        plan = []
        gap = span / count
        for i, cls in enumerate(classes):
            at = warmup + i * gap + frng.uniform(0, gap * 0.8)
            p = {}
            if cls in ("kill9", "sigterm"):
                # Instance a keeps one long life for the memory figures: faults restart it only in the last quarter.
                late = at > 0.75 * duration
                p["inst"] = frng.choice("ab") if (short or late) else "b"
                p["down"] = round(frng.uniform(0.5, 5.0), 2)
                p["victims"] = frng.randint(4, 10)  # verify calls sent to it just before the signal
                p["lead"] = round(frng.uniform(0.002, 0.03), 3)
            elif cls == "pg_stop":
                p["seconds"] = round(frng.uniform(5, 10) if short else frng.uniform(5, 30), 2)
            elif cls == "pg_hang":
                p["seconds"] = round(frng.uniform(6, 12), 2)
            elif cls == "trust_reload":
                p["hold"] = round(frng.uniform(5, 15), 2)
            elif cls in ("status_down", "status_slow"):
                p["seconds"] = round(frng.uniform(8, 15) if short else frng.uniform(10, 60), 2)
                if cls == "status_slow":
                    p["delay"] = round(frng.uniform(1, 6), 2)
            plan.append((round(at, 2), cls, p))
        return plan

    def disk_schedule(self, frng, duration):
        plan, at = [], 15.0
        while at < duration - 30:
            plan.append((round(at, 2), "disk_full", {"seconds": round(frng.uniform(5, 20), 2)}))
            at += frng.uniform(25, 45)
        return plan

    def fault_runner(self, plan):
        for at, cls, params in plan:
            delay = self.start_time + at - now()
            if delay > 0 and self.stop_load.wait(delay):
                return
            t = threading.Thread(target=self.run_fault, args=(cls, params), daemon=True)
            t.start()
            self.fault_threads.append(t)

    def run_fault(self, cls, params):
        target = params.get("inst") or {"disk_full": "disk", "pg_restart": "pg", "pg_stop": "pg", "pg_hang": "pg", "trust_reload": "trust",
                                        "status_down": "status", "status_slow": "status"}[cls]
        lock = self.locks[target]
        if not lock.acquire(timeout=60):
            self.rec.event(kind="fault_skipped", cls=cls, target=target)
            return
        try:
            fault = {"cls": cls, "target": target, "params": params, "start": now()}
            getattr(self, "fault_" + cls)(fault, params)
            fault["end"] = now()
            fault.setdefault("release", fault["end"])
            self.faults.append(fault)
            self.rec.event(kind="fault", **{k: v for k, v in fault.items() if k != "t"})
            log("fault %s on %s: %.1f s" % (cls, target, fault["end"] - fault["start"]))
        except Exception as error:
            self.rec.event(kind="fault_error", cls=cls, error="%s: %s" % (type(error).__name__, error))
            log("fault %s failed: %s" % (cls, error))
        finally:
            lock.release()

    def fault_kill9(self, fault, p):
        self.restart(fault, p, signal.SIGKILL)

    def fault_sigterm(self, fault, p):
        self.restart(fault, p, signal.SIGTERM)

    def victims(self, inst, count):
        """Requests created and answered ahead of a kill, whose verify calls to `inst` are sent just before it."""
        ready = []
        for _ in range(count):
            with self.jobs_lock:
                self.victim_seq += 1
                number = -1000000 - self.victim_seq
            job = {"job": number, "kind": "inflight", "format": self.rng.choice(FORMATS), "fault": None, "t": now()}
            created = self.create(job, self.other(inst))
            if created is None:
                continue
            job["rid"], job["expires_at"], job["created_t"] = created["requestId"], created["expiresAt"], now()
            try:
                body = {"requestId": job["rid"], "response": self.answer(job, created)}
            except Exception as error:
                job["outcome"] = "driver_error"
                job["error"] = "%s: %s" % (type(error).__name__, error)
                continue
            finally:
                with self.jobs_lock:
                    self.jobs.append(job)
            ready.append((job, body))
        return ready

    def send_victims(self, inst, ready):
        def run(job, body):
            job["outcome"] = "done" if self.verify_until_answered(job, body, inst) else "verify_gave_up"
        threads = [threading.Thread(target=run, args=v, daemon=True) for v in ready]
        for t in threads:
            t.start()
        self.job_threads.extend(threads)

    def restart(self, fault, p, sig):
        inst = self.instances[p["inst"]]
        ready = self.victims(inst, p.get("victims", 0))
        with inst.lock:
            inst.expected_exit = True
            self.send_victims(inst, ready)
            time.sleep(p.get("lead", 0.01))
            fault["inflight"] = self.rec.inflight_on(inst.name)
            fault["start"] = now()
            inst.send(sig)
            try:
                inst.proc.wait(60)
            except subprocess.TimeoutExpired:
                fault["term_timeout"] = True
                inst.send(signal.SIGKILL)
                inst.proc.wait()
            fault["exited"] = now()
            fault["rc"] = inst.proc.returncode
            time.sleep(p["down"])
            fault["release"] = now()
            ready = inst.start_until_ready()
            fault["ready_seconds"] = round(ready - fault["release"], 3) if ready else None

    def fault_pg_restart(self, fault, p):
        result = self.pg.restart()
        fault["rc"] = result.returncode
        fault["release"] = now()

    def fault_pg_stop(self, fault, p):
        fault["rc_stop"] = self.pg.stop().returncode
        time.sleep(p["seconds"])
        fault["release"] = now()
        fault["rc_start"] = self.pg.start().returncode

    def fault_pg_hang(self, fault, p):
        fault["processes"] = self.pg.signal_all(signal.SIGSTOP)
        time.sleep(p["seconds"])
        self.pg.signal_all(signal.SIGCONT)
        fault["release"] = now()

    def fault_trust_reload(self, fault, p):
        os.rename(self.kit_anchor, self.kit_anchor_parked)
        fault["removed"] = now()
        self.hup_and_wait(fault, "removed_seen", self.anchors_full - 1)
        time.sleep(p["hold"])
        os.rename(self.kit_anchor_parked, self.kit_anchor)
        fault["readded"] = now()
        self.hup_and_wait(fault, "readded_seen", self.anchors_full)
        fault["release"] = fault["readded"]

    def hup_and_wait(self, fault, key, anchors):
        fault[key] = {}
        for inst in self.instances.values():
            inst.send(signal.SIGHUP)
        deadline = now() + 45  # an instance restarted meanwhile may wait for the database
        while now() < deadline and len(fault[key]) < len(self.instances):
            for inst in self.instances.values():
                if inst.name not in fault[key]:
                    _, seen = inst.readyz(timeout=2)
                    if seen == anchors:
                        fault[key][inst.name] = now()
            time.sleep(0.1)

    def fault_disk_full(self, fault, p):
        filler = os.path.join(self.fs, "filler")
        written = 0
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            for size in (65536, 4096, 512, 1):  # to the last byte
                try:
                    while True:
                        written += os.write(fd, b"\0" * size)
                except OSError:
                    pass
        finally:
            os.close(fd)
        fault["filled_kib"] = written // 1024
        fault["start"] = now()
        time.sleep(p["seconds"])
        os.remove(filler)
        fault["release"] = now()

    def fault_status_down(self, fault, p):
        self.status_proc.terminate()
        self.status_proc.wait()
        time.sleep(p["seconds"])
        fault["release"] = now()
        self.start_status_server()

    def fault_status_slow(self, fault, p):
        with open(os.path.join(self.status_dir, "slow-seconds"), "w") as f:
            f.write(str(p["delay"]))
        self.status_proc.send_signal(signal.SIGUSR1)
        time.sleep(p["seconds"])
        self.status_proc.send_signal(signal.SIGUSR2)
        fault["release"] = now()

    # ---------- the run ----------

    def run(self):
        self.finished = False
        self.setup()
        self.sim_dir = os.path.join(self.work, "sim")
        os.makedirs(self.sim_dir, exist_ok=True)
        plan = self.schedule()
        with open(os.path.join(self.out, "schedule.json"), "w") as f:
            json.dump(plan, f, indent=1)
        self.start_time = now()
        self.rec.event(kind="load_start")
        threads = [threading.Thread(target=f, daemon=True) for f in (self.load, self.inspect_stream, self.sampler)]
        runner = threading.Thread(target=self.fault_runner, args=(plan,), daemon=True)
        for t in threads + [runner]:
            t.start()
        log("load %.1f/s for %g min, %d faults planned; output in %s" % (self.args.rate, self.args.minutes, len(plan), self.out))
        end = self.start_time + self.args.minutes * 60
        while now() < end:
            time.sleep(min(30, max(0.1, end - now())))
            if now() < end:
                log("%d jobs, %d calls, %d faults done" % (len(self.jobs), len(self.rec.calls), len(self.faults)))
        self.stop_load.set()
        self.rec.event(kind="load_stop")
        log("load stopped; waiting for faults in progress and jobs to finish")
        for t in self.fault_threads:
            t.join(180)
        drain = now() + self.args.request_ttl + self.args.retry_seconds + 60
        for t in self.job_threads:
            t.join(max(0.1, drain - now()))
        self.finished = True
        with open(os.path.join(self.out, "jobs.jsonl"), "w") as f:
            for job in self.jobs:
                f.write(json.dumps({k: v for k, v in job.items() if not k.startswith("_")}) + "\n")
        audit = self.read_audit()
        self.collect_logs()
        self.teardown()
        with self.rec.lock:
            self.rec.file.flush()
        with open(os.path.join(self.out, "audit.json"), "w") as f:
            json.dump(audit, f)
        with open(os.path.join(self.out, "run.json"), "w") as f:
            json.dump({"args": vars(self.args), "faults": self.faults, "log_findings": self.log_findings,
                       "bin_source": self.bin_source, "sim_count": self.sim_count, "sim_seconds": self.sim_seconds,
                       "command": self.command}, f)
        return audit

    def read_audit(self):
        if self.args.store == "sqlite-disk-full":
            db = sqlite3.connect(self.sqlite_path, timeout=10)
            try:
                return [{"id": r[0], "op": r[1], "attempts": r[2], "policy": r[3], "created": r[4] / 1000.0, "at": r[5]}
                        for r in db.execute("SELECT id, op, attempts, policy, created_at, at FROM chaos_audit ORDER BY seq")]
            finally:
                db.close()
        text = self.pg.psql("COPY (SELECT id, op, attempts, policy, extract(epoch FROM created_at), "
                            "extract(epoch FROM at) FROM chaos_audit ORDER BY seq) TO STDOUT WITH CSV")
        rows = []
        for id_, op, attempts, policy, created, at in csv.reader(io.StringIO(text)):
            rows.append({"id": id_, "op": op, "attempts": int(attempts), "policy": policy,
                         "created": float(created), "at": float(at)})
        return rows

    def collect_logs(self):
        self.log_findings = {}
        for name in self.instances:
            counts = {}
            with open(os.path.join(self.work, "%s.log" % name), "rb") as f:
                for raw in f:
                    line = raw.decode("utf-8", "replace")
                    for needle in ["Generic description", "Fatal error", "error", "critical", "warning"]:
                        if needle in line:
                            counts[needle] = counts.get(needle, 0) + 1
            self.log_findings[name] = counts

    def teardown(self):
        for inst in getattr(self, "instances", {}).values():
            inst.stop()
        if self.status_proc:
            self.status_proc.terminate()
        if self.mounted:
            self.mounted = subprocess.run(["umount", self.fs]).returncode != 0
        if getattr(self, "pg", None):
            self.pg.stop()
            if not self.args.keep:
                shutil.rmtree(self.pg.dir, ignore_errors=True)
        if not self.args.keep and getattr(self, "sim_dir", None):
            shutil.rmtree(self.sim_dir, ignore_errors=True)


def check_again(folder):
    """Runs the checks on a finished run's files (calls.jsonl, jobs.jsonl, audit.json, run.json)."""
    import check
    with open(os.path.join(folder, "run.json")) as f:
        run = json.load(f)
    chaos = argparse.Namespace(args=argparse.Namespace(**run["args"]), faults=run["faults"],
                               log_findings=run["log_findings"], bin_source=run["bin_source"],
                               sim_count=run["sim_count"], sim_seconds=run["sim_seconds"], command=run["command"],
                               rec=argparse.Namespace(calls=[], events=[], samples=[]), jobs=[])
    with open(os.path.join(folder, "calls.jsonl")) as f:
        for line in f:
            rec = json.loads(line)
            kind = rec.pop("record", None)
            {"event": chaos.rec.events, "sample": chaos.rec.samples}.get(kind, chaos.rec.calls).append(rec)
    with open(os.path.join(folder, "jobs.jsonl")) as f:
        chaos.jobs = [json.loads(line) for line in f]
    with open(os.path.join(folder, "audit.json")) as f:
        audit = json.load(f)
    summary = check.analyse(chaos, audit)
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    check.print_summary(summary)
    return 1 if summary["broken"] else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=6.0, help="new requests per second")
    parser.add_argument("--request-ttl", type=int, default=30)
    parser.add_argument("--store-timeout", type=float, default=5)
    parser.add_argument("--fault-every", type=float, default=75, help="mean seconds between fault starts")
    parser.add_argument("--retry-seconds", type=float, default=90, help="how long a job retries a 503 or lost answer")
    parser.add_argument("--max-jobs", type=int, default=400)
    parser.add_argument("--inspect-interval", type=float, default=2.0)
    parser.add_argument("--sample-seconds", type=float, default=5.0)
    parser.add_argument("--bin-dir", help="folder holding verify-server and mdocverify (default .build/release if "
                                          "both are there, else .build/debug)")
    parser.add_argument("--work-dir")
    parser.add_argument("--out", help="folder for calls.jsonl, summary.json (default WORK/results)")
    parser.add_argument("--keep", action="store_true", help="keep the database folder")
    parser.add_argument("--store", choices=["postgres", "sqlite-disk-full"], default="postgres",
                        help="sqlite-disk-full: one instance on SQLite in a small tmpfs that faults fill (a separate run)")
    parser.add_argument("--tmpfs-kib", type=int, default=8192)
    parser.add_argument("--check-only", metavar="RESULTS", help="check the results folder of an earlier run again")
    args = parser.parse_args()
    if args.check_only:
        sys.exit(check_again(args.check_only))
    chaos = Chaos(args)
    chaos.command = " ".join(["Benchmarks/chaos/run.sh"] + sys.argv[1:])
    try:
        audit = chaos.run()
    except BaseException:
        chaos.finished = True
        try:
            chaos.teardown()
        except Exception:
            pass
        raise
    import check
    summary = check.analyse(chaos, audit)
    with open(os.path.join(chaos.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    check.print_summary(summary)
    print("summary: %s" % os.path.join(chaos.out, "summary.json"))
    sys.exit(1 if summary["broken"] else 0)


if __name__ == "__main__":
    main()
