#!/usr/bin/env python3
"""A deliberately weak verifier, for the conformance suite to catch: it decrypts and parses the response and accepts
whatever it finds. Built on mdocverify: only failures before the mdoc checks (input, envelope, HPKE, JWE, the
OpenID4VP answer's shape) reject; every failure of the mdoc itself is ignored."""
import json
import os
import subprocess
import sys

TRANSPORT = ("input.", "envelope.", "hpke.", "jwe.", "openid4vp.", "vp_token.")

folder = os.environ["MDOC_CONFORMANCE_CASE_DIR"]
with open(os.path.join(folder, "case.json")) as f:
    case = json.load(f)
run = subprocess.run([os.environ.get("MDOCVERIFY", "mdocverify")] + case["mdocverify"], cwd=folder, capture_output=True, text=True)
if run.returncode not in (0, 1):
    sys.stderr.write(run.stderr)
    sys.exit(2)
report = json.loads(run.stdout)
unreadable = [e["code"] for e in report.get("errors", []) if e["code"].startswith(TRANSPORT)]
sys.exit(1 if unreadable else 0)
