#!/usr/bin/env python3
"""An independent reference verifier for the conformance corpus's `device-response` format: a bare ISO/IEC 18013-5
DeviceResponse and its SessionTranscript, verified at the case's `at` time against the case's trust anchors.

It is written from the standards (ISO/IEC 18013-5 §8.3.2.1.2.2, §9.1.2-§9.1.3, §9.3 and Annex B; RFC 9052; RFC 5280;
draft-ietf-oauth-status-list), not from this project's Swift code, so the corpus can be checked against a second
verifier and its variants (mutants.py) can measure what the corpus catches.

Usage, as a conformance command target (exit 0 accept, 1 reject, and one JSON line {"verdict", "code"}):
    mdocverify conformance run --corpus TestVectors/conformance --format device-response --target command \\
        -- python3 Tests/ConformanceFixtures/reference/refverify.py
    python3 refverify.py CASE_FOLDER        verify one case folder (instead of MDOC_CONFORMANCE_CASE_DIR)
    python3 refverify.py --list-mutants     the one-bug variants, name and description
REFVERIFY_MUTANT=<name> plays one variant. REFVERIFY_DEBUG=1 prints the reason (and any traceback) on stderr.

Inputs it reads from case.json: `at`, `requires` (revocation is checked when it lists "revocation"), and `files`:
response, sessionTranscript, trust, crls, statusLists, request (the request policy applies when present) and a
reader's private key for deviceMac (`readerKey`, or `privateKey`; PKCS#8 PEM). It never reads the expected verdict.
"""
import datetime
import hashlib
import json
import os
import sys
import traceback

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cryptography.exceptions import UnsupportedAlgorithm  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.hazmat.primitives.kdf.hkdf import HKDF  # noqa: E402

import cbor  # noqa: E402
import cose  # noqa: E402
import mutants  # noqa: E402
import status  # noqa: E402
import x509check  # noqa: E402

DIGESTS = {"SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512"}
WEAK_DIGESTS = {"SHA-1": "sha1", "MD5": "md5"}
MDL_NAMESPACE = "org.iso.18013.5.1"
KNOWN_KEYS = {
    "DeviceResponse": {"version", "documents", "documentErrors", "status"},
    "Document": {"docType", "issuerSigned", "deviceSigned", "errors"},
    "MobileSecurityObject": {"version", "digestAlgorithm", "valueDigests", "deviceKeyInfo", "docType",
                             "validityInfo", "status"},
    "IssuerSignedItem": {"digestID", "random", "elementIdentifier", "elementValue"},
}
# ISO/IEC 18013-5 §7.2.1, Table 5: the mDL data elements whose type is one CBOR major type.
TEXT_ELEMENTS = {"family_name", "given_name", "issuing_country", "issuing_authority", "document_number",
                 "un_distinguishing_sign", "administrative_number", "eye_colour", "hair_colour", "birth_place",
                 "resident_address", "issuing_jurisdiction", "nationality", "resident_city", "resident_state",
                 "resident_postal_code", "resident_country", "family_name_national_character",
                 "given_name_national_character"}
UINT_ELEMENTS = {"sex", "height", "weight", "age_in_years", "age_birth_year"}
BYTES_ELEMENTS = {"portrait", "signature_usual_mark"}
FULL_DATE_ELEMENTS = {"birth_date"}
DATE_ELEMENTS = {"issue_date", "expiry_date", "portrait_capture_date"}
AGE_DERIVED = {"age_in_years", "age_birth_year", "birth_date"}


class Reject(Exception):
    """The response fails; `code` is this verifier's own short reason (not the product's codes)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def escaped(text):
    """Text safe for a log line: anything outside printable ASCII as a Python escape."""
    return str(text).encode("ascii", "backslashreplace").decode("ascii").replace("\n", "\\n").replace("\r", "\\r")


def rfc3339(text):
    """Seconds since 1970 for an RFC 3339 date-time with Z or an offset."""
    if not isinstance(text, str):
        raise ValueError("not a date-time string")
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError("date-time without a time zone")
    return moment.timestamp()


def tdate(value, what):
    """A tdate (#6.0(tstr)) in seconds."""
    if not isinstance(value, cbor.Tag) or value.tag != 0:
        raise Reject("mso.malformed", "%s is not a tdate" % what)
    try:
        return rfc3339(value.value)
    except ValueError:
        raise Reject("mso.malformed", "%s is not an RFC 3339 date-time" % what)


def major_version_1(version):
    """Major version 1: "1.0" today; a later 1.x only adds what a 1.0 reader may ignore."""
    return isinstance(version, str) and version.startswith("1.")


def need(condition, code, message):
    if not condition:
        raise Reject(code, message)


def embedded(tagged, code, what):
    """The item a tag-24 byte string holds (its bytes as received stay in `tagged.value` for hashing)."""
    need(isinstance(tagged, cbor.Tag) and tagged.tag == 24, code, what + " is not tag-24 wrapped")
    try:
        return cbor.loads(tagged.value)
    except cbor.CBORError as e:
        raise Reject("cbor.malformed", str(e))


def check_known_keys(value, structure):
    """Unknown keys are ignored (§8.3.2.1.2 extensibility); only the variant that forgets it rejects them."""
    if mutants.active("unknown-keys-rejected"):
        extra = set(value) - KNOWN_KEYS[structure]
        need(not extra, "cbor.unknown_key", "%s has unknown keys" % structure)


class Case:
    """The inputs of one case folder."""

    def __init__(self, folder):
        self.folder = folder
        with open(os.path.join(folder, "case.json"), encoding="utf-8") as f:
            meta = json.load(f)
        files = meta["files"]
        self.at = rfc3339(meta["at"])
        self.revocation = "revocation" in meta.get("requires", [])

        def path(name):
            return os.path.join(folder, name)

        with open(path(files["response"]), "rb") as f:
            self.response = f.read()
        with open(path(files["sessionTranscript"]), "rb") as f:
            self.transcript = f.read()
        self.anchors = [c for name in files.get("trust", []) for c in x509check.load_pem_certificates(path(name))]
        self.crls = [path(name) for name in files.get("crls", [])]
        self.tokens = status.load_tokens([path(name) for name in files.get("statusLists", [])])
        self.request = None
        if files.get("request"):
            with open(path(files["request"]), encoding="utf-8") as f:
                self.request = json.load(f)
        self.reader_key = None
        key_file = files.get("readerKey") or files.get("privateKey")
        if key_file:
            with open(path(key_file), "rb") as f:
                self.reader_key = serialization.load_pem_private_key(f.read(), password=None)


def verify(case):
    """Raises Reject for a response that fails; returns for one that verifies."""
    try:
        response = cbor.loads(case.response)
        transcript = cbor.loads(case.transcript)
    except cbor.CBORError as e:
        raise Reject("cbor.malformed", str(e))
    need(isinstance(transcript, list) and len(transcript) == 3, "transcript.malformed",
         "the SessionTranscript is not a three-element array")
    need(isinstance(response, dict), "response.malformed", "the DeviceResponse is not a map")
    check_known_keys(response, "DeviceResponse")
    need(major_version_1(response.get("version")) or mutants.active("response-version-unchecked"),
         "response.version", "DeviceResponse version is not 1.x")
    need(response.get("status") == 0 or mutants.active("response-status-ignored"), "response.status",
         "DeviceResponse status is not 0 (OK)")
    documents = response.get("documents")
    need(isinstance(documents, list) and documents, "response.no_documents", "the DeviceResponse returns no document")
    # §8.3.2.1.2.2: documentErrors lists the docTypes that could not be returned; one that is also returned conflicts.
    errors = response.get("documentErrors", [])
    need(isinstance(errors, list), "response.malformed", "documentErrors is not an array")
    failed = {doc_type for entry in errors if isinstance(entry, dict) for doc_type in entry}
    returned = [d.get("docType") if isinstance(d, dict) else None for d in documents]
    need(not (failed & set(returned)) or mutants.active("document-errors-ignored"), "response.malformed",
         "documentErrors names a docType that is also returned")
    # The same issuer-signed document twice is a malformed response, whatever the request.
    seen = []
    for document in documents:
        need(isinstance(document, dict), "response.malformed", "a Document is not a map")
        issuer_signed = document.get("issuerSigned")
        auth = issuer_signed.get("issuerAuth") if isinstance(issuer_signed, dict) else None
        need(auth not in seen or mutants.active("duplicate-document-allowed"), "response.malformed",
             "the same Document is returned twice")
        seen.append(auth)
    disclosed = [verify_document(document, case) for document in documents]
    if case.request is not None:
        check_request_policy(disclosed, case.request)


def verify_document(document, case):
    """One Document: issuerAuth, chain, MSO, digests, element types, device authentication, revocation.

    Returns (docType, {namespace: [elementIdentifier, ...]} issuer-signed, the same device-signed)."""
    check_known_keys(document, "Document")
    doc_type = document.get("docType")
    need(isinstance(doc_type, str), "document.malformed", "docType is not text")
    issuer_signed = document.get("issuerSigned")
    need(isinstance(issuer_signed, dict), "document.malformed", "issuerSigned is missing")
    try:
        issuer_auth = cose.Message(issuer_signed.get("issuerAuth"), "issuerAuth")
        cose.check_headers(issuer_auth, "issuer")
        cose.algorithm(issuer_auth, "issuer")
    except (cose.COSEError, cbor.CBORError) as e:
        raise Reject("issuer.cose", str(e))

    # The MSO: MobileSecurityObjectBytes = #6.24(bstr .cbor MobileSecurityObject), attached to issuerAuth.
    try:
        wrapped = cbor.loads(issuer_auth.payload or b"")
        need(isinstance(wrapped, cbor.Tag) and wrapped.tag == 24, "mso.malformed", "the MSO is not tag-24 wrapped")
        mso = cbor.loads(wrapped.value)
    except cbor.CBORError as e:
        raise Reject("mso.malformed", str(e))
    need(isinstance(mso, dict), "mso.malformed", "the MSO is not a map")
    check_known_keys(mso, "MobileSecurityObject")
    validity = mso.get("validityInfo")
    need(isinstance(validity, dict), "mso.malformed", "validityInfo is missing")
    signed = tdate(validity.get("signed"), "validityInfo.signed")
    valid_from = tdate(validity.get("validFrom"), "validityInfo.validFrom")
    valid_until = tdate(validity.get("validUntil"), "validityInfo.validUntil")

    # The Document Signer: issued by a trust anchor, Annex B profile, valid now; then the signature over the MSO.
    try:
        signer, anchor = x509check.document_signer_chain(issuer_auth.header(cose.LABEL_X5CHAIN), case.anchors,
                                                         case.at, signed)
    except x509check.TrustError as e:
        raise Reject("issuer.chain", str(e))
    if not mutants.active("issuer-signature-unchecked"):
        developer = mutants.active("issuer-zero-signature-accepted") and not any(issuer_auth.tag)
        if not developer:  # BUG in that variant: an all-zero signature passes as mock data.
            try:
                cose.verify_signature(issuer_auth, signer.public_key(), "issuer")
            except cose.COSEError as e:
                raise Reject("issuer.signature", str(e))
    if case.revocation:
        try:
            x509check.check_crl(signer, anchor, case.crls, case.at)
        except x509check.TrustError as e:
            raise Reject("issuer.revoked" if not e.unknown else "revocation.unknown", str(e))

    # The MSO's own rules (§9.1.2.4, §9.3.1).
    need(major_version_1(mso.get("version")) or mutants.active("mso-version-unchecked"), "mso.version",
         "the MSO version is not 1.x")
    names = dict(DIGESTS)
    if mutants.active("digest-alg-sha1-accepted"):
        names.update(WEAK_DIGESTS)
    algorithm = mso.get("digestAlgorithm")
    if algorithm not in names and mutants.active("digest-alg-unchecked"):
        algorithm = "SHA-256"  # BUG: an unknown name is read as the usual algorithm.
    need(algorithm in names, "mso.digest_algorithm", "digestAlgorithm is not SHA-256, SHA-384 or SHA-512")
    need(mso.get("docType") == doc_type or mutants.active("mso-doctype-unchecked"), "mso.doctype",
         "the MSO's docType is not the Document's")
    skew = 3600 if mutants.active("mso-validity-skew-hour") else 0
    need(valid_from <= valid_until, "mso.validity", "validFrom is after validUntil")
    need(case.at + skew >= valid_from or mutants.active("mso-valid-from-unchecked"), "mso.not_yet_valid",
         "the MSO is not valid yet")
    need(case.at - skew <= valid_until or mutants.active("mso-valid-until-unchecked"), "mso.expired",
         "the MSO has expired")
    if not mutants.active("mso-signed-unchecked"):
        need(valid_from >= signed, "mso.signed", "validFrom is before signed")
        need(x509check.epoch(signer.not_valid_before) <= signed <= x509check.epoch(signer.not_valid_after),
             "mso.signed", "the MSO was signed outside the Document Signer's validity")

    issuer_elements = check_issuer_items(issuer_signed.get("nameSpaces", {}), mso, names[algorithm])
    device_elements = check_device_signed(document, doc_type, mso, case)
    if case.revocation:
        try:
            status.check_status(mso.get("status"), case.tokens, anchor, case.anchors, case.at)
        except status.StatusError as e:
            raise Reject("status", str(e))
    return doc_type, issuer_elements, device_elements


def check_issuer_items(namespaces, mso, hash_name):
    """§9.1.2.5, §9.3.1: each IssuerSignedItemBytes hashes, as received, to its digestID's value digest."""
    need(isinstance(namespaces, dict), "document.malformed", "issuerSigned nameSpaces is not a map")
    value_digests = mso.get("valueDigests")
    need(isinstance(value_digests, dict), "mso.malformed", "valueDigests is missing")
    disclosed = {}
    for namespace, items in namespaces.items():
        need(isinstance(namespace, str) and isinstance(items, list) and items, "document.malformed",
             "an issuer-signed namespace is not a non-empty array")
        digests = value_digests.get(namespace, {})
        need(isinstance(digests, dict), "mso.malformed", "valueDigests of a namespace is not a map")
        ids, elements = [], []
        for item_bytes in items:
            item = embedded(item_bytes, "document.malformed", "an IssuerSignedItem")
            need(isinstance(item, dict), "document.malformed", "an IssuerSignedItem is not a map")
            check_known_keys(item, "IssuerSignedItem")
            digest_id, identifier = item.get("digestID"), item.get("elementIdentifier")
            need(isinstance(digest_id, int) and not isinstance(digest_id, bool) and digest_id >= 0,
                 "document.malformed", "digestID is not an unsigned integer")
            need(isinstance(identifier, str) and "elementValue" in item, "document.malformed",
                 "an IssuerSignedItem has no elementIdentifier or elementValue")
            need(isinstance(item.get("random"), bytes) and len(item["random"]) >= 16, "document.malformed",
                 "an IssuerSignedItem's random is not at least 16 bytes")
            # One item per digestID and per element in a namespace (an item repeated byte for byte breaks both).
            if not mutants.active("duplicate-items-unchecked"):
                need(digest_id not in ids, "digest.duplicate", "a digestID is repeated in one namespace")
                need(identifier not in elements or mutants.active("duplicate-element-allowed"), "element.duplicate",
                     "an elementIdentifier is repeated in one namespace")
            ids.append(digest_id)
            elements.append(identifier)
            if not mutants.active("value-digests-unchecked"):
                expected = digests.get(digest_id)
                if expected is None:
                    need(mutants.active("missing-digest-ok"), "digest.missing", "no value digest for a digestID")
                else:
                    hashed = item_bytes.raw
                    if mutants.active("digest-over-reencoded-item"):
                        hashed = cbor.dumps(cbor.Tag(24, reencode(item), b""))  # BUG: not the bytes received.
                    need(hashlib.new(hash_name, hashed).digest() == expected, "digest.mismatch",
                         "an IssuerSignedItem does not match its value digest")
            check_element_type(namespace, identifier, item["elementValue"])
        disclosed[namespace] = elements
    return disclosed


def reencode(item):
    """The item's CBOR as a typical encoder writes it again (shortest heads), for the re-encoding variant."""
    def plain(value):
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        if isinstance(value, cbor.Tag):
            return cbor.Tag(value.tag, plain(value.value), b"")
        return value
    return cbor.dumps(plain(item))


def check_element_type(namespace, identifier, value):
    """§7.2.1 and §7.2.5: the value's type for the mDL elements of one fixed type and for every age_over_NN."""
    if mutants.active("element-types-unchecked"):
        return
    if identifier.startswith("age_over_") and identifier[9:].isdigit():
        need(isinstance(value, bool) or mutants.active("age-over-any-type"), "element.type",
             "%s is not a bool" % identifier)
        return
    if namespace != MDL_NAMESPACE:
        return
    if identifier in TEXT_ELEMENTS:
        text_ok = isinstance(value, str) or (mutants.active("text-elements-accept-numbers") and isinstance(value, int))
        need(text_ok, "element.type", "%s is not text" % identifier)
    elif identifier in UINT_ELEMENTS:
        need(isinstance(value, int) and not isinstance(value, bool) and value >= 0, "element.type",
             "%s is not an unsigned integer" % identifier)
    elif identifier in BYTES_ELEMENTS:
        need(isinstance(value, bytes), "element.type", "%s is not a byte string" % identifier)
    elif identifier in FULL_DATE_ELEMENTS:
        need(isinstance(value, cbor.Tag) and value.tag == 1004 and isinstance(value.value, str), "element.type",
             "%s is not a full-date" % identifier)
    elif identifier in DATE_ELEMENTS:
        need(isinstance(value, cbor.Tag) and value.tag in (0, 1004) and isinstance(value.value, str),
             "element.type", "%s is not a tdate or full-date" % identifier)


def check_device_signed(document, doc_type, mso, case):
    """§9.1.3: keyAuthorizations for device-signed elements, then deviceSignature or deviceMac over
    DeviceAuthentication = ["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes]."""
    device_signed = document.get("deviceSigned")
    need(isinstance(device_signed, dict), "device.missing", "deviceSigned is missing")
    namespaces_bytes = device_signed.get("nameSpaces")
    namespaces = embedded(namespaces_bytes, "device.malformed", "DeviceNameSpacesBytes")
    need(isinstance(namespaces, dict), "device.malformed", "DeviceNameSpaces is not a map")
    key_info = mso.get("deviceKeyInfo")
    need(isinstance(key_info, dict), "mso.malformed", "deviceKeyInfo is missing")
    try:
        device_key = cose.public_key_from_cose(key_info.get("deviceKey"))
    except cose.COSEError as e:
        raise Reject("mso.device_key", str(e))

    # §9.1.2.4: the MSO authorizes the device key for whole namespaces or for named elements.
    authorizations = key_info.get("keyAuthorizations", {})
    need(isinstance(authorizations, dict), "mso.malformed", "keyAuthorizations is not a map")
    whole = authorizations.get("nameSpaces", [])
    named = authorizations.get("dataElements", {})
    disclosed = {}
    for namespace, elements in namespaces.items():
        need(isinstance(elements, dict), "device.malformed", "a device-signed namespace is not a map")
        disclosed[namespace] = list(elements)
        for identifier in elements:
            allowed = (isinstance(whole, list) and namespace in whole) or (
                isinstance(named, dict) and isinstance(named.get(namespace), list) and identifier in named[namespace])
            need(allowed or mutants.active("key-authorizations-unchecked"), "device.key_unauthorized",
                 "a device-signed element is not authorized by keyAuthorizations")

    # DeviceAuthenticationBytes = #6.24(bstr .cbor DeviceAuthentication); the transcript and the device namespaces
    # go in as the bytes received.
    authentication = (b"\x84" + cbor.dumps("DeviceAuthentication") + case.transcript + cbor.dumps(doc_type)
                      + namespaces_bytes.raw)
    payload = cbor.dumps(cbor.Tag(24, authentication, b""))
    device_auth = device_signed.get("deviceAuth")
    need(isinstance(device_auth, dict), "device.malformed", "deviceAuth is missing")
    signature, mac = device_auth.get("deviceSignature"), device_auth.get("deviceMac")
    need((signature is None) != (mac is None), "device.auth_missing", "deviceAuth has not exactly one of "
         "deviceSignature and deviceMac")
    try:
        if signature is not None:
            message = cose.Message(signature, "deviceSignature")
            cose.check_headers(message, "device")
            need(message.payload is None, "device.malformed", "deviceSignature's payload is not detached")
            if not mutants.active("device-signature-unchecked"):
                cose.verify_signature(message, device_key, "device", payload)
        else:
            message = cose.Message(mac, "deviceMac")
            cose.check_headers(message, "device")
            need(message.payload is None, "device.malformed", "deviceMac's payload is not detached")
            if case.reader_key is None:
                need(mutants.active("device-mac-without-reader-key-accepted"), "device.auth_missing",
                     "deviceMac needs the reader's key, and none was given")
            elif not mutants.active("device-mac-unverified"):
                cose.verify_mac(message, mac_key(case, device_key), payload)
    except (cose.COSEError, cbor.CBORError) as e:
        raise Reject("device.auth", str(e))
    return disclosed


def mac_key(case, device_key):
    """§9.1.3.5: EMacKey = HKDF-SHA-256(ECDH(EReaderKey, SDeviceKey), salt = SHA-256(SessionTranscriptBytes),
    info "EMacKey", 32 bytes)."""
    reader_key = case.reader_key
    if not (isinstance(device_key, ec.EllipticCurvePublicKey) and isinstance(reader_key, ec.EllipticCurvePrivateKey)):
        raise cose.COSEError("deviceMac needs EC keys on both sides")
    shared = reader_key.exchange(ec.ECDH(), device_key)
    transcript_bytes = cbor.dumps(cbor.Tag(24, case.transcript, b""))
    salt = hashlib.sha256(transcript_bytes).digest()
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"EMacKey").derive(shared)


def check_request_policy(disclosed, request):
    """§8.3.2.1.2.1: every returned docType was requested (once per request) and every returned element, issuer- or
    device-signed, was asked for in its namespace."""
    requested = request.get("documents", []) if isinstance(request, dict) else []
    remaining = [r for r in requested if isinstance(r, dict)]
    for doc_type, issuer_elements, device_elements in disclosed:
        match = next((r for r in remaining if r.get("docType") == doc_type), None)
        if match is None:
            already = any(r.get("docType") == doc_type for r in requested if isinstance(r, dict))
            if already and mutants.active("policy-doctype-repeat-allowed"):
                match = next(r for r in requested if isinstance(r, dict) and r.get("docType") == doc_type)
            elif mutants.active("policy-doctype-unchecked"):
                continue
            else:
                raise Reject("policy.doctype", "a returned docType was not requested (or is returned more often)")
        else:
            remaining.remove(match)
        asked = match.get("nameSpaces", {})
        sources = [issuer_elements]
        if not mutants.active("policy-device-signed-unchecked"):
            sources.append(device_elements)
        for elements in sources:
            for namespace, identifiers in elements.items():
                if not identifiers:
                    continue
                wanted = asked.get(namespace)
                need(isinstance(wanted, dict), "policy.element", "a returned namespace was not requested")
                if mutants.active("policy-namespace-only"):
                    continue
                age_asked = any(k.startswith("age_over_") for k in wanted)
                for identifier in identifiers:
                    if identifier in wanted:
                        continue
                    if age_asked and identifier in AGE_DERIVED and mutants.active("policy-age-derived-allowed"):
                        continue
                    raise Reject("policy.element", "a returned element was not requested")


def list_mutants():
    width = max(len(name) for name in mutants.MUTANTS)
    for name, description in mutants.MUTANTS.items():
        print("%-*s  %s" % (width, name, description))


def main(argv):
    if argv[1:] == ["--list-mutants"]:
        list_mutants()
        return 0
    selected = mutants.selected()
    if selected and selected not in mutants.MUTANTS:
        sys.stderr.write("refverify: unknown REFVERIFY_MUTANT %s (see --list-mutants)\n" % escaped(selected))
        return 2
    folder = argv[1] if len(argv) > 1 else os.environ.get("MDOC_CONFORMANCE_CASE_DIR")
    if not folder:
        sys.stderr.write(__doc__)
        return 2
    debug = os.environ.get("REFVERIFY_DEBUG") == "1"
    try:
        case = Case(folder)
    except (OSError, KeyError, ValueError) as e:
        sys.stderr.write("refverify: cannot read the case: %s\n" % escaped(e))
        return 2
    try:
        verify(case)
        verdict, code = "accept", None
    except Reject as e:
        verdict, code = "reject", e.code
        if debug:
            sys.stderr.write("refverify: %s: %s\n" % (e.code, escaped(e)))
    except UnsupportedAlgorithm as e:  # a curve this machine's `cryptography` lacks (brainpoolP320r1)
        print(json.dumps({"verdict": "not-applicable", "reason": "python3-cryptography: %s" % escaped(e)}))
        return 0
    except Exception as e:  # malformed input this code did not foresee: reject, never accept
        verdict, code = "reject", "input.unexpected"
        if debug:
            sys.stderr.write("refverify: unexpected %s: %s\n%s" % (type(e).__name__, escaped(e),
                                                                   escaped(traceback.format_exc())))
    print(json.dumps({"verdict": verdict, "code": code}))
    return 0 if verdict == "accept" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
