/// Open Graph's structured properties (ogp.me "Structured Properties" and "Arrays"): every
/// `og:image:*`, `og:video:*` and `og:audio:*` tag belongs to the nearest preceding root tag of its
/// kind; one that comes before any root is an orphan.
public struct OpenGraphMedia: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case image, video, audio
    }

    public var kind: Kind
    /// The root tag's value (`og:image` or `og:image:url`).
    public var url: String
    public var secureURL: String?
    public var type: String?
    public var width: String?
    public var height: String?
    public var alt: String?
    public var line: Int
    /// The column (1-based) of the root tag's closing `>` on `line`; nil when not known.
    public var column: Int?

    public var position: SourcePosition { SourcePosition(line: line, column: column) }
}

extension PageMarkup {
    /// `og:image`/`og:video`/`og:audio` arrays with their structured properties, and the orphans.
    public var openGraphMedia: (media: [OpenGraphMedia], orphans: [MetaTag]) {
        var media: [OpenGraphMedia] = []
        var orphans: [MetaTag] = []
        var current: [OpenGraphMedia.Kind: Int] = [:]
        for tag in openGraph where Self.mayNameMedia(tag.key) {
            let key = tag.key.lowercased()
            let parts = key.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0] == "og", let kind = OpenGraphMedia.Kind(rawValue: String(parts[1])) else {
                continue
            }
            if parts.count == 2 || (parts.count == 3 && parts[2] == "url" && current[kind] == nil) {
                current[kind] = media.count
                media.append(OpenGraphMedia(kind: kind, url: tag.content, line: tag.line, column: tag.column))
                continue
            }
            guard let index = current[kind] else {
                orphans.append(tag)
                continue
            }
            switch parts[2] {
            case "url":
                // A second `og:image:url` after a root starts a new image (it is the root's alias).
                if media[index].url.isEmpty {
                    media[index].url = tag.content
                } else {
                    current[kind] = media.count
                    media.append(OpenGraphMedia(kind: kind, url: tag.content, line: tag.line, column: tag.column))
                }
            case "secure_url": if media[index].secureURL == nil { media[index].secureURL = tag.content }
            case "type": if media[index].type == nil { media[index].type = tag.content }
            case "width": if media[index].width == nil { media[index].width = tag.content }
            case "height": if media[index].height == nil { media[index].height = tag.content }
            case "alt": if media[index].alt == nil { media[index].alt = tag.content }
            default: break
            }
        }
        return (media, orphans)
    }

    /// False for a key that is neither `og:image`, `og:video` nor `og:audio`, alone or before a
    /// `:` (in any case), which ``openGraphMedia`` passes over: the common keys are answered from
    /// their bytes, without lower-casing. No character but an ASCII letter lower-cases to one of
    /// these names' letters.
    static func mayNameMedia(_ key: String) -> Bool {
        let utf8 = key.utf8
        guard utf8.count >= 8 else { return false }
        let rest = utf8.dropFirst(8)
        guard rest.isEmpty || rest.first == UInt8(ascii: ":") else { return false }
        let name = utf8.prefix(8).lazy.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
        return name.elementsEqual("og:image".utf8) || name.elementsEqual("og:video".utf8)
            || name.elementsEqual("og:audio".utf8)
    }

    /// The first Open Graph value for a property (OGP: the first tag wins), with its tag.
    public func openGraphValue(_ property: String) -> MetaTag? {
        openGraph.first { $0.key.lowercased() == property && !$0.content.isEmpty }
    }

    public func twitterValue(_ name: String) -> MetaTag? {
        twitter.first { $0.key.lowercased() == name && !$0.content.isEmpty }
    }

    public func appLinksValue(_ property: String) -> MetaTag? {
        appLinks.first { $0.key.lowercased() == property && !$0.content.isEmpty }
    }
}
