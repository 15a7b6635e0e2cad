#!/usr/bin/env python3
"""Conformance shim for pymdoccbor (PyPI `pymdoccbor`, IdentityPython/pyMDOC-CBOR), run by run.sh in its own
virtualenv. It verifies the case's device-response.cbor the way the library's README ("Verify with Certificate Chain
and Element Hashes") shows: MdocCbor().loads(bytes), then verify(trusted_root_certs=[IACA...], verify_hashes=True),
and answers with that boolean. Any exception the library raises on the input is a reject.

What the API cannot be given: the session transcript (pymdoccbor does not verify deviceAuth at all), a request,
CRLs or status lists, and a verification time. The library compares the Document Signer's validity with
datetime.now(); this shim sets that clock to the case's `at` so the library is judged at the corpus's time."""
import datetime
import logging
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import peer_case  # noqa: E402
from cryptography import x509  # noqa: E402
import pymdoccbor.mso.verifier as mso_verifier  # noqa: E402
from pymdoccbor.mdoc.verifier import MdocCbor  # noqa: E402

case = peer_case.load()


class CaseClock(datetime.datetime):
    """datetime whose now() is the case's verification time (the library has no parameter for it)."""

    @classmethod
    def now(cls, tz=None):
        return case.at.astimezone(tz) if tz else case.at.replace(tzinfo=None)


mso_verifier.datetime = CaseClock


class Reasons(logging.Handler):
    """Keeps the library's logged errors: verify() logs why a document failed and only returns False."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


reasons = Reasons()
library_log = logging.getLogger("pymdoccbor")
library_log.addHandler(reasons)
library_log.propagate = False  # its warnings (e.g. a missing namespace) would only clutter the run's stderr

trust = [cert for name in case.files["trust"] for cert in x509.load_pem_x509_certificates(case.read(name))]
response = case.read(case.files["response"])

try:
    mdoc = MdocCbor()
    mdoc.loads(response)
    valid = mdoc.verify(trusted_root_certs=trust, verify_hashes=True)
except Exception as error:  # the library raised on this input: not verified
    peer_case.answer("reject", peer_case.failure(error))
reason = (reasons.messages or ["verify() returned False"])[-1].split("documents_invalid: ", 1)[-1]
peer_case.answer("accept" if valid else "reject", None if valid else reason)
