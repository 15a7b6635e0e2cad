import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import TestSupport
import Verifier

/// ETSI TS 119 602 Lists of Trusted Entities: the European Commission's real acceptance list (TestVectors/trust/lote),
/// and kit-signed lists for every way a list can be wrong, end to end through verification.
@Suite("LoTE verification (ETSI TS 119 602)")
struct LoTETests {
    static let directory = "TestVectors/trust/lote/"
    static let real = Array(FileManager.default.contents(atPath: VectorFiles.url(directory + "ec-acceptance-wallet-providers-seq1.jwt").path) ?? Data())
    static func realSigner() throws -> Certificate { try Certificate(pemEncoded: VectorFiles.text(directory + "ec-acceptance-lote-signer.pem")) }
    /// Inside the real list's NextUpdate (2026-06-01T08:29:41Z) and its signer's validity.
    static let realTime = VectorFiles.date("2026-01-01T00:00:00Z")
    static let walletIssuance = "http://uri.etsi.org/19602/SvcType/WalletSolution/Issuance"
    static let pid = "eu.europa.ec.eudi.pid.1"
    static let transcript = SessionTranscript(built: .array([.null, .null, .array([.text("LoTETests")])]))

    static func code(_ body: () throws -> Void) -> ErrorCode? {
        do {
            try body()
            return nil
        } catch let error as VerificationError {
            return error.code
        } catch {
            return ErrorCode("unexpected")
        }
    }

    static func error(_ body: () throws -> Void) -> VerificationError? {
        do {
            try body()
            return nil
        } catch let error as VerificationError {
            return error
        } catch {
            return nil
        }
    }

    // MARK: The real list

    @Test("the real files are the ones recorded in the README")
    func provenance() throws {
        #expect(Hex.encode(Digest.hash(.sha256, Self.real)) == "b441899c75abb3a083f287cba0495bef321ac86a2c022614006dad787d7548d4")
        #expect(Hex.encode(try Self.realSigner().sha256Fingerprint) == "0ccf87a5abf4db89bde4e10202e2523296bea7d835ba6a5a41054b9e1e6b8949")
    }

    @Test("the EC acceptance wallet-providers list verifies (RS512, x5t#o) with its signer pinned, and yields its two providers' CAs")
    func realList() throws {
        let verified = try LoTEVerification(Self.real, roots: [try Self.realSigner()], at: Self.realTime)
        #expect(verified.algorithm == "RS512")
        #expect(verified.freshness == .fresh)
        #expect(verified.lote.sequenceNumber == 1)
        #expect(verified.lote.type == "http://uri.etsi.org/19602/LoTEType/EUWalletProvidersList")
        #expect(verified.lote.operatorName == "European Commission")
        #expect(verified.lote.territory == "EU")
        #expect(verified.lote.issueDate.description == "2025-12-01T08:29:41Z")
        #expect(verified.lote.nextUpdate.description == "2026-06-01T08:29:41Z")
        #expect(verified.lote.entityCount == 2)
        #expect(verified.lote.services.map(\.entityName) == ["PagoPA Wallet Provider Root CA", "Microsec Ltd."])
        #expect(verified.lote.services.allSatisfy { $0.type == Self.walletIssuance && $0.status == nil && $0.certificates.count == 1 })
        #expect(verified.signedAt == Date(timeIntervalSince1970: 1_764_688_670))
        // The signer was pinned itself: the CA that issued it (CommisSign - 2) is not published with the sample.
        #expect(verified.root == (try Self.realSigner()))
        #expect(verified.sourceName == "LoTE European Commission EUWalletProvidersList sequence 1 of 2025-12-01T08:29:41Z")

        let anchors = verified.anchors(scope: LoTEScope([Self.walletIssuance: ["org.example.wallet.1"]]))
        #expect(anchors.count == 2)
        #expect(anchors.allSatisfy { $0.docTypes == ["org.example.wallet.1"] && $0.certificate.basicConstraints?.isCA == true })
        // One self-signed root CA (IT), one intermediate (HU): both anchor, the intermediate as a pinned CA.
        #expect(anchors.map(\.certificate.isSelfSigned).sorted { !$0 && $1 } == [false, true])
        // Through the list type as well; a mapping of another type anchors nothing.
        #expect(verified.anchors(scope: LoTEScope([verified.lote.type ?? "": ["x"]])).count == 2)
        #expect(verified.anchors(scope: LoTEScope([LoTEBuilder.pidIssuance: [Self.pid]])).isEmpty)
        #expect(verified.decisions(scope: LoTEScope([:])).allSatisfy { $0.outcome == .unmapped })
    }

    @Test("verified now, the real list is past its NextUpdate: reported stale by default, refused under strict (lote.stale)")
    func realListStale() throws {
        let later = VectorFiles.date("2026-07-01T00:00:00Z")
        let verified = try LoTEVerification(Self.real, roots: [try Self.realSigner()], at: later)
        #expect(verified.freshness == .stale(since: verified.lote.nextUpdate))
        #expect(Self.code { _ = try LoTEVerification(Self.real, roots: [try Self.realSigner()], at: later, profile: .strict) } == .loteStale)
    }

    @Test("the real list with a flipped payload byte, an altered x5t#o, or another pinned signer is refused")
    func realListTampered() throws {
        let text = String(decoding: Self.real, as: UTF8.self)
        let parts = text.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        // A payload character in the middle of the list, changed to another base64url character.
        var payload = Array(parts[1].utf8)
        let middle = payload.count / 2
        payload[middle] = payload[middle] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let flipped = Array((parts[0] + "." + String(decoding: payload, as: UTF8.self) + "." + parts[2]).utf8)
        #expect(Self.code { _ = try LoTEVerification(flipped, roots: [try Self.realSigner()], at: Self.realTime) } == .loteSignatureInvalid)

        // x5t#o names another certificate.
        let header = try #require(Base64URL.decodeStrict(parts[0]))
        var headerText = String(decoding: header, as: UTF8.self)
        let digest = try #require(headerText.range(of: "\"digVal\":\"")).upperBound
        headerText.replaceSubrange(digest ..< headerText.index(digest, offsetBy: 4), with: "AAAA")
        let altered = Array((Base64URL.encode(Array(headerText.utf8)) + "." + parts[1] + "." + parts[2]).utf8)
        let failure = Self.error { _ = try LoTEVerification(altered, roots: [try Self.realSigner()], at: Self.realTime) }
        #expect(failure?.code == .loteSignatureInvalid)
        #expect(failure?.message.contains("x5t#o") == true)

        // Another pinned signer root: the list's own x5c is not trust.
        let other = try LoTEBuilder(seed: 7, at: Self.realTime)
        #expect(Self.code { _ = try LoTEVerification(Self.real, roots: [other.root], at: Self.realTime) } == .loteSignerUntrusted)
        #expect(Self.code { _ = try LoTEVerification(Self.real, roots: [], at: Self.realTime) } == .loteSignerUntrusted)
    }

    // MARK: Kit-signed lists

    static let time = Fixtures.time
    static let day: TimeInterval = 86_400

    static func list(_ builder: LoTEBuilder, _ services: [LoTEBuilder.Service], sequence: UInt64 = 5, issued: Date = time - day,
                     nextUpdate: Date = time + 30 * day, type: String? = LoTEBuilder.pidListType) throws -> [UInt8] {
        try builder.build(services: services, sequenceNumber: sequence, issued: issued, nextUpdate: nextUpdate, type: type)
    }

    @Test("a kit list verifies on each curve (ES256, ES384, ES512), pinned by its root or by its signer; the JSON serialization too")
    func kitCurves() throws {
        let pki = try TestPKI(seed: 31, at: Self.time)
        for curve in [Curve.p256, .p384, .p521] {
            let builder = try LoTEBuilder(seed: 3, curve: curve, at: Self.time)
            let bytes = try Self.list(builder, [.init([pki.iaca])])
            let verified = try LoTEVerification(bytes, roots: [builder.root], at: Self.time)
            #expect(verified.algorithm == builder.algorithm)
            #expect(verified.root == builder.root)
            #expect(try LoTEVerification(bytes, roots: [builder.signer], at: Self.time).root == builder.signer)
        }
        let builder = try LoTEBuilder(at: Self.time)
        let parts = String(decoding: try Self.list(builder, [.init([pki.iaca])]), as: UTF8.self).split(separator: ".").map(String.init)
        let flattened = JSONValue.object([("payload", .string(parts[1])), ("protected", .string(parts[0])), ("signature", .string(parts[2]))])
        #expect(try LoTEVerification(flattened.serializedBytes(), roots: [builder.root], at: Self.time).lote.services.count == 1)
        // With a trailing newline, as files often end.
        #expect(throws: Never.self) { try LoTEVerification(try Self.list(builder, [.init([pki.iaca])]) + [0x0A], roots: [builder.root], at: Self.time) }
    }

    @Test("a bad signature, alg none or HS256, an alg that does not fit the key, and another signer's key are lote.signature_invalid")
    func signatures() throws {
        let pki = try TestPKI(seed: 31, at: Self.time)
        let builder = try LoTEBuilder(at: Self.time)
        var bytes = try Self.list(builder, [.init([pki.iaca])])
        bytes[bytes.count - 5] = bytes[bytes.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(Self.code { _ = try LoTEVerification(bytes, roots: [builder.root], at: Self.time) } == .loteSignatureInvalid)

        let payload = builder.payload(services: [.init([pki.iaca])], sequenceNumber: 1, issued: Self.time - Self.day, nextUpdate: Self.time + Self.day)
            .serializedBytes()
        func header(alg: String) -> [(String, JSONValue)] {
            builder.standardHeader(signedAt: Self.time).map { $0.0 == "alg" ? ("alg", .string(alg)) : $0 }
        }
        for alg in ["none", "HS256", "ES384", "RS256", "EdDSA"] {
            let signed = try builder.sign(header: header(alg: alg), payload: payload)
            #expect(Self.code { _ = try LoTEVerification(signed, roots: [builder.root], at: Self.time) } == .loteSignatureInvalid, "\(alg)")
        }
        // alg none with an empty signature.
        let unsigned = Array((Base64URL.encode(JSONValue.object(header(alg: "none")).serializedBytes()) + "." + Base64URL.encode(payload) + ".").utf8)
        #expect(Self.code { _ = try LoTEVerification(unsigned, roots: [builder.root], at: Self.time) } == .loteSignatureInvalid)

        // x5c names builder's signer, but another key signed: the signature does not verify.
        let other = try LoTEBuilder(seed: 9, at: Self.time)
        let forged = try other.sign(header: builder.standardHeader(signedAt: Self.time), payload: payload)
        #expect(Self.code { _ = try LoTEVerification(forged, roots: [builder.root], at: Self.time) } == .loteSignatureInvalid)
    }

    @Test("an x5c chaining to another root, or carrying the pinned root beside a foreign signer, is lote.signer_untrusted")
    func otherRoot() throws {
        let pki = try TestPKI(seed: 31, at: Self.time)
        let builder = try LoTEBuilder(at: Self.time)
        let other = try LoTEBuilder(seed: 9, at: Self.time)
        let bytes = try Self.list(other, [.init([pki.iaca])])
        #expect(Self.code { _ = try LoTEVerification(bytes, roots: [builder.root], at: Self.time) } == .loteSignerUntrusted)
        let payload = other.payload(services: [.init([pki.iaca])], sequenceNumber: 1, issued: Self.time - Self.day, nextUpdate: Self.time + Self.day)
            .serializedBytes()
        let mixed = other.standardHeader(signedAt: Self.time).map { member -> (String, JSONValue) in
            member.0 == "x5c" ? ("x5c", .array([other.signer, builder.root].map { .string(Data($0.derEncoded).base64EncodedString()) })) : member
        }
        let signed = try other.sign(header: mixed, payload: payload)
        #expect(Self.code { _ = try LoTEVerification(signed, roots: [builder.root], at: Self.time) } == .loteSignerUntrusted)
        // The signer's validity is judged at the verification time.
        let afterSigner = builder.signer.notAfter + Self.day
        let late = try Self.list(builder, [.init([pki.iaca])], issued: afterSigner - Self.day, nextUpdate: afterSigner + Self.day)
        #expect(Self.code { _ = try LoTEVerification(late, roots: [builder.root], at: afterSigner) } == .loteSignerExpired)
    }

    @Test("unknown critical headers, b64 false, sigD, a detached payload, a repeated member, deep nesting and huge input are refused")
    func headerAndInputAttacks() throws {
        let pki = try TestPKI(seed: 31, at: Self.time)
        let builder = try LoTEBuilder(at: Self.time)
        let payload = builder.payload(services: [.init([pki.iaca])], sequenceNumber: 1, issued: Self.time - Self.day, nextUpdate: Self.time + Self.day)
            .serializedBytes()
        let standard = builder.standardHeader(signedAt: Self.time)
        func verify(_ bytes: [UInt8]) -> ErrorCode? { Self.code { _ = try LoTEVerification(bytes, roots: [builder.root], at: Self.time) } }

        #expect(verify(try builder.sign(header: standard + [("crit", .array([.string("exp")])), ("exp", .int(1))], payload: payload)) == .loteMalformed)
        #expect(verify(try builder.sign(header: standard + [("crit", .array([.string("sigT")]))], payload: payload)) == .loteMalformed)
        #expect(verify(try builder.sign(header: standard + [("crit", .array([.string("sigT")])), ("sigT", .string("2026-05-31T12:00:00Z"))],
                                        payload: payload)) == nil)
        #expect(verify(try builder.sign(header: standard + [("b64", .bool(false))], payload: payload)) == .loteMalformed)
        #expect(verify(try builder.sign(header: standard + [("sigD", .object([]))], payload: payload)) == .loteMalformed)
        let compact = String(decoding: try builder.sign(header: standard, payload: payload), as: UTF8.self).split(separator: ".").map(String.init)
        #expect(verify(Array((compact[0] + ".." + compact[2]).utf8)) == .loteMalformed)
        #expect(verify(Array((compact[0] + "." + compact[1]).utf8)) == .loteMalformed)

        // A member repeated in the header or the payload: parsers disagree on which one counts.
        let header = JSONValue.object(standard).serialized()
        let repeated = "{\"alg\":\"none\"," + header.dropFirst()
        #expect(verify(try builder.sign(headerBytes: Array(repeated.utf8), payload: payload)) == .loteMalformed)
        let text = String(decoding: payload, as: UTF8.self)
        let doubled = text.replacingOccurrences(of: "\"LoTESequenceNumber\":1", with: "\"LoTESequenceNumber\":1,\"LoTESequenceNumber\":9")
        #expect(doubled != text)
        let failure = Self.error { _ = try LoTEVerification(try builder.sign(header: standard, payload: Array(doubled.utf8)), roots: [builder.root],
                                                            at: Self.time) }
        #expect(failure?.code == .loteMalformed && failure?.message.contains("twice") == true)

        // Deep nesting: refused by depth, no recursion into it.
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
        #expect(verify(try builder.sign(header: standard, payload: deep)) == .loteMalformed)
        let deepHeader = Array("{\"a\":".utf8) + Array(repeating: UInt8(ascii: "["), count: 50_000) + Array(repeating: UInt8(ascii: "]"), count: 50_000) + [UInt8(ascii: "}")]
        #expect(verify(try builder.sign(headerBytes: deepHeader, payload: payload)) == .loteMalformed)

        // Over the size ceiling: refused before anything is parsed.
        #expect(verify(Array(repeating: UInt8(ascii: "A"), count: LoTEVerification.maxBytes + 1)) == .loteTooLarge)
        // More entities than the entry ceiling.
        let many = builder.payload(services: (0 ... LoTE.maxEntries).map { .init([], entityName: "e\($0)") }, sequenceNumber: 1,
                                   issued: Self.time - Self.day, nextUpdate: Self.time + Self.day)
        #expect(verify(try builder.sign(header: standard, payload: many.serializedBytes())) == .loteTooLarge)
        // Not JSON, not a LoTE, a version other than 1, no NextUpdate.
        #expect(verify(try builder.sign(header: standard, payload: Array("not json".utf8))) == .loteMalformed)
        #expect(verify(try builder.sign(header: standard, payload: Array("{\"TrustedList\":{}}".utf8))) == .loteMalformed)
        let version2 = text.replacingOccurrences(of: "\"LoTEVersionIdentifier\":1", with: "\"LoTEVersionIdentifier\":2")
        #expect(verify(try builder.sign(header: standard, payload: Array(version2.utf8))) == .loteMalformed)
        let noNext = text.replacingOccurrences(of: "\"NextUpdate\"", with: "\"Next\"")
        #expect(verify(try builder.sign(header: standard, payload: Array(noNext.utf8))) == .loteMalformed)
        let fractional = text.replacingOccurrences(of: "\"LoTESequenceNumber\":1", with: "\"LoTESequenceNumber\":1.5")
        #expect(verify(try builder.sign(header: standard, payload: Array(fractional.utf8))) == .loteMalformed)
    }

    @Test("a lower sequence number than accepted is lote.rollback unless allowed; the same or a higher one is accepted")
    func rollback() throws {
        let pki = try TestPKI(seed: 31, at: Self.time)
        let builder = try LoTEBuilder(at: Self.time)
        let bytes = try Self.list(builder, [.init([pki.iaca])], sequence: 3)
        let failure = Self.error { _ = try LoTEVerification(bytes, roots: [builder.root], at: Self.time, previousSequenceNumber: 4) }
        #expect(failure?.code == .loteRollback)
        #expect(failure?.message.contains("--allow-rollback") == true)
        #expect(throws: Never.self) { try LoTEVerification(bytes, roots: [builder.root], at: Self.time, previousSequenceNumber: 4, allowRollback: true) }
        #expect(throws: Never.self) { try LoTEVerification(bytes, roots: [builder.root], at: Self.time, previousSequenceNumber: 3) }
        #expect(try LoTEVerification(bytes, roots: [builder.root], at: Self.time).lote.rollbackKey
                == "lote:MdocTesting Scheme Operator|\(LoTEBuilder.pidListType)")
    }

    @Test("rollback keys: a | or % in the operator or the type is encoded, so lists never share a key by where a | falls")
    func rollbackKeyEscaping() throws {
        let builder = try LoTEBuilder(at: Self.time)
        let pki = try TestPKI(seed: 31, at: Self.time)
        func key(operator name: String, type: String?) throws -> String {
            let bytes = try builder.build(services: [.init([pki.iaca])], sequenceNumber: 1, issued: Self.time - Self.day,
                                          nextUpdate: Self.time + Self.day, type: type, operatorName: name)
            return try LoTEVerification(bytes, roots: [builder.root], at: Self.time).lote.rollbackKey
        }
        let split = [try key(operator: "A|B", type: "C"), try key(operator: "A", type: "B|C")]
        #expect(split == ["lote:A%7CB|C", "lote:A|B%7CC"])
        #expect(try key(operator: "A", type: "-") == "lote:A|%2D" && key(operator: "A", type: nil) == "lote:A|-")
        #expect(try key(operator: "50%", type: "T") == "lote:50%25|T")
    }

    @Test("past NextUpdate a list is stale (strict refuses it); a list issued in the future is lote.not_yet_valid")
    func freshness() throws {
        let pki = try TestPKI(seed: 31, at: Self.time)
        let builder = try LoTEBuilder(at: Self.time)
        let stale = try Self.list(builder, [.init([pki.iaca])], issued: Self.time - 10 * Self.day, nextUpdate: Self.time - Self.day)
        #expect(try LoTEVerification(stale, roots: [builder.root], at: Self.time).freshness == .stale(since: RFC3339.Timestamp(Self.time - Self.day)))
        #expect(Self.code { _ = try LoTEVerification(stale, roots: [builder.root], at: Self.time, profile: .strict) } == .loteStale)
        // At the second of NextUpdate the list is still current, as a VICAL is: stale starts after it.
        let due = try Self.list(builder, [.init([pki.iaca])], issued: Self.time - 10 * Self.day, nextUpdate: Self.time)
        #expect(try LoTEVerification(due, roots: [builder.root], at: Self.time, profile: .strict).freshness == .fresh)
        let future = try Self.list(builder, [.init([pki.iaca])], issued: Self.time + Self.day, nextUpdate: Self.time + 30 * Self.day)
        #expect(Self.code { _ = try LoTEVerification(future, roots: [builder.root], at: Self.time) } == .loteNotYetValid)
    }

    @Test("only services active at the verification time anchor: withdrawn, unknown, future-dated statuses and revocation services do not")
    func serviceStatus() throws {
        let builder = try LoTEBuilder(at: Self.time)
        let pkis = try (40 ..< 48).map { try TestPKI(seed: UInt64($0), at: Self.time) }
        let services: [LoTEBuilder.Service] = [
            .init([pkis[0].iaca], name: "listed"),
            .init([pkis[1].iaca], name: "withdrawn", status: LoTEBuilder.withdrawn, statusStartingTime: Self.time - Self.day),
            .init([pkis[2].iaca], name: "withdrawn later", status: LoTEBuilder.withdrawn, statusStartingTime: Self.time + Self.day,
                  history: [(LoTEBuilder.notified, Self.time - 9 * Self.day)]),
            .init([pkis[3].iaca], name: "notified later", status: LoTEBuilder.notified, statusStartingTime: Self.time + Self.day),
            .init([pkis[4].iaca], name: "unknown status", status: "http://example.invalid/SvcStatus/maybe", statusStartingTime: Self.time - Self.day),
            .init([pkis[5].iaca], type: LoTEBuilder.pidRevocation, name: "revocation"),
            .init([pkis[6].iaca], name: "notified", status: LoTEBuilder.notified, statusStartingTime: Self.time - Self.day),
            .init([], name: "no certificate"),
        ]
        let verified = try LoTEVerification(try Self.list(builder, services), roots: [builder.root], at: Self.time)
        let outcomes = Dictionary(uniqueKeysWithValues: verified.decisions(scope: LoTEScope([LoTEBuilder.pidListType: [Self.pid]])).map {
            ($0.service.name, $0.outcome)
        })
        #expect(outcomes["listed"] == .anchored(docTypes: [Self.pid]))
        #expect(outcomes["withdrawn later"] == .anchored(docTypes: [Self.pid]))
        #expect(outcomes["notified"] == .anchored(docTypes: [Self.pid]))
        for name in ["withdrawn", "notified later", "unknown status"] {
            guard case .inactive? = outcomes[name] else {
                Issue.record("\(name): \(String(describing: outcomes[name]))")
                continue
            }
        }
        #expect(outcomes["revocation"] == .unmapped)
        #expect(outcomes["no certificate"] == .noCertificate)
        let anchored = verified.anchors(scope: LoTEScope([LoTEBuilder.pidListType: [Self.pid]])).map(\.certificate)
        #expect(anchored == [pkis[0].iaca, pkis[2].iaca, pkis[6].iaca])
        // A service type's own mapping reaches the revocation service; then only it, not the list type's issuance ones.
        #expect(verified.anchors(scope: LoTEScope([LoTEBuilder.pidRevocation: ["status"]])).map(\.certificate) == [pkis[5].iaca])
    }

    @Test("scope: an mDL anchored by a list mapped to mDL verifies and names the list; mapped to PID it is issuer.chain_untrusted")
    func scopeThroughVerification() throws {
        let pki = try TestPKI(seed: 21, at: Self.time)
        let builder = try LoTEBuilder(at: Self.time)
        let verified = try LoTEVerification(
            try Self.list(builder, [.init([pki.iaca], type: LoTEBuilder.mdlIssuance)], type: LoTEBuilder.mdlListType), roots: [builder.root], at: Self.time)
        func report(_ scope: LoTEScope) throws -> VerificationReport {
            let anchors = verified.anchors(scope: scope)
            let store = TrustStore(anchors: anchors.map(\.certificate), allowNonSelfSignedAnchors: true,
                                   provenance: Dictionary(uniqueKeysWithValues: anchors.map { ($0.certificate.sha256Fingerprint, verified.provenance(of: $0)) }))
            let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(Self.transcript), options: SimulationOptions(time: Self.time))
            return DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: store))
                .verify(deviceResponse: response.bytes, transcript: Self.transcript, at: Self.time)
        }
        let trusted = try report(LoTEScope([LoTEBuilder.mdlIssuance: [DocType.mDL]]))
        #expect(trusted.verified, "\(trusted.errors)")
        #expect(trusted.documents.first?.issuer.anchor?.source == verified.sourceName)
        let wrongScope = try report(LoTEScope([LoTEBuilder.mdlIssuance: [Self.pid]]))
        #expect(wrongScope.errors.map(\.code) == [.issuerChainUntrusted])
        let unmapped = try report(LoTEScope([LoTEBuilder.pidIssuance: [DocType.mDL]]))
        #expect(unmapped.errors.map(\.code) == [.issuerChainUntrusted])
    }

    @Test("doctype map entries: URI=docType[,docType], split at the last '='; malformed ones are input.malformed")
    func scopeParsing() throws {
        let scope = try LoTEScope(parsing: ["\(LoTEBuilder.pidIssuance)=\(Self.pid), org.example.1", "\(LoTEBuilder.pidIssuance)=\(Self.pid)"])
        #expect(scope.docTypes == [LoTEBuilder.pidIssuance: [Self.pid, "org.example.1"]])
        for bad in ["no-equals", "=docType", "http://x/y="] {
            #expect(Self.code { _ = try LoTEScope(parsing: [bad]) } == .inputMalformed, "\(bad)")
        }
    }
}
