public import Rulebook

/// What a fetch of an AASA file observed (§3.1). Filled in by the fetching code; this module does no I/O.
public struct AASAServingFacts: Sendable, Hashable {
    /// The URL that was finally read (for messages).
    public var url: String
    /// Whether that URL is `https`.
    public var isHTTPS: Bool
    /// Whether the certificate was valid and publicly trusted; `nil` when not known (plain HTTP, or not checked).
    public var certificateIsValid: Bool?
    /// The final HTTP status.
    public var statusCode: Int
    /// Whether any redirect (3xx) happened on the way.
    public var redirected: Bool
    /// The `Content-Type` header, as sent; `nil` when absent.
    public var contentType: String?
    /// The size of the decoded (uncompressed) body.
    public var bodyByteCount: Int
    /// Whether the body is a signed (CMS) file, for the `application/pkcs7-mime` allowance of UL005. Use
    /// ``AASAServingFacts/bodyLooksSigned(_:)`` to decide it from the body.
    public var bodyIsSigned: Bool
    /// Whether the file was found only at the deprecated root path `/apple-app-site-association`, not at
    /// `/.well-known/apple-app-site-association` (the other fields then describe the root fetch).
    public var foundOnlyAtRootPath: Bool
    /// Whether the fetched server is a stand-in (a served folder standing for a public site): HTTPS and
    /// certificate checks (UL004) are then reported as not applicable.
    public var isStandIn: Bool

    /// Creates serving facts.
    public init(
        url: String,
        isHTTPS: Bool,
        certificateIsValid: Bool? = nil,
        statusCode: Int,
        redirected: Bool = false,
        contentType: String?,
        bodyByteCount: Int,
        bodyIsSigned: Bool = false,
        foundOnlyAtRootPath: Bool = false,
        isStandIn: Bool = false
    ) {
        self.url = url
        self.isHTTPS = isHTTPS
        self.certificateIsValid = certificateIsValid
        self.statusCode = statusCode
        self.redirected = redirected
        self.contentType = contentType
        self.bodyByteCount = bodyByteCount
        self.bodyIsSigned = bodyIsSigned
        self.foundOnlyAtRootPath = foundOnlyAtRootPath
        self.isStandIn = isStandIn
    }

    /// Whether a body is a CMS `SignedData` file (the UL008 detection).
    public static func bodyLooksSigned(_ body: some Collection<UInt8>) -> Bool {
        SignedFileDetector.looksSigned(Array(body.prefix(64)))
    }
}

/// A rule that could not be checked, and why.
public struct AASANotApplicable: Sendable, Hashable {
    /// The catalogue rule, e.g. `UL004`.
    public var rule: RuleID
    /// Why it was not checked.
    public var reason: String

    /// Creates a not-applicable note.
    public init(rule: RuleID, reason: String) {
        self.rule = rule
        self.reason = reason
    }

    /// The rule's id as text, e.g. `UL004`.
    public var ruleID: String { rule.rawValue }
}

/// The outcome of the serving checks.
public struct AASAServingReport: Sendable, Hashable {
    /// UL001, UL002, UL003, UL004, UL005, UL007 problems.
    public var problems: [AASAProblem]
    /// Rules not checked (UL004 for a stand-in server).
    public var notApplicable: [AASANotApplicable]

    /// Creates a report.
    public init(problems: [AASAProblem], notApplicable: [AASANotApplicable]) {
        self.problems = problems
        self.notApplicable = notApplicable
    }
}

extension AASAValidator {
    /// The serving rules of §3.1 / §7.3 for one fetch:
    /// - UL001 status not 200 (when ``AASAServingFacts/foundOnlyAtRootPath`` is set, the status is the root
    ///   fetch's and UL002 says the well-known path failed);
    /// - UL002 found only at the root path; UL003 a redirect; UL004 not HTTPS or certificate invalid (not
    ///   applicable for a stand-in); UL005 `Content-Type` other than `application/json` (or
    ///   `application/pkcs7-mime` for a signed body), parameters such as `charset` ignored; UL007 body over
    ///   128 KB (the same fact as the UL007 of ``validate(_:configuredAppID:)-(Collection<UInt8>,_)``: report one).
    public static func checkServing(_ facts: AASAServingFacts) -> AASAServingReport {
        var problems: [AASAProblem] = []
        var notApplicable: [AASANotApplicable] = []
        func add(_ rule: RuleID, _ severity: AASAProblem.Severity, _ message: String) {
            problems.append(AASAProblem(rule: rule, severity: severity, message: message))
        }
        if facts.statusCode != 200 {
            add(.ul001, .error, "\(facts.url) answered HTTP \(facts.statusCode), not 200")
        }
        if facts.foundOnlyAtRootPath {
            add(
                .ul002, .warning,
                "the file is served only at the deprecated root path (\(facts.url)), not at "
                    + "/.well-known/apple-app-site-association")
        }
        if facts.redirected {
            add(
                .ul003, .error,
                "the request for \(facts.url) was redirected; the file must be served without redirects")
        }
        if facts.isStandIn {
            notApplicable.append(
                AASANotApplicable(
                    rule: .ul004,
                    reason: "the server is a stand-in for the public site, so HTTPS and its certificate are not checked"
                ))
        } else if !facts.isHTTPS {
            add(.ul004, .error, "\(facts.url) is not served over https")
        } else if facts.certificateIsValid == false {
            add(.ul004, .error, "the certificate of \(facts.url) is invalid or not publicly trusted")
        }
        let mediaType = facts.contentType.map(Self.mediaType)
        let accepted = facts.bodyIsSigned ? ["application/json", "application/pkcs7-mime"] : ["application/json"]
        if facts.statusCode == 200, !accepted.contains(mediaType ?? "") {
            let found = facts.contentType.map { "Content-Type \(Quoted.text($0))" } ?? "no Content-Type"
            add(.ul005, .warning, "the file is served with \(found); use application/json")
        }
        if facts.bodyByteCount > AASADocument.maximumByteCount {
            add(
                .ul007, .error,
                "the file is \(facts.bodyByteCount) bytes uncompressed, more than the 128 KB "
                    + "(\(AASADocument.maximumByteCount) bytes) limit")
        }
        return AASAServingReport(problems: problems, notApplicable: notApplicable)
    }

    /// `type/subtype` in lower case, without parameters or spaces.
    static func mediaType(_ contentType: String) -> String {
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return GlobPattern.fold(String(essence.filter { $0 != " " && $0 != "\t" }))
    }

    /// UL024 for one associated-domains entitlement entry such as `applinks:example.com` (§3.1): a scheme, a
    /// path or trailing `/`, or a port are reported (the `?mode=developer` style suffix is allowed). With
    /// `coveringHost`, a wildcard entry `*.example.com` that is expected to cover `example.com` itself is reported.
    public static func checkEntitlementDomain(_ entry: String, coveringHost: String? = nil) -> [AASAProblem] {
        var problems: [AASAProblem] = []
        func add(_ message: String) {
            problems.append(AASAProblem(rule: .ul024, severity: .warning, message: message))
        }
        let quoted = Quoted.text(entry)
        guard let colon = entry.firstIndex(of: ":") else {
            return []
        }
        var domain = Substring(entry[entry.index(after: colon)...])
        if let question = domain.firstIndex(of: "?") {
            domain = domain[..<question]
        }
        if domain.hasPrefix("//") || domain.contains("://") {
            add("entitlement \(quoted) contains a URL scheme; write <service>:<domain>")
            domain = domain.drop { $0 == "/" }
            if let schemeEnd = domain.range(of: "://") {
                domain = domain[schemeEnd.upperBound...]
            }
        }
        if let slash = domain.firstIndex(of: "/") {
            let rest = domain[slash...]
            add(
                rest == "/"
                    ? "entitlement \(quoted) ends with \"/\"; write the domain alone"
                    : "entitlement \(quoted) contains a path (\(Quoted.text(String(rest)))); paths belong in the AASA file"
            )
            domain = domain[..<slash]
        }
        if let portColon = domain.lastIndex(of: ":"), !domain.hasSuffix("]") {
            let port = domain[domain.index(after: portColon)...]
            add("entitlement \(quoted) has a port (\(port)); entitlements cannot carry ports")
            domain = domain[..<portColon]
        }
        if let coveringHost, domain.hasPrefix("*.") {
            let base = GlobPattern.fold(String(domain.dropFirst(2)))
            let host = GlobPattern.fold(coveringHost)
            if base == host {
                add("entitlement \(quoted) does not cover \(Quoted.text(coveringHost)) itself; add applinks:\(host)")
            }
        }
        return problems
    }
}
