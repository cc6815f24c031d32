internal import CZlib

/// gzip (or zlib) data inflated with a cap on the output: the only code that touches zlib.
enum Inflater {
    enum Failure: Error, Equatable {
        /// The inflated data would exceed `limit` bytes (a decompression bomb guard).
        case tooLarge(limit: Int)
        /// zlib's error code and message.
        case corrupt(code: Int32, message: String)
    }

    /// Inflates `input`, stopping with `.tooLarge` as soon as more than `limit` bytes come out
    /// (memory stays bounded by the limit).
    static func inflate(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard spotcheck_inflate_init_auto(&stream) == Z_OK else {
            throw .corrupt(code: Z_STREAM_ERROR, message: "inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        let result: Result<[UInt8], Failure> = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit { return .failure(.tooLarge(limit: limit)) }
                output += chunk[0..<produced]
                switch status {
                case Z_STREAM_END:
                    return .success(output)
                case Z_OK:
                    if stream.avail_in == 0, produced == 0 {
                        return .failure(.corrupt(code: Z_BUF_ERROR, message: "truncated gzip data"))
                    }
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.corrupt(code: status, message: "truncated gzip data"))
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    return .failure(.corrupt(code: status, message: message))
                }
            }
        }
        return try result.get()
    }
}
