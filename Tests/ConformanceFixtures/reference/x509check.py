"""Certificates for the reference verifier: the Document Signer's chain to a trust anchor, its ISO/IEC 18013-5 Annex B
profile, validity at the verification time, and its revocation by the issuing IACA's CRL (RFC 5280 §6.3).

Annex B has the IACA issue the Document Signer directly, so the chain is exactly [Document Signer, anchor]: other
certificates in x5chain are not used to build a path. An anchor is matched by name and key (its signature over the
certificate must verify), never by name alone.
"""
import calendar

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa

import mutants

DOCUMENT_SIGNER_EKU = "1.0.18013.5.1.2"  # id-mdl-kp-mdlDS, ISO/IEC 18013-5 Annex B, Table B.3


class TrustError(ValueError):
    """The chain, profile, validity or revocation status of a certificate fails. `unknown` marks an unknown status."""

    def __init__(self, message, unknown=False):
        super().__init__(message)
        self.unknown = unknown


def epoch(dt):
    """A naive UTC datetime (as cryptography 38 gives them) in seconds since 1970."""
    return calendar.timegm(dt.utctimetuple())


def load_pem_certificates(path):
    """Every certificate in a PEM file."""
    with open(path, "rb") as f:
        data = f.read()
    certs, marker = [], b"-----BEGIN CERTIFICATE-----"
    for block in data.split(marker)[1:]:
        certs.append(x509.load_pem_x509_certificate(marker + block))
    if not certs:
        raise TrustError("%s holds no certificate" % path)
    return certs


def load_der(der):
    if not isinstance(der, bytes):
        raise TrustError("an x5chain entry is not a byte string")
    try:
        return x509.load_der_x509_certificate(der)
    except ValueError:
        raise TrustError("an x5chain entry is not a DER certificate")


def _verify(key, signature, data, hash_algorithm):
    """True when `signature` over `data` verifies with `key` (the algorithm the signed object names)."""
    try:
        if isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature, data, ec.ECDSA(hash_algorithm))
        elif isinstance(key, rsa.RSAPublicKey):
            key.verify(signature, data, padding.PKCS1v15(), hash_algorithm)
        elif isinstance(key, (ed25519.Ed25519PublicKey, ed448.Ed448PublicKey)):
            key.verify(signature, data)
        else:
            return False
        return True
    except (InvalidSignature, ValueError, TypeError):
        return False


def issued_by(cert, issuer):
    """`issuer` issued `cert`: the names match and the issuer's key verifies the certificate's signature."""
    if cert.issuer != issuer.subject:
        return False
    if mutants.active("chain-matched-by-name"):
        return True  # BUG: an anchor with the right name is taken on its word; the signature is never checked.
    return _verify(issuer.public_key(), cert.signature, cert.tbs_certificate_bytes, cert.signature_hash_algorithm)


def check_valid_at(cert, at, what, check_not_after=True):
    """notBefore <= at <= notAfter (RFC 5280 §4.1.2.5: both ends inclusive)."""
    if at < epoch(cert.not_valid_before):
        raise TrustError("%s is not valid yet" % what)
    if at > epoch(cert.not_valid_after) and check_not_after:
        raise TrustError("%s has expired" % what)


def check_document_signer_profile(cert):
    """Annex B, Table B.3: not a CA, keyUsage present with digitalSignature, EKU has id-mdl-kp-mdlDS."""
    try:
        constraints = cert.extensions.get_extension_for_class(x509.BasicConstraints).value
        if constraints.ca and not mutants.active("ds-basic-constraints-unchecked"):
            raise TrustError("the Document Signer is a CA (basicConstraints CA=true)")
    except x509.ExtensionNotFound:
        pass
    try:
        usage = cert.extensions.get_extension_for_class(x509.KeyUsage).value
        if not usage.digital_signature and not mutants.active("ds-key-usage-unchecked"):
            raise TrustError("the Document Signer's keyUsage lacks digitalSignature")
    except x509.ExtensionNotFound:
        # Table B.3 marks keyUsage mandatory (the corpus's case for it requires `certificate-profile`).
        if not mutants.active("ds-key-usage-optional"):
            raise TrustError("the Document Signer has no keyUsage")
    if mutants.active("ds-eku-unchecked"):
        return
    try:
        usages = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    except x509.ExtensionNotFound:
        raise TrustError("the Document Signer has no extendedKeyUsage")
    if DOCUMENT_SIGNER_EKU not in [oid.dotted_string for oid in usages]:
        raise TrustError("the Document Signer's extendedKeyUsage is not id-mdl-kp-mdlDS")


def document_signer_chain(x5chain, anchors, at, signed_at):
    """(Document Signer, anchor) for the x5chain of an issuerAuth; raises TrustError when it is not trusted at `at`.

    `signed_at` is the MSO's signing time (only a variant uses it)."""
    if isinstance(x5chain, bytes):
        x5chain = [x5chain]
    elif isinstance(x5chain, list) and mutants.active("x5chain-array-refused"):
        raise TrustError("x5chain is an array")  # BUG: RFC 9360 sends several certificates as an array.
    if not isinstance(x5chain, list) or not x5chain:
        raise TrustError("issuerAuth has no x5chain")
    chain = [load_der(der) for der in x5chain]
    signer = chain[0]
    if mutants.active("first-anchor-only"):
        anchors = anchors[:1]  # BUG: only the first root of the trust file is tried.
    anchor = next((a for a in anchors if issued_by(signer, a)), None)
    if anchor is None and mutants.active("chain-unchecked"):
        anchor = anchors[0]  # BUG: a signer no anchor issued is believed (its validity and profile still count).
    if anchor is None and mutants.active("chain-through-x5chain-intermediates"):
        # BUG: general RFC 5280 path building through CAs the response carries, which Annex B does not allow.
        for middle in chain[1:]:
            outer = next((a for a in anchors if issued_by(middle, a)), None)
            if outer is not None and issued_by(signer, middle):
                anchor = outer
                break
    if anchor is None:
        raise TrustError("the Document Signer is not issued by a trusted IACA")
    if not mutants.active("ds-validity-unchecked"):
        when = signed_at if mutants.active("ds-validity-at-signing-time") else at
        check_valid_at(signer, when, "the Document Signer",
                       check_not_after=not mutants.active("ds-not-after-unchecked"))
    if not mutants.active("anchor-validity-unchecked"):
        check_valid_at(anchor, at, "the trust anchor")
    check_document_signer_profile(signer)
    return signer, anchor


def check_crl(signer, anchor, crl_paths, at):
    """The Document Signer is not on a current CRL of its IACA; with no usable CRL its status is unknown."""
    if mutants.active("crl-ignored"):
        return
    usable = []
    for path in crl_paths:
        with open(path, "rb") as f:
            data = f.read()
        try:
            crl = x509.load_pem_x509_crl(data) if data.lstrip().startswith(b"-----") else x509.load_der_x509_crl(data)
        except ValueError:
            continue
        if crl.issuer != anchor.subject:
            continue
        if not mutants.active("crl-signature-unchecked") and not _verify(
                anchor.public_key(), crl.signature, crl.tbs_certlist_bytes, crl.signature_hash_algorithm):
            continue
        if at < epoch(crl.last_update):
            continue
        stale = crl.next_update is not None and at > epoch(crl.next_update)
        if stale and not mutants.active("crl-next-update-unchecked"):
            continue
        usable.append(crl)
    if not usable:
        if mutants.active("crl-missing-ok"):
            return  # BUG: no current CRL is taken as "not revoked".
        raise TrustError("no current CRL of the IACA was given", unknown=True)
    for crl in usable:
        if crl.get_revoked_certificate_by_serial_number(signer.serial_number) is not None:
            raise TrustError("the IACA's CRL lists the Document Signer as revoked")
