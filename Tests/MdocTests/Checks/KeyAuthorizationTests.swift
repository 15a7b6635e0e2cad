import CBOR
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `device.key_authorization` alone: the document's device-signed elements against the keyAuthorizations of the MSO
/// the row gives (the check reads the MSO only as its declared fact).
@Suite("device.key_authorization: device-signed elements need the MSO's authorization, per row")
struct KeyAuthorizationTests {
    static let deviceNameSpace = "org.example.device"
    static let note = DataElement(deviceNameSpace, "note", .text("from the device"))
    static let shadow = DataElement(NameSpace.mDL, "family_name", .text("Device"))

    enum Authorization: Sendable {
        case none, nameSpace, element, otherElement
        var value: MobileSecurityObjectBuilder.KeyAuthorizations? {
            switch self {
            case .none: nil
            case .nameSpace: .init(nameSpaces: [KeyAuthorizationTests.deviceNameSpace])
            case .element: .init(dataElements: [KeyAuthorizationTests.deviceNameSpace: ["note"]])
            case .otherElement: .init(dataElements: [KeyAuthorizationTests.deviceNameSpace: ["other"]])
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let deviceSigned: [DataElement]
        let authorization: Authorization
        let expect: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "no device-signed elements", deviceSigned: [], authorization: .none, expect: ["pass"]),
        Row(name: "authorized by namespace", deviceSigned: [note], authorization: .nameSpace, expect: ["pass"]),
        Row(name: "authorized by element", deviceSigned: [note], authorization: .element, expect: ["pass"]),
        Row(name: "another element authorized", deviceSigned: [note], authorization: .otherElement,
            expect: ["fail device.key_unauthorized"]),
        Row(name: "no keyAuthorizations", deviceSigned: [note], authorization: .none, expect: ["fail device.key_unauthorized"]),
        Row(name: "a device-signed element shadows an issuer-signed one", deviceSigned: [shadow], authorization: .nameSpace,
            expect: ["fail device.key_unauthorized"]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.cached("device \(row.deviceSigned.map(\.identifier))") {
            try CheckFixture.parse { $0.deviceSignedElements = row.deviceSigned }
        }
        let now = CheckFixture.time
        let mso = try CheckFixture.mso(signed: now, validFrom: now, validUntil: now + 3600, keyAuthorizations: row.authorization.value)
        let result = CheckFixture.run(.keyAuthorizations, on: parsed, facts: CheckFixture.facts(parsed, [.mso], mso: mso))
        #expect(result.lines == row.expect, "\(result.details)")
    }
}
