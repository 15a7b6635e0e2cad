import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
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
        // Approximate sizes of the signed MSO (Sig_structure) each case carries; the rest comes from the response.
        let issuerMessageBytes = name == .apple ? 1300 : 3000
        let issuerDigest = COSEAlgorithm.signing(with: response.issuerCurve)?.signatureParameters?.digest ?? .sha256
        let floor = FloorRecipe(issuerCurve: response.issuerCurve, issuerDigest: issuerDigest, issuerMessageBytes: issuerMessageBytes,
                                deviceMessageBytes: 200, ciphertextBytes: response.encryptedData.count,
                                valueDigests: response.elementCount, valueDigestBytes: 120)
        return BenchCase(response: response, floor: floor)
    }

    func verify() -> VerificationReport {
        response.verify()
    }
}

extension PerformanceCase.Name: ExpressibleByArgument {}
