// Generated from Certificates/production/ by `UPDATE_EMBEDDED_BUNDLE=1 swift test --filter ProductionBundle`; do not edit.

extension ProductionTrustBundle {
    /// The PEM files of the bundle, in file-name order.
    static let embeddedPEM: [String] = []

    /// `manifest.json` of the bundle ("" when it has none).
    static let embeddedManifest = ""
}
