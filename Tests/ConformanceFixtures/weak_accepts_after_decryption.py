#!/usr/bin/env python3
"""A deliberately weak verifier, for the conformance suite to catch: it decrypts and parses the response and accepts
whatever it finds. Built on mdocverify: only failures before the mdoc checks (input, envelope, HPKE, JWE, the
OpenID4VP answer's shape) reject; every failure of the mdoc itself is ignored."""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import mdocverify_case  # noqa: E402

TRANSPORT = ("input.", "envelope.", "hpke.", "jwe.", "openid4vp.", "vp_token.")

unreadable = [code for code in mdocverify_case.codes(mdocverify_case.report()) if code.startswith(TRANSPORT)]
sys.exit(1 if unreadable else 0)
