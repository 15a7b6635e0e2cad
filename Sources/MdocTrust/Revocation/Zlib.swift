import CZlib

/// zlib (RFC 1950) or raw DEFLATE (RFC 1951, JWE `zip: "DEF"`) inflate with an output ceiling, and deflate for the
/// compliance kit. A status list is at most a
/// few MB; a stream that inflates past `limit` is refused as soon as it does, so a decompression bomb costs at
/// most `limit` bytes, never what it would expand to.
package enum Zlib {
    package enum Failure: Error, Equatable {
        case tooLarge(limit: Int)
        case malformed(String)
    }

    /// `raw`: a bare DEFLATE stream without the zlib header and checksum.
    package static func inflate(_ input: [UInt8], limit: Int, raw: Bool = false) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, raw ? -15 : 15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .malformed("inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        try input.withUnsafeBufferPointer { (source: UnsafeBufferPointer<UInt8>) throws(Failure) in
            // zlib's next_in is not const-qualified here, but inflate only reads through it.
            stream.next_in = source.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
            stream.avail_in = UInt32(source.count)
            while status != Z_STREAM_END {
                let produced = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                guard status == Z_OK || status == Z_STREAM_END else {
                    throw status == Z_BUF_ERROR ? .malformed("the zlib stream is truncated")
                        : .malformed(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
                }
                guard output.count + produced <= limit else { throw .tooLarge(limit: limit) }
                output.append(contentsOf: chunk[..<produced])
                if status == Z_OK && produced == 0 && stream.avail_in == 0 { throw .malformed("the zlib stream is truncated") }
            }
            guard stream.avail_in == 0 else { throw .malformed("\(stream.avail_in) bytes after the end of the zlib stream") }
        }
        return output
    }

    /// zlib format, or with `raw` a bare DEFLATE stream.
    package static func deflate(_ input: [UInt8], raw: Bool = false) -> [UInt8] {
        if raw { return rawDeflate(input) }
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&output, &length, input, uLong(input.count), Z_BEST_COMPRESSION)
        precondition(status == Z_OK, "compress2 cannot fail with a compressBound buffer")
        return Array(output[..<Int(length)])
    }

    private static func rawDeflate(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                                   Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        var source = input
        let produced = source.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> Int in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END, "deflate into a deflateBound buffer finishes")
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output[..<produced])
    }
}
