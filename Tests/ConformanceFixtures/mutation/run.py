#!/usr/bin/env python3
"""Mutation testing of the conformance corpus: how many one-bug variants of the reference verifier
(../reference/refverify.py, variants in ../reference/mutants.py) does the corpus catch?

    python3 Tests/ConformanceFixtures/mutation/run.py PATH/TO/mdocverify [--corpus DIR] [--jobs N] [--only NAME]...

1. Runs `mdocverify conformance run --format device-response` against the reference itself; it must pass every case
   or say it does not apply (a curve the machine's `cryptography` lacks); else exit 2: the reference, the corpus
   or the harness is broken and no score would mean anything.
2. Runs it against each variant. A variant is killed when at least one case is wrongly accepted or wrongly
   rejected; otherwise it survives.
3. Compares the survivors with known-survivors.txt (one name a line, `# reason` comments): a survivor not listed,
   a listed name that is now killed, a listed name that is no variant, or a run that errors is a failure.

Prints each variant's outcome (with the cases that kill it), the mutation score, the survivors, and last the plain
line `N passed, M failed` (passed: killed, or survived and listed). Exit 0 when nothing failed, 1 otherwise, 2 when
the reference run itself fails or the tools are missing.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
REFVERIFY = os.path.join(HERE, "..", "reference", "refverify.py")
WRONG = ("wrongly accepted", "wrongly rejected")


def escaped(text):
    return str(text).encode("ascii", "backslashreplace").decode("ascii")


def find_python():
    """An interpreter with `cryptography` (the reference's one third-party package): this one, else Debian's."""
    for candidate in (os.environ.get("REFVERIFY_PYTHON"), sys.executable, "/usr/bin/python3"):
        if candidate and subprocess.run([candidate, "-c", "import cryptography"], capture_output=True).returncode == 0:
            return candidate
    return None


def read_known(path):
    """{name: reason} from known-survivors.txt; a reason is the `#` comment on the name's line or the comment block
    above it (names that follow one block without a blank line share it)."""
    known, pending = {}, []
    if not os.path.exists(path):
        return known
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = line.strip()
            if not text:
                pending = []
            elif text.startswith("#"):
                pending.append(text.lstrip("# "))
            else:
                name, _, comment = text.partition("#")
                known[name.strip()] = " ".join(pending + ([comment.strip()] if comment.strip() else []))
    return known


def conformance(mdocverify, corpus, jobs, command, env):
    """One `conformance run` of the device-response cases: (the JSON results, mdocverify's output)."""
    with tempfile.TemporaryDirectory(prefix="mutation-") as scratch:
        results = os.path.join(scratch, "results.json")
        args = [mdocverify, "conformance", "run", "--corpus", corpus, "--format", "device-response",
                "--target", "command", "--jobs", str(jobs), "--timeout", "30", "--json", results, "--"] + command
        run = subprocess.run(args, capture_output=True, text=True, env=env)
        if not os.path.exists(results):
            return None, run.stdout + run.stderr
        with open(results, encoding="utf-8") as f:
            return json.load(f), run.stdout + run.stderr


def wrong_cases(report):
    """The ids of the cases the target got wrong, and of those that errored."""
    wrong = [c["id"] for c in report["cases"] if c["outcome"] in WRONG]
    errors = [c["id"] for c in report["cases"] if c["outcome"] == "error"]
    return wrong, errors


def clean_reference_run(report):
    """Why a run of the reference is not clean (every case passed, or not applicable for a curve the machine's
    `cryptography` lacks), or None."""
    if report is None:
        return "no results were written"
    summary = report["summary"]
    bad = {k: v for k, v in summary.items() if k not in ("passed", "not applicable") and v}
    if bad or not summary.get("passed"):
        failing = ["%s: %s" % (c["id"], c["outcome"]) for c in report["cases"] if c["outcome"] != "passed"]
        return "summary %s; %s" % (json.dumps(summary), "; ".join(failing))
    return None


def start_server(python, env, scratch):
    """forkserver.py on a socket in `scratch`; returns (process, socket path) once it is listening."""
    path = os.path.join(scratch, "refverify.sock")
    server = subprocess.Popen([python, "-B", os.path.join(HERE, "forkserver.py"), path], stdout=subprocess.PIPE,
                              env=env, text=True)
    if server.stdout.readline().strip() != "ready":
        server.kill()
        raise RuntimeError("the fork server did not start")
    return server, path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mdocverify", help="the mdocverify binary")
    parser.add_argument("--corpus", default=os.path.join(ROOT, "TestVectors", "conformance"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--known", default=os.path.join(HERE, "known-survivors.txt"))
    parser.add_argument("--only", action="append", help="run only this variant (repeatable; for debugging)")
    args = parser.parse_args()
    started = time.monotonic()

    mdocverify = os.path.abspath(args.mdocverify)
    if not os.access(mdocverify, os.X_OK):
        print("mutation: %s is not an executable" % escaped(mdocverify))
        return 2
    python = find_python()
    if python is None:
        print("mutation: no python3 with the cryptography package (apt-get install python3-cryptography)")
        return 2
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("REFVERIFY_MUTANT", None)
    names = [line.split()[0] for line in subprocess.run([python, "-B", REFVERIFY, "--list-mutants"], env=env,
                                                        capture_output=True, text=True, check=True).stdout.splitlines()]
    if args.only:
        unknown = [n for n in args.only if n not in names]
        if unknown:
            print("mutation: no such variant: %s" % escaped(", ".join(unknown)))
            return 2
        names = [n for n in names if n in args.only]

    # 1. The reference itself, as any conformance user would run it: it must pass every case.
    report, output = conformance(mdocverify, args.corpus, args.jobs, [python, "-B", REFVERIFY], env)
    problem = clean_reference_run(report)
    if problem:
        print(escaped(output))
        print("mutation: the unmutated reference does not pass the corpus: %s" % escaped(problem))
        return 2
    cases = len(report["cases"])
    print("reference: %d of %d device-response cases passed, %d not applicable" % (
        report["summary"]["passed"], cases, report["summary"].get("not applicable", 0)))

    known = read_known(args.known)
    outcomes = {}  # name -> ("killed", [case ids]) | ("survived", []) | ("error", [case ids])
    with tempfile.TemporaryDirectory(prefix="refverify-") as scratch:
        server, socket_path = start_server(python, env, scratch)
        try:
            def client(mutant):
                return [python, "-S", "-B", os.path.join(HERE, "client.py"), socket_path, mutant]

            # The same reference through the fork server: proves the fast path answers as the plain one does.
            report, output = conformance(mdocverify, args.corpus, args.jobs, client(""), env)
            problem = clean_reference_run(report)
            if problem:
                print(escaped(output))
                print("mutation: the reference through the fork server does not pass: %s" % escaped(problem))
                return 2
            # 2. Every variant.
            for name in names:
                report, output = conformance(mdocverify, args.corpus, args.jobs, client(name), env)
                if report is None:
                    outcomes[name] = ("error", ["no results: " + output.strip()[-300:]])
                    continue
                wrong, errors = wrong_cases(report)
                outcomes[name] = ("error", errors) if errors else ("killed", wrong) if wrong else ("survived", [])
        finally:
            server.terminate()
            server.wait()

    # 3. Report.
    width = max(len(n) for n in names)
    passed, failed = 0, []
    print("\nvariant outcomes (killed by: the cases it got wrong)")
    for name in names:
        state, detail = outcomes[name]
        listed = name in known
        if state == "killed":
            note = "by " + ", ".join(c.replace("device-response/", "") for c in detail)
            if listed:
                failed.append("%s is listed in known-survivors.txt but is now killed (%s): remove it" % (name, note))
            else:
                passed += 1
        elif state == "survived":
            note = "listed: " + known[name] if listed else "NOT LISTED in known-survivors.txt"
            if listed:
                passed += 1
            else:
                failed.append("%s survives and is not in known-survivors.txt: add a case that kills it, or list it "
                              "with the reason" % name)
        else:
            note = "errors: " + "; ".join(detail)
            failed.append("%s: the run errored (%s)" % (name, "; ".join(detail)))
        print("  %-8s %-*s  %s" % (state, width, name, escaped(note)))
    stale = [n for n in known if n not in outcomes and not args.only]
    for name in stale:
        failed.append("known-survivors.txt lists %s, which is no variant (--list-mutants)" % name)

    killed = sum(1 for s, _ in outcomes.values() if s == "killed")
    survivors = [n for n in names if outcomes[n][0] == "survived"]
    print("\nmutation score: %d of %d variants killed (%.0f%%) over %d cases, in %.0f s" % (
        killed, len(names), 100.0 * killed / max(1, len(names)), cases, time.monotonic() - started))
    print("survivors (%d): %s" % (len(survivors), ", ".join(survivors) or "none"))
    for line in failed:
        print("FAILED: " + escaped(line))
    print("%d passed, %d failed" % (passed, len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
