import CBOR
import CryptoCore
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Synchronization
import Testing

/// Kit-signed documents, each parsed once per process, for the per-check tables: a row runs ONE check on one of them
/// with the facts it gives (`DocumentCheck.run`, as the runner runs it) and compares the lines the check wrote.
enum CheckFixture {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let transcript = SessionTranscript(built: .array([.null, .null, .text("CheckFixture")]))

    /// A parsed document and what the issuer-side checks establish for it.
    struct Parsed: Sendable {
        let pki: TestPKI
        let document: MdocDocument
        let mso: MobileSecurityObject
        let x5chain: X5Chain
        /// Document signer, IACA.
        let trustedChain: [Certificate]
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }

    /// Builds a bare DeviceResponse with the kit (no status reference) and parses its first document.
    static func parse(faults: [Fault] = [], seed: UInt64 = 71,
                      configure: (inout SimulationOptions) -> Void = { _ in }) throws -> Parsed {
        let pki = try TestPKI.shared(seed: seed, at: time)
        var options = SimulationOptions(time: time, faults: faults)
        options.statusList = nil
        configure(&options)
        let simulated = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: options)
        return try parse(deviceResponse: simulated.deviceResponse, pki: pki, signer: simulated.documentSigner)
    }

    static func parse(deviceResponse bytes: [UInt8], pki: TestPKI, signer: Certificate) throws -> Parsed {
        let response = try DeviceResponse(CBORDecoder.decode(bytes))
        guard let node = response.documents.first else { throw FixtureError(description: "no document") }
        let document = try MdocDocument(node)
        guard let payload = document.issuerAuth.payload else { throw FixtureError(description: "detached MSO") }
        return Parsed(pki: pki, document: document, mso: try MobileSecurityObject(payload: payload, limits: document.issuerAuth.decodingLimits),
                      x5chain: X5Chain(signer: signer), trustedChain: [signer, pki.iaca])
    }

    /// Parses once per key and process.
    static func cached(_ key: String, _ make: () throws -> Parsed) throws -> Parsed {
        if let parsed = cache.withLock({ $0[key] }) { return parsed }
        let parsed = try make()
        cache.withLock { $0[key] = parsed }
        return parsed
    }

    private static let cache = Mutex<[String: Parsed]>([:])

    /// The kit's mDL, every sample element disclosed.
    static func mDL() throws -> Parsed { try cached("mDL") { try parse() } }

    /// An MSO with the given validity, decoded from the bytes the kit's builder encodes.
    static func mso(signed: Date, validFrom: Date, validUntil: Date, digestAlgorithm: String = "SHA-256",
                    keyAuthorizations: MobileSecurityObjectBuilder.KeyAuthorizations? = nil) throws -> MobileSecurityObject {
        let pki = try mDL().pki
        let builder = MobileSecurityObjectBuilder(
            digestAlgorithm: digestAlgorithm, valueDigests: [], deviceKey: try pki.deviceKey().publicKey,
            keyAuthorizations: keyAuthorizations, docType: DocType.mDL,
            validity: .init(signed: signed, validFrom: validFrom, validUntil: validUntil))
        return try MobileSecurityObject(payload: CBOREncoder.encode(.embedded(builder.value))[...], limits: .default)
    }

    /// The facts a row gives: those listed, others absent.
    static func facts(_ parsed: Parsed, _ given: Set<DocumentFact>, mso: MobileSecurityObject? = nil,
                      request: RequestPolicy? = nil) -> DocumentFacts {
        var facts = DocumentFacts(requestPolicy: given.contains(.requestPolicy) ? request : nil)
        let mso = mso ?? parsed.mso
        if given.contains(.issuerAlgorithm) { facts.establish(.issuerAlgorithm, .es256) }
        if given.contains(.documentSigner) { facts.establish(.documentSigner, parsed.x5chain) }
        if given.contains(.trustedChain) { facts.establish(.trustedChain, parsed.trustedChain) }
        if given.contains(.issuerSignature) { facts.establish(.issuerSignature, IssuerSignatureVerified()) }
        if given.contains(.mso) { facts.establish(.mso, mso) }
        if given.contains(.digestAlgorithm), let algorithm = mso.digestAlgorithm { facts.establish(.digestAlgorithm, algorithm) }
        if given.contains(.documentRequest), let request = request?.documents.first { facts.establish(.documentRequest, request) }
        if given.contains(.ageDisclosure), let request = request?.documents.first {
            let returned = parsed.document.issuerNameSpaces.flatMap { nameSpace in nameSpace.items.map { (nameSpace.name, $0.elementIdentifier) } }
            facts.establish(.ageDisclosure, AgeDisclosure(request: request, returned: returned))
        }
        return facts
    }

    /// Runs `check` alone on `parsed.document` with `facts`, at `time`, and returns its lines as "status code" text
    /// ("pass", "fail mso.expired"), with the facts afterwards.
    static func run(_ check: DocumentCheck, on parsed: Parsed, facts: DocumentFacts, at time: Date = time,
                    options: MdocVerificationOptions = MdocVerificationOptions()) -> (lines: [String], details: [String], facts: DocumentFacts) {
        let context = MdocVerificationContext(time: time, transcript: transcript, readerKey: nil, options: options,
                                              trustStore: parsed.pki.trustStore, cache: CertificateCache(), request: nil)
        var verification = DocumentVerification(index: 0, document: parsed.document, context: context)
        var facts = facts
        check.run(&verification, facts: &facts)
        let lines = verification.log.checks
        #expect(lines.allSatisfy { $0.id == check.id && $0.document == 0 }, "a check wrote another check's line")
        return (lines.map { line in [line.status.rawValue, line.code?.rawValue].compactMap { $0 }.joined(separator: " ") },
                lines.map(\.detail), facts)
    }
}
