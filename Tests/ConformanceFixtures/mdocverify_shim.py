#!/usr/bin/env python3
"""The conformance shim for mdocverify itself: runs the `mdocverify` arguments case.json records from inside the
case folder and prints {"verdict", "codes"} from its JSON report.

Usage: mdocverify conformance run --target command -- python3 Tests/ConformanceFixtures/mdocverify_shim.py
MDOCVERIFY names the binary (default: mdocverify on PATH)."""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import mdocverify_case  # noqa: E402

report = mdocverify_case.report()
mdocverify_case.answer("accept" if report["verified"] else "reject", sorted(set(mdocverify_case.codes(report))))
