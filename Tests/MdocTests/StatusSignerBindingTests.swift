import CBOR
import CryptoCore
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// A status token decides a document's status only when its signer chains to the anchor the document's own signer
/// chained to, or to the certificate the MSO's `status` names. Another issuer's list, however trusted that issuer is,
/// is `status.signer_untrusted` under `soft` and `hard`.
@Suite("Status token signer binding")
struct StatusSignerBindingTests {
    typealias Fixture = StatusFixture

    /// Issuer A (the response's) and issuer B, both in the trust store.
    static func issuers() throws -> (a: TestPKI, b: TestPKI, trust: TrustStore) {
        let a = try Fixture.pki(seed: 61)
        let b = try Fixture.pki(seed: 62)
        return (a, b, TrustStore(anchors: [a.iaca, b.iaca]))
    }

    @Test("issuer B's document signer signs an all-valid list for A's URI: A's revoked document is rejected with status.signer_untrusted, naming both")
    func otherIssuersList() throws {
        let (a, b, trust) = try Self.issuers()
        let response = try Fixture.response(a)
        // A's own list says revoked; B's forged list for A's URI says valid.
        var forged = Fixture.statusList()
        forged.statuses = [:]
        let forgedToken = try forged.sign(chain: [b.documentSigner], key: b.documentSignerKey)
        for policy in [RevocationPolicy.hard, .soft] {
            let log = try Fixture.verify(response, trust: trust, source: try Fixture.source(a, tokens: [Fixture.statusURI: forgedToken]),
                                         policy: policy)
            #expect(log.errors.map(\.code) == [.statusSignerUntrusted], "\(policy): \(log.errors)")
            let line = try #require(Fixture.statusLines(log).first)
            #expect(line.status == .fail && line.code == .statusSignerUntrusted)
            #expect(line.detail.contains("is signed by \(b.documentSigner.subject), which does not chain to \(a.iaca.subject)"), "\(line.detail)")
            #expect(line.detail.contains("Use the list this document's issuer publishes"))
        }
        // Off: not looked at.
        let off = try Fixture.verify(response, trust: trust, source: try Fixture.source(a, tokens: [Fixture.statusURI: forgedToken]),
                                     policy: .off)
        #expect(off.errors.isEmpty && Fixture.statusLines(off).map(\.status) == [.skip])

        // A's own list, signed by A's status list signer, decides: revoked.
        var own = Fixture.statusList()
        own.statuses[Fixture.index] = 1
        let revoked = try Fixture.verify(response, trust: trust,
                                         source: try Fixture.source(a, tokens: [Fixture.statusURI: try Fixture.sign(own, by: a)]))
        #expect(revoked.errors.map(\.code) == [.statusRevoked])
    }

    @Test("B's status list signer (issued by B's IACA), and a signer outside the trust store, are both refused")
    func otherSigners() throws {
        let (a, b, trust) = try Self.issuers()
        let response = try Fixture.response(a)
        let outsider = try Fixture.pki(seed: 63)
        for signer in [b, outsider] {
            let log = try Fixture.verify(response, trust: trust,
                                         source: try Fixture.source(a, tokens: [Fixture.statusURI: try Fixture.sign(Fixture.statusList(), by: signer)]))
            #expect(log.errors.map(\.code) == [.statusSignerUntrusted], "\(log.errors)")
        }
        // A's IACA itself may sign its list (the anchor is the document's).
        let byAnchor = try Fixture.statusList().sign(chain: [a.iaca], key: a.iacaKey)
        let anchorLog = try Fixture.verify(response, trust: trust, source: try Fixture.source(a, tokens: [Fixture.statusURI: byAnchor]))
        #expect(anchorLog.errors.isEmpty, "\(anchorLog.errors)")
    }

    @Test("a signer under the certificate the MSO's status names is accepted, even outside the trust store; the same signer without it is refused")
    func namedCertificate() throws {
        let (a, _, trust) = try Self.issuers()
        let listIssuer = try Fixture.pki(seed: 64)
        let token = try Fixture.sign(Fixture.statusList(), by: listIssuer)
        let named = try Fixture.response(a) { $0.statusList?.certificate = listIssuer.iaca }
        let accepted = try Fixture.verify(named, trust: trust, source: try Fixture.source(a, tokens: [Fixture.statusURI: token]))
        #expect(accepted.errors.isEmpty, "\(accepted.errors)")
        #expect(Fixture.statusLines(accepted).map(\.status) == [.pass])

        let unnamed = try Fixture.response(a)
        let refused = try Fixture.verify(unnamed, trust: trust, source: try Fixture.source(a, tokens: [Fixture.statusURI: token]))
        #expect(refused.errors.map(\.code) == [.statusSignerUntrusted])

        // Named certificate, but the token is signed under yet another key: refused, naming the certificate too.
        let other = try Fixture.sign(Fixture.statusList(), by: try Fixture.pki(seed: 65))
        let wrong = try Fixture.verify(named, trust: trust, source: try Fixture.source(a, tokens: [Fixture.statusURI: other]))
        #expect(wrong.errors.map(\.code) == [.statusSignerUntrusted])
        #expect(Fixture.statusLines(wrong).first?.detail.contains("nor under the certificate the MSO's status names (\(listIssuer.iaca.subject))") == true)
    }

    @Test("the kit's status-list-other-issuer fault: the second issuer's IACA is trusted too, and the verdict is status.signer_untrusted")
    func kitFault() throws {
        let pki = try Fixture.pki()
        let response = try Fixture.response(pki, faults: [.statusListOtherIssuer])
        #expect(response.revocation.otherIssuerAnchors.count == 1)
        #expect(response.expected == .rejected(.statusSignerUntrusted))
        let trust = TrustStore(anchors: [pki.iaca] + response.revocation.otherIssuerAnchors)
        // The other issuer really is trusted: its token's signer chains to the store.
        let token = try StatusToken(try #require(response.revocation.tokens[Fixture.statusURI]))
        let signer = try #require(try token.certificates().first)
        #expect(trust.validate(leaf: signer, at: Fixture.time).isTrusted)
        let log = try Fixture.verify(response, trust: trust, source: response.revocation.source)
        #expect(log.errors.map(\.code) == [.statusSignerUntrusted])
    }
}
