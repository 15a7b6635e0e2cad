#!/usr/bin/env python3
"""Conformance shim for isomdoc (PyPI `isomdoc`, leecam/pymdoc), run by run.sh in its own virtualenv. It calls the
library's one verification function as its examples/verify_mdoc.py does: verify_device_response(device_response
bytes, session_transcript decoded from CBOR). That returns the parsed response or raises; any exception is a reject.

The function takes no trust anchors (nor a time, request, CRLs or status lists). Its example ends with "Remember to
check the issuer cert" and leaves that to the caller, so the shim does the check a caller would: each document's
Document Signer certificate (the first of its x5chain) must be issued directly by a certificate in the case's trust
file (cryptography's Certificate.verify_directly_issued_by: issuer name and signature, no validity dates).
ISOMDOC_SHIM_ISSUER_CHECK=off leaves that check out: the library call alone, as run.sh also measures it."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
import peer_case  # noqa: E402
import cbor2  # noqa: E402
from cryptography import x509  # noqa: E402
from isomdoc import verify_device_response  # noqa: E402

case = peer_case.load()
trust = [cert for name in case.files["trust"] for cert in x509.load_pem_x509_certificates(case.read(name))]
response = case.read(case.files["response"])
transcript = cbor2.loads(case.read(case.files["sessionTranscript"]))  # the API wants the decoded SessionTranscript


def issued_by_anchor(certificate):
    for anchor in trust:
        try:
            certificate.verify_directly_issued_by(anchor)
            return True
        except Exception:  # another issuer name, key type or signature: try the next anchor
            pass
    return False


check_issuer = os.environ.get("ISOMDOC_SHIM_ISSUER_CHECK") != "off"

try:
    verified = verify_device_response(response, transcript)
    for document in verified.documents if check_issuer else []:
        if not issued_by_anchor(document.issuer_signed.mso_certificate_chain[0]):
            peer_case.answer("reject", f"shim: the Document Signer of {document.doctype} is not issued by a trust anchor")
except Exception as error:  # the library raised on this input: not verified
    peer_case.answer("reject", peer_case.failure(error))
peer_case.answer("accept")
