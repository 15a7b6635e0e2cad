import CryptoCore
import Foundation
import MdocModel

/// Verifies an ETSI TS 119 602 List of Trusted Entities (JSON binding) against the signer roots the operator pinned:
/// a JAdES signature as a compact JWS (or the flattened / one-signature general JSON serialization) with `x5c` in its
/// protected header, whose signer chains to a pinned root (the signer itself may be pinned) — never to a certificate the
/// list carries on its own authority — and a signature over the header and payload as received. Then the list's issue
/// time, freshness (`NextUpdate`) and rollback (`LoTESequenceNumber`).
///
/// Which services become trust anchors is a separate step (`decisions(scope:)`): only those of a service type (or list
/// type) the operator maps to docTypes, currently active at the verification time, with X.509 certificates.
public struct LoTEVerification: Sendable {
    /// The largest list read, in bytes (`lote.too_large` beyond).
    public static let maxBytes = 8 << 20
    /// The most certificates an `x5c` may hold.
    public static let maxX5c = 8
    /// How far in the future `ListIssueDateTime` may be (a publisher's clock ahead of ours) before `lote.not_yet_valid`.
    public static let issueTimeAllowance: TimeInterval = 300
    /// The specification the verification implements.
    public static let clause = "ETSI TS 119 602 (List of Trusted Entities), JSON binding, JAdES compact JWS"

    /// Critical header parameters this verifier processes (`crit` naming any other refuses the list).
    static let understoodCritical: Set<String> = ["sigT", "x5t#o", "b64", "iat"]

    /// Whether the list's `NextUpdate` has passed at the verification time.
    public enum Freshness: Sendable, Equatable {
        /// `NextUpdate` has not passed.
        case fresh
        /// `NextUpdate` has passed.
        case stale(since: RFC3339.Timestamp)
    }

    /// The verified list.
    public let lote: LoTE
    /// The certificate that signed the list, first in its `x5c`.
    public let signer: Certificate
    /// The pinned certificate the signer chains to (the signer itself when it was pinned).
    public let root: Certificate
    /// The JWS `alg`.
    public let algorithm: String
    /// The signing time the header claims (`iat`, or JAdES `sigT`), if any.
    public let signedAt: Date?
    /// The list's freshness at the verification time.
    public let freshness: Freshness
    /// The verification time: services are judged active or not at it.
    public let time: Date

    /// Verifies a LoTE's signer, signature, issue time, sequence number and freshness, and parses its payload.
    ///
    /// - Parameters:
    ///   - bytes: the list as published: a compact JWS (trailing whitespace ignored) or its JSON serialization.
    ///   - roots: the LoTE signer roots the operator pinned (a CA, or the signer certificate itself).
    ///   - time: the verification time.
    ///   - previousSequenceNumber: the highest `LoTESequenceNumber` accepted before for this operator and list type; a
    ///     lower one is a rollback.
    ///   - allowRollback: the operator accepts an older list on purpose.
    ///   - profile: `.strict` refuses a stale list (`lote.stale`); `.default` accepts it and reports `freshness`.
    /// - Throws: `lote.too_large`, `lote.malformed`, `lote.signature_invalid`, `lote.signer_untrusted`, `lote.signer_expired`,
    ///   `lote.not_yet_valid`, `lote.rollback`, or under `.strict` `lote.stale`.
    public init(_ bytes: [UInt8], roots: [Certificate], at time: Date, previousSequenceNumber: UInt64? = nil, allowRollback: Bool = false,
                profile: CertificateProfile = .default) throws(VerificationError) {
        let jws = try SignedList(bytes)
        let signer = jws.certificates[0]
        if let usage = signer.keyUsage, !usage.contains(.digitalSignature), !usage.contains(.nonRepudiation) {
            throw VerificationError(.loteSignerUntrusted, "the signer \(signer.subject) may not sign (its keyUsage has neither digitalSignature "
                                    + "nor nonRepudiation)")
        }
        guard !roots.isEmpty else { throw VerificationError(.loteSignerUntrusted, "no LoTE signer root is pinned") }
        // A pinned signer (the EC's lists name a CA their x5c does not carry) or a pinned CA may end the path.
        let store = TrustStore(anchors: roots, allowNonSelfSignedAnchors: true)
        let root: Certificate
        switch store.validate(leaf: signer, intermediates: Array(jws.certificates.dropFirst()), at: time) {
        case .trusted(let path) where path.contains(where: roots.contains):
            // OpenSSL may extend a path past a pinned signer with the x5c's own root: the pin is what ended it.
            root = path.first(where: roots.contains) ?? signer
        case .failed(let failure) where failure.reason == .expired || failure.reason == .notYetValid:
            throw Self.outsideValidity(jws.certificates + roots, at: time) ?? VerificationError(.loteSignerExpired, failure.message)
        default:
            throw VerificationError(.loteSignerUntrusted, "the signer \(signer.subject) does not chain to a pinned LoTE signer root at "
                                    + "\(RFC3339.format(time)); pin the scheme operator's signer certificate or the CA that issued it")
        }
        try jws.checkSignature()
        let lote = try LoTE(payload: jws.payload)
        if lote.issueDate.date.timeIntervalSince(time) > Self.issueTimeAllowance {
            throw VerificationError(.loteNotYetValid, "the list's ListIssueDateTime \(lote.issueDate) is after the verification time "
                                    + "\(RFC3339.format(time)); check the clock, or that the list is not a forgery dated ahead")
        }
        if !allowRollback, let rollback = Self.rollback(lote, previousSequenceNumber: previousSequenceNumber) { throw rollback }
        let freshness: Freshness = lote.nextUpdate.date < time ? .stale(since: lote.nextUpdate) : .fresh
        if case .stale(let since) = freshness, profile == .strict {
            throw VerificationError(.loteStale, "the list's NextUpdate \(since) has passed; get the scheme operator's current list")
        }
        self.lote = lote
        self.signer = signer
        self.root = root
        algorithm = jws.algorithm
        signedAt = jws.signedAt
        self.freshness = freshness
        self.time = time
    }

    /// `lote.rollback` when `lote` has a lower sequence number than `previousSequenceNumber`; nil otherwise (also when
    /// nothing was accepted before).
    public static func rollback(_ lote: LoTE, previousSequenceNumber: UInt64?) -> VerificationError? {
        guard let previousSequenceNumber, lote.sequenceNumber < previousSequenceNumber else { return nil }
        return VerificationError(.loteRollback, "LoTESequenceNumber \(lote.sequenceNumber) is lower than sequence \(previousSequenceNumber) of "
                                 + "\(lote.operatorName)'s \(lote.type ?? "list") accepted before; keep the newer list, or pass "
                                 + "--allow-rollback (server: allowRollback) to accept it on purpose")
    }

    /// The certificates a LoTE carries in its `x5c`, signer first (to resolve a pinned root given by fingerprint).
    ///
    /// - Throws: `lote.malformed` or `lote.too_large` when the bytes are not a JWS with a well-formed `x5c`.
    public static func carriedCertificates(_ bytes: [UInt8]) throws(VerificationError) -> [Certificate] {
        try SignedList(bytes).certificates
    }

    /// Which certificate of the signer's path is outside its validity at `time`, as a `lote.signer_expired` error.
    static func outsideValidity(_ certificates: [Certificate], at time: Date) -> VerificationError? {
        guard let message = TrustListKind.lote.signerOutsideValidity(certificates, at: time) else { return nil }
        return VerificationError(.loteSignerExpired, message + "; get the scheme operator's current list, or pin its current signer")
    }

    // MARK: - The JWS

    /// A JAdES baseline signature as a JWS (read by `JWS`), with what a LoTE's header adds: `crit`, `b64`, `sigD`,
    /// the signer's digests `x5t#o` and `x5t#S256`, and the signing time `iat` or `sigT`.
    struct SignedList {
        let jws: JWS
        let certificates: [Certificate]
        let signedAt: Date?
        var algorithm: String { jws.algorithm.rawValue }
        var payload: [UInt8] { jws.payload }

        init(_ input: [UInt8]) throws(VerificationError) {
            guard input.count <= LoTEVerification.maxBytes else {
                throw VerificationError(.loteTooLarge, "the list is \(input.count) bytes; at most \(LoTEVerification.maxBytes) are read")
            }
            var bytes = input[...]
            while let last = bytes.last, [0x20, 0x09, 0x0A, 0x0D].contains(last) { bytes = bytes.dropLast() }
            while let first = bytes.first, [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(first) { bytes = bytes.dropFirst() }
            do {
                jws = try JWS(Array(bytes))
                certificates = try jws.certificates(limit: LoTEVerification.maxX5c)
            } catch {
                throw VerificationError(error.kind == .signatureInvalid ? .loteSignatureInvalid : .loteMalformed, error.message)
            }
            guard !jws.payload.isEmpty else {
                throw VerificationError(.loteMalformed, "the JWS payload is detached (empty); a LoTE carries its list in the payload")
            }
            try Self.checkCritical(jws.header)
            try Self.checkCertificateDigests(jws.header, signer: certificates[0])
            signedAt = try Self.signingTime(jws.header)
        }

        /// `crit` names only parameters this verifier processes; `b64` false (an unencoded payload) and `sigD` (a
        /// detached one) are refused.
        static func checkCritical(_ header: JSONValue) throws(VerificationError) {
            if let b64 = header["b64"] {
                guard b64 == .bool(true) else {
                    throw VerificationError(.loteMalformed, "the JWS header sets `b64` to other than true (RFC 7797 unencoded payload); a LoTE's payload is base64url")
                }
            }
            if header["sigD"] != nil {
                throw VerificationError(.loteMalformed, "the JWS header has `sigD` (a detached JAdES payload); a LoTE carries its list in the payload")
            }
            guard let node = header["crit"] else { return }
            guard let list = node.array, !list.isEmpty else { throw VerificationError(.loteMalformed, "the JWS `crit` is not a non-empty array") }
            for item in list {
                guard let name = item.string else { throw VerificationError(.loteMalformed, "the JWS `crit` holds a non-string entry") }
                guard LoTEVerification.understoodCritical.contains(name) else {
                    throw VerificationError(.loteMalformed, "the JWS header marks \(InputQuote.short(name)) critical, which this verifier does "
                                            + "not process (RFC 7515 §4.1.11); the list cannot be accepted")
                }
                guard header[name] != nil else {
                    throw VerificationError(.loteMalformed, "the JWS `crit` names \(InputQuote.short(name)), which the header does not carry")
                }
            }
        }

        /// `x5t#o` (JAdES: `{digAlg, digVal}`) and `x5t#S256`, when present, must be digests of `x5c[0]`.
        static func checkCertificateDigests(_ header: JSONValue, signer: Certificate) throws(VerificationError) {
            if let node = header["x5t#o"] {
                let algorithms: [String: DigestAlgorithm] = ["S256": .sha256, "S384": .sha384, "S512": .sha512]
                guard let name = node["digAlg"]?.string, let value = node["digVal"]?.string else {
                    throw VerificationError(.loteMalformed, "the JWS `x5t#o` is not {digAlg, digVal}")
                }
                guard let algorithm = algorithms[name] else {
                    throw VerificationError(.loteMalformed, "the JWS `x5t#o` digAlg \(InputQuote.short(name)) is not S256, S384 or S512")
                }
                guard let expected = Base64URL.decodeStrict(value), Digest.matches(algorithm, signer.derEncoded, expected) else {
                    throw VerificationError(.loteSignatureInvalid, "the JWS `x5t#o` digest does not match the signer certificate x5c[0]: the "
                                            + "signed header names another certificate")
                }
            }
            if let node = header["x5t#S256"] {
                guard let value = node.string, let expected = Base64URL.decodeStrict(value), Digest.matches(.sha256, signer.derEncoded, expected) else {
                    throw VerificationError(.loteSignatureInvalid, "the JWS `x5t#S256` does not match the signer certificate x5c[0]")
                }
            }
        }

        /// `iat` (NumericDate) or JAdES `sigT` (a date-time); nil when neither is given.
        static func signingTime(_ header: JSONValue) throws(VerificationError) -> Date? {
            if let node = header["iat"] {
                guard let seconds = node.unsignedInteger, seconds < 1 << 40 else {
                    throw VerificationError(.loteMalformed, "the JWS `iat` is not a NumericDate")
                }
                return Date(timeIntervalSince1970: TimeInterval(seconds))
            }
            if let node = header["sigT"] {
                guard let text = node.string, let date = RFC3339.parseDateTime(text) else {
                    throw VerificationError(.loteMalformed, "the JWS `sigT` is not an RFC 3339 date-time")
                }
                return date
            }
            return nil
        }

        func checkSignature() throws(VerificationError) {
            let valid: Bool
            do {
                valid = try jws.algorithm.isValid(jws.signature, for: jws.signingInput, by: certificates[0])
            } catch {
                throw VerificationError(.loteSignatureInvalid, error.message)
            }
            guard valid else {
                throw VerificationError(.loteSignatureInvalid, "the LoTE signature (\(algorithm)) does not verify with the signer's key; the "
                                        + "list was altered or not signed by x5c[0]: download it again")
            }
        }
    }
}
