import CryptoCore

extension HPKE {
    /// The sender side of an HPKE context (RFC 9180 §5.2): encrypts a sequence of messages to one recipient
    /// and exports secrets.
    ///
    /// Stateful (the sequence number advances with every `seal`), so not `Sendable`: keep a context in one
    /// task. Secrets are zeroized when the context is released.
    public final class SenderContext {
        /// The ciphersuite the context was set up with.
        public let suite: Ciphersuite
        /// The mode, implied by whether a PSK and a sender key were given.
        public let mode: Mode
        /// `enc`, to be sent to the recipient.
        public let encapsulatedKey: [UInt8]
        var state: ContextState

        /// Sets up a sender context that encrypts to `recipientKey` with a fresh ephemeral key.
        ///
        /// Implements SetupBaseS / SetupPSKS / SetupAuthS / SetupAuthPSKS (RFC 9180 §5.1): the mode follows from
        /// `psk` and `senderKey`. Throws `HPKEError`: `invalidPSK` for inconsistent PSK inputs, `invalidKey` when a
        /// key is not on the suite's curve.
        public convenience init(suite: Ciphersuite, recipientKey: PublicKey, info: some CryptoBytes,
                                psk: PSK? = nil, senderKey: PrivateKey? = nil) throws {
            try self.init(suite: suite, recipientKey: recipientKey, info: info, psk: psk, senderKey: senderKey,
                          ephemeralKey: nil)
        }

        /// As above with a fixed ephemeral key skE, for known-answer tests only: reusing an ephemeral key
        /// across messages breaks HPKE's security.
        package init(suite: Ciphersuite, recipientKey: PublicKey, info: some CryptoBytes, psk: PSK?,
                     senderKey: PrivateKey?, ephemeralKey: PrivateKey?) throws {
            let mode = HPKE.mode(psk: psk, authenticated: senderKey != nil)
            try verifyPSKInputs(mode: mode, psk: psk)
            var (sharedSecret, enc) = try suite.kem.encapsulate(recipientKey: recipientKey, senderKey: senderKey,
                                                                ephemeralKey: ephemeralKey)
            defer { sharedSecret.zeroize() }
            self.suite = suite
            self.mode = mode
            self.encapsulatedKey = enc
            self.state = try ContextState(suite: suite, mode: mode, sharedSecret: sharedSecret, info: info, psk: psk)
        }

        deinit { state.zeroize() }

        /// Encrypts `plaintext` with `aad` at the current sequence number, then advances it.
        /// Throws `exportOnly` for the export-only AEAD and `messageLimitReached` at the end of the nonce space.
        public func seal(_ plaintext: some CryptoBytes, aad: some CryptoBytes = [UInt8]()) throws -> [UInt8] {
            try state.seal(plaintext, aad: aad)
        }

        /// Derives `length` bytes of secret bound to `context` from this context (RFC 9180 §5.3).
        ///
        /// Export(exporter_context, L) = LabeledExpand(exporter_secret, "sec", exporter_context, L); L ≤ 255 * Nh.
        /// Throws `HPKEError` of kind `invalidInput` when `length` is not between 1 and 255 * Nh.
        public func exportSecret(context: some CryptoBytes, length: Int) throws -> [UInt8] {
            try state.export(context: context, length: length)
        }

        /// The sequence number of the next message. Settable inside the package to test the message limit.
        package var sequenceNumber: UInt64 {
            get { state.sequenceNumber }
            set { state.sequenceNumber = newValue }
        }

        package var key: [UInt8] { state.key }
        package var baseNonce: [UInt8] { state.baseNonce }
        package var exporterSecret: [UInt8] { state.exporterSecret }
    }

    /// The recipient side of an HPKE context (RFC 9180 §5.2). Not `Sendable` (see `SenderContext`).
    public final class RecipientContext {
        /// The ciphersuite the context was set up with.
        public let suite: Ciphersuite
        /// The mode, implied by whether a PSK and a sender public key were given.
        public let mode: Mode
        var state: ContextState

        /// Sets up a recipient context from the sender's `encapsulatedKey` and the recipient's private key.
        ///
        /// Implements SetupBaseR / SetupPSKR / SetupAuthR / SetupAuthPSKR (RFC 9180 §5.1): the mode follows from
        /// `psk` and `senderPublicKey`. Throws `HPKEError`: `invalidPSK` for inconsistent PSK inputs, `invalidKey`
        /// when a key is not on the suite's curve, `invalidEncapsulatedKey` when `encapsulatedKey` is malformed or not
        /// on
        /// the curve.
        public init(suite: Ciphersuite, recipientKey: PrivateKey, encapsulatedKey: some CryptoBytes,
                    info: some CryptoBytes, psk: PSK? = nil, senderPublicKey: PublicKey? = nil) throws {
            let mode = HPKE.mode(psk: psk, authenticated: senderPublicKey != nil)
            try verifyPSKInputs(mode: mode, psk: psk)
            var sharedSecret = try encapsulatedKey.withCryptoBytes {
                try suite.kem.decapsulate(enc: $0, recipientKey: recipientKey, senderPublicKey: senderPublicKey)
            }
            defer { sharedSecret.zeroize() }
            self.suite = suite
            self.mode = mode
            self.state = try ContextState(suite: suite, mode: mode, sharedSecret: sharedSecret, info: info, psk: psk)
        }

        deinit { state.zeroize() }

        /// Decrypts and authenticates `ciphertext` with `aad` at the current sequence number, then advances it.
        /// A failure (`decryptionFailed`) leaves the sequence number unchanged. Also throws `exportOnly` for the
        /// export-only AEAD and `messageLimitReached` at the end of the nonce space.
        public func open(_ ciphertext: some CryptoBytes, aad: some CryptoBytes = [UInt8]()) throws -> [UInt8] {
            try state.open(ciphertext, aad: aad)
        }

        /// Derives `length` bytes of secret bound to `context` from this context (RFC 9180 §5.3).
        ///
        /// Export(exporter_context, L); see `SenderContext.exportSecret`. Throws `HPKEError` of kind `invalidInput`
        /// when `length` is not between 1 and 255 * Nh.
        public func exportSecret(context: some CryptoBytes, length: Int) throws -> [UInt8] {
            try state.export(context: context, length: length)
        }

        package var sequenceNumber: UInt64 {
            get { state.sequenceNumber }
            set { state.sequenceNumber = newValue }
        }

        package var key: [UInt8] { state.key }
        package var baseNonce: [UInt8] { state.baseNonce }
        package var exporterSecret: [UInt8] { state.exporterSecret }
    }

    /// Key, nonce, exporter secret and sequence number shared by both context roles.
    struct ContextState {
        let suite: Ciphersuite
        var key: [UInt8]
        var baseNonce: [UInt8]
        var exporterSecret: [UInt8]
        /// RFC 9180 allows 2^(8*Nn) - 1 messages (2^96 - 1 for every AEAD here); a 64-bit counter is used and
        /// UInt64.max is treated as the limit, which no sender can reach in practice.
        var sequenceNumber: UInt64 = 0

        /// KeySchedule<ROLE>() (RFC 9180 §5.1) for either role; the intermediate `secret` is wiped here.
        init(suite: Ciphersuite, mode: Mode, sharedSecret: [UInt8], info: some CryptoBytes, psk: PSK?) throws {
            var schedule = try info.withCryptoBytes {
                try keySchedule(suite: suite, mode: mode, sharedSecret: sharedSecret, info: $0, psk: psk)
            }
            schedule.secret.zeroize()
            self.suite = suite
            self.key = schedule.key
            self.baseNonce = schedule.baseNonce
            self.exporterSecret = schedule.exporterSecret ?? []
        }

        mutating func zeroize() {
            key.zeroize()
            baseNonce.zeroize()
            exporterSecret.zeroize()
        }

        mutating func seal(_ plaintext: some CryptoBytes, aad: some CryptoBytes) throws -> [UInt8] {
            try nextMessage("seal") { aead, key, nonce in
                do {
                    return try aead.seal(key: key, nonce: nonce, plaintext: plaintext, aad: aad)
                } catch let error as CryptoError {
                    throw HPKEError(.internalFailure, error.message)
                }
            }
        }

        mutating func open(_ ciphertext: some CryptoBytes, aad: some CryptoBytes) throws -> [UInt8] {
            try nextMessage("open") { aead, key, nonce in
                try HPKE.open(aead, key: key, nonce: nonce, ciphertext: ciphertext, aad: aad)
            }
        }

        /// Runs `body` with the AEAD, key and this message's nonce (wiped after), advancing the sequence number
        /// only when it succeeds; `operation` names seal or open in the export-only error.
        private mutating func nextMessage(_ operation: String,
                                          _ body: (AEADAlgorithm, [UInt8], [UInt8]) throws -> [UInt8]) throws -> [UInt8] {
            guard let aead = suite.aead.algorithm else {
                throw HPKEError(.exportOnly, "\(operation) is not available with the export-only AEAD")
            }
            guard sequenceNumber < UInt64.max else {
                throw HPKEError(.messageLimitReached, "sequence number limit reached")
            }
            var nonce = computeNonce(baseNonce: baseNonce, sequenceNumber: sequenceNumber)
            defer { nonce.zeroize() }
            let output = try body(aead, key, nonce)
            sequenceNumber += 1
            return output
        }

        func export(context: some CryptoBytes, length: Int) throws -> [UInt8] {
            guard length > 0, length <= 255 * suite.kdf.hashByteCount else {
                throw HPKEError(.invalidInput, "export length \(length) must be between 1 and 255 * Nh")
            }
            return try context.withCryptoBytes {
                try suite.labeled.expand(prk: exporterSecret, label: "sec", info: $0, length: length)
            }
        }
    }

    /// ComputeNonce(seq) = base_nonce XOR I2OSP(seq, Nn).
    static func computeNonce(baseNonce: [UInt8], sequenceNumber: UInt64) -> [UInt8] {
        var nonce = baseNonce
        let count = nonce.count
        for index in 0..<8 where index < count {
            nonce[count - 1 - index] ^= UInt8(truncatingIfNeeded: sequenceNumber >> (8 * UInt64(index)))
        }
        return nonce
    }

    /// AEAD open mapping CryptoCore's errors to HPKE's.
    static func open(_ aead: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: some CryptoBytes,
                     aad: some CryptoBytes) throws -> [UInt8] {
        do {
            return try aead.open(key: key, nonce: nonce, ciphertext: ciphertext, aad: aad)
        } catch let error as CryptoError {
            throw HPKEError(error.kind == .authenticationFailed ? .decryptionFailed : .internalFailure, error.message)
        }
    }
}
