"""The MSO's `status` (ISO/IEC 18013-5 §9.1.2.6) for the reference verifier: status list tokens
(draft-ietf-oauth-status-list, CWT form) and identifier list tokens, each matched by its `sub` to the `uri` the MSO
names and trusted only when signed under the trust anchor the document's own signer chains to.

An MSO without a `status` leaves revocation to the IACA's CRL. A reference this verifier cannot resolve (no token, a
token it cannot trust now, a status it cannot interpret) is an unknown status, which rejects.
"""
import zlib

import cbor
import cose
import mutants
import x509check

STATUS_LIST_TYP = "application/statuslist+cwt"
IDENTIFIER_LIST_TYP = "application/identifierlist+cwt"
CLAIM_SUB, CLAIM_EXP, CLAIM_IAT = 2, 4, 6
CLAIM_STATUS_LIST = 65533
CLAIM_IDENTIFIER_LIST = 65530
VALID, INVALID, SUSPENDED = 0, 1, 2


class StatusError(ValueError):
    """The document's status is revoked, suspended, untrusted or unknown."""


class Token:
    """A status or identifier list token: its COSE_Sign1, decoded claims and protected typ."""

    def __init__(self, data, name):
        self.name = name
        self.msg = cose.Message(cbor.loads(data), name)
        if not isinstance(self.msg.payload, bytes):
            raise cose.COSEError("%s has no attached claims" % name)
        self.claims = cbor.loads(self.msg.payload)
        if not isinstance(self.claims, dict):
            raise cose.COSEError("%s claims are not a map" % name)
        self.typ = self.msg.protected.get(cose.LABEL_TYP)
        self.sub = self.claims.get(CLAIM_SUB)


def load_tokens(paths):
    """The tokens the case gives; one that does not parse is left out (it can then match no reference)."""
    tokens = []
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        try:
            tokens.append(Token(data, path.rsplit("/", 1)[-1]))
        except (ValueError, cbor.CBORError):
            continue
    return tokens


def _number(value):
    """A NumericDate (RFC 8392: int or float seconds); anything else is None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and mutants.active("status-exp-float-ignored"):
        return None  # BUG: only integer dates are read, so a float exp counts as no exp at all.
    return value


def _check_token(token, typ, anchor, anchors, at):
    """Signer under the document's anchor, signature, typ, iat and exp; StatusError when the token is not usable."""
    if not mutants.active("status-signature-unchecked"):
        try:
            cose.check_headers(token.msg, "status")
            chain = token.msg.header(cose.LABEL_X5CHAIN)
            chain = [chain] if isinstance(chain, bytes) else chain
            if not isinstance(chain, list) or not chain:
                raise StatusError("%s has no x5chain" % token.name)
            signer = x509check.load_der(chain[0])
            allowed = anchors if mutants.active("status-signer-any-anchor") else [anchor]
            if not any(x509check.issued_by(signer, a) for a in allowed):
                raise StatusError("%s is not signed under this document's IACA" % token.name)
            x509check.check_valid_at(signer, at, "the %s signer" % token.name)
            cose.verify_signature(token.msg, signer.public_key(), "status")
        except (cose.COSEError, x509check.TrustError) as e:
            raise StatusError("%s: %s" % (token.name, e))
    if token.typ != typ and not mutants.active("status-typ-unchecked"):
        raise StatusError("%s has typ %r, not %s" % (token.name, token.typ, typ))
    iat = _number(token.claims.get(CLAIM_IAT))
    if iat is not None and iat > at and not mutants.active("status-iat-unchecked"):
        raise StatusError("%s was issued after the verification time" % token.name)
    exp = _number(token.claims.get(CLAIM_EXP))
    skew = 300 if mutants.active("status-exp-skew") else 0  # BUG in the variant: five minutes of grace on exp.
    if exp is not None and exp + skew <= at and not mutants.active("status-exp-unchecked"):
        raise StatusError("%s has expired" % token.name)


def _find_token(tokens, uri, typ):
    """The token whose sub is the MSO's uri (typ is only used by the variant that forgets sub)."""
    if mutants.active("status-sub-unchecked"):
        return next((t for t in tokens if t.typ == typ), None)  # BUG: the first token of the right kind.
    return next((t for t in tokens if t.sub == uri), None)


def _status_list_value(token, index):
    """The index's status in the token's list: `bits` per entry, least significant bits first, zlib-compressed."""
    claim = token.claims.get(CLAIM_STATUS_LIST)
    if not isinstance(claim, dict):
        raise StatusError("%s has no status_list claim" % token.name)
    bits, lst = claim.get("bits"), claim.get("lst")
    if bits not in (1, 2, 4, 8) or not isinstance(lst, bytes):
        raise StatusError("%s status_list is malformed" % token.name)
    try:
        entries = zlib.decompress(lst)
    except zlib.error:
        raise StatusError("%s status_list lst does not inflate" % token.name)
    position = index * bits
    if position // 8 >= len(entries):
        if mutants.active("status-index-out-of-range-valid"):
            return VALID  # BUG: an index past the list's end reads as 0 (valid).
        raise StatusError("the MSO's index %d is outside the %d-entry status list" % (index, len(entries) * 8 // bits))
    byte = entries[position // 8]
    if mutants.active("status-list-msb-first"):
        return (byte >> (8 - bits - position % 8)) & ((1 << bits) - 1)  # BUG: reads the entries from the high bits.
    return (byte >> (position % 8)) & ((1 << bits) - 1)


def _identifier_list_value(token, identifier):
    """The identifier's status: absent means valid; listed without a status means invalid."""
    claim = token.claims.get(CLAIM_IDENTIFIER_LIST)
    if isinstance(claim, dict) and isinstance(claim.get("identifiers"), dict):
        claim = claim["identifiers"]
    if not isinstance(claim, dict):
        raise StatusError("%s has no identifier list claim" % token.name)
    if identifier not in claim:
        return VALID
    info = claim[identifier]
    value = info.get("status", INVALID) if isinstance(info, dict) else INVALID
    return value if isinstance(value, int) and not isinstance(value, bool) else INVALID


def _judge(value, what):
    if value == VALID:
        return
    if value == SUSPENDED and mutants.active("status-suspended-valid"):
        return  # BUG: only status 1 counts as not valid.
    if value == INVALID:
        raise StatusError("%s marks the document revoked" % what)
    if value == SUSPENDED:
        raise StatusError("%s marks the document suspended" % what)
    raise StatusError("%s gives status %r, which this verifier cannot interpret" % (what, value))


def check_status(mso_status, tokens, anchor, anchors, at):
    """Every mechanism the MSO's status names must say valid; StatusError otherwise."""
    if mso_status is None or mutants.active("status-ignored"):
        return
    if not isinstance(mso_status, dict):
        raise StatusError("the MSO's status is not a map")
    mechanisms = []
    for key, typ in (("status_list", STATUS_LIST_TYP), ("identifier_list", IDENTIFIER_LIST_TYP)):
        reference = mso_status.get(key)
        if reference is None:
            continue
        if not isinstance(reference, dict) or not isinstance(reference.get("uri"), str):
            raise StatusError("the MSO's %s reference is malformed" % key)
        mechanisms.append((key, typ, reference))
    if not mechanisms:
        raise StatusError("the MSO's status names no mechanism this verifier knows")
    if mutants.active("status-first-mechanism-only"):
        mechanisms = mechanisms[:1]  # BUG: stops after the first mechanism (the identifier list is never read).
    for key, typ, reference in mechanisms:
        token = _find_token(tokens, reference["uri"], typ)
        if token is None:
            if mutants.active("status-token-missing-valid"):
                continue  # BUG: no token for the uri counts as valid.
            raise StatusError("no %s token was given for the MSO's uri" % key)
        _check_token(token, typ, anchor, anchors, at)
        if key == "status_list":
            index = reference.get("idx")
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise StatusError("the MSO's status_list idx is not an unsigned integer")
            _judge(_status_list_value(token, index), "the status list")
        else:
            identifier = reference.get("id")
            if not isinstance(identifier, bytes):
                raise StatusError("the MSO's identifier_list id is not a byte string")
            _judge(_identifier_list_value(token, identifier), "the identifier list")
