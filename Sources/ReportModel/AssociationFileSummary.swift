/// One host's `apple-app-site-association` as the crawl fetched and checked it: report.json's
/// `universalLinks[]`. `status` is nil when the fetch failed (`error` says why); the served
/// facts (`contentType` … `notApplicable`) are there when it answered, `apps` when with 200.
public struct AssociationFileSummary: Sendable, Hashable, Codable {
    /// A serving rule that does not apply here, and why (a folder served on loopback has no TLS).
    public struct NotApplicable: Sendable, Hashable, Codable {
        public var rule: String
        public var reason: String

        public init(rule: String, reason: String) {
            self.rule = rule
            self.reason = reason
        }
    }

    public var url: String
    public var status: Int?
    public var error: String?
    public var contentType: String?
    public var bytes: Int?
    /// Found only at the deprecated root path, not under `/.well-known/`.
    public var onlyAtRootPath: Bool?
    public var notApplicable: [NotApplicable]?
    /// The app IDs its `applinks` details name.
    public var apps: [String]?
    public var configuredAppIDs: [String]
    public var usable: Bool

    public init(url: String, configuredAppIDs: [String] = [], usable: Bool = false) {
        self.url = url
        self.configuredAppIDs = configuredAppIDs
        self.usable = usable
    }

    private enum CodingKeys: String, CodingKey {
        case url, status, error, contentType, bytes, onlyAtRootPath, notApplicable, apps, configuredAppIDs, usable
    }

    /// Reads what a store holds: only `url` is required, as a summary may have been written
    /// without the members this version always writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        bytes = try container.decodeIfPresent(Int.self, forKey: .bytes)
        onlyAtRootPath = try container.decodeIfPresent(Bool.self, forKey: .onlyAtRootPath)
        notApplicable = try container.decodeIfPresent([NotApplicable].self, forKey: .notApplicable)
        apps = try container.decodeIfPresent([String].self, forKey: .apps)
        configuredAppIDs = try container.decodeIfPresent([String].self, forKey: .configuredAppIDs) ?? []
        usable = try container.decodeIfPresent(Bool.self, forKey: .usable) ?? false
    }
}
