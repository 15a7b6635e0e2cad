"""What the conformance fixtures share: run the `mdocverify` arguments the case's case.json records, from inside the
case folder (MDOC_CONFORMANCE_CASE_DIR), and hand back its JSON report.

MDOCVERIFY names the binary (default: mdocverify on PATH). A run that neither verified (0) nor rejected (1) ends the
fixture with exit 2 and mdocverify's stderr, which the conformance runner reports as a tool failure."""
import json
import os
import subprocess
import sys


def report():
    """The JSON report mdocverify writes for this case."""
    folder = os.environ["MDOC_CONFORMANCE_CASE_DIR"]
    with open(os.path.join(folder, "case.json")) as f:
        case = json.load(f)
    run = subprocess.run([os.environ.get("MDOCVERIFY", "mdocverify")] + case["mdocverify"], cwd=folder,
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.stderr.write(run.stderr)
        sys.exit(2)
    return json.loads(run.stdout)


def codes(report):
    """The error codes of a report, in order, repeats kept."""
    return [error["code"] for error in report.get("errors", [])]


def answer(verdict, codes):
    """Prints the shim's answer: {"verdict": "accept"|"reject", "codes": [...]}."""
    print(json.dumps({"verdict": verdict, "codes": codes}))
