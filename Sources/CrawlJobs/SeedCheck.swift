import Foundation
import URLNormalization

/// What is wrong with a crawl seed that is not an existing folder, said in words with what to
/// write instead: a missing folder is called missing, a host without a scheme gets the URL to
/// write (`example.com` → `https://example.com/`).
enum SeedCheck {
    /// Nil for an http(s) URL with a host; otherwise the message (starting with the seed).
    static func problem(_ seed: String) -> String? {
        let trimmed = seed.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            return "no seed: name an http(s) URL such as https://www.example.com/, or a folder to serve"
        }
        if let url = URLParser.parse(trimmed), url.isCrawlable, url.host?.isEmpty == false {
            return SeedList.userInfoProblem(url, text: trimmed)
        }
        if FileManager.default.fileExists(atPath: trimmed) {
            return "\(seed): a file, not a folder; name the folder to serve "
                + "(one page is checked with `spotcheck validate \(seed)`)"
        }
        let lowercased = trimmed.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
            return "\(seed): not a valid URL; write it as https://www.example.com/"
        }
        if trimmed.contains("://") {
            return "\(seed): only http and https URLs are crawled; name an http(s) URL or a folder to serve"
        }
        let looksLikePath = ["/", ".", "~"].contains { trimmed.hasPrefix($0) }
        if !looksLikePath, let url = suggestedURL(trimmed) {
            return "\(seed): no folder of that name, and not a URL (it has no scheme); to crawl the site, write \(url)"
        }
        return "\(seed): no such folder; name an existing folder to serve, or an http(s) URL such as "
            + "https://www.example.com/"
    }

    /// The URL a scheme-less seed most likely means: `https://` before a host name with a dot,
    /// `http://` before a loopback host; nil when the text does not start with such a host.
    static func suggestedURL(_ text: String) -> String? {
        guard let parsed = URLParser.parse("https://" + text), let host = parsed.host else { return nil }
        let loopback = host == "localhost" || host.hasPrefix("127.") || host == "[::1]"
        guard loopback || (host.contains(".") && !host.hasSuffix(".")) else { return nil }
        return URLParser.parse((loopback ? "http://" : "https://") + text)?.serialized(includingFragment: true)
    }
}
