import CryptoCore
import Foundation

/// The repository root, found from this file's path (Tests/TestSupport/VectorFiles.swift).
public let repositoryRoot: URL = VectorFiles.root

/// Text of a file under `TestVectors/`.
public func vectorText(_ relativePath: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent("TestVectors/" + relativePath), encoding: .utf8)
}

/// Reads files under `TestVectors/` (located from this source file, so tests run from any directory).
public enum VectorFiles {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    public static func text(_ relative: String) -> String {
        guard let data = FileManager.default.contents(atPath: url(relative).path) else {
            fatalError("missing test vector \(relative)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    public static func hex(_ relative: String) -> [UInt8] { TestSupport.hex(text(relative)) }

    /// `Label: value` lines of Apple's parameter files.
    public static func labelled(_ relative: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text(relative).split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            out[String(line[..<colon]).trimmingCharacters(in: .whitespaces)] =
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return out
    }

    /// The value after `label` on the line that starts with it (Apple's `*_validation.txt` use "label value").
    public static func field(_ relative: String, _ label: String) -> String {
        let line = text(relative).split(whereSeparator: \.isNewline).first { $0.hasPrefix(label) } ?? ""
        return line.dropFirst(label.count).trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
    }

    public static func date(_ text: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else { fatalError("bad date \(text)") }
        return date
    }
}

/// Apple's signed in-app sample (TestVectors/apple/in-app-sample).
public enum AppleSampleVector {
    public static let folder = "TestVectors/apple/in-app-sample/"
    public static var envelope: [UInt8] { VectorFiles.hex(folder + "hpke_envelope.cbor.hex") }
    public static var plaintext: [UInt8] { VectorFiles.hex(folder + "plaintext_topics.cbor.hex") }
    public static var transcript: [UInt8] { VectorFiles.hex(folder + "session_transcript.txt") }
    public static var infoHash: [UInt8] { VectorFiles.hex(folder + "info_hash.txt") }
    public static var parameters: [String: String] { VectorFiles.labelled(folder + "session_transcript_parameters.txt") }
    public static var nonce: [UInt8] { TestSupport.hex(parameters["Nonce"] ?? "") }
    public static var merchantID: String { parameters["Merchant ID"] ?? "" }
    public static var teamID: String { parameters["Team ID"] ?? "" }
    public static func merchantKey() throws -> PrivateKey { try PrivateKey(pemEncoded: VectorFiles.text(folder + "merchant_encryption.key")) }
    public static func root() throws -> Certificate { try Certificate(pemEncoded: VectorFiles.text(folder + "issuer_root.crt")) }
    public static let validTime = VectorFiles.date("2022-06-01T00:00:00Z")

    /// A request for every element the sample returns (plus `age_over_21`, answered by `age_in_years`, and
    /// `sex`, which the sample lacks): namespace → element → intent to retain.
    public static let requestedNameSpaces: [String: [String: Bool]] = [
        "org.iso.18013.5.1": ["given_name": false, "family_name": true, "portrait": false, "birth_date": false,
                              "age_over_21": false, "issuing_country": false, "issuing_jurisdiction": false,
                              "resident_city": false, "resident_state": false, "resident_postal_code": false,
                              "resident_country": false, "resident_address": false, "expiry_date": false,
                              "driving_privileges": false, "document_number": false, "issuing_authority": false,
                              "un_distinguishing_sign": false, "sex": false],
        "org.iso.18013.5.1.aamva": ["given_name_truncation": false, "family_name_truncation": false, "aka_given_name": false,
                                    "aka_family_name": false, "domestic_driving_privileges": false],
    ]
}

/// The ISO/IEC 18013-5 Annex D worked example (TestVectors/iso18013-5/annex-d).
public enum AnnexDVector {
    public static let folder = "TestVectors/iso18013-5/annex-d/"
    public static var deviceResponse: [UInt8] { VectorFiles.hex(folder + "device_response.hex") }
    public static var sessionTranscriptBytes: [UInt8] { VectorFiles.hex(folder + "session_transcript_bytes.hex") }
    public static var deviceAuthenticationBytes: [UInt8] { VectorFiles.hex(folder + "device_authentication_bytes.hex") }
    public static func iaca() throws -> Certificate { try Certificate(derEncoded: VectorFiles.hex(folder + "iaca_cert.der.hex")) }
    public static let validTime = VectorFiles.date("2021-01-01T00:00:00Z")

    /// The reader's ephemeral key (EReaderKey), needed for deviceMac.
    public static func readerKey() throws -> PrivateKey {
        let json = try JSONSerialization.jsonObject(with: Data(VectorFiles.text(folder + "keys.json").utf8)) as? [String: Any]
        let reader = json?["eReaderKey"] as? [String: String]
        guard let d = reader?["d"] else { fatalError("keys.json has no eReaderKey.d") }
        return try PrivateKey(curve: .p256, rawScalar: TestSupport.hex(d))
    }
}

extension AnnexDVector {
    /// D.4.1.1 request side: DeviceRequest, its ItemsRequest (untagged), ReaderAuth, ReaderAuthenticationBytes.
    public static var deviceRequest: [UInt8] { VectorFiles.hex(folder + "device_request.hex") }
    public static var itemsRequest: [UInt8] { VectorFiles.hex(folder + "items_request.hex") }
    public static var readerAuth: [UInt8] { VectorFiles.hex(folder + "reader_auth.hex") }
    public static var readerAuthenticationBytes: [UInt8] { VectorFiles.hex(folder + "reader_authentication_bytes.hex") }
    public static func readerCertificate() throws -> Certificate { try Certificate(derEncoded: VectorFiles.hex(folder + "reader_cert.der.hex")) }
    public static func readerRoot() throws -> Certificate { try Certificate(derEncoded: VectorFiles.hex(folder + "reader_root_cert.der.hex")) }
}
