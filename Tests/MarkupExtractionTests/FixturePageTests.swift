import LenientJSON
import MarkupExtraction
import Testing

/// A complete, realistic page (Pages/movie.html) read end to end.
@Suite("Movie page fixture")
struct FixturePageTests {
    static let url = "https://www.example.com/movies/up.html"

    @Test("every extractor finds its part of the movie page")
    func moviePage() throws {
        let page = try extractPage("movie.html", url: Self.url)
        #expect(page.title?.text == "Up (2009) – Family Cinema")
        #expect(page.lang?.text == "en")
        #expect(page.canonicals.map(\.content) == [Self.url])
        #expect(page.smartAppBanner?.appID == "1234567890")
        #expect(page.smartAppBanner?.appArgument == Self.url)
        #expect(page.smartAppBanner?.line == 8)
        #expect(page.openGraphValue("og:type")?.content == "video.movie")
        #expect(page.openGraphValue("video:duration")?.content == "5760")
        let images = page.openGraphMedia.media
        #expect(
            images.map(\.url) == [
                "https://www.example.com/images/up-wide.png", "https://www.example.com/images/up-square.png",
            ])
        #expect(images.map(\.width) == ["1200", "600"])
        #expect(images.first?.alt == "Carl's house lifted by balloons")
        #expect(page.twitterValue("twitter:app:url:iphone")?.content == "familycinema://movies/up")
        #expect(page.appLinksValue("al:ios:app_store_id")?.content == "1234567890")
        #expect(page.prefixes.map(\.prefix) == ["og", "video"])
        let movie = try #require(page.jsonLD.first?.value)
        #expect(movie["@type"] == "Movie")
        #expect(movie["aggregateRating"]?["ratingValue"] == "4.4")
        #expect(page.jsonLD.first?.line == 26)
        let item = try #require(page.microdata.first)
        #expect(item.types == ["https://schema.org/Movie"])
        #expect(item.strings("image") == ["https://www.example.com/images/up-poster.jpg"])
        #expect(page.links.map(\.href) == ["/movies/"])
        #expect(page.diagnostics.isEmpty)
    }

    @Test("extractor is safe to call from many tasks at once")
    func concurrentExtraction() async throws {
        let bytes = try pageBytes("movie.html")
        let expected = MarkupExtractor().extract(html: bytes, url: Self.url)
        let results = await withTaskGroup(of: PageMarkup.self) { group in
            for _ in 0..<16 {
                group.addTask { MarkupExtractor().extract(html: bytes, url: Self.url) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == expected })
    }

    @Test("extract accepts any collection of bytes (non-contiguous too)")
    func nonContiguousInput() throws {
        let bytes = try pageBytes("movie.html")
        let contiguous = MarkupExtractor().extract(html: bytes, url: Self.url)
        let lazy = MarkupExtractor().extract(html: bytes.lazy.map { $0 }, url: Self.url)
        #expect(lazy == contiguous)
    }
}
