import Foundation
import LenientJSON
import MarkupExtraction
import Rulebook
import SpotlightModel

/// The content-quality rules (apple-markup-rules.md §7.7) that one page decides, on the attribute
/// set Spotlight would show. CT008 and CT014 (the same image, title or description on many pages)
/// are site-level checks; CT009–CT011 need the image itself (asset checks).
struct ContentChecks: PageRuleGroup {
    let page: PageMarkup
    let attributes: PageAttributes

    static let rules = RuleCatalogue.contentRules

    static let maximumTitleLength = 90
    static let maximumDescriptionLength = 300
    /// SpotCheck's threshold for a description too short to describe anything (CT005, [I]).
    static let minimumDescriptionLength = 50
    static let maximumKeywords = 5
    static let maximumKeywordMetaLength = 250

    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        let set = attributes.attributeSet
        func source(_ field: String) -> (position: SourcePosition, name: String) {
            guard let chosen = attributes.provenance(of: field)?.chosen else { return (.page, "") }
            return (chosen.source.position, chosen.source.source)
        }

        if let title = set.title, !title.isEmpty {
            let (position, name) = source("title")
            if title.count > Self.maximumTitleLength {
                // The length is the title's as Spotlight would show it, without a trailing
                // og:site_name (reference §6); when that differs from the title as written, the
                // message gives both, the written one first (issue 33: "97" read as a miscount
                // of a 117-character og:title). The excerpt stays the shown title (baselines).
                func collapsed(_ text: String) -> String {
                    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                }
                let written = attributes.provenance(of: "title").map { collapsed($0.chosen.value) } ?? title
                let length =
                    written == title
                    ? "has \(title.count) characters"
                    : "has \(written.count) characters as written, \(title.count) without its trailing site name \"\(collapsed(page.openGraphValue("og:site_name")?.content ?? ""))\" (og:site_name), which is what is measured"
                report(
                    .ct003, position, title,
                    "the title (from \(name)) \(length); Apple recommends at most \(Self.maximumTitleLength)"
                )
            }
            let words = title.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
            let counts = Dictionary(words.map { ($0, 1) }, uniquingKeysWith: +)
            if let (word, count) = counts.filter({ $0.value > 3 && $0.key.count > 2 }).max(by: { $0.value < $1.value })
            {
                report(.ct013, position, title, "\"\(word)\" appears \(count) times in the title (from \(name))")
            }
        } else {
            report(.ct001, .page, "", "no title from og:title, schema.org name/headline, twitter:title or <title>")
        }

        if let description = set.contentDescription, !description.isEmpty {
            let (position, name) = source("contentDescription")
            if description.count > Self.maximumDescriptionLength {
                report(
                    .ct004, position, description,
                    "the description (from \(name)) has \(description.count) characters; Apple recommends at most \(Self.maximumDescriptionLength)"
                )
            } else if description.count < Self.minimumDescriptionLength {
                report(
                    .ct005, position, description,
                    "the description (from \(name)) has \(description.count) characters, under SpotCheck's threshold of \(Self.minimumDescriptionLength)"
                )
            }
            if let title = set.title, Self.repeats(description, title) {
                report(
                    .ct006, position, description,
                    "the description (from \(name)) repeats the title \"\(title)\" instead of adding to it")
            }
        } else {
            report(
                .ct002, .page, "",
                "no description from og:description, schema.org description, twitter:description or meta description")
        }

        let thumbnailSource = attributes.provenance(of: "thumbnailURL")?.chosen.source.source
        if set.thumbnailURL == nil || thumbnailSource == "apple-touch-icon" {
            report(
                .ct007, .page, set.thumbnailURL ?? "",
                set.thumbnailURL == nil
                    ? "no image: no og:image, schema.org image, twitter:image"
                    : "the only image is the apple-touch-icon, which is not specific to this page's content")
        }

        checkKeywords(report)
        checkEncoding(report)

        if let lang = page.lang, let pageLanguage = Self.primaryLanguage(lang.text) {
            var declared: [(String, String, SourcePosition)] = []
            for tag in page.openGraph where tag.key.lowercased() == "og:locale" {
                declared.append(("og:locale", tag.content, tag.position))
            }
            for script in page.jsonLD {
                for language in Self.jsonLDStrings(script.value, key: "inLanguage") {
                    declared.append(("JSON-LD inLanguage", language, script.position))
                }
            }
            for (name, value, position) in declared {
                if let language = Self.primaryLanguage(value), language != pageLanguage {
                    report(
                        .ct015, position, "\(name) \(value)",
                        "\(name) \"\(value)\" disagrees with <html lang=\"\(lang.text)\"> (line \(lang.line))")
                }
            }
        }
    }

    /// CT016: the declared encoding does not fit the bytes (the page is decoded as declared).
    private func checkEncoding(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        guard let mismatch = page.encodingMismatch else { return }
        let declaration =
            mismatch.declaredBy == .meta
            ? "<meta> charset \(mismatch.declaredLabel) (line \(mismatch.line))"
            : "the charset \(mismatch.declaredLabel) given for the page (HTTP Content-Type or --encoding)"
        let invalid =
            mismatch.invalidSequences == 0
            ? ""
            : "\(mismatch.invalidSequences) byte sequence(s) from line \(mismatch.firstInvalidLine) are not valid \(mismatch.decodedAs) and were decoded as U+FFFD"
        let message =
            if let fit = mismatch.bytesFit {
                "the page declares \(declaration), but its bytes are \(fit); decoded as \(mismatch.decodedAs), as browsers do, so the text is garbled"
                    + (invalid.isEmpty ? "" : "; " + invalid)
            } else {
                "the page declares \(declaration), but \(invalid)"
            }
        // The prescan that found the `<meta>` charset knows its line only.
        let line = mismatch.declaredBy == .meta ? mismatch.line : mismatch.firstInvalidLine
        report(.ct016, SourcePosition(line: line), mismatch.declaredLabel, message)
    }

    private func checkKeywords(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        var sources: [(name: String, position: SourcePosition, keywords: [String])] = []
        if let meta = page.keywords.first {
            if meta.content.count > Self.maximumKeywordMetaLength {
                report(
                    .ct013, meta.position, "<meta name=\"keywords\" content=\"\(meta.content)\">",
                    "meta keywords has \(meta.content.count) characters (SpotCheck's limit: \(Self.maximumKeywordMetaLength))"
                )
            }
            sources.append(("meta keywords", meta.position, Self.splitKeywords(meta.content)))
        }
        for script in page.jsonLD {
            let keywords = Self.jsonLDStrings(script.value, key: "keywords").flatMap(Self.splitKeywords)
            if !keywords.isEmpty { sources.append(("JSON-LD keywords", script.position, keywords)) }
        }
        for item in page.microdata + page.rdfa {
            let keywords = item.values("keywords").compactMap(\.string).flatMap(Self.splitKeywords)
            if !keywords.isEmpty { sources.append(("schema.org keywords", item.position, keywords)) }
        }
        for (name, position, keywords) in sources {
            let excerpt = keywords.joined(separator: ", ")
            if keywords.count > Self.maximumKeywords {
                report(
                    .ct012, position, excerpt,
                    "\(name) lists \(keywords.count) keywords; Apple suggests 3 to 5 per item")
            }
            var seen: Set<String> = []
            let repeated = keywords.filter { !seen.insert($0.lowercased()).inserted }
            if !repeated.isEmpty {
                report(
                    .ct013, position, excerpt,
                    "\(name) repeats \(repeated.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
        }
    }

    /// Whether a description only repeats the title: equal, or contained in it, once case,
    /// whitespace and trailing punctuation are ignored.
    static func repeats(_ description: String, _ title: String) -> Bool {
        asciiRepeats(description, title) ?? characterRepeats(description, title)
    }

    /// `repeats` by `Character`s and Foundation's character sets, for any text.
    static func characterRepeats(_ description: String, _ title: String) -> Bool {
        func normalized(_ text: String) -> String {
            text.lowercased().split { $0.isWhitespace }.joined(separator: " ").trimmingCharacters(in: trimmed)
        }
        let description = normalized(description)
        return !description.isEmpty && normalized(title).contains(description)
    }

    /// `repeats` for two ASCII texts (most titles and descriptions), in bytes: each byte is then
    /// one `Character` (a CR LF pair, the one exception, is white space either way), so the answer
    /// is the same. nil when either text is not ASCII.
    static func asciiRepeats(_ description: String, _ title: String) -> Bool? {
        guard let description = asciiNormalized(description), !description.isEmpty else {
            return description.utf8.allSatisfy { $0 < 0x80 } ? false : nil
        }
        guard let title = asciiNormalized(title) else { return nil }
        return title.firstRange(of: description) != nil
    }

    /// Which ASCII bytes `characterRepeats` trims from the ends (Foundation's punctuation and
    /// white space), taken from the character sets themselves.
    private static let trimmedASCII: [Bool] = (0..<128).map { byte in trimmed.contains(Unicode.Scalar(UInt8(byte))) }

    /// What `characterRepeats` trims from the ends: Foundation's punctuation and white space.
    private static let trimmed = CharacterSet.punctuationCharacters.union(.whitespaces)

    /// `characterRepeats`' normalized text for ASCII: lower-cased, runs of white space made one
    /// space, punctuation and spaces trimmed from both ends; nil when the text is not ASCII.
    private static func asciiNormalized(_ text: String) -> [UInt8]? {
        var words: [UInt8] = []
        words.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if byte.isWhitespaceCharacter {
                pendingSpace = !words.isEmpty
                continue
            }
            if pendingSpace {
                words.append(0x20)
                pendingSpace = false
            }
            words.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        var start = words.startIndex
        var end = words.endIndex
        while start < end, trimmedASCII[Int(words[start])] { start += 1 }
        while end > start, trimmedASCII[Int(words[end - 1])] { end -= 1 }
        return Array(words[start..<end])
    }

    static func splitKeywords(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// `en_US`, `en-us`, `EN` → `en`; nil for an empty or non-alphabetic tag.
    static func primaryLanguage(_ tag: String) -> String? {
        let primary = tag.trimmingCharacters(in: .whitespaces).split { $0 == "-" || $0 == "_" }.first
        guard let primary, (2...3).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return nil
        }
        return primary.lowercased()
    }

    /// The strings under `key` in a JSON-LD value's top-level objects (and `@graph` members):
    /// a string, or the strings of an array.
    static func jsonLDStrings(_ value: JSONValue?, key: String) -> [String] {
        var objects: [JSONObject] = []
        func collect(_ value: JSONValue?, depth: Int) {
            guard depth < 4, let value else { return }
            if let array = value.arrayValue {
                for member in array { collect(member, depth: depth + 1) }
            } else if let object = value.objectValue {
                objects.append(object)
                collect(object["@graph"], depth: depth + 1)
            }
        }
        collect(value, depth: 0)
        return objects.flatMap { object -> [String] in
            guard let value = object[key] else { return [] }
            if let text = value.stringValue { return [text] }
            return value.arrayValue?.compactMap(\.stringValue) ?? []
        }
    }
}
