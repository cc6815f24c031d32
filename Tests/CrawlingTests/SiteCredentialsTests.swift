import CrawlStore
import Crawling
import Foundation
import PageFetching
import Testing

/// A fetcher that answers from an `InMemorySite` and keeps every request's headers.
actor HeaderRecordingSite: PageFetcher {
    let site: InMemorySite
    private(set) var requests: [(url: String, headers: [HTTPHeader])] = []

    init(_ site: InMemorySite) {
        self.site = site
    }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        requests.append((request.url, request.headers))
        return try await site.fetch(request)
    }
}

/// `--header`/`--basic-auth`: the headers go to the seeds' origins and nowhere else.
@Suite("credentials for a staging site")
struct SiteCredentialsTests {
    static let credentials = SiteCredentials(
        headers: [
            HTTPHeader("Cookie", "session=c00kie"), SiteCredentials.basicAuthorization(user: "u", password: "p"),
        ],
        origins: ["https://staging.example.com"])

    @Test(
        "sent to the seeds' origins only: not to another host, port or scheme",
        arguments: [
            ("https://staging.example.com/a.html", true),
            ("https://STAGING.example.com:443/b?c#d", true),
            ("https://staging.example.com:8443/a.html", false),
            ("http://staging.example.com/a.html", false),
            ("https://cdn.example.com/staging.example.com/a.png", false),
            ("https://staging.example.com.evil.test/", false),
            ("https://www.staging.example.com/", false),
            ("not a url", false),
        ])
    func originRule(url: String, sent: Bool) {
        #expect(Self.credentials.headers(for: url).isEmpty == !sent)
    }

    @Test("basic auth is an Authorization header (RFC 7617)")
    func basicAuthorization() {
        let header = SiteCredentials.basicAuthorization(user: "Aladdin", password: "open sesame")
        #expect(header == HTTPHeader("Authorization", "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="))
    }

    @Test("what may be stored and printed names the headers, never their values")
    func recordAndDescription() throws {
        let record = Self.credentials.record
        #expect(
            record == CredentialRecord(headers: ["Cookie", "Authorization"], origins: ["https://staging.example.com"]))
        let stored = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        let printed = "\(Self.credentials)"
        for text in [stored, printed] {
            #expect(!text.contains("c00kie") && !text.contains("Basic "), "\(text)")
        }
    }

    @Test(
        "--header and --basic-auth values that are refused; the message never repeats a value",
        arguments: [
            (["Cookie session=s3cr3t"], nil, "takes \"Name: value\""),
            (["Bad Name: s3cr3t"], nil, "not a header name"),
            (["Host: s3cr3t.example"], nil, "--header Host: not taken"),
            (["User-Agent: s3cr3t"], nil, "--user-agent sets it"),
            (["X-Token: a\ns3cr3t"], nil, "line break"),
            ([], "s3cr3t", "--basic-auth takes USER:PASSWORD"),
            ([], ":s3cr3t", "--basic-auth takes USER:PASSWORD"),
            (["Authorization: Bearer s3cr3t"], "user:s3cr3t", "give one of them"),
        ] as [([String], String?, String)])
    func refused(headers: [String], basicAuth: String?, message: String) {
        let error = #expect(throws: CredentialError.self) {
            try SiteCredentials.parse(headers: headers, basicAuth: basicAuth)
        }
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.message.contains("s3cr3t") == false, "\(String(describing: error))")
    }

    @Test("headers and basic auth parse into one list; nothing given is no credentials")
    func parsed() throws {
        #expect(try SiteCredentials.parse(headers: [], basicAuth: nil) == nil)
        let credentials = try #require(
            try SiteCredentials.parse(headers: ["X-Staging-Key:  k3y ", "Cookie: a=b; c=d"], basicAuth: "me:pa:ss"))
        #expect(credentials.headers.map(\.name) == ["X-Staging-Key", "Cookie", "Authorization"])
        #expect(credentials.headers[0].value == "k3y")
        #expect(credentials.headers[2] == SiteCredentials.basicAuthorization(user: "me", password: "pa:ss"))
    }

    /// The rule holds for every request of a crawl: pages, a redirect to another origin, robots.txt,
    /// the association file and an image on a CDN, through the crawler's own wrapping.
    @Test func aCrawlSendsThemToTheSeedsOriginOnly() async throws {
        let origin = "https://staging.example.com"
        let cdn = "https://cdn.example.com"
        let home = InMemorySite.Answer(
            status: 200, headers: [HTTPHeader("Content-Type", "text/html")],
            body: """
                <!doctype html><html><head><title>Home</title>
                <meta property="og:image" content="\(cdn)/logo.png"></head>
                <body><a href="/away">away</a> <a href="\(cdn)/page.html">cdn page</a></body></html>
                """)
        let site = HeaderRecordingSite(
            InMemorySite([
                origin + "/": [home],
                origin + "/away": [.init(status: 302, headers: [HTTPHeader("Location", "\(cdn)/landing.html")])],
                cdn + "/landing.html": [InMemorySite.html("Landing")],
                cdn + "/page.html": [InMemorySite.html("CDN page")],
                cdn + "/logo.png": [.init(status: 200, headers: [HTTPHeader("Content-Type", "image/png")])],
            ]))
        let store = try CrawlStore(path: try temporaryFolder("credentials") + "/crawl.sqlite")
        var settings = CrawlSettings(seed: origin + "/", allowedHosts: ["cdn.example.com"], delay: 0)
        settings.credentials = Self.credentials.record
        _ = try await Crawler(settings: settings, store: store, credentials: Self.credentials, fetcher: site).run(
            resume: false)

        let requests = await site.requests
        let mine = requests.filter { $0.url.hasPrefix(origin + "/") }
        let others = requests.filter { !$0.url.hasPrefix(origin + "/") }
        #expect(Set(mine.map(\.url)).isSuperset(of: [origin + "/", origin + "/away", origin + "/robots.txt"]))
        #expect(Set(others.map(\.url)).isSuperset(of: [cdn + "/landing.html", cdn + "/page.html", cdn + "/logo.png"]))
        for request in mine {
            #expect(request.headers.contains(HTTPHeader("Cookie", "session=c00kie")), "\(request.url)")
            #expect(request.headers.contains { $0.name == "Authorization" }, "\(request.url)")
        }
        for request in others {
            #expect(
                !request.headers.contains { ["cookie", "authorization"].contains($0.name.lowercased()) },
                "\(request.url)")
        }
    }
}
