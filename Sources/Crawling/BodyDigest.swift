import Crypto

enum BodyDigest {
    /// The SHA-256 of `bytes` (swift-crypto), as 64 lower-case hex digits.
    static func sha256(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
