/// One `<meta name="apple-itunes-app">` tag, parsed tolerantly (reference §1.4), with every oddity
/// recorded so the verifier can report it.
public struct SmartAppBanner: Sendable, Hashable, Codable {
    public struct Parameter: Sendable, Hashable, Codable {
        public var key: String
        public var value: String
    }

    /// Something about the tag that Apple's examples would not write.
    public enum Oddity: Sendable, Hashable, Codable {
        /// `property="apple-itunes-app"` instead of `name=`.
        case writtenWithProperty
        /// The meta name is not lower-case (`Apple-iTunes-App`); HTML compares it case-insensitively.
        case nameNotLowercase(String)
        case emptyContent
        /// Whitespace around `=` (`app-id= 123`).
        case whitespaceAroundEquals(key: String)
        /// Parameters separated by `,` without the space Apple's examples use.
        case missingSpaceAfterComma
        /// A piece without `=`; kept as a key with an empty value.
        case pieceWithoutValue(String)
        case emptyValue(key: String)
        /// A key that is not lower-case (`App-ID`); matched case-insensitively.
        case keyNotLowercase(String)
        case unknownKey(String)
        /// The second and later values of a key; the first is kept.
        case duplicateKey(key: String, ignoredValue: String)
        /// Commas inside `app-argument` were re-joined into the URL.
        case commaInAppArgument
        /// Parameters separated by whitespace instead of a comma (`a=1 b=2`).
        case missingComma
        /// A parameter written as an attribute of its own (`app-argument="…"` beside `content`);
        /// Safari reads only `content`, so the value is not part of the banner.
        case parameterAsAttribute(Parameter)
    }

    public static let knownKeys = [
        "app-id", "app-argument", "affiliate-data", "app-clip-bundle-id", "app-clip-display",
    ]

    public var content: String
    public var parameters: [Parameter]
    public var oddities: [Oddity]
    public var line: Int
    /// The column (1-based) of the tag's closing `>` on `line`; nil when not known.
    public var column: Int?
    public var section: DocumentSection

    public var position: SourcePosition { SourcePosition(line: line, column: column) }

    public var appID: String? { self["app-id"] }
    public var appArgument: String? { self["app-argument"] }
    public var affiliateData: String? { self["affiliate-data"] }
    public var appClipBundleID: String? { self["app-clip-bundle-id"] }
    public var appClipDisplay: String? { self["app-clip-display"] }

    /// The first value of a parameter (keys are matched lower-cased).
    public subscript(key: String) -> String? {
        parameters.first { $0.key == key }?.value
    }

    /// Parses a `content` attribute (entities already decoded).
    public init(
        content: String, line: Int, column: Int? = nil, section: DocumentSection, oddities initial: [Oddity] = []
    ) {
        self.content = content
        self.line = line
        self.column = column
        self.section = section
        var oddities = initial
        var parameters: [Parameter] = []
        let trimmed = content.trimmingASCIIWhitespace()
        if trimmed.isEmpty { oddities.append(.emptyContent) }

        var pieces =
            trimmed.isEmpty ? [] : trimmed.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        var reportedMissingSpace = false
        while index < pieces.count {
            if index > 0, !reportedMissingSpace, !pieces[index].isEmpty, !pieces[index].hasPrefix(" ") {
                oddities.append(.missingSpaceAfterComma)
                reportedMissingSpace = true
            }
            var piece = pieces[index].trimmingASCIIWhitespace()
            index += 1
            if piece.isEmpty { continue }
            guard let equals = piece.firstIndex(of: "=") else {
                oddities.append(.pieceWithoutValue(piece))
                parameters.append(Parameter(key: piece.lowercased(), value: ""))
                continue
            }
            let rawKey = String(piece[..<equals])
            let key = rawKey.trimmingASCIIWhitespace()
            let normalizedKey = key.lowercased()
            if normalizedKey == "app-argument", index < pieces.count {
                // A URL may contain commas: everything up to the next known key belongs to it.
                var rest: [String] = []
                while index < pieces.count, !Self.startsWithKnownKey(pieces[index]) {
                    rest.append(pieces[index])
                    index += 1
                }
                if !rest.isEmpty {
                    piece += "," + rest.joined(separator: ",")
                    oddities.append(.commaInAppArgument)
                }
            }
            let rawValue = String(piece[piece.index(after: equals)...])
            var value = rawValue.trimmingASCIIWhitespace()
            if rawKey != key || (rawValue.first.map(\.isASCIIWhitespace) ?? false) {
                oddities.append(.whitespaceAroundEquals(key: key))
            }
            if key != normalizedKey { oddities.append(.keyNotLowercase(key)) }
            if !Self.knownKeys.contains(normalizedKey) { oddities.append(.unknownKey(key)) }
            // `affiliate-data=… app-argument=…` without a comma: split at the whitespace.
            if let split = Self.splitMissingComma(value) {
                value = split.value
                oddities.append(.missingComma)
                pieces.insert(" " + split.rest, at: index)
            }
            if value.isEmpty { oddities.append(.emptyValue(key: normalizedKey)) }
            if parameters.contains(where: { $0.key == normalizedKey }) {
                oddities.append(.duplicateKey(key: normalizedKey, ignoredValue: value))
            }
            parameters.append(Parameter(key: normalizedKey, value: value))
        }
        self.parameters = parameters
        self.oddities = oddities
    }

    private static func startsWithKnownKey(_ piece: String) -> Bool {
        let trimmed = piece.trimmingASCIIWhitespace().lowercased()
        return knownKeys.contains {
            trimmed.hasPrefix($0) && trimmed.dropFirst($0.count).trimmingASCIIWhitespace().hasPrefix("=")
        }
    }

    /// Splits `value` at whitespace followed by a known `key=`, when a comma was forgotten.
    private static func splitMissingComma(_ value: String) -> (value: String, rest: String)? {
        var searchStart = value.startIndex
        while let space = value[searchStart...].firstIndex(where: \.isASCIIWhitespace) {
            let after = value[space...].drop(while: \.isASCIIWhitespace)
            if startsWithKnownKey(String(after)) {
                return (String(value[..<space]), String(after))
            }
            searchStart = value.index(after: space)
        }
        return nil
    }
}

extension Character {
    var isASCIIWhitespace: Bool {
        self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\u{0C}"
    }
}

extension StringProtocol {
    /// Trims the HTML "ASCII whitespace" set (space, tab, LF, FF, CR).
    func trimmingASCIIWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isASCIIWhitespace }),
            let last = lastIndex(where: { !$0.isASCIIWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    /// Collapses runs of ASCII whitespace into one space and trims.
    func collapsingASCIIWhitespace() -> String {
        var result = ""
        var pendingSpace = false
        for character in self {
            if character.isASCIIWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }
}
