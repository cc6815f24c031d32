import Foundation

/// What a browser would treat as markup in a generated report: every tag, its attributes, and
/// the problems that would let page data run script. Escaped text has no raw `<`, so every `<`
/// in the document starts one of the report's own tags.
public struct HTMLAudit: Sendable {
    public struct Tag: Sendable {
        public let name: String
        public let attributes: [(name: String, value: String)]
    }

    public let tags: [Tag]

    public init(_ html: String) {
        var tags: [Tag] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let body = rest[..<close]
            rest = rest[rest.index(after: close)...]
            guard let first = body.first, first.isLetter else { continue }
            let tag = Self.parse(body)
            tags.append(tag)
            // The report's own style sheet and script are not markup.
            if ["script", "style"].contains(tag.name), let end = rest.range(of: "</\(tag.name)>") {
                rest = rest[end.upperBound...]
            }
        }
        self.tags = tags
    }

    /// `name attr="value" attr2 …` (the report always double-quotes its attribute values).
    static func parse(_ body: Substring) -> Tag {
        let name = body.prefix { !$0.isWhitespace && $0 != "/" }.lowercased()
        var attributes: [(String, String)] = []
        var rest = body.dropFirst(name.count)
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "/" }
            guard !rest.isEmpty else { break }
            let attribute = rest.prefix { !$0.isWhitespace && $0 != "=" }
            rest = rest.dropFirst(attribute.count)
            var value = ""
            if rest.first == "=" {
                rest = rest.dropFirst()
                if rest.first == "\"" {
                    rest = rest.dropFirst()
                    value = String(rest.prefix { $0 != "\"" })
                    rest = rest.dropFirst(value.count + 1)
                } else {
                    value = String(rest.prefix { !$0.isWhitespace })
                    rest = rest.dropFirst(value.count)
                }
            }
            attributes.append((attribute.lowercased(), value))
        }
        return Tag(name: name, attributes: attributes)
    }

    /// Tags that could run or load something the report did not mean to.
    public var problems: [String] {
        var problems: [String] = []
        let scripts = tags.filter { $0.name == "script" }
        if scripts.count != 1 { problems.append("\(scripts.count) <script> tags") }
        for tag in tags {
            if ["iframe", "object", "embed", "base", "link", "meta"].contains(tag.name),
                !(tag.name == "meta"
                    && tag.attributes.allSatisfy { ["charset", "http-equiv", "content", "name"].contains($0.name) })
            {
                problems.append("<\(tag.name)>")
            }
            for attribute in tag.attributes {
                if attribute.name.hasPrefix("on") { problems.append("\(tag.name) \(attribute.name)=") }
                if ["href", "src", "data-src", "action", "formaction", "srcset", "xlink:href"].contains(attribute.name),
                    !(attribute.value.hasPrefix("#") || attribute.value.hasPrefix("https://")
                        || attribute.value.hasPrefix("http://"))
                {
                    problems.append("\(tag.name) \(attribute.name)=\"\(attribute.value)\"")
                }
                if attribute.value.contains("<") || attribute.value.contains(">") {
                    problems.append("unescaped < or > in \(tag.name) \(attribute.name)")
                }
            }
        }
        return problems
    }
}
