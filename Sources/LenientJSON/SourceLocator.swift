/// Converts byte offsets to 1-based lines and columns (see ``JSONDiagnostic`` for the conventions).
enum SourceLocator {
    /// The line and column of each offset, in one forward pass. `sortedOffsets` must be ascending; offsets
    /// past the end are located at the end.
    static func locate(sortedOffsets: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [(line: Int, column: Int)] {
        var locations: [(line: Int, column: Int)] = []
        locations.reserveCapacity(sortedOffsets.count)
        var line = 1
        var column = 1
        var index = 0
        for offset in sortedOffsets {
            let target = min(max(offset, 0), bytes.count)
            while index < target {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte == UInt8(ascii: "\r") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                        column += 1
                    } else {
                        line += 1
                        column = 1
                    }
                } else if byte >= 0x80 {
                    // One column per character, or per maximal invalid subpart (one U+FFFD once decoded).
                    let length = UTF8Sequence.check(bytes, at: index, end: bytes.count).length
                    guard index + length <= target else { break }
                    column += 1
                    index += length
                    continue
                } else {
                    column += 1
                }
                index += 1
            }
            locations.append((line: line, column: column))
        }
        return locations
    }

}
