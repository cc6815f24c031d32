import Foundation
public import PageFetching
import URLNormalization

/// Request headers for a staging site (`--header`, `--basic-auth`; cookies are a `Cookie`
/// header): added to a request only when its URL's origin — scheme, host and port — is one of
/// `origins` (the seeds' origins). Never to another host (`--allow-host`, images on a CDN),
/// another port or scheme of the same host, or a redirect target on another origin (each hop
/// is a request of its own, judged by its own URL). The values live only in memory: they are
/// not `Codable`, never part of `CrawlSettings` (stored for `--resume`), and `description`
/// shows their names only; `record` is what may be stored and reported.
public struct SiteCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The headers, in the order given (names keep their case).
    public var headers: [HTTPHeader]
    /// The origins they go to, e.g. `https://staging.example.com` (no default port).
    public var origins: Set<String>

    public init(headers: [HTTPHeader], origins: Set<String> = []) {
        self.headers = headers
        self.origins = origins
    }

    /// `Authorization: Basic …` for `user` and `password` (RFC 7617, UTF-8).
    public static func basicAuthorization(user: String, password: String) -> HTTPHeader {
        HTTPHeader("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
    }

    /// The origin of an http(s) URL as the credentials compare it; nil for anything else.
    public static func origin(of url: String) -> String? {
        guard let parsed = URLParser.parse(url), parsed.isCrawlable else { return nil }
        return OriginMapping.origin(of: parsed)
    }

    /// The headers to add to a request for `url`: all of them on one of `origins`, none elsewhere.
    public func headers(for url: String) -> [HTTPHeader] {
        guard !headers.isEmpty, let origin = Self.origin(of: url), origins.contains(origin) else { return [] }
        return headers
    }

    /// What may be stored and reported: the header names and the origins, never the values.
    public var record: CredentialRecord {
        CredentialRecord(headers: headers.map(\.name), origins: origins.sorted())
    }

    public var description: String {
        "\(headers.map(\.name).joined(separator: ", ")) (values hidden) for \(origins.sorted().joined(separator: ", "))"
    }
}

/// The trace of `SiteCredentials` kept in the crawl's stored settings and report.json: which
/// header names were sent, and to which origins. `--resume` needs the values passed again.
public struct CredentialRecord: Sendable, Hashable, Codable {
    public var headers: [String]
    public var origins: [String]

    public init(headers: [String], origins: [String]) {
        self.headers = headers
        self.origins = origins
    }
}

/// A fetcher that adds `SiteCredentials` to the requests for their origins (and to no other).
/// Wraps whichever fetcher a crawl uses, so every request of the crawl — pages, redirect hops,
/// robots.txt, sitemaps, association files, images — passes the same rule.
struct CredentialedFetcher: PageFetcher {
    let base: any PageFetcher
    let credentials: SiteCredentials

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let added = credentials.headers(for: request.url)
        guard !added.isEmpty else { return try await base.fetch(request) }
        var request = request
        request.headers += added
        return try await base.fetch(request)
    }
}

/// Why a `--header` or `--basic-auth` value is refused. The message names the option and the
/// header name, never a value (it may be a secret).
public struct CredentialError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

extension SiteCredentials {
    /// Header names `--header` does not take: the connection's own, and `User-Agent`
    /// (`--user-agent` sets it).
    public static let refusedHeaderNames: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "te", "upgrade", "user-agent",
    ]

    /// The credentials of `--header "Name: value"` (repeatable) and `--basic-auth USER:PASSWORD`
    /// (an `Authorization: Basic` header); nil when neither is given. A name must be an HTTP
    /// token (RFC 9110 §5.1), a value must not hold a line break or NUL.
    public static func parse(headers: [String], basicAuth: String?) throws(CredentialError) -> SiteCredentials? {
        var parsed: [HTTPHeader] = []
        for text in headers {
            guard let colon = text.firstIndex(of: ":") else {
                throw CredentialError(
                    "--header takes \"Name: value\" (e.g. --header \"Cookie: session=…\"); one has no colon")
            }
            let name = text[..<colon].trimmingCharacters(in: .whitespaces)
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            let token = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~").union(.alphanumerics)
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && token.contains($0) }) else {
                throw CredentialError(
                    "--header: \"\(name)\" is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
            }
            if refusedHeaderNames.contains(name.lowercased()) {
                let hint = name.lowercased() == "user-agent" ? "; --user-agent sets it" : ""
                throw CredentialError("--header \(name): not taken (the crawler sets it)\(hint)")
            }
            if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
                throw CredentialError("--header \(name): its value holds a line break or NUL")
            }
            parsed.append(HTTPHeader(name, value))
        }
        if let basicAuth {
            guard let colon = basicAuth.firstIndex(of: ":"), colon != basicAuth.startIndex else {
                throw CredentialError("--basic-auth takes USER:PASSWORD (the user name, a colon, the password)")
            }
            if parsed.contains(where: { $0.name.lowercased() == "authorization" }) {
                throw CredentialError("--basic-auth and --header Authorization: give one of them")
            }
            parsed.append(
                basicAuthorization(
                    user: String(basicAuth[..<colon]), password: String(basicAuth[basicAuth.index(after: colon)...])))
        }
        return parsed.isEmpty ? nil : SiteCredentials(headers: parsed)
    }
}
