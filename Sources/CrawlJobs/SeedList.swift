import Crawling
import Foundation
import URLNormalization

/// The seeds of a crawl after the first — more seeds on the command line, the lines of
/// `--urls-from` — read and checked before anything is fetched or written.
enum SeedList {
    /// One seed as given, with where it was given (`urls.txt:3`, `seed 2`) for messages.
    struct Line: Sendable, Hashable {
        var text: String
        var place: String
    }

    /// The lines of a `--urls-from` file: one URL a line; blank lines and lines starting with `#`
    /// are skipped, white space around a URL is ignored.
    static func read(_ path: String) throws(CrawlJobError) -> [Line] {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            throw CrawlJobError(
                .urlListUnreadable,
                "--urls-from \(path): "
                    + (isFolder.boolValue ? "a folder, not a file of URLs" : exists ? "cannot be read" : "no such file")
            )
        }
        let text = String(decoding: data, as: UTF8.self)
        var lines: [Line] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            lines.append(Line(text: trimmed, place: "\(path):\(index + 1)"))
        }
        guard !lines.isEmpty else {
            throw CrawlJobError(.cannotCrawl, "--urls-from \(path): no URL in it (one http(s) URL a line)")
        }
        return lines
    }

    /// Each seed as the URL to fetch: an http(s) URL, or a path (starting with `/`) on `base`
    /// (the first seed's public URL), mapped to the served folder's origin. A seed that is
    /// neither, or that carries user info (a password would be stored with the crawl:
    /// `--basic-auth` is for that), is refused with its place.
    static func resolve(_ lines: [Line], base: String, mapping: OriginMapping?) throws(CrawlJobError) -> [String] {
        let baseURL = URLParser.parse(base)
        var urls: [String] = []
        var problems: [String] = []
        for line in lines {
            let isPath = line.text.hasPrefix("/") && !line.text.hasPrefix("//")
            guard let parsed = isPath ? URLParser.parse(line.text, base: baseURL) : URLParser.parse(line.text),
                parsed.isCrawlable, parsed.host?.isEmpty == false
            else {
                let hint = SeedCheck.suggestedURL(line.text).map { "; to name a host, write \($0)" } ?? ""
                problems.append(
                    "\(line.place): \(line.text): neither an http(s) URL nor a path starting with / (on \(base))\(hint)"
                )
                continue
            }
            if let problem = userInfoProblem(parsed, text: line.text) {
                problems.append("\(line.place): \(problem)")
                continue
            }
            let url = parsed.serialized(includingFragment: false)
            urls.append(mapping?.fetchURL(url) ?? url)
        }
        guard problems.isEmpty else {
            throw CrawlJobError(.cannotCrawl, problems.joined(separator: "\n"))
        }
        return urls
    }

    /// The message for a seed URL with user info (`https://user:secret@host/`), which would be
    /// stored with the crawl and sent to every origin; nil without.
    static func userInfoProblem(_ url: ParsedURL, text: String) -> String? {
        guard !url.username.isEmpty || !url.password.isEmpty else { return nil }
        var bare = url
        bare.username = ""
        bare.password = ""
        return "\(bare.serialized(includingFragment: false)): user info in a seed URL is not taken (it would be "
            + "stored in crawl.sqlite and report.json); write the URL without it and pass --basic-auth USER:PASSWORD"
    }
}
