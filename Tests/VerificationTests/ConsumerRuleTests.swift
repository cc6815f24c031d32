import MarkupExtraction
import Testing
import Verification

/// IX010 from what each consumer got (`crawl --consumers`), without a crawl: a page, and views as
/// the crawl would have made them.
@Suite("IX010: what each consumer gets against SpotCheck's own fetch")
struct ConsumerRuleTests {
    static let url = "https://www.example.com/movies/up.html"
    static let html = """
        <!doctype html><html lang="en"><head><title>Up</title>
        <meta name="description" content="A house carried away by balloons.">
        <meta property="og:title" content="Up"><meta property="og:image" content="https://www.example.com/up.png">
        <meta name="twitter:card" content="summary_large_image">
        <script type="application/ld+json">{"@context": "https://schema.org", "@type": "Movie", "name": "Up"}</script>
        </head><body></body></html>
        """
    static let page = MarkupExtractor().extract(html: Array(html.utf8), url: url)

    static func consumer(_ name: String) -> Consumer { Consumer.named(name)! }

    /// The messages of the IX010 findings for `views`.
    static func messages(_ views: [ConsumerView], status: Int = 200) -> [String] {
        var context = PageContext(status: status, mediaType: "text/html")
        context.consumerViews = views
        return PageVerifier().verify(page, context: context).filter { $0.ruleID == "IX010" }.map(\.message)
    }

    static func same(as name: String) -> ConsumerView {
        ConsumerView(
            consumer: consumer(name), outcome: .answered(status: 200, finalURL: url, metadata: ConsumerMetadata(page)))
    }

    @Test func theSamePageForEveryConsumerIsNoFinding() {
        #expect(Self.messages(Consumer.all.map { Self.same(as: $0.name) }).isEmpty)
        #expect(Self.messages([]).isEmpty)
    }

    @Test func metadataIsReadAsEachConsumerReadsIt() {
        let values = ConsumerMetadata(Self.page).values
        #expect(values[.title] == "Up")
        #expect(values[.ogImage] == "https://www.example.com/up.png")
        #expect(values[.twitterCard] == "summary_large_image")
        #expect(values[.jsonLD] == "Movie")
        #expect(values[.ogDescription] == nil)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var view: ConsumerView
        /// Each expected message contains the corresponding text.
        var says: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        var changed = ConsumerMetadata(page)
        changed.values[.ogTitle] = "For Applebot only"
        changed.values[.jsonLD] = nil
        var challenge = ConsumerMetadata(page)
        challenge.values[.title] = "Just a moment..."
        return [
            Case(
                name: "403 to facebookexternalhit",
                view: ConsumerView(
                    consumer: consumer("facebookexternalhit"),
                    outcome: .answered(status: 403, finalURL: url, metadata: nil)),
                says: ["facebookexternalhit gets HTTP 403 (blocked) where SpotCheck's fetch got 200"]),
            Case(
                name: "a challenge page to twitterbot",
                view: ConsumerView(
                    consumer: consumer("twitterbot"),
                    outcome: .answered(status: 200, finalURL: url, metadata: challenge)),
                says: ["twitterbot gets a bot challenge page (\"Just a moment...\")"]),
            Case(
                name: "robots.txt keeps slackbot out",
                view: ConsumerView(consumer: consumer("slackbot"), outcome: .disallowedByRobots),
                says: ["robots.txt disallows this page for slackbot (Slackbot-LinkExpanding, then Slackbot)"]),
            Case(
                name: "no answer to linkedinbot",
                view: ConsumerView(consumer: consumer("linkedinbot"), outcome: .failed("connection-refused: refused")),
                says: ["the fetch as linkedinbot got no answer (connection-refused: refused)"]),
            Case(
                name: "other metadata to applebot",
                view: ConsumerView(
                    consumer: consumer("applebot"), outcome: .answered(status: 200, finalURL: url, metadata: changed)),
                says: [
                    #"applebot gets og:title "For Applebot only" where the page as SpotCheck fetched it has "Up""#,
                    #"applebot gets JSON-LD types none where the page as SpotCheck fetched it has "Movie""#,
                ]),
            Case(
                name: "safari redirected elsewhere",
                view: ConsumerView(
                    consumer: consumer("safari"),
                    outcome: .answered(
                        status: 200, finalURL: "https://m.example.com/up", metadata: ConsumerMetadata(Self.page))),
                says: ["safari ends at https://m.example.com/up, SpotCheck's fetch at \(url)"]),
        ]
    }()

    @Test(arguments: cases)
    func eachDifferenceIsAFindingNamingTheConsumerAndTheField(_ difference: Case) {
        let messages = Self.messages([difference.view])
        #expect(messages.count == difference.says.count, "\(messages)")
        for (message, text) in zip(messages.sorted(), difference.says.sorted()) {
            #expect(message.contains(text), "\(message)")
        }
    }

    @Test func onlyTheFieldsAConsumerReadsAreCompared() {
        // facebookexternalhit reads og:title, og:description and og:image, not the title.
        var other = ConsumerMetadata(Self.page)
        other.values[.title] = "Another title"
        let view = ConsumerView(
            consumer: Self.consumer("facebookexternalhit"),
            outcome: .answered(status: 200, finalURL: Self.url, metadata: other))
        #expect(Self.messages([view]).isEmpty)
    }

    @Test func everyConsumerHasAUserAgentAndASource() {
        #expect(Set(Consumer.all.map(\.name)).count == Consumer.all.count)
        for consumer in Consumer.all {
            #expect(!consumer.userAgent.isEmpty && !consumer.reads.isEmpty)
            #expect(consumer.source.contains("[A]") || consumer.source.contains("[S]"), "\(consumer.name)")
            // A robots.txt product token is a substring of the User-Agent (RFC 9309 §2.2.1), except
            // the fallback groups.
            if let token = consumer.robotsTokens.first { #expect(consumer.userAgent.contains(token)) }
        }
        #expect(Consumer.named("Twitterbot")?.name == "twitterbot")
        #expect(Consumer.named("googlebot") == nil)
    }
}
