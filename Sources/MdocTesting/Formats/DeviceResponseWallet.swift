import CBOR
import CryptoCore
import Mdoc
import MdocModel
import Verifier

/// A bare DeviceResponse for a transcript the caller chose: no envelope.
struct DeviceResponseWallet: WalletSide {
    let transcript: SessionTranscript

    var format: ResponseFormat { .deviceResponse }
    var otherTranscript: SessionTranscript {
        SessionTranscript(built: .array([.null, .null, .array([.text("another session"), .bytes(transcript.bytes)])]))
    }

    func wrap(_ deviceResponse: [UInt8], faults: Set<Fault>, extraEntries: [(CBORValue, CBORValue)], pki: TestPKI) throws
        -> (bytes: [UInt8], text: String?) {
        (deviceResponse, nil)
    }
}

extension ResponseTarget {
    /// A bare DeviceResponse for a transcript the caller chose.
    public static func deviceResponse(_ transcript: SessionTranscript) -> ResponseTarget {
        ResponseTarget(DeviceResponseWallet(transcript: transcript))
    }
}

extension KitFormat {
    /// A bare DeviceResponse: a seeded transcript and no request flow; no envelope, so no transport fault.
    static let deviceResponse = KitFormat(
        format: .deviceResponse, transportFaults: [], transportCodes: [:], refusesDeviceMac: false,
        corpus: CorpusShape(responseFile: "device-response.cbor", verifyOptions: { inputs in
            ["--device-response", inputs.response, "--session-transcript", inputs.transcript ?? ""] + (inputs.request.map { ["--request", $0] } ?? [])
                + (inputs.readerKey.map { ["--reader-private-key", $0] } ?? [])
        }, carriesEncodingCases: true)
    ) { seed in
        SeededRequest(target: .deviceResponse(SessionTranscript(built: .array([
            .null, .null, .array([.text("MdocTesting"), .bytes(seed.pki.seed.bytes("nonce", count: 32))]),
        ]))), state: nil, environment: FlowEnvironment(configuration: seed.configuration))
    }
}
