import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocTesting
import Verifier

/// One response `bench` verifies over and over (the kit's `PerformanceCase`), with what its floor is made of.
struct BenchCase {
    typealias Name = PerformanceCase.Name

    let response: PerformanceCase
    let floor: FloorRecipe

    var title: String { response.title }

    static func make(_ name: Name, trustStore: TrustStore? = nil) throws -> BenchCase {
        let response = try PerformanceCase.make(name, trustStore: trustStore)
        let floor: FloorRecipe
        switch name {
        case .apple:
            floor = FloorRecipe(issuerCurve: .p256, issuerDigest: .sha256, issuerMessageBytes: 1300, deviceMessageBytes: 200,
                                ciphertextBytes: response.encryptedData.count, valueDigests: 22, valueDigestBytes: 120)
        case .large:
            floor = FloorRecipe(issuerCurve: .p384, issuerDigest: .sha384, issuerMessageBytes: 3000, deviceMessageBytes: 200,
                                ciphertextBytes: response.encryptedData.count, valueDigests: response.elementCount,
                                valueDigestBytes: 120)
        }
        return BenchCase(response: response, floor: floor)
    }

    /// Apple's sample, trusting its test IACA plus `trustStore`'s anchors, as a server would hold them.
    static func apple(trustStore: TrustStore?) throws -> BenchCase {
        try make(.apple, trustStore: trustStore)
    }

    func verify() -> VerificationReport {
        response.verify()
    }
}

extension PerformanceCase.Name: ExpressibleByArgument {}
