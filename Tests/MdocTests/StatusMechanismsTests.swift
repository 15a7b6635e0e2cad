import CBOR
import CryptoCore
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// An MSO that names both a status list and an identifier list has both checked, one line each, and any revoked or
/// suspended answer wins. Fail-closed where the policy says so: under `hard` an application-specific status is
/// unknown, and a token without its mechanism's `typ` is not trusted.
@Suite("Status mechanisms and fail-closed statuses")
struct StatusMechanismsTests {
    typealias Fixture = StatusFixture

    static func verify(statusList: StatusListTokenBuilder? = Fixture.statusList(), identifierList: StatusListTokenBuilder? = Fixture.identifierList(),
                       policy: RevocationPolicy = .hard, identifiers: Bool = true) throws -> CheckLog {
        let pki = try Fixture.pki()
        let response = try Fixture.response(pki, identifiers: identifiers)
        var tokens: [String: [UInt8]] = [:]
        if let statusList { tokens[Fixture.statusURI] = try Fixture.sign(statusList, by: pki) }
        if let identifierList { tokens[Fixture.identifierURI] = try Fixture.sign(identifierList, by: pki) }
        return try Fixture.verify(response, trust: pki.trustStore, source: try Fixture.source(pki, tokens: tokens), policy: policy)
    }

    @Test("both valid: two pass lines, one per list")
    func bothValid() throws {
        let log = try Self.verify()
        #expect(log.errors.isEmpty, "\(log.errors)")
        let lines = Fixture.statusLines(log)
        #expect(lines.map(\.status) == [.pass, .pass])
        #expect(lines.map(\.detail) == ["valid per the status list from test list", "valid per the identifier list from test list"])
    }

    @Test("only the identifier list says revoked (or suspended): rejected, the status list line still passes")
    func identifierListDecides() throws {
        for (status, code) in [(UInt64(1), ErrorCode.statusRevoked), (2, .statusSuspended)] {
            for policy in [RevocationPolicy.hard, .soft] {
                let log = try Self.verify(identifierList: Fixture.identifierList([Fixture.identifier: status]), policy: policy)
                #expect(log.errors.map(\.code) == [code], "\(policy)")
                let lines = Fixture.statusLines(log)
                #expect(lines.map(\.status) == [.pass, .fail])
                #expect(lines.last?.detail.hasPrefix("the identifier list from test list marks the document") == true)
            }
        }
        // Another id revoked: this document is valid.
        #expect(try Self.verify(identifierList: Fixture.identifierList([Array("other".utf8): 1])).errors.isEmpty)
    }

    @Test("only the status list says revoked: rejected, the identifier list line passes")
    func statusListDecides() throws {
        var list = Fixture.statusList()
        list.statuses[Fixture.index] = 1
        let log = try Self.verify(statusList: list)
        #expect(log.errors.map(\.code) == [.statusRevoked])
        #expect(Fixture.statusLines(log).map(\.status) == [.fail, .pass])
    }

    @Test("one list missing: hard is revocation.unknown beside the other's answer; soft warns; both lists are looked up")
    func oneMissing() throws {
        let hard = try Self.verify(identifierList: nil)
        #expect(hard.errors.map(\.code) == [.revocationUnknown])
        #expect(Fixture.statusLines(hard).map(\.status) == [.pass, .fail])
        let soft = try Self.verify(identifierList: nil, policy: .soft)
        #expect(soft.errors.isEmpty && Fixture.statusLines(soft).map(\.status) == [.pass, .warn])
        // Missing status list, revoked identifier list: revoked wins, and the unknown is reported too.
        let both = try Self.verify(statusList: nil, identifierList: Fixture.identifierList([Fixture.identifier: 1]))
        #expect(Set(both.errors.map(\.code)) == [.revocationUnknown, .statusRevoked])

        let pki = try Fixture.pki()
        let recording = RecordingRevocationSource(try Fixture.source(pki, tokens: [:]))
        _ = try Fixture.verify(try Fixture.response(pki, identifiers: true), trust: pki.trustStore, source: recording)
        #expect(recording.statusLookups == [Fixture.statusURI, Fixture.identifierURI])
    }

    @Test("the kit's identifier-list-revoked fault: the MSO names both, only the identifier list says revoked")
    func kitFault() throws {
        let pki = try Fixture.pki()
        let response = try Fixture.response(pki, faults: [.identifierListRevoked])
        #expect(response.revocation.tokens.count == 2 && response.revocation.identifierListURI == Fixture.statusURI + "-identifiers")
        let log = try Fixture.verify(response, trust: pki.trustStore, source: response.revocation.source)
        #expect(log.errors.map(\.code) == [.statusRevoked])
        #expect(Fixture.statusLines(log).map(\.status) == [.pass, .fail])
    }

    @Test("an application-specific status (3 and above): hard is revocation.unknown naming the value, soft warns; status list and identifier list alike")
    func applicationSpecific() throws {
        var list = Fixture.statusList()
        list.statuses[Fixture.index] = 3
        let hard = try Self.verify(statusList: list, identifiers: false)
        #expect(hard.errors.map(\.code) == [.revocationUnknown])
        #expect(Fixture.statusLines(hard).first?.detail.contains("gives the application-specific status 3") == true)
        let soft = try Self.verify(statusList: list, policy: .soft, identifiers: false)
        #expect(soft.errors.isEmpty && Fixture.statusLines(soft).map(\.status) == [.warn])

        let identifiers = try Self.verify(identifierList: Fixture.identifierList([Fixture.identifier: 3]))
        #expect(identifiers.errors.map(\.code) == [.revocationUnknown])
        #expect(Fixture.statusLines(identifiers).last?.detail.contains("identifier list from test list gives the application-specific status 3") == true)
        let huge = try Self.verify(identifierList: Fixture.identifierList([Fixture.identifier: .max]))
        #expect(huge.errors.map(\.code) == [.revocationUnknown])
    }

    @Test("a token without typ, or with the other mechanism's typ, is not trusted: hard is revocation.unknown, soft warns")
    func typeRequired() throws {
        var untyped = Fixture.statusList()
        untyped.type = nil
        let missing = try Self.verify(statusList: untyped, identifiers: false)
        #expect(missing.errors.map(\.code) == [.revocationUnknown])
        #expect(Fixture.statusLines(missing).first?.detail.contains("has no protected typ; a status list token must be typed application/statuslist+cwt") == true)
        let soft = try Self.verify(statusList: untyped, policy: .soft, identifiers: false)
        #expect(soft.errors.isEmpty && Fixture.statusLines(soft).map(\.status) == [.warn])

        var swapped = Fixture.identifierList()
        swapped.type = StatusToken.statusListType
        let wrong = try Self.verify(identifierList: swapped)
        #expect(wrong.errors.map(\.code) == [.revocationUnknown])
        #expect(Fixture.statusLines(wrong).last?.detail.contains("has typ \"application/statuslist+cwt\", not application/identifierlist+cwt") == true)

        var untypedIdentifiers = Fixture.identifierList([Fixture.identifier: 1])
        untypedIdentifiers.type = nil
        #expect(try Self.verify(identifierList: untypedIdentifiers).errors.map(\.code) == [.revocationUnknown])

        // The right typ on the wrong content: an identifier list served at the status list's URI.
        var mislabeled = Fixture.identifierList()
        mislabeled.uri = Fixture.statusURI
        mislabeled.type = StatusToken.statusListType
        let content = try Self.verify(statusList: mislabeled, identifiers: false)
        #expect(content.errors.map(\.code) == [.revocationUnknown])
        #expect(Fixture.statusLines(content).first?.detail.contains("is not a status list") == true)
    }
}
