import MdocModel

extension VerificationReport.Format {
    /// A bare ISO/IEC 18013-5 DeviceResponse with a transcript its caller built (`device-response`).
    public static let deviceResponse = Self(registering: "device-response")
}

extension FormatDescriptor {
    /// A bare DeviceResponse: no envelope and no request flow (the caller builds the transcript); deviceMac is
    /// accepted when the reader key is given. Its front door records only shared checks (`response.decode`).
    public static let deviceResponse = FormatDescriptor(
        format: .deviceResponse, title: "ISO/IEC 18013-5 DeviceResponse", documentation: "docs/formats.md §3", checks: [], codes: [],
        wire: .text, flow: nil)
}
