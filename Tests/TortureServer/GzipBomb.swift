import CZlib

/// A real decompression bomb: one gzip member of deflate-compressed bytes (about 1,000 to 1) that
/// inflates to ``uncompressedSize`` bytes of `a`. Built once per process, on first use, without
/// ever holding the inflated data: the same 1 MiB of input is fed to zlib again and again.
enum GzipBomb {
    /// The size of the inflated body: 200 MiB.
    static let uncompressedSize = 200 * 1024 * 1024

    /// The gzip stream served by `/torture/gzip-bomb`.
    static let compressed: [UInt8] = gzip(repeating: UInt8(ascii: "a"), count: uncompressedSize)

    /// `count` copies of `byte`, gzip-compressed at zlib's best level.
    static func gzip(repeating byte: UInt8, count: Int) -> [UInt8] {
        var stream = z_stream()
        let initStatus = spotcheck_deflate_init_gzip(&stream, Z_BEST_COMPRESSION)
        precondition(initStatus == Z_OK, "deflateInit2 failed: \(initStatus)")
        defer { deflateEnd(&stream) }

        var input = [UInt8](repeating: byte, count: min(count, 1 << 20))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var output: [UInt8] = []
        var remaining = count
        repeat {
            let take = min(remaining, input.count)
            remaining -= take
            let flush = remaining == 0 ? Z_FINISH : Z_NO_FLUSH
            input.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(take)
                // zlib's zpipe loop: call deflate until it leaves room in the output buffer.
                repeat {
                    let status = chunk.withUnsafeMutableBufferPointer { buffer in
                        stream.next_out = buffer.baseAddress
                        stream.avail_out = uInt(buffer.count)
                        return deflate(&stream, flush)
                    }
                    precondition(status != Z_STREAM_ERROR, "deflate failed")
                    output += chunk[0..<(chunk.count - Int(stream.avail_out))]
                } while stream.avail_out == 0
                stream.next_in = nil
            }
        } while remaining > 0
        return output
    }
}
