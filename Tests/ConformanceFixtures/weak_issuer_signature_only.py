#!/usr/bin/env python3
"""A deliberately weak verifier, for the conformance suite to catch: it checks only the issuer's signature over the
MSO. Built on mdocverify: a response it cannot open (input, envelope, HPKE, JWE) or whose issuerAuth signature fails
is rejected; every other failure (chain, validity, digests, device authentication, policy, revocation) is ignored."""
import json
import os
import subprocess
import sys

UNREADABLE = ("input.", "envelope.", "hpke.", "jwe.")

folder = os.environ["MDOC_CONFORMANCE_CASE_DIR"]
with open(os.path.join(folder, "case.json")) as f:
    case = json.load(f)
run = subprocess.run([os.environ.get("MDOCVERIFY", "mdocverify")] + case["mdocverify"], cwd=folder, capture_output=True, text=True)
if run.returncode not in (0, 1):
    sys.stderr.write(run.stderr)
    sys.exit(2)
report = json.loads(run.stdout)
codes = [e["code"] for e in report.get("errors", [])]
rejected = [c for c in codes if c.startswith(UNREADABLE) or c.startswith("issuer.signature") or c == "issuer.algorithm_unsupported"]
print(json.dumps({"verdict": "reject" if rejected else "accept", "codes": rejected}))
