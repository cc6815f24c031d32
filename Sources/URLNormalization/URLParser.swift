/// The WHATWG URL Standard's basic URL parser, written as plain functions over the input's
/// Unicode scalars (no state-machine table): enough of the standard for a crawler's links —
/// special schemes in full (authority, host, port, path with dot segments, query, fragment),
/// relative references against a base, and other schemes kept opaque. Returns nil where the
/// standard fails.
public enum URLParser {
    public static func parse(_ input: String, base: ParsedURL? = nil) -> ParsedURL? {
        // Strip leading/trailing C0 control or space; remove ASCII tab and newline anywhere.
        var scalars = Array(input.unicodeScalars)
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        scalars.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }

        if let (scheme, rest) = splitScheme(scalars) {
            if ParsedURL.specialPorts[scheme] == nil {
                return opaque(scheme: scheme, rest)
            }
            let startsWithTwoSlashes = rest.count >= 2 && isSlash(rest[0]) && isSlash(rest[1])
            if let base, base.scheme == scheme, !startsWithTwoSlashes {
                // `https:x` or `http:/x` against a base of the same scheme: a relative reference.
                return relative(rest, base: base)
            }
            var url = ParsedURL(scheme: scheme)
            // file: takes exactly two slashes before its (often empty) host.
            let afterSlashes =
                scheme == "file" && rest.count >= 2 && isSlash(rest[0]) && isSlash(rest[1])
                ? Array(rest.dropFirst(2)) : Array(rest.drop(while: isSlash))
            guard parseAuthorityAndRest(afterSlashes, into: &url) else { return nil }
            return url
        }
        guard let base else { return nil }
        return relative(scalars, base: base)
    }

    // MARK: Scheme

    static func splitScheme(_ scalars: [Unicode.Scalar]) -> (String, [Unicode.Scalar])? {
        guard let first = scalars.first, first.isASCIILetter else { return nil }
        var index = 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == ":" {
                let scheme = PercentEncoding.string(scalars[0..<index]).lowercased()
                return (scheme, Array(scalars[(index + 1)...]))
            }
            guard scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "+" || scalar == "-" || scalar == "." else {
                return nil
            }
            index += 1
        }
        return nil
    }

    static func isSlash(_ scalar: Unicode.Scalar) -> Bool { scalar == "/" || scalar == "\\" }

    static func opaque(scheme: String, _ rest: [Unicode.Scalar]) -> ParsedURL {
        var url = ParsedURL(scheme: scheme)
        var body = rest[...]
        if let hash = body.firstIndex(of: "#") {
            url.fragment = PercentEncoding.encode(body[(hash + 1)...], set: .fragment)
            body = body[..<hash]
        }
        if let question = body.firstIndex(of: "?") {
            url.query = PercentEncoding.encode(body[(question + 1)...], set: .query)
            body = body[..<question]
        }
        url.opaquePath = PercentEncoding.encode(body, set: .c0Control)
        return url
    }

    // MARK: Relative references

    static func relative(_ input: [Unicode.Scalar], base: ParsedURL) -> ParsedURL? {
        guard base.opaquePath == nil else {
            // Only a fragment can be resolved against an opaque base.
            guard input.first == "#" else { return nil }
            var url = base
            url.fragment = PercentEncoding.encode(input.dropFirst(), set: .fragment)
            return url
        }
        var url = base
        url.fragment = nil
        if input.isEmpty { return url }
        if input.count >= 2, isSlash(input[0]), isSlash(input[1]) {
            // Scheme-relative: a new authority.
            var fresh = ParsedURL(scheme: base.scheme)
            guard parseAuthorityAndRest(Array(input.drop(while: isSlash)), into: &fresh) else { return nil }
            return fresh
        }
        if input[0] == "?" || input[0] == "#" {
            parseQueryAndFragment(input[...], into: &url)
            return url
        }
        var (pathPart, rest) = splitPath(input[...])
        if isSlash(input[0]) {
            url.pathSegments = []
            pathPart = pathPart.dropFirst()
        } else if !url.pathSegments.isEmpty {
            url.pathSegments.removeLast()
        }
        url.query = nil
        appendPath(pathPart, to: &url)
        parseQueryAndFragment(rest, into: &url)
        return url
    }

    // MARK: Authority, path, query, fragment

    static func parseAuthorityAndRest(_ input: [Unicode.Scalar], into url: inout ParsedURL) -> Bool {
        let end = input.firstIndex { isSlash($0) || $0 == "?" || $0 == "#" } ?? input.endIndex
        var authority = input[..<end]
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            authority = authority[(at + 1)...]
            if let colon = credentials.firstIndex(of: ":") {
                url.username = PercentEncoding.encode(credentials[..<colon], set: .userinfo)
                url.password = PercentEncoding.encode(credentials[(colon + 1)...], set: .userinfo)
            } else {
                url.username = PercentEncoding.encode(credentials, set: .userinfo)
            }
        }
        // The port is after the last ':' outside brackets.
        var hostPart = authority
        var portPart: ArraySlice<Unicode.Scalar>?
        var inBrackets = false
        for index in authority.indices {
            if authority[index] == "[" { inBrackets = true }
            if authority[index] == "]" { inBrackets = false }
            if authority[index] == ":", !inBrackets {
                hostPart = authority[..<index]
                portPart = authority[(index + 1)...]
                break
            }
        }
        if hostPart.isEmpty, url.scheme == "file" {
            url.host = ""  // file:///path has an empty host
        } else {
            guard !hostPart.isEmpty, let host = HostParser.parse(PercentEncoding.string(hostPart)) else {
                return false
            }
            url.host = host
        }
        if let portPart, !portPart.isEmpty {
            guard portPart.allSatisfy(\.isASCIIDigit) else { return false }
            let digits = PercentEncoding.string(portPart.drop { $0 == "0" })
            let port = digits.isEmpty ? 0 : (digits.count > 5 ? Int.max : Int(digits) ?? Int.max)
            guard port <= 65_535 else { return false }
            url.port = ParsedURL.specialPorts[url.scheme] == .some(port) ? nil : port
        }
        let remainder = input[end...]
        let (pathPart, rest) = splitPath(remainder)
        url.pathSegments = []
        appendPath(pathPart.first.map(isSlash) == true ? pathPart.dropFirst() : pathPart, to: &url)
        if url.pathSegments.isEmpty { url.pathSegments = [""] }
        parseQueryAndFragment(rest, into: &url)
        return true
    }

    static func splitPath(_ input: ArraySlice<Unicode.Scalar>) -> (
        ArraySlice<Unicode.Scalar>, ArraySlice<Unicode.Scalar>
    ) {
        let end = input.firstIndex { $0 == "?" || $0 == "#" } ?? input.endIndex
        return (input[..<end], input[end...])
    }

    /// Appends `/`- or `\`-separated segments, resolving `.` and `..` (and their `%2e` forms).
    static func appendPath(_ input: ArraySlice<Unicode.Scalar>, to url: inout ParsedURL) {
        var segments: [ArraySlice<Unicode.Scalar>] = []
        var start = input.startIndex
        for index in input.indices where isSlash(input[index]) {
            segments.append(input[start..<index])
            start = index + 1
        }
        segments.append(input[start...])
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch dots(in: segment) {
            case 1:
                if isLast { url.pathSegments.append("") }
            case 2:
                if !url.pathSegments.isEmpty { url.pathSegments.removeLast() }
                if isLast { url.pathSegments.append("") }
            default:
                url.pathSegments.append(PercentEncoding.encode(segment, set: .path))
            }
        }
    }

    /// 1 for a single-dot segment (`.` or `%2e`), 2 for a double-dot one (`..`, `.%2e`, `%2e.`,
    /// `%2e%2e`), any case; 0 for any other segment. Read in place: making each segment a
    /// lower-cased `String` to compare was 60 % of a URL parse (callgrind).
    static func dots(in segment: ArraySlice<Unicode.Scalar>) -> Int {
        guard segment.count <= 6 else { return 0 }
        var dots = 0
        var index = segment.startIndex
        while index < segment.endIndex {
            if segment[index] == "." {
                index += 1
            } else if segment[index] == "%", index + 2 < segment.endIndex, segment[index + 1] == "2",
                segment[index + 2] == "e" || segment[index + 2] == "E"
            {
                index += 3
            } else {
                return 0
            }
            dots += 1
        }
        return dots <= 2 ? dots : 0
    }

    static func parseQueryAndFragment(_ input: ArraySlice<Unicode.Scalar>, into url: inout ParsedURL) {
        var rest = input
        if let hash = rest.firstIndex(of: "#") {
            url.fragment = PercentEncoding.encode(rest[(hash + 1)...], set: .fragment)
            rest = rest[..<hash]
        } else {
            url.fragment = nil
        }
        if rest.first == "?" {
            url.query = PercentEncoding.encode(rest.dropFirst(), set: url.isSpecial ? .specialQuery : .query)
        }
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) }
    var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }
}
