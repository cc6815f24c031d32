public import SpotlightModel

/// `crawl --render`: the page as headless Chromium built it, beside the served page.
public struct RenderingReport: Sendable, Hashable, Codable {
    /// A request of the page that robots.txt disallows for Applebot (not made while rendering).
    public struct BlockedRequest: Sendable, Hashable, Codable {
        public var url: String
        /// DevTools' resource type: `Script`, `Stylesheet`, `XHR`, `Fetch`, `Image` …
        public var resourceType: String

        public init(url: String, resourceType: String) {
            self.url = url
            self.resourceType = resourceType
        }
    }

    /// Why the page was not rendered; nil when it was.
    public var failure: String?
    /// The rendered DOM's attribute set; nil when nothing was rendered.
    public var attributeSet: AttributeSet?
    /// The fields only the rendered page has (`AttributeField` raw values), with `attributeSet`.
    public var onlyAfterJavaScript: [String]
    /// The network was still busy at the render timeout.
    public var timedOut: Bool
    public var blockedForApplebot: [BlockedRequest]

    public init(
        failure: String? = nil, attributeSet: AttributeSet? = nil, onlyAfterJavaScript: [String] = [],
        timedOut: Bool = false, blockedForApplebot: [BlockedRequest] = []
    ) {
        self.failure = failure
        self.attributeSet = attributeSet
        self.onlyAfterJavaScript = onlyAfterJavaScript
        self.timedOut = timedOut
        self.blockedForApplebot = blockedForApplebot
    }
}

/// `crawl --consumers`: what one consumer (a link-preview bot, Safari, Applebot) got for a page.
public struct ConsumerReport: Sendable, Hashable, Codable {
    /// One field the consumer reads, and its value as the consumer got it (nil: none).
    public struct FieldValue: Sendable, Hashable, Codable {
        public var field: String
        public var value: String?

        public init(field: String, value: String?) {
            self.field = field
            self.value = value
        }
    }

    public enum Outcome: Sendable, Hashable, Codable {
        case disallowedByRobots
        case failed(reason: String)
        /// The answer it stopped at; `reads` for an HTML page, nil for anything else.
        case answered(status: Int, finalURL: String, reads: [FieldValue]?)
    }

    public var consumer: String
    public var userAgent: String
    public var outcome: Outcome

    public init(consumer: String, userAgent: String, outcome: Outcome) {
        self.consumer = consumer
        self.userAgent = userAgent
        self.outcome = outcome
    }
}
