"""The one-bug variants of the reference verifier, selected with REFVERIFY_MUTANT=<name>.

Each is a single plausible bug: a check left out, a comparison weakened, a wrong default. The code marks each with
`mutants.active("<name>")` where the bug goes in. `refverify.py --list-mutants` prints this table.
"""
import os

MUTANTS = {
    # Decoding and the DeviceResponse
    "cbor-preferred-encoding-required": "the CBOR decoder rejects non-shortest heads (RFC 8949 asks it of encoders)",
    "unknown-keys-rejected": "unknown map keys in the response, Document, MSO or IssuerSignedItem reject",
    "response-version-unchecked": "DeviceResponse version is not checked (a 2.0 response is read as 1.x)",
    "response-status-ignored": "a nonzero DeviceResponse status is ignored",
    "document-errors-ignored": "documentErrors naming a returned docType is ignored",
    "duplicate-document-allowed": "the same Document twice in documents is accepted",
    # issuerAuth (COSE_Sign1)
    "issuer-signature-unchecked": "issuerAuth's signature is never verified",
    "issuer-zero-signature-accepted": "an all-zero issuerAuth signature is taken as a development profile and accepted",
    "issuer-alg-unchecked": "issuerAuth's protected alg is not read; the key's curve picks the hash",
    "issuer-alg-curve-unpaired": "the alg's hash is used with any EC key (ES384 over a P-256 key is accepted)",
    "issuer-ps256-accepted": "PS256 (RSASSA-PSS) is verified like any COSE algorithm, though ISO/IEC 18013-5 has no RSA",
    "issuer-es256-only": "issuerAuth must be ES256: ES384, ES512 and EdDSA are refused",
    "issuer-eddsa-refused": "an EdDSA issuerAuth is refused",
    "brainpool-refused": "a Document Signer on a brainpool curve is refused",
    "cose-duplicate-header-allowed": "a label in both issuerAuth header buckets is accepted (protected wins)",
    "cose-crit-unprotected-allowed": "an unprotected crit in issuerAuth is ignored (only the protected one is read)",
    "issuer-crit-ignored": "issuerAuth's crit is not processed",
    # Document Signer chain and profile (Annex B)
    "chain-unchecked": "the Document Signer is not chained to a trust anchor at all",
    "chain-matched-by-name": "an anchor is matched by subject name; its signature over the certificate is not checked",
    "chain-through-x5chain-intermediates": "intermediate CAs sent in x5chain are used to build the path",
    "x5chain-array-refused": "an x5chain sent as an array (RFC 9360) is refused; only a byte string is read",
    "first-anchor-only": "only the first root of the trust file is tried",
    "ds-validity-unchecked": "the Document Signer's validity period is not checked",
    "ds-not-after-unchecked": "only the Document Signer's notBefore is checked",
    "ds-validity-at-signing-time": "the Document Signer's validity is checked at the MSO's signed time, not now",
    "anchor-validity-unchecked": "the trust anchor's own validity period is not checked",
    "ds-basic-constraints-unchecked": "a Document Signer with basicConstraints CA=true is accepted",
    "ds-key-usage-unchecked": "a Document Signer keyUsage without digitalSignature is accepted",
    "ds-key-usage-optional": "a Document Signer without keyUsage is accepted (Table B.3 makes it mandatory)",
    "ds-eku-unchecked": "the Document Signer's extendedKeyUsage is not checked",
    # MSO
    "mso-version-unchecked": "the MSO version is not checked (a 2.0 MSO is read as 1.x)",
    "digest-alg-unchecked": "an unknown digestAlgorithm name falls back to SHA-256",
    "digest-alg-sha1-accepted": "SHA-1 (and MD5) are accepted as digestAlgorithm",
    "mso-doctype-unchecked": "the MSO's docType is not compared with the Document's",
    "mso-valid-until-unchecked": "the MSO's validUntil is not checked",
    "mso-valid-from-unchecked": "the MSO's validFrom is not checked",
    "mso-validity-skew-hour": "MSO validity allows 60 minutes of clock skew (minutes taken for seconds)",
    "mso-signed-unchecked": "validityInfo.signed is not checked (validFrom >= signed, signed within the DS validity)",
    # Value digests
    "value-digests-unchecked": "IssuerSignedItem digests are not compared with the MSO's valueDigests",
    "missing-digest-ok": "an item whose digestID has no digest in the MSO passes",
    "digest-over-reencoded-item": "the digest is taken over a re-encoding of the item, not the bytes received",
    "duplicate-items-unchecked": "no repeat check in a namespace (digestID, elementIdentifier, item repeated bytewise)",
    "duplicate-element-allowed": "an elementIdentifier repeated under another digestID is not rejected",
    # Element types (ISO/IEC 18013-5 §7.2.1)
    "element-types-unchecked": "element values are not checked against their data element types",
    "age-over-any-type": "age_over_NN takes any value type (only text elements are checked)",
    "text-elements-accept-numbers": "a tstr element also takes an integer (only age_over_NN is checked)",
    # Device authentication
    "device-signature-unchecked": "deviceSignature is never verified",
    "device-crit-ignored": "deviceSignature's crit is not processed",
    "device-mac-without-reader-key-accepted": "deviceMac is accepted unverified when no reader key is given",
    "device-mac-unverified": "deviceMac is not verified even when a reader key is given",
    "key-authorizations-unchecked": "device-signed elements need no keyAuthorizations in the MSO",
    # Revocation (when the case requires it)
    "crl-ignored": "the CRL is never consulted",
    "crl-missing-ok": "no current CRL of the IACA counts as not revoked",
    "crl-signature-unchecked": "the CRL's signature is not verified",
    "crl-next-update-unchecked": "a CRL past its nextUpdate is still used",
    "status-ignored": "the MSO's status reference is never looked up",
    "status-first-mechanism-only": "only the first status mechanism (the status list) is checked",
    "status-sub-unchecked": "the first token of the right typ is used, whatever its sub",
    "status-token-missing-valid": "no token for the MSO's uri counts as valid",
    "status-signature-unchecked": "the token's signature and signer are not checked",
    "status-signer-any-anchor": "a token signed under any trusted anchor is used, not only the document's own",
    "status-typ-unchecked": "the token's typ is not checked",
    "status-exp-unchecked": "the token's exp is not checked",
    "status-exp-float-ignored": "a float exp is ignored (read as no exp)",
    "status-exp-skew": "the token's exp allows five minutes of grace",
    "status-iat-unchecked": "a token issued after the verification time is used",
    "status-index-out-of-range-valid": "an index past the list's end reads as valid",
    "status-suspended-valid": "status 2 (suspended) counts as valid",
    "status-list-msb-first": "status list entries are read from the most significant bits",
    # Request policy (when the case has request.json)
    "policy-doctype-unchecked": "a docType the request does not ask for is accepted",
    "policy-doctype-repeat-allowed": "a requested docType returned twice is accepted",
    "policy-namespace-only": "any element of a requested namespace is accepted",
    "policy-age-derived-allowed": "age_in_years, age_birth_year and birth_date pass when any age_over_NN is requested",
    "policy-device-signed-unchecked": "device-signed elements are not held to the request",
}

_SELECTED = os.environ.get("REFVERIFY_MUTANT", "")


def select(name):
    """Plays the variant `name` from now on ("" for the reference); the fork server uses it per case."""
    global _SELECTED
    _SELECTED = name


def selected():
    """The variant this run plays, or "" for the reference itself."""
    return _SELECTED


def active(name):
    """True when the variant `name` is selected (a name outside the table is a programming error)."""
    assert name in MUTANTS, name
    return _SELECTED == name
