/// A parsed robots.txt (RFC 9309) and the pure matcher over it: no I/O, no clock.
///
/// Parsing: the first 500 KiB are read (RFC 9309 §2.5); a leading UTF-8 byte order mark is
/// skipped; lines end at CR, LF or CR LF; `#` starts a comment; keys are case-insensitive.
/// Groups are one or more `user-agent` lines followed by rules; a `user-agent` line after a rule
/// starts a new group; rules before any `user-agent` line are ignored. `sitemap` lines belong to
/// no group.
///
/// Matching: every group naming the crawler's product token (case-insensitively) is merged; with
/// none, the `*` groups are; with neither, everything is allowed. The longest matching rule
/// (pattern length in octets) decides; `allow` wins a tie. `*` matches any run of octets, a final
/// `$` anchors the end. Paths and patterns are compared after RFC 9309 §2.2.2 normalisation:
/// non-ASCII octets percent-encoded, percent-encoded unreserved characters decoded. `/robots.txt`
/// is always allowed (§2.2.3: "implicitly allowed").
public struct RobotsTxt: Sendable, Hashable {
    /// How to read lines that RFC 9309 does not define.
    public enum Mode: Sendable, Hashable {
        /// RFC 9309 only.
        case rfc9309
        /// Google's parser's extra tolerance: keys without `:`, a user-agent value cut at the
        /// first character outside `[A-Za-z_-]`, a raw (unencoded) URL compared as given, and
        /// `/robots.txt` not exempt. Documented in docs/robots.md.
        case google
    }

    public struct Rule: Sendable, Hashable {
        public var allow: Bool
        /// The path pattern as written.
        public var pattern: String
        public var line: Int
        /// The normalised pattern: `nil` entries are `*` wildcards.
        var tokens: [UInt8?]
        var anchored: Bool
        /// The pattern as matched (linear in the path).
        var compiled: PathPattern
        /// Length used for "longest match": octets of the normalised pattern.
        var length: Int { tokens.count + (anchored ? 1 : 0) }

        init(allow: Bool, pattern: String, line: Int, tokens: [UInt8?], anchored: Bool) {
            self.allow = allow
            self.pattern = pattern
            self.line = line
            self.tokens = tokens
            self.anchored = anchored
            compiled = PathPattern(tokens: tokens, anchored: anchored)
        }
    }

    public struct Group: Sendable, Hashable {
        /// The user-agent values, lower-cased.
        public var agents: [String]
        public var rules: [Rule]
        public var crawlDelay: Double?
    }

    /// What decided a URL.
    public struct Decision: Sendable, Hashable {
        public var allowed: Bool
        /// The rule that decided, or nil when no rule matched (allowed by default).
        public var rule: Rule?
        /// The user-agent values of the groups that applied (empty when none did).
        public var agents: [String]
        /// Matching stopped at `matchingBudget` octets compared: the URL is taken as disallowed
        /// (as for a robots.txt that cannot be fetched, RFC 9309 §2.3.1.4), with no rule.
        public var exceededMatchingBudget = false
    }

    /// Octets compared at most to decide one URL (about 0.1 s here): the matcher is linear, but
    /// 50,000 rules of a 500 KiB robots.txt each read a 1 MB URL would still be 50 G octets. A
    /// real robots.txt stays far below (each rule compares its literal prefix, a few octets, with
    /// most paths); 480 rules `/*aaa…b` against a 10 KB URL take 10 M.
    public static let matchingBudget = 64 << 20

    public static let parseLimit = 500 * 1024
    static let googleLineLimit = 2083 * 8

    /// `/dir/` for `/dir/index.html` or `/dir/index.htm`.
    static func indexPageDirectory(_ pattern: String) -> String? {
        for suffix in ["/index.html", "/index.htm"] where pattern.hasSuffix(suffix) {
            return String(pattern.dropLast(suffix.count - 1))
        }
        return nil
    }

    public var groups: [Group]
    public var sitemaps: [String]
    public var mode: Mode

    public init(_ text: String, mode: Mode = .rfc9309) {
        self.init(bytes: Array(text.utf8), mode: mode)
    }

    public init(bytes: [UInt8], mode: Mode = .rfc9309) {
        self.mode = mode
        var body = bytes.prefix(Self.parseLimit)
        if body.starts(with: [0xEF, 0xBB, 0xBF]) {
            body = body.dropFirst(3)
        } else if mode == .google, body.starts(with: [0xEF, 0xBB]) || body.first == 0xEF {
            // Google skips a truncated byte order mark too.
            body = body.drop { $0 == 0xEF || $0 == 0xBB }
        }
        var groups: [Group] = []
        var sitemaps: [String] = []
        var current: Group?
        var lastWasAgent = false
        var lineNumber = 0
        var start = body.startIndex
        var index = start
        func finishLine(_ fullLine: ArraySlice<UInt8>) {
            lineNumber += 1
            // Google cuts lines after 2083 × 8 bytes.
            let line = mode == .google ? fullLine.prefix(Self.googleLineLimit) : fullLine
            guard let (key, value) = Self.keyValue(line, mode: mode) else { return }
            switch key {
            case "user-agent":
                let agent = Self.agentValue(value, mode: mode)
                if lastWasAgent, current != nil {
                    current?.agents.append(agent)
                } else {
                    if let finished = current { groups.append(finished) }
                    current = Group(agents: [agent], rules: [], crawlDelay: nil)
                }
                lastWasAgent = true
            case "allow", "disallow":
                lastWasAgent = false
                guard current != nil, !value.isEmpty else { return }
                let (tokens, anchored) = Self.pattern(Array(value.utf8), mode: mode)
                current?.rules.append(
                    Rule(allow: key == "allow", pattern: value, line: lineNumber, tokens: tokens, anchored: anchored))
                // Google: allowing `…/index.html` (or `.htm`) also allows the directory `…/`.
                if mode == .google, key == "allow", let directory = Self.indexPageDirectory(value) {
                    let (tokens, _) = Self.pattern(Array(directory.utf8), mode: mode)
                    current?.rules.append(
                        Rule(allow: true, pattern: directory + "$", line: lineNumber, tokens: tokens, anchored: true))
                }
            case "crawl-delay":
                lastWasAgent = false
                // `inf`, `nan` and `1e400` read as numbers: a delay must be a finite one.
                if current != nil, let delay = Double(value), delay >= 0, delay.isFinite { current?.crawlDelay = delay }
            case "sitemap":
                if !value.isEmpty { sitemaps.append(value) }
            default:
                return
            }
        }
        while index < body.endIndex {
            let byte = body[index]
            if byte == 0x0A || byte == 0x0D {
                finishLine(body[start..<index])
                if byte == 0x0D, body.index(after: index) < body.endIndex, body[body.index(after: index)] == 0x0A {
                    index = body.index(after: index)
                }
                index = body.index(after: index)
                start = index
            } else {
                index = body.index(after: index)
            }
        }
        if start < body.endIndex { finishLine(body[start..<body.endIndex]) }
        if let finished = current { groups.append(finished) }
        self.groups = groups
        self.sitemaps = sitemaps
    }

    /// The groups that apply to a crawler: those naming its product token, else `*`.
    public func groups(for productToken: String) -> [Group] {
        groups(forFirstOf: [productToken])
    }

    /// The groups naming the first of `productTokens` that any group names, else the `*` groups.
    /// Apple's rule for Applebot is `["applebot", "googlebot"]`: when robots.txt does not mention
    /// Applebot but mentions Googlebot, Applebot follows the Googlebot group (About Applebot,
    /// support.apple.com/en-us/119829; apple-markup-rules.md §2.5).
    public func groups(forFirstOf productTokens: [String]) -> [Group] {
        for productToken in productTokens {
            let token = productToken.lowercased()
            let named = groups.filter { $0.agents.contains(token) }
            if !named.isEmpty { return named }
        }
        return groups.filter { $0.agents.contains("*") }
    }

    /// Crawl-delay for the crawler (the first one its groups give), in seconds.
    public func crawlDelay(for productToken: String) -> Double? {
        groups(for: productToken).lazy.compactMap(\.crawlDelay).first
    }

    /// Whether `productToken` may fetch `url` (an absolute URL or a path).
    public func decide(productToken: String, url: String) -> Decision {
        decide(productTokens: [productToken], url: url)
    }

    /// Like `decide(productToken:url:)`, with the groups of `groups(forFirstOf:)`.
    public func decide(productTokens: [String], url: String) -> Decision {
        let applicable = groups(forFirstOf: productTokens)
        let agents = applicable.flatMap(\.agents)
        let path = Self.normalizedPath(of: url, mode: mode)
        if mode == .rfc9309, path == Array("/robots.txt".utf8) {
            return Decision(allowed: true, rule: nil, agents: agents)
        }
        var best: Rule?
        var work = 0
        for group in applicable {
            for rule in group.rules {
                let matched = rule.compiled.matches(path, work: &work)
                if work > Self.matchingBudget {
                    return Decision(allowed: false, rule: nil, agents: agents, exceededMatchingBudget: true)
                }
                guard matched else { continue }
                guard let current = best else {
                    best = rule
                    continue
                }
                if rule.length > current.length || (rule.length == current.length && rule.allow && !current.allow) {
                    best = rule
                }
            }
        }
        return Decision(allowed: best?.allow ?? true, rule: best, agents: agents)
    }

    public func isAllowed(productToken: String, url: String) -> Bool {
        decide(productToken: productToken, url: url).allowed
    }
}
