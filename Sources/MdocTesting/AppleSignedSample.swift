// Apple's signed "Verify with Wallet" sample response (identity_verification_sample, MIT, © 2022 Apple Inc.),
// embedded so `mdocverify sample`, `mdocverify bench` and the load tool run without any files. Source and provenance:
// TestVectors/apple/in-app-sample/ and TestVectors/apple/README.md; a test keeps the embedded envelope equal to it.
// None of this may be trusted in production: the key is Apple's published test key and the root is a test IACA.

import CryptoCore
import Foundation
import Mdoc
import MdocModel

/// Apple's signed sample response with the test merchant key and test IACA that open and verify it (test mode only).
public enum AppleSignedSample {
    /// The nonce of the sample request, as hex.
    public static let nonceHex = "964c3e56a06061fa213fce2ba73217a6d359c2e65d44ec6b5b94f9c57eeeb3c045906344c7032e2609eb60533c35a98a75d0d2444ef9057c55cbb2d05d672a25"
    /// The merchant identifier of the sample's session transcript.
    public static let merchantID = "PassKit_Identity_Test_Merchant_ID"
    /// The team identifier of the sample's session transcript.
    public static let teamID = "PassKit_Identity_Test_Team_ID"
    /// The time to verify the sample at (RFC 3339), inside the MSO's validity
    /// (2022-03-31T22:48:31Z … 2023-03-22T22:48:31Z).
    public static let verificationTime = "2022-06-01T00:00:00Z"

    /// `PKIdentityDocument.encryptedData` (CBOR HPKE envelope), hex.
    public static var envelopeHex: String { Hex.encode(envelope) }

    /// Apple's published test merchant key (SEC1 PEM).
    public static let merchantKeyPEM = """
-----BEGIN EC PRIVATE KEY-----
MHcCAQEEILNmOKQEOmmRWSZRWlmTrNUzELb2T0euTuPwJIU8xWERoAoGCCqGSM49
AwEHoUQDQgAEDxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE1e0szj7eHm
jcdQfQwdUlXSTKrSIGWsHCWHyoQMxnj49w==
-----END EC PRIVATE KEY-----
"""

    /// "PassKit Identity Test Issuer Root CA" (test IACA).
    public static let issuerRootPEM = """
-----BEGIN CERTIFICATE-----
MIIBujCCAWCgAwIBAgIJAIY8+h/BMlAKMAoGCCqGSM49BAMCMC8xLTArBgNVBAMM
JFBhc3NLaXQgSWRlbnRpdHkgVGVzdCBJc3N1ZXIgUm9vdCBDQTAgFw0yMjAzMzEy
MDM2MTRaGA8yMTIxMDMwNzIwMzYxNFowLzEtMCsGA1UEAwwkUGFzc0tpdCBJZGVu
dGl0eSBUZXN0IElzc3VlciBSb290IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcD
QgAERR3ndQ/BUdTOlmQGuDIy4Ghw50LlqQ2M4hGvjx9NUPFgENDy8e7dpPYk7iQP
cWFco/gWVChSZkKglqqrcmdiAqNjMGEwHQYDVR0OBBYEFLRC0N1glbjlQpbMHKju
I52OcYd8MB8GA1UdIwQYMBaAFLRC0N1glbjlQpbMHKjuI52OcYd8MA8GA1UdEwEB
/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMCA0gAMEUCIQCumeHI
oxbiFY2bCdFXXMLpEm9inLhsC402651alkPnuwIgezuyxaeAPaRgk/GfF/6NuWok
90f9C3MsXbGoFG37v6s=
-----END CERTIFICATE-----
"""

    /// The sample's `PKIdentityDocument.encryptedData` bytes (`Embedded/AppleSampleEnvelope.cbor`).
    public static var envelope: [UInt8] { PackageResources.AppleSampleEnvelope_cbor }
    /// The sample request's nonce, decoded from `nonceHex`.
    public static var nonce: [UInt8] { Hex.decode(nonceHex) ?? [] }
    /// The time to verify the sample at, parsed from `verificationTime`.
    public static var time: Date { RFC3339.parseDateTime(verificationTime) ?? Date(timeIntervalSince1970: 1_654_041_600) }
    /// Apple's test merchant private key, parsed from `merchantKeyPEM`; throws if the PEM does not parse.
    public static func merchantKey() throws -> PrivateKey { try PrivateKey(pemEncoded: merchantKeyPEM) }
    /// The test IACA certificate, parsed from `issuerRootPEM`; throws if the PEM does not parse.
    public static func issuerRoot() throws -> Certificate { try Certificate(pemEncoded: issuerRootPEM) }
}
