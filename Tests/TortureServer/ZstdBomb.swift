/// A zstd frame (RFC 8878) that decodes to `prefix` and then `filler` repeated up to `total` bytes:
/// one raw block, then RLE blocks of 128 KiB, each four bytes on the wire (1 GiB in 32 KiB). No
/// zstd library is needed to write it; libcurl decodes it with libzstd as for any server.
enum ZstdBomb {
    static let blockSize = 128 << 10

    static func frame(prefix: [UInt8], filler: UInt8, total: Int) -> [UInt8] {
        precondition(prefix.count <= blockSize && total > prefix.count)
        // Magic number; a frame header descriptor with no content size, no checksum, no
        // dictionary; a window descriptor of 128 KiB (2^(10 + 7)).
        var bytes: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 7 << 3]
        func blockHeader(last: Bool, type: UInt32, size: Int) {
            let header = (last ? 1 : 0) | (type << 1) | (UInt32(size) << 3)
            bytes += [UInt8(header & 0xFF), UInt8((header >> 8) & 0xFF), UInt8((header >> 16) & 0xFF)]
        }
        blockHeader(last: false, type: 0, size: prefix.count)
        bytes += prefix
        var remaining = total - prefix.count
        while remaining > 0 {
            let size = min(remaining, blockSize)
            remaining -= size
            blockHeader(last: remaining == 0, type: 1, size: size)
            bytes.append(filler)
        }
        return bytes
    }
}
