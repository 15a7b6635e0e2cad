
extension VerificationReport.Format {
    /// ISO/IEC TS 18013-7 Annex C over the Digital Credentials API (`annex-c`).
    public static let annexC = Self(registering: "annex-c")
}

extension FormatDescriptor {
    /// Annex C: an HPKE-sealed DeviceResponse over a transcript of the page's origin and the request's encryptionInfo.
    /// Its front door records only shared checks (`envelope.structure`, `hpke.open`).
    public static let annexC = FormatDescriptor(
        format: .annexC, title: "ISO/IEC TS 18013-7 Annex C", documentation: "docs/formats.md §2", checks: [], codes: [],
        wire: .digitalCredentials(["org-iso-mdoc"], wholeCredential: false), bindsOrigin: true, mockDataApplies: true,
        flow: { environment, verifier in AnnexCFlow(environment, verifier: verifier) })
}
