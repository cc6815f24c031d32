// The only file that touches libcrypto.

import CLibCrypto

enum BodyDigest {
    /// The SHA-256 of `bytes`, as 64 lower-case hex digits.
    static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let ok = bytes.withUnsafeBytes { body in
            digest.withUnsafeMutableBufferPointer { spotcheck_sha256(body.baseAddress, body.count, $0.baseAddress!) }
        }
        precondition(ok == 1, "EVP_Digest(SHA-256) failed")
        let hex = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
