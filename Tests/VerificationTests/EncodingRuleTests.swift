import MarkupExtraction
import Rulebook
import Testing
import Verification

/// windows-1251 bytes of ASCII and Russian Cyrillic text (А–я, Ё, ё).
private func windows1251(_ text: String) -> [UInt8] {
    text.unicodeScalars.map { scalar in
        switch scalar.value {
        case 0..<0x80: UInt8(scalar.value)
        case 0x410...0x44F: UInt8(scalar.value - 0x410 + 0xC0)
        case 0x401: 0xA8
        case 0x451: 0xB8
        default: UInt8(ascii: "?")
        }
    }
}

private func findings(_ bytes: [UInt8], charset: String? = nil) -> [Finding] {
    let markup = MarkupExtractor(options: .init(encoding: charset))
        .extract(html: bytes, url: "https://www.example.com/news/1.html")
    return PageVerifier().verify(markup, context: PageContext())
}

@Suite("The declared encoding against the bytes (CT016)")
struct EncodingRuleTests {
    /// qq.html's shape: UTF-8 bytes, `<meta http-equiv>` saying gb2312.
    static let utf8DeclaringGB2312 = """
        <!DOCTYPE html>
        <html>
        <head>
        <meta http-equiv="Content-Type" content="text/html; charset=gb2312" />
        <title>DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶_科技_腾讯网</title>
        <meta name="Description" content="DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶" />
        </head><body><p>腾讯科技讯</p></body></html>
        """

    @Test("UTF-8 bytes declaring gb2312: CT016 names gb2312 and UTF-8 at the <meta>'s line; no CT002")
    func gb2312DeclaredOnUTF8() throws {
        let found = findings(Array(Self.utf8DeclaringGB2312.utf8))
        let mismatch = try #require(found.first { $0.ruleID == "CT016" })
        #expect(mismatch.severity == .warning)
        #expect(mismatch.line == 4)
        #expect(mismatch.message.contains("gb2312"))
        #expect(mismatch.message.contains("its bytes are UTF-8"))
        #expect(mismatch.message.contains("decoded as GBK"))
        #expect(!found.contains { $0.ruleID == "CT002" || $0.ruleID == "CT001" })
    }

    @Test("the same bytes with a header charset of gb2312 and <meta charset=utf-8>: the header decides, CT016 says so")
    func gb2312FromTheHeader() throws {
        let html = Self.utf8DeclaringGB2312.replacing(
            #"<meta http-equiv="Content-Type" content="text/html; charset=gb2312" />"#, with: #"<meta charset="utf-8">"#
        )
        let found = findings(Array(html.utf8), charset: "gb2312")
        let mismatch = try #require(found.first { $0.ruleID == "CT016" })
        #expect(mismatch.message.contains("the charset gb2312 given for the page (HTTP Content-Type"))
        #expect(!found.contains { $0.ruleID == "CT002" })
    }

    @Test("a windows-1251 page with <title> before <meta charset>: no CT016, and no rule fires on mojibake")
    func windows1251Page() {
        let title = "Новости науки: Привет, мир"
        let description = "Учёные рассказали, как устроена Вселенная, и почему это важно для всех нас."
        let html = """
            <!DOCTYPE html>
            <html lang="ru"><head>
            <title>\(title)</title>
            <meta name="description" content="\(description)">
            <meta charset="windows-1251">
            <meta property="og:title" content="\(title)">
            <meta property="og:description" content="\(description)">
            <meta name="twitter:card" content="summary">
            <meta name="twitter:title" content="\(title)">
            <meta name="twitter:description" content="\(description)">
            <link rel="canonical" href="https://www.example.com/news/1.html">
            <script type="application/ld+json">
            {"@context": "https://schema.org", "@type": "NewsArticle", "headline": "\(title)",
             "name": "\(title)", "description": "\(description)"}
            </script>
            </head><body><p>Текст</p></body></html>
            """
        let ids = Set(findings(windows1251(html)).map(\.ruleID))
        // Before one decode, <title> and the description were Latin-1 mojibake while og:title was
        // Cyrillic: the title and description sources disagreed.
        #expect(!ids.contains("CT016"))
        #expect(ids.isDisjoint(with: ["SD027", "TW002", "TW005", "CT006", "CT013", "CT015"]))
        let markup = MarkupExtractor().extract(html: windows1251(html), url: "https://www.example.com/news/1.html")
        #expect(markup.title?.text == title)
        #expect(markup.descriptions.first?.content == description)
    }

    @Test("CT016 is SpotCheck's own content rule, checked, with a fix hint on its findings")
    func registered() throws {
        let rule = RuleCatalogue.rule(.ct016)
        #expect(rule.severity == .warning)
        #expect(rule.isImplemented)
        #expect(!rule.isFromReference)
        let finding = try #require(findings(Array(Self.utf8DeclaringGB2312.utf8)).first { $0.ruleID == "CT016" })
        #expect(finding.fixHint.contains("<meta charset"))
    }
}
