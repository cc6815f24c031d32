import Foundation
import PageAnalysis
import Testing

@Suite("Input collector")
struct InputCollectorTests {
    @Test("folders are searched recursively for .html/.htm/.xhtml, in sorted path order")
    func recursiveSorted() throws {
        let folder = try TemporaryFolder()
        for relative in [
            "z.html", "b/index.htm", "a.html", "b/a/deep.HTML", "notes.txt", "b/image.png", "c/page.xhtml", "a/x.html",
        ] {
            try folder.write(relative, simplePage)
        }
        let (inputs, problems) = InputCollector().collect([folder.path])
        #expect(problems.isEmpty)
        let relative = inputs.map { String($0.path.dropFirst(folder.path.count + 1)) }
        #expect(relative == ["a.html", "a/x.html", "b/a/deep.HTML", "b/index.htm", "c/page.xhtml", "z.html"])
    }

    @Test("baseURL + relative path gives each page's URL (percent-encoded)")
    func baseURLMapping() throws {
        let folder = try TemporaryFolder()
        try folder.write("index.html", simplePage)
        try folder.write("movies/up.html", simplePage)
        try folder.write("movies/my film.html", simplePage)
        for base in ["https://www.example.com/", "https://www.example.com"] {
            let (inputs, _) = InputCollector(baseURL: base).collect([folder.path + "/"])
            #expect(
                inputs.map(\.url) == [
                    "https://www.example.com/", "https://www.example.com/movies/my%20film.html",
                    "https://www.example.com/movies/up.html",
                ])
            #expect(
                inputs.map(\.path) == [
                    folder.path + "/index.html", folder.path + "/movies/my film.html", folder.path + "/movies/up.html",
                ])
        }
    }

    @Test("a file named directly is taken whatever its extension; with baseURL its URL is the base URL")
    func namedFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("page.txt", simplePage)
        let (inputs, problems) = InputCollector(baseURL: "https://www.example.com/page").collect([path])
        #expect(problems.isEmpty)
        #expect(inputs == [PageInput(path: path, url: "https://www.example.com/page")])
    }

    @Test("without baseURL a page's URL is its file:// URL")
    func fileURL() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("sub/page.html", simplePage)
        let (inputs, _) = InputCollector().collect([folder.path])
        #expect(inputs.map(\.url) == [URL(fileURLWithPath: path).standardizedFileURL.absoluteString])
        #expect(inputs.first?.url.hasPrefix("file:///") == true)
    }

    @Test("a folder without HTML and a missing path are reported; the other inputs are still collected")
    func problems() throws {
        let folder = try TemporaryFolder()
        let empty = try folder.makeFolder("assets")
        try folder.write("assets/logo.png", bytes: [0x89, 0x50, 0x4E, 0x47])
        let page = try folder.write("site/index.html", simplePage)
        let missing = folder.path + "/does-not-exist"
        let (inputs, problems) = InputCollector().collect([empty, missing, folder.path + "/site"])
        #expect(inputs.map(\.path) == [page])
        #expect(problems.map(\.code) == [.folderWithoutHTML, .missing])
        #expect(problems.map(\.path) == [empty, missing])
        #expect(problems.allSatisfy { $0.description.hasPrefix($0.path + ": ") })
    }

    @Test("folders can be refused (extract takes files only)")
    func foldersRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("index.html", simplePage)
        let (inputs, problems) = InputCollector().collect([folder.path], allowFolders: false)
        #expect(inputs.isEmpty)
        #expect(problems.map(\.code) == [.isFolder])
        #expect(problems.map(\.path) == [folder.path])
    }

    @Test("with folders refused, a missing file keeps its place as an input (loading it reports .missing)")
    func missingFileKeepsPlace() throws {
        let folder = try TemporaryFolder()
        let first = try folder.write("a.html", simplePage)
        let missing = folder.path + "/gone.html"
        let (inputs, problems) = InputCollector(baseURL: "https://www.example.com/").collect(
            [first, missing], allowFolders: false)
        #expect(problems.isEmpty)
        #expect(inputs.map(\.path) == [first, missing])
        #expect(throws: InputProblem(.missing, path: missing, message: "no such file or folder")) {
            try PageLoader.load(inputs[1])
        }
    }
}
