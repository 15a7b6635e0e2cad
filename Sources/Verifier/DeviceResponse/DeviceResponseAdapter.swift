import CryptoCore
import MdocModel

/// A bare ISO/IEC 18013-5 DeviceResponse with a session transcript the caller built (proximity, OpenID4VP,
/// ProximityReader on iPhone; docs/formats.md §3). deviceMac is accepted when the reader key is given.
struct DeviceResponseAdapter: FormatAdapter {
    struct Input {
        let deviceResponse: [UInt8]
        let transcript: SessionTranscript
        let readerKey: PrivateKey?
    }

    static let format = VerificationReport.Format.deviceResponse
    static let acceptsDeviceMac = true

    func inputSize(_ input: Input) -> (bytes: Int, isText: Bool) { (input.deviceResponse.count, false) }

    func open(_ input: Input, in run: inout PipelineRun) -> OpenedResponse? {
        guard let item = run.decodeDeviceResponse(input.deviceResponse, what: "DeviceResponse", code: .inputMalformed) else { return nil }
        return OpenedResponse(deviceResponse: item, transcript: input.transcript, readerKey: input.readerKey)
    }
}
