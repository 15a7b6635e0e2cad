import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// Each presentation answers its own credential query: its documents have the query's `doctype_value`, every query of
/// the request is answered, one document per requested docType holds across all DeviceResponses of the answer, and a
/// `vp_token` naming a query twice is refused. Requests come from `OpenID4VPWebRequest`, answers from the kit's
/// wallet reading them.
@Suite("OpenID4VP: presentations bound to their credential queries")
struct OpenID4VPQueryBindingTests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let origin = "https://shop.example"
    static let mDLElements = [ElementID(NameSpace.mDL, "family_name"), ElementID(NameSpace.mDL, "age_over_21")]
    static let photoElements = [ElementID(NameSpace.iso23220, "family_name_unicode"), ElementID(NameSpace.iso23220, "age_over_18")]
    /// An mDL and a photo ID, each with two elements.
    static let policy = RequestPolicy(documents: [
        .init(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": false, "age_over_21": false]]),
        .init(docType: DocType.photoID, nameSpaces: [NameSpace.iso23220: ["family_name_unicode": false, "age_over_18": false]]),
    ])

    /// A request made by the product, the kit wallet's reading of it, and two holders' issuers.
    struct Setup {
        let created: OpenID4VPWebRequest
        let wallet: OpenID4VPRequest
        let holderA: TestPKI
        let holderB: TestPKI

        var mDLQuery: String { wallet.queries[0].id }
        var photoQuery: String { wallet.queries[1].id }

        /// A DeviceResponse of `docType` from `pki`, signed over this request's transcript.
        func deviceResponse(_ docType: String, from pki: TestPKI) throws -> [UInt8] {
            var options = SimulationOptions(time: OpenID4VPQueryBindingTests.time)
            options.statusList = nil
            options.docType = docType
            options.elements = docType == DocType.mDL ? OpenID4VPQueryBindingTests.mDLElements : OpenID4VPQueryBindingTests.photoElements
            return try MdocSimulator(pki: pki).simulate(.openID4VP(wallet), options: options).deviceResponse
        }

        func verify(_ presentations: [OpenID4VPRequest.Presentation], session: OpenID4VPSession? = nil) throws -> VerificationReport {
            try verify(try wallet.answer(presentations), session: session)
        }

        func verify(_ posted: String, session: OpenID4VPSession? = nil) -> VerificationReport {
            let trust = TrustStore(anchors: [holderA.iaca, holderB.iaca])
            return OpenID4VPVerifier(configuration: VerifierConfiguration(trustStore: trust, revocation: .off))
                .verify(response: posted, session: session ?? created.session, at: OpenID4VPQueryBindingTests.time)
        }
    }

    static func setup(_ mode: OpenID4VPSession.ResponseMode = .dcAPIJWT) throws -> Setup {
        let created = try OpenID4VPWebRequest.create(origin: origin, request: policy, responseMode: mode)
        let wallet = try OpenID4VPRequest(protocolIdentifier: created.protocolIdentifier, data: created.data.serialized(), origin: origin)
        return Setup(created: created, wallet: wallet, holderA: try TestPKI.shared(seed: 31, at: time), holderB: try TestPKI.shared(seed: 32, at: time))
    }

    static func line(_ report: VerificationReport, _ id: CheckID) -> [CheckResult] { report.checks.filter { $0.id == id } }

    @Test("the session knows each query's doctype_value: the request's documents in order")
    func sessionMapping() throws {
        let setup = try Self.setup()
        #expect(setup.wallet.queries.map(\.docType) == [DocType.mDL, DocType.photoID])
        #expect(setup.created.session.queryIDs == setup.wallet.queries.map(\.id))
        #expect(setup.created.session.queryDocTypes == [setup.mDLQuery: DocType.mDL, setup.photoQuery: DocType.photoID])
    }

    @Test("positive control: an mDL for the mDL query and a photo ID for the photo query verify, both released (both modes)",
          arguments: OpenID4VPSession.ResponseMode.allCases)
    func bothRight(mode: OpenID4VPSession.ResponseMode) throws {
        let setup = try Self.setup(mode)
        let report = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderA)]),
            .init(queryID: setup.photoQuery, deviceResponses: [try setup.deviceResponse(DocType.photoID, from: setup.holderA)]),
        ])
        #expect(report.verified, "\(report.errors)")
        #expect(report.documents.map(\.docType).sorted() == [DocType.mDL, DocType.photoID])
        #expect(Self.line(report, .vpTokenDocType).map(\.status) == [.pass])
        #expect(Self.line(report, .vpTokenStructure).map(\.status) == [.pass])
    }

    @Test("two mDLs of two holders, one per query: vp_token.doctype_mismatch naming the photo query; nothing released (both modes)",
          arguments: OpenID4VPSession.ResponseMode.allCases)
    func twoMDLs(mode: OpenID4VPSession.ResponseMode) throws {
        let setup = try Self.setup(mode)
        let report = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderA)]),
            .init(queryID: setup.photoQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderB)]),
        ])
        #expect(!report.verified)
        #expect(report.errors.map(\.code) == [.vpTokenDocTypeMismatch])
        #expect(report.errors.first?.message.contains(setup.photoQuery) == true)
        #expect(report.documents.isEmpty)
    }

    @Test("the two DeviceResponses swapped between the query ids: a vp_token.doctype_mismatch for each query")
    func swapped() throws {
        let setup = try Self.setup()
        let report = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [try setup.deviceResponse(DocType.photoID, from: setup.holderA)]),
            .init(queryID: setup.photoQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderA)]),
        ])
        #expect(report.errors.map(\.code) == [.vpTokenDocTypeMismatch, .vpTokenDocTypeMismatch])
        #expect(report.documents.isEmpty)
    }

    @Test("a query left unanswered: vp_token.query_unanswered naming it; nothing released (both modes)",
          arguments: OpenID4VPSession.ResponseMode.allCases)
    func unanswered(mode: OpenID4VPSession.ResponseMode) throws {
        let setup = try Self.setup(mode)
        let report = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderA)]),
        ])
        #expect(report.errors.map(\.code) == [.vpTokenQueryUnanswered])
        #expect(report.errors.first?.message.contains(setup.photoQuery) == true)
        #expect(report.errors.first?.message.contains(setup.mDLQuery) == false)
        #expect(report.documents.isEmpty)
    }

    @Test("attacks on the vp_token shape: a query id named twice (both modes), an empty array, an unknown extra id",
          arguments: OpenID4VPSession.ResponseMode.allCases)
    func shapeAttacks(mode: OpenID4VPSession.ResponseMode) throws {
        let setup = try Self.setup(mode)
        let mDL = try setup.deviceResponse(DocType.mDL, from: setup.holderA)
        let photo = try setup.deviceResponse(DocType.photoID, from: setup.holderA)
        let otherMDL = try setup.deviceResponse(DocType.mDL, from: setup.holderB)
        // The photo query named twice: JSONSerialization keeps one of them, so the answer would hinge on the parser.
        let repeated = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [mDL]),
            .init(queryID: setup.photoQuery, deviceResponses: [otherMDL]),
            .init(queryID: setup.photoQuery, deviceResponses: [photo]),
        ])
        #expect(repeated.errors.map(\.code) == [.vpTokenMalformed], "\(repeated.errors)")
        #expect(repeated.errors.first?.message.contains("twice") == true)
        #expect(repeated.documents.isEmpty)

        let empty = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [mDL]), .init(queryID: setup.photoQuery, deviceResponses: []),
        ])
        #expect(empty.errors.map(\.code) == [.vpTokenMalformed])

        let extra = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [mDL]), .init(queryID: setup.photoQuery, deviceResponses: [photo]),
            .init(queryID: "extra", deviceResponses: [otherMDL]),
        ])
        #expect(extra.errors.map(\.code) == [.vpTokenMalformed])
        #expect(extra.documents.isEmpty)
    }

    @Test("a member name repeated elsewhere in the answer is input.malformed; an escaped spelling of the same query id is caught too")
    func repeatedNames() throws {
        let setup = try Self.setup(.dcAPI)
        let mDL = Base64URL.encode(try setup.deviceResponse(DocType.mDL, from: setup.holderA))
        let photo = Base64URL.encode(try setup.deviceResponse(DocType.photoID, from: setup.holderA))
        let token = #"{"\#(setup.mDLQuery)":["\#(mDL)"],"\#(setup.photoQuery)":["\#(photo)"]}"#
        let twoProtocols = #"{"protocol":"openid4vp-v1-unsigned","protocol":"openid4vp-v1-unsigned","data":{"vp_token":\#(token)}}"#
        #expect(setup.verify(twoProtocols).errors.map(\.code) == [.inputMalformed])
        // "\u006f" is "o": the same query id spelled two ways, inside `data` handed over as a JSON string.
        let escapedID = setup.mDLQuery.replacingOccurrences(of: "o", with: #"\u006f"#)
        let escaped = #"{"vp_token":{"\#(setup.mDLQuery)":["\#(mDL)"],"\#(escapedID)":["\#(mDL)"],"\#(setup.photoQuery)":["\#(photo)"]}}"#
        let asString = String(decoding: try JSONSerialization.data(withJSONObject: ["protocol": "openid4vp-v1-unsigned", "data": escaped]),
                              as: UTF8.self)
        let report = setup.verify(asString)
        #expect(report.errors.map(\.code) == [.vpTokenMalformed], "\(report.errors)")
        // The baseline: the same answer without the repeat verifies.
        let plain = #"{"protocol":"openid4vp-v1-unsigned","data":{"vp_token":\#(token)}}"#
        #expect(setup.verify(plain).verified, "\(setup.verify(plain).errors)")
    }

    @Test("two documents in one DeviceResponse under one query: an mDL and a photo ID is a doctype mismatch; two mDLs are policy.doctype_repeated")
    func twoDocumentsUnderOneQuery() throws {
        let setup = try Self.setup()
        let mDL = try setup.deviceResponse(DocType.mDL, from: setup.holderA)
        let otherMDL = try setup.deviceResponse(DocType.mDL, from: setup.holderB)
        let photo = try setup.deviceResponse(DocType.photoID, from: setup.holderA)
        let mixed = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [try MergedDeviceResponse.of([mDL, photo])]),
            .init(queryID: setup.photoQuery, deviceResponses: [photo]),
        ])
        #expect(mixed.errors.map(\.code) == [.vpTokenDocTypeMismatch])
        let twoMDLs = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [try MergedDeviceResponse.of([mDL, otherMDL])]),
            .init(queryID: setup.photoQuery, deviceResponses: [photo]),
        ])
        #expect(twoMDLs.errors.map(\.code) == [.policyDocTypeRepeated], "\(twoMDLs.errors)")
        #expect(twoMDLs.documents.isEmpty)
    }

    /// The created session as kept before the query doctypes were (no query ids at all, or ids without doctypes).
    static func legacy(_ session: OpenID4VPSession, queryIDs: [String], request: RequestPolicy?) throws -> OpenID4VPSession {
        let state = try OpenID4VPFlow.state(session).setting("queryDocTypes", nil)
            .setting("queryIDs", .string(queryIDs.joined(separator: ",")))
        return try OpenID4VPFlow.session(state, request: request)
    }

    @Test("one document per requested docType counts across the DeviceResponses: two mDLs under a session without query ids are policy.doctype_repeated")
    func repeatedAcrossResponses() throws {
        let setup = try Self.setup()
        let session = try Self.legacy(setup.created.session, queryIDs: [], request: Self.policy)
        #expect(session.queryDocTypes.isEmpty)
        let report = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderA)]),
            .init(queryID: setup.photoQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderB)]),
        ], session: session)
        #expect(report.errors.map(\.code) == [.policyDocTypeRepeated], "\(report.errors)")
        #expect(report.errors.first?.message.contains("2 documents of docType \(DocType.mDL)") == true)
        #expect(report.documents.isEmpty)
        #expect(Self.line(report, .vpTokenDocType).map(\.status) == [.skip])
        // Without query ids no query is required: one answer alone still verifies, as before.
        let one = try setup.verify([
            .init(queryID: setup.mDLQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderA)]),
        ], session: session)
        #expect(one.verified, "\(one.errors)")
    }

    @Test("kept state: queryDocTypes round-trips; state kept without it takes the doctypes from the request policy; a malformed value is an incomplete session")
    func keptState() throws {
        let setup = try Self.setup()
        let state = try OpenID4VPFlow.state(setup.created.session)
        #expect(state["queryDocTypes"]?.isObject == true)
        #expect(try OpenID4VPFlow.session(state, request: nil).queryDocTypes == setup.created.session.queryDocTypes)

        let derived = try Self.legacy(setup.created.session, queryIDs: setup.created.session.queryIDs, request: Self.policy)
        #expect(derived.queryDocTypes == setup.created.session.queryDocTypes)
        let twoMDLs: [OpenID4VPRequest.Presentation] = [
            .init(queryID: setup.mDLQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderA)]),
            .init(queryID: setup.photoQuery, deviceResponses: [try setup.deviceResponse(DocType.mDL, from: setup.holderB)]),
        ]
        #expect(try setup.verify(twoMDLs, session: derived).errors.map(\.code) == [.vpTokenDocTypeMismatch])

        // A policy that does not make these query ids: no doctype is known for them, so the check fails closed.
        let otherPolicy = RequestPolicy(documents: [.init(docType: "org.example.other", nameSpaces: ["org.example": ["a": false]])])
        let mismatched = try Self.legacy(setup.created.session, queryIDs: setup.created.session.queryIDs, request: otherPolicy)
        #expect(mismatched.queryDocTypes.isEmpty)
        #expect(try setup.verify(twoMDLs, session: mismatched).errors.map(\.code).first == .vpTokenDocTypeMismatch)

        // No policy and no doctypes kept: the check is skipped, as before (the request policy is skipped too).
        let unknown = try Self.legacy(setup.created.session, queryIDs: setup.created.session.queryIDs, request: nil)
        #expect(Self.line(try setup.verify(twoMDLs, session: unknown), .vpTokenDocType).map(\.status) == [.skip])

        #expect(throws: VerificationError.self) { try OpenID4VPFlow.session(try state.setting("queryDocTypes", .array([.int(1)])), request: nil) }
    }
}
