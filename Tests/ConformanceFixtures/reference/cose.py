"""COSE_Sign1 and COSE_Mac0 (RFC 9052) for the reference verifier: header rules, signature and MAC checks, COSE_Key.

Only what ISO/IEC 18013-5 uses: ECDSA ES256/ES384/ES512 and EdDSA for signatures (§9.1.2.4 and §9.1.3.6), HMAC
256/256 for deviceMac (§9.1.3.5). The `role` argument ("issuer", "device", "status") names which structure is
checked, so that a variant can break one role only.
"""
import hashlib
import hmac

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa, utils

import cbor
import mutants

ES256, ES384, ES512, EDDSA = -7, -35, -36, -8
PS256 = -37  # RSASSA-PSS: not an ISO/IEC 18013-5 algorithm; only a variant verifies it
HMAC_256_256 = 5
SIGNATURE_ALGS = {ES256: hashes.SHA256, ES384: hashes.SHA384, ES512: hashes.SHA512, EDDSA: None}
# The curves ISO/IEC 18013-5 pairs with each ECDSA algorithm.
ALG_CURVES = {ES256: {"secp256r1", "brainpoolP256r1"}, ES384: {"secp384r1", "brainpoolP320r1", "brainpoolP384r1"},
              ES512: {"secp521r1", "brainpoolP512r1"}}

LABEL_ALG, LABEL_CRIT, LABEL_TYP, LABEL_X5CHAIN = 1, 2, 16, 33
# The header labels this verifier processes: only these may be listed in crit.
UNDERSTOOD = {LABEL_ALG, LABEL_TYP, LABEL_X5CHAIN}


class COSEError(ValueError):
    """A COSE structure is malformed, has invalid headers or does not verify."""


class Message:
    """A COSE_Sign1 or COSE_Mac0: protected header bytes as received, the decoded headers, payload and tag."""

    def __init__(self, item, name):
        if isinstance(item, cbor.Tag):
            item = item.value
        if not isinstance(item, list) or len(item) != 4:
            raise COSEError("%s is not a four-element COSE array" % name)
        self.protected_bytes, self.unprotected, self.payload, self.tag = item
        if not isinstance(self.protected_bytes, bytes) or not isinstance(self.unprotected, dict):
            raise COSEError("%s headers are malformed" % name)
        if not (self.payload is None or isinstance(self.payload, bytes)) or not isinstance(self.tag, bytes):
            raise COSEError("%s payload or signature is malformed" % name)
        # An empty protected header is the zero-length bstr (RFC 9052 §3).
        self.protected = cbor.loads(self.protected_bytes) if self.protected_bytes else {}
        if not isinstance(self.protected, dict):
            raise COSEError("%s protected header is not a map" % name)
        self.name = name

    def header(self, label):
        """A header parameter, protected first."""
        if label in self.protected:
            return self.protected[label]
        return self.unprotected.get(label)


def check_headers(msg, role):
    """RFC 9052 §3: no label in both buckets, alg in the protected bucket, crit protected, non-empty and understood."""
    both = set(msg.protected) & set(msg.unprotected)
    if both and not (role == "issuer" and mutants.active("cose-duplicate-header-allowed")):
        raise COSEError("%s repeats header labels %s in both buckets" % (msg.name, sorted(map(repr, both))))
    if LABEL_ALG not in msg.protected:
        raise COSEError("%s has no protected alg" % msg.name)
    if LABEL_CRIT in msg.unprotected and not (role == "issuer" and mutants.active("cose-crit-unprotected-allowed")):
        raise COSEError("%s carries crit in its unprotected header" % msg.name)
    crit = msg.protected.get(LABEL_CRIT)  # only a protected crit counts; an unprotected one was refused above
    if crit is not None:
        if (role == "issuer" and mutants.active("issuer-crit-ignored")) or (
                role == "device" and mutants.active("device-crit-ignored")):
            return  # BUG: crit is not read, so a critical header nobody processes passes.
        if not isinstance(crit, list) or not crit:
            raise COSEError("%s crit is not a non-empty array" % msg.name)
        for label in crit:
            if label not in UNDERSTOOD:
                raise COSEError("%s crit lists label %r, which this verifier does not process" % (msg.name, label))
            if label not in msg.protected:
                raise COSEError("%s crit lists label %r that is not in the protected header" % (msg.name, label))


def algorithm(msg, role):
    """The protected alg, which must be one this verifier can verify."""
    alg = msg.protected.get(LABEL_ALG)
    if role == "issuer" and mutants.active("issuer-alg-unchecked"):
        return None  # BUG: the header's alg is not looked at; the key decides how to verify.
    if alg == PS256 and role == "issuer" and mutants.active("issuer-ps256-accepted"):
        return alg  # BUG: a general COSE library's algorithm table, RSA included.
    if alg not in SIGNATURE_ALGS:
        raise COSEError("%s alg %r is not ES256, ES384, ES512 or EdDSA" % (msg.name, alg))
    if role == "issuer" and alg != ES256 and mutants.active("issuer-es256-only"):
        raise COSEError("%s alg %r is not ES256" % (msg.name, alg))  # BUG: only the commonest algorithm.
    if role == "issuer" and alg == EDDSA and mutants.active("issuer-eddsa-refused"):
        raise COSEError("%s alg EdDSA is refused" % msg.name)  # BUG: EdDSA is one of the four.
    return alg


def to_be_signed(msg, payload):
    """Sig_structure = ["Signature1", body_protected, external_aad, payload] (RFC 9052 §4.4), external_aad empty."""
    return cbor.dumps(["Signature1", msg.protected_bytes, b"", payload])


def verify_signature(msg, key, role, payload=None):
    """Checks the signature over the attached payload, or over `payload` when the message's is detached (nil)."""
    alg = algorithm(msg, role)
    if payload is None:
        payload = msg.payload
    if payload is None:
        raise COSEError("%s has a detached payload and none was supplied" % msg.name)
    data = to_be_signed(msg, payload)
    try:
        if isinstance(key, ec.EllipticCurvePublicKey):
            if alg == EDDSA:
                raise COSEError("%s alg EdDSA with an EC key" % msg.name)
            unpaired_ok = role == "issuer" and mutants.active("issuer-alg-curve-unpaired")
            if alg is not None and key.curve.name not in ALG_CURVES[alg] and not unpaired_ok:
                raise COSEError("%s alg %r is not paired with the key's curve %s" % (msg.name, alg, key.curve.name))
            if role == "issuer" and key.curve.name.startswith("brainpool") and mutants.active("brainpool-refused"):
                raise COSEError("%s key is on a brainpool curve" % msg.name)  # BUG: ISO allows the brainpool curves.
            hash_class = SIGNATURE_ALGS[alg] if alg is not None else {256: hashes.SHA256, 384: hashes.SHA384}.get(
                key.curve.key_size, hashes.SHA512)
            size = (key.curve.key_size + 7) // 8
            if len(msg.tag) != 2 * size:
                raise COSEError("%s signature is %d bytes, not %d" % (msg.name, len(msg.tag), 2 * size))
            r, s = int.from_bytes(msg.tag[:size], "big"), int.from_bytes(msg.tag[size:], "big")
            key.verify(utils.encode_dss_signature(r, s), data, ec.ECDSA(hash_class()))
        elif isinstance(key, (ed25519.Ed25519PublicKey, ed448.Ed448PublicKey)):
            if alg not in (EDDSA, None):
                raise COSEError("%s alg %r with an EdDSA key" % (msg.name, alg))
            key.verify(msg.tag, data)
        elif isinstance(key, rsa.RSAPublicKey) and alg == PS256:  # only the issuer-ps256-accepted variant gets here
            key.verify(msg.tag, data, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32), hashes.SHA256())
        else:
            raise COSEError("%s: unsupported key type" % msg.name)
    except InvalidSignature:
        raise COSEError("%s signature does not verify" % msg.name)


def public_key_from_cose(key):
    """A COSE_Key (RFC 9053 §7): EC2 (kty 2) on P-256/P-384/P-521 or OKP (kty 1) Ed25519/Ed448."""
    if not isinstance(key, dict):
        raise COSEError("the device key is not a COSE_Key map")
    kty, crv = key.get(1), key.get(-1)
    if kty == 2:
        curves = {1: ec.SECP256R1(), 2: ec.SECP384R1(), 3: ec.SECP521R1()}
        x, y = key.get(-2), key.get(-3)
        if crv not in curves or not isinstance(x, bytes) or not isinstance(y, bytes):
            raise COSEError("the EC2 device key is malformed")
        size = (curves[crv].key_size + 7) // 8
        if len(x) != size or len(y) != size:
            raise COSEError("the EC2 device key's coordinates have the wrong length")
        try:
            return ec.EllipticCurvePublicNumbers(int.from_bytes(x, "big"), int.from_bytes(y, "big"),
                                                 curves[crv]).public_key()
        except ValueError:
            raise COSEError("the EC2 device key is not a point on its curve")
    if kty == 1:
        x = key.get(-2)
        if crv == 6 and isinstance(x, bytes) and len(x) == 32:
            return ed25519.Ed25519PublicKey.from_public_bytes(x)
        if crv == 7 and isinstance(x, bytes) and len(x) == 57:
            return ed448.Ed448PublicKey.from_public_bytes(x)
        raise COSEError("the OKP device key is malformed")
    raise COSEError("the device key's kty %r is not EC2 or OKP" % (kty,))


def verify_mac(msg, mac_key, payload):
    """COSE_Mac0 with HMAC 256/256 over MAC_structure ["MAC0", protected, external_aad, payload] (RFC 9052 §6.3)."""
    if msg.protected.get(LABEL_ALG) != HMAC_256_256:
        raise COSEError("deviceMac alg is not HMAC 256/256")
    data = cbor.dumps(["MAC0", msg.protected_bytes, b"", payload])
    expected = hmac.new(mac_key, data, hashlib.sha256).digest()
    if not hmac.compare_digest(expected, msg.tag):
        raise COSEError("deviceMac does not verify")
