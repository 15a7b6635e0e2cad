#!/usr/bin/env python3
"""A deliberately weak verifier, for the conformance suite to catch: it checks only the issuer's signature over the
MSO. Built on mdocverify: a response it cannot open (input, envelope, HPKE, JWE) or whose issuerAuth signature fails
is rejected; every other failure (chain, validity, digests, device authentication, policy, revocation) is ignored."""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import mdocverify_case  # noqa: E402

UNREADABLE = ("input.", "envelope.", "hpke.", "jwe.")

codes = mdocverify_case.codes(mdocverify_case.report())
rejected = [c for c in codes if c.startswith(UNREADABLE) or c.startswith("issuer.signature") or c == "issuer.algorithm_unsupported"]
mdocverify_case.answer("reject" if rejected else "accept", rejected)
