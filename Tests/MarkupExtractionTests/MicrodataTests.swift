import LenientJSON
import MarkupExtraction
import Testing

@Suite("Microdata")
struct MicrodataTests {
    @Test("nested items, multiple types, itemid resolved, properties in tree order")
    func nestingTypesAndID() throws {
        let page = extract(
            """
            <html><body>
            <div itemscope itemtype="https://schema.org/Movie https://schema.org/CreativeWork" itemid="/movies/up">
              <h1 itemprop="name">Up</h1>
              <div itemprop="director" itemscope itemtype="https://schema.org/Person">
                <span itemprop="name">Pete Docter</span>
              </div>
              <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
                <span itemprop="ratingValue">4.4</span>
              </div>
              <span itemprop="name alternateName">Oben</span>
            </div>
            </body></html>
            """)
        try #require(page.microdata.count == 1)
        let movie = page.microdata[0]
        #expect(movie.types == ["https://schema.org/Movie", "https://schema.org/CreativeWork"])
        #expect(movie.id == "https://www.example.com/movies/up")
        #expect(movie.line == 2)
        #expect(movie.propertyNames == ["name", "director", "aggregateRating", "alternateName"])
        #expect(movie.strings("name") == ["Up", "Oben"])
        #expect(movie.strings("alternateName") == ["Oben"])
        let director = try #require(movie.item("director"))
        #expect(director.types == ["https://schema.org/Person"])
        #expect(director.strings("name") == ["Pete Docter"])
        #expect(director.line == 4)
        #expect(movie.item("aggregateRating")?.strings("ratingValue") == ["4.4"])
        // Nested items are not top-level items.
        #expect(page.contractJSON["microdata"]?.arrayValue?.count == 1)
    }

    @Test("an element with itemprop outside any item is ignored; itemscope+itemprop is an orphan item")
    func strayProperties() {
        let html = """
            <html><body>
            <span itemprop="name">Stray</span>
            <div itemprop="x" itemscope><span itemprop="name">Orphan</span></div>
            </body></html>
            """
        let page = extract(html)
        #expect(page.microdata.count == 1)
        #expect(page.microdata.first?.orphan == true)
        // WHATWG: an item with an itemprop is never top-level.
        let whatwg = extract(html, options: .init(microdataContentOnAnyElement: false, microdataOrphanItems: false))
        #expect(whatwg.microdata.isEmpty)
    }

    @Test("orphan items: a speakable <meta itemscope itemref> in <head> and itemprop=\"\" on a comment")
    func orphanItems() throws {
        let html = """
            <html><head><title>Story</title>
            <meta itemprop="speakable" itemscope itemtype="https://schema.org/SpeakableSpecification" itemref="headline summary">
            </head><body>
            <article itemscope itemtype="https://schema.org/NewsArticle">
            <h1 id="headline" itemprop="headline">Story</h1><p id="summary">The summary.</p>
            </article>
            <div itemprop="" itemscope itemtype="https://schema.org/Comment"><span itemprop="text">Nice</span></div>
            </body></html>
            """
        let page = extract(html)
        #expect(
            page.microdata.map(\.types) == [
                ["https://schema.org/SpeakableSpecification"], ["https://schema.org/NewsArticle"],
                ["https://schema.org/Comment"],
            ])
        #expect(page.microdata.map(\.orphan) == [true, false, true])
        #expect(page.microdata[0].properties.map(\.name) == ["headline"])
        // The contract marks the orphans only.
        let json = page.contractJSON["microdata"]?.arrayValue ?? []
        #expect(json.map { $0["orphan"] } == [.bool(true), nil, .bool(true)])
        // Their itemprop stays reported (SD007's diagnostic).
        #expect(page.diagnostics.filter { $0.code == .microdataOrphanProperty }.map(\.line) == [2, 7])
        let whatwg = extract(html, options: .init(microdataContentOnAnyElement: false, microdataOrphanItems: false))
        #expect(whatwg.microdata.map(\.types) == [["https://schema.org/NewsArticle"]])
    }

    @Test("a lazy <img itemprop=image data-src> without src has the value \"\" and keeps its data-src aside")
    func lazyImage() throws {
        let page = extract(
            """
            <html><body><div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span>
            <img itemprop="image" data-src="/img/kettle.jpg" class="lazyload"></div></body></html>
            """)
        let value = try #require(page.microdata.first?.values("image").first)
        #expect(value.kind == .text(""))
        #expect(value.lazySource == "/img/kettle.jpg")
    }

    @Test("value rules per element, URLs resolved against <base href>")
    func valueRules() throws {
        let page = extract(
            """
            <html><head><base href="https://cdn.example.net/assets/"></head><body>
            <div itemscope itemtype="https://schema.org/Thing">
              <meta itemprop="meta" content="meta value">
              <img itemprop="img" src="pic.png" alt="alt text">
              <a itemprop="a" href="../page.html">link text</a>
              <link itemprop="link" href="/root">
              <object itemprop="object" data="movie.swf"></object>
              <audio itemprop="audio" src="a.mp3"></audio>
              <video itemprop="video" src="v.mp4"></video>
              <iframe itemprop="iframe" src="frame.html"></iframe>
              <embed itemprop="embed" src="e.swf">
              <time itemprop="timeAttr" datetime="2024-05-01T10:00:00+02:00">May 1st</time>
              <time itemprop="timeText">2024-05-02</time>
              <data itemprop="data" value="42">forty-two</data>
              <meter itemprop="meter" value="0.75">75%</meter>
              <span itemprop="text">  spaced
                 text  </span>
              <p itemprop="mixed">Before <script>var hidden = 1;</script><style>.x { }</style><b>bold</b> after</p>
              <img itemprop="noSrc">
            </div>
            </body></html>
            """)
        let item = try #require(page.microdata.first)
        #expect(page.baseURL == "https://cdn.example.net/assets/")
        #expect(item.strings("meta") == ["meta value"])
        #expect(item.values("img").map(\.kind) == [.url("https://cdn.example.net/assets/pic.png")])
        #expect(item.values("a").map(\.kind) == [.url("https://cdn.example.net/page.html")])
        #expect(item.values("link").map(\.kind) == [.url("https://cdn.example.net/root")])
        #expect(item.values("object").map(\.kind) == [.url("https://cdn.example.net/assets/movie.swf")])
        #expect(item.strings("audio") == ["https://cdn.example.net/assets/a.mp3"])
        #expect(item.strings("video") == ["https://cdn.example.net/assets/v.mp4"])
        #expect(item.strings("iframe") == ["https://cdn.example.net/assets/frame.html"])
        #expect(item.strings("embed") == ["https://cdn.example.net/assets/e.swf"])
        #expect(item.strings("timeAttr") == ["2024-05-01T10:00:00+02:00"])
        #expect(item.strings("timeText") == ["2024-05-02"])
        #expect(item.strings("data") == ["42"])
        #expect(item.strings("meter") == ["0.75"])
        // Text content is as written (whitespace kept), without <script> and <style> text.
        #expect(item.strings("text") == ["  spaced\n     text  "])
        #expect(item.strings("mixed") == ["Before bold after"])
        #expect(item.values("noSrc").map(\.kind) == [.text("")])
    }

    /// WHATWG's Microdata reads `content` on `<meta>` only (issue 33: any lenient reading explicit
    /// and off by default); schema.org's examples, Google and extruct read it on any element.
    @Test("a content attribute on a span is ignored by default and used with microdataContentOnAnyElement")
    func contentAttributeOption() throws {
        let html = """
            <html><body><div itemscope>
            <span itemprop="price" content="9.99">$9.99</span>
            <meta itemprop="currency" content="USD">
            </div></body></html>
            """
        let lenient = try #require(extract(html, options: .init(microdataContentOnAnyElement: true)).microdata.first)
        #expect(lenient.strings("price") == ["9.99"])
        #expect(lenient.strings("currency") == ["USD"])
        let whatwg = try #require(extract(html).microdata.first)
        #expect(whatwg.strings("price") == ["$9.99"])
        #expect(whatwg.strings("currency") == ["USD"])
    }

    @Test("itemref adds the referenced element's properties, in tree order")
    func itemref() throws {
        let page = extract(
            """
            <html><body>
            <p id="extra"><span itemprop="genre">Animation</span></p>
            <div itemscope itemtype="https://schema.org/Movie" itemref="extra missing rating">
              <span itemprop="name">Up</span>
            </div>
            <div id="rating" itemprop="contentRating">PG</div>
            </body></html>
            """)
        let movie = try #require(page.microdata.first)
        #expect(page.microdata.count == 1)
        #expect(movie.propertyNames == ["genre", "name", "contentRating"])
        #expect(movie.strings("contentRating") == ["PG"])
    }

    @Test("two items referencing the same element both get the property")
    func sharedItemref() throws {
        let page = extract(
            """
            <html><body>
            <div itemscope itemtype="https://schema.org/Product" itemref="brand"><span itemprop="name">A</span></div>
            <div itemscope itemtype="https://schema.org/Product" itemref="brand"><span itemprop="name">B</span></div>
            <p id="brand" itemprop="brand">ACME</p>
            </body></html>
            """)
        #expect(page.microdata.count == 2)
        #expect(page.microdata.map { $0.strings("brand") } == [["ACME"], ["ACME"]])
        #expect(page.microdata.map { $0.strings("name") } == [["A"], ["B"]])
    }

    @Test("an item that itemrefs itself terminates and lists each property once")
    func selfReference() throws {
        let page = extract(
            """
            <html><body>
            <div itemscope id="self" itemref="self self"><span itemprop="name">Self</span></div>
            </body></html>
            """)
        let item = try #require(page.microdata.first)
        #expect(item.strings("name") == ["Self"])
        #expect(item.properties.count == 1)
    }

    @Test("two items that itemref each other terminate; the repeated item is a .cycle (WHATWG \"ERROR\")")
    func mutualReference() throws {
        let page = extract(
            """
            <html><body>
            <div itemscope>
              <div itemprop="x" itemscope id="x" itemref="y"><span itemprop="label">X</span></div>
            </div>
            <div id="y" itemprop="y" itemscope itemref="x"><span itemprop="label">Y</span></div>
            </body></html>
            """)
        try #require(page.microdata.count == 1)
        let x = try #require(page.microdata[0].item("x"))
        #expect(x.strings("label") == ["X"])
        let y = try #require(x.item("y"))
        #expect(y.strings("label") == ["Y"])
        #expect(y.values("x").map(\.kind) == [.cycle])
        #expect(y.values("x").first?.json == "ERROR")
    }

    @Test("itemid and itemtype as written: multiple spaces, relative itemid against the page URL")
    func relativeItemID() throws {
        let page = extract(
            ##"<html><body><div itemscope itemtype="  https://schema.org/A   https://schema.org/B " itemid="#main"><meta itemprop="p" content="v"></div></body></html>"##
        )
        let item = try #require(page.microdata.first)
        #expect(item.types == ["https://schema.org/A", "https://schema.org/B"])
        #expect(item.id == "https://www.example.com/dir/page.html#main")
    }

    @Test("a name repeated in one itemprop gives one value (WHATWG: duplicates removed)")
    func duplicatePropertyNames() throws {
        let page = extract(
            #"<html><body><div itemscope><span itemprop="name name alternateName">N</span></div></body></html>"#)
        let item = try #require(page.microdata.first)
        #expect(item.propertyNames == ["name", "alternateName"])
        #expect(item.strings("name") == ["N"])
    }

    @Test("items inside <template> are not extracted")
    func template() {
        let page = extract(
            #"<html><body><template><div itemscope><span itemprop="a">b</span></div></template></body></html>"#)
        #expect(page.microdata.isEmpty)
    }

    @Test("contract JSON is the WHATWG shape with the line")
    func contractShape() {
        let page = extract(
            """
            <html><body>
            <div itemscope itemtype="https://schema.org/Movie" itemid="https://x/up">
            <span itemprop="name">Up</span><div itemprop="director" itemscope><span itemprop="name">Pete</span></div></div>
            </body></html>
            """)
        #expect(
            page.contractJSON["microdata"] == [
                [
                    "type": ["https://schema.org/Movie"], "id": "https://x/up",
                    "properties": ["name": ["Up"], "director": [["properties": ["name": ["Pete"]], "line": 3]]],
                    "line": 2,
                ]
            ])
    }
}
