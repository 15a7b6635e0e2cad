#!/usr/bin/env python3
"""The conformance shim for mdocverify itself: runs the `mdocverify` arguments case.json records from inside the
case folder and prints {"verdict", "codes"} from its JSON report.

Usage: mdocverify conformance run --target command -- python3 Tests/ConformanceFixtures/mdocverify_shim.py
MDOCVERIFY names the binary (default: mdocverify on PATH)."""
import json
import os
import subprocess
import sys

folder = os.environ["MDOC_CONFORMANCE_CASE_DIR"]
with open(os.path.join(folder, "case.json")) as f:
    case = json.load(f)
run = subprocess.run([os.environ.get("MDOCVERIFY", "mdocverify")] + case["mdocverify"], cwd=folder, capture_output=True, text=True)
if run.returncode not in (0, 1):
    sys.stderr.write(run.stderr)
    sys.exit(2)
report = json.loads(run.stdout)
codes = sorted({error["code"] for error in report.get("errors", [])})
print(json.dumps({"verdict": "accept" if report["verified"] else "reject", "codes": codes}))
