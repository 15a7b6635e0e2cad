import CQREncode

/// A QR code (ISO/IEC 18004, error correction M, byte mode) as SVG, drawn from libqrencode's module matrix: what the
/// demo page shows for an authorization request a wallet scans.
enum QRCode {
    /// The longest text encoded (an authorization request is a few hundred bytes).
    static let maxBytes = 2_048
    /// Modules of light margin around the code (ISO/IEC 18004 asks for 4).
    static let quietZone = 4

    /// The SVG of `text`, 8 pixels a module; nil when the text is empty, too long, or libqrencode cannot encode it.
    static func svg(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= maxBytes, let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let size = width + 2 * quietZone
        var path = ""
        for y in 0..<width {
            for x in 0..<width where code.pointee.data[y * width + x] & 1 == 1 {
                path += "M\(x + quietZone) \(y + quietZone)h1v1h-1z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" width="\(size * 8)" height="\(size * 8)" \
            shape-rendering="crispEdges"><rect width="\(size)" height="\(size)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
