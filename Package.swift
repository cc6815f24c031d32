// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SpotCheck",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "spotcheck", targets: ["spotcheck"]),
        .library(name: "MarkupExtraction", targets: ["MarkupExtraction"]),
        .library(name: "SpotlightModel", targets: ["SpotlightModel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // C libraries. libxml2's module map is empty: the target only carries pkg-config flags, and
        // its headers are included by CHTMLScanner's .c file alone (the ICU clash with Foundation).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "CHTMLScanner", dependencies: ["CLibXML2"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),

        // Pipeline stages.
        .target(name: "LenientJSON", swiftSettings: strictSettings),
        // A self-describing binary encoding for any Codable value (the crawl store's page payloads).
        .target(name: "CompactBinary", swiftSettings: strictSettings),
        // Floating values turned into integers without trapping (issue 35; Scripts/check-numeric-conversions.sh).
        .target(name: "NumericClamping", swiftSettings: strictSettings),
        // The rule catalogue and what a check yields: rule ids, rules, severities, findings, the
        // project's rule levels. All that reports and configuration need of the verifier.
        .target(name: "Rulebook", dependencies: ["LenientJSON"], swiftSettings: strictSettings),
        .target(name: "URLNormalization", swiftSettings: strictSettings),
        .target(
            name: "UniversalLinks",
            dependencies: ["LenientJSON", "Rulebook", "URLNormalization"],
            swiftSettings: strictSettings
        ),
        .target(name: "ImageSniffing", swiftSettings: strictSettings),
        .target(name: "CrawlScheduling", swiftSettings: strictSettings),
        // Redirect chains as a state machine (pages, images, association files).
        .target(name: "RedirectFollowing", dependencies: ["URLNormalization"], swiftSettings: strictSettings),
        .target(
            name: "DatabaseOpening",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CrawlStore",
            dependencies: ["DatabaseOpening", "LenientJSON", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        // The crawl store on PostgreSQL (issue 12): many workers on one shared frontier, host leases.
        .target(
            name: "PostgresStorage",
            dependencies: [
                "CrawlStore", "NumericClamping", "SpotlightIndex",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "PageFetching", dependencies: ["CCurl", "NumericClamping"], swiftSettings: strictSettings),
        // Headless Chromium over the DevTools protocol on a pipe (issue 14: crawl --render).
        .target(
            name: "BrowserRendering", dependencies: ["LenientJSON", "NumericClamping"], swiftSettings: strictSettings),
        .target(
            name: "Crawling",
            dependencies: [
                "BrowserRendering", "CrawlScheduling", "CrawlStore", "ImageSniffing", "LenientJSON", "MarkupExtraction",
                "NumericClamping",
                "PageAnalysis",
                "PageFetching", "ProjectConfiguration", "RedirectFollowing", "ReportModel", "RobotsExclusion",
                "Rulebook",
                "Sitemaps", "SpotlightModel", "UniversalLinks", "URLNormalization", "Verification",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "RobotsExclusion", dependencies: ["URLNormalization"], swiftSettings: strictSettings),
        .target(
            name: "Sitemaps",
            dependencies: ["CHTMLScanner", "CZlib", "URLNormalization"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MarkupExtraction",
            dependencies: ["CHTMLScanner", "LenientJSON", "URLNormalization"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotlightModel",
            dependencies: ["MarkupExtraction", "LenientJSON", "NumericClamping", "URLNormalization"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PageAnalysis",
            dependencies: [
                "MarkupExtraction", "NumericClamping", "ProjectConfiguration", "ReportModel", "SpotlightModel",
                "LenientJSON", "Verification", "Rulebook",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Verification",
            dependencies: [
                "ImageSniffing", "LenientJSON", "MarkupExtraction", "Rulebook", "SpotlightModel", "UniversalLinks",
                "URLNormalization",
            ],
            swiftSettings: strictSettings
        ),
        // The project configuration file (.spotcheck.json): its keys, checks and ignore list.
        // The app's local items joined to the crawled pages by content URL (the AS rules).
        .target(
            name: "ItemLinking", dependencies: ["ReportModel", "Rulebook", "SpotlightModel", "URLNormalization"],
            swiftSettings: strictSettings),
        .target(
            name: "ProjectConfiguration",
            dependencies: ["LenientJSON", "Rulebook"],
            swiftSettings: strictSettings
        ),
        // The typed page every output reads (`PageReport`) and the payload the crawl store keeps for it.
        .target(
            name: "ReportModel",
            dependencies: [
                "CompactBinary", "LenientJSON", "MarkupExtraction", "Rulebook", "SpotlightModel", "URLNormalization",
            ],
            swiftSettings: strictSettings
        ),
        // The writers; each reads the typed pages and reports of ReportModel.
        .target(
            name: "Reports",
            dependencies: [
                "LenientJSON", "NumericClamping", "ReportModel", "Rulebook", "SpotlightModel",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // The crawl as a library call: request in, outcome out (the CLI only maps options and exit codes).
        .target(
            name: "CrawlJobs",
            dependencies: [
                "Crawling", "CrawlScheduling", "CrawlStore", "ItemLinking", "LenientJSON", "LoopbackServer",
                "MarkupExtraction",
                "PageAnalysis", "PostgresStorage", "ReportModel", "Reports",
                "SpotlightIndex",
                "SpotlightModel", "URLNormalization", "Verification", "Rulebook",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotlightIndex",
            dependencies: [
                "DatabaseOpening", "LenientJSON", "NumericClamping", "SpotlightModel", "URLNormalization",
                .product(name: "GRDB", package: "GRDB.swift"),
                // FTS5's C API, for the search's ranking function (FullTextRanking.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LoopbackServer",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "spotcheck",
            dependencies: [
                "CrawlJobs", "Crawling", "LenientJSON", "LoopbackServer", "MarkupExtraction", "NumericClamping",
                "PageAnalysis", "PostgresStorage", "ProjectConfiguration", "Reports", "RobotsExclusion",
                "SpotlightIndex",
                "SpotlightModel", "UniversalLinks",
                "URLNormalization", "Verification", "Rulebook",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),

        // Benchmark support (never shipped in spotcheck): times index searches in one process for
        // Scripts/bench_index.py.
        .executableTarget(
            name: "IndexQueryTimer",
            dependencies: ["SpotlightIndex", "LenientJSON", "PostgresStorage"],
            path: "Benchmarks/IndexQueryTimer",
            swiftSettings: strictSettings
        ),

        // Benchmark support (never shipped in spotcheck): simulated workers on one PostgreSQL
        // frontier, for Scripts/bench_frontier.py (issue 32 §3).
        .executableTarget(
            name: "FrontierBench",
            dependencies: ["Crawling", "CrawlStore", "LenientJSON", "PageFetching", "PostgresStorage"],
            path: "Benchmarks/FrontierBench",
            swiftSettings: strictSettings
        ),

        // Benchmark support (never shipped in spotcheck): encodes and decodes a page-report-sized
        // Codable value with CompactBinary, JSON and binary property lists, and prints the times.
        .executableTarget(
            name: "PayloadCodingBench",
            dependencies: ["CompactBinary"],
            path: "Benchmarks/PayloadCodingBench",
            swiftSettings: strictSettings
        ),

        // Test support: an index import that stops inside its transaction, to be killed (the
        // atomicity tests of SpotlightIndexTests).
        .executableTarget(
            name: "IndexImportStaller",
            dependencies: ["SpotlightIndex"],
            path: "Tests/IndexImportStaller",
            swiftSettings: strictSettings
        ),

        // Test support: the spotcheck child process, and what a browser would treat as markup in a
        // report (depended on by tests only).
        .target(
            name: "SpotCheckTestSupport", dependencies: ["BrowserRendering"], path: "Tests/SpotCheckTestSupport",
            swiftSettings: strictSettings),

        // Test support: a hostile HTTP server for crawler tests (depended on by tests only).
        .target(
            name: "TortureServer",
            dependencies: ["LoopbackServer", "CZlib", .product(name: "Hummingbird", package: "hummingbird")],
            path: "Tests/TortureServer",
            swiftSettings: strictSettings
        ),

        .testTarget(name: "LenientJSONTests", dependencies: ["LenientJSON"], swiftSettings: strictSettings),
        .testTarget(name: "CompactBinaryTests", dependencies: ["CompactBinary"], swiftSettings: strictSettings),
        .testTarget(
            name: "ReportModelTests",
            dependencies: [
                "CompactBinary", "LenientJSON", "MarkupExtraction", "ReportModel", "Rulebook", "SpotlightModel",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "RobotsExclusionTests", dependencies: ["RobotsExclusion", "SpotCheckTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(name: "CrawlSchedulingTests", dependencies: ["CrawlScheduling"], swiftSettings: strictSettings),
        .testTarget(
            name: "RedirectFollowingTests",
            dependencies: ["RedirectFollowing", "URLNormalization"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CrawlStoreTests", dependencies: ["CrawlStore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "SitemapsTests", dependencies: ["Sitemaps", "SpotCheckTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "PostgresStorageTests", dependencies: ["PostgresStorage", "CrawlStore", "SpotCheckTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "URLNormalizationTests", dependencies: ["URLNormalization", "SpotCheckTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "UniversalLinksTests",
            dependencies: ["UniversalLinks", "LenientJSON"],
            exclude: ["Swcutil"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "ImageSniffingTests", dependencies: ["ImageSniffing"], swiftSettings: strictSettings),
        .testTarget(
            name: "ProjectConfigurationTests",
            dependencies: ["ProjectConfiguration", "LenientJSON", "Rulebook", "Verification", "SpotCheckTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ReportsTests",
            dependencies: [
                "Reports", "ReportModel", "PageAnalysis", "SpotlightModel", "Verification", "Rulebook", "LenientJSON",
                "SpotCheckTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "MarkupExtractionTests",
            dependencies: ["MarkupExtraction", "LenientJSON", "URLNormalization", "SpotCheckTestSupport"],
            exclude: ["Golden", "HTML5Lib"],
            resources: [.copy("Pages")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotlightModelTests",
            dependencies: ["SpotlightModel", "MarkupExtraction", "LenientJSON"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PageAnalysisTests",
            dependencies: ["PageAnalysis", "MarkupExtraction", "LenientJSON", "Verification", "Rulebook"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BrowserRenderingTests",
            dependencies: ["BrowserRendering", "LoopbackServer", "SpotCheckTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LoopbackServerTests",
            dependencies: ["LoopbackServer", "TortureServer", "SpotCheckTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VerificationTests",
            dependencies: [
                "ItemLinking", "Verification", "LenientJSON", "MarkupExtraction", "ReportModel", "Rulebook",
                "SpotlightModel",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PageFetchingTests",
            dependencies: ["PageFetching", "LoopbackServer", "TortureServer", "SpotCheckTestSupport"],
            exclude: ["TLS", "HTTP2/h2_torture_server.py"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "NumericClampingTests", dependencies: ["NumericClamping"], swiftSettings: strictSettings),
        .testTarget(
            name: "CrawlingTests",
            dependencies: [
                "CrawlJobs", "Crawling", "CrawlScheduling", "CrawlStore", "SpotCheckTestSupport", "LenientJSON",
                "LoopbackServer", "MarkupExtraction", "PageAnalysis",
                "PageFetching", "ProjectConfiguration", "ReportModel", "Reports", "Rulebook", "TortureServer",
                "URLNormalization",
                // Built for the kill -9 / --resume test, which runs it as a child process.
                "spotcheck",
                // Tampering with a store as another program would (HostileNumbersTests).
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Golden"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CrawlJobsTests",
            dependencies: [
                "CrawlJobs", "Crawling", "LenientJSON", "Reports", "Verification", "Rulebook", "SpotCheckTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotlightIndexTests",
            dependencies: [
                "SpotlightIndex", "SpotlightModel", "SpotCheckTestSupport", "LenientJSON", "PostgresStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                // Run as child processes by the CLI tests (import, export, kill -9 mid-import).
                "spotcheck", "IndexImportStaller",
            ],
            swiftSettings: strictSettings
        ),
    ]
)

// Fuzzing harnesses (issue 17 §1, docs/reliability.md): one libFuzzer entry point each, in
// Fuzz/NAME/NAME.swift. They exist only when SPOTCHECK_FUZZ is set, as `make fuzz` does: built with
// `-sanitize=fuzzer,address`, which links libFuzzer's `main`; a plain build has no such targets.
if Context.environment["SPOTCHECK_FUZZ"] != nil {
    let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzHTML", ["MarkupExtraction", "SpotlightModel", "Verification", "LenientJSON"]),
        ("FuzzJSON", ["LenientJSON"]),
        ("FuzzURL", ["URLNormalization"]),
        ("FuzzRobots", ["RobotsExclusion"]),
        ("FuzzSitemap", ["Sitemaps"]),
        ("FuzzAASA", ["UniversalLinks"]),
        ("FuzzImage", ["ImageSniffing"]),
        // Retry-After, durations, clamped conversions, the scheduler on any numbers (issue 35).
        ("FuzzNumbers", ["CrawlScheduling", "NumericClamping", "SpotlightModel"]),
    ]
    package.targets.append(.target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"))
    package.targets.append(
        .target(
            name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/FuzzSupport", swiftSettings: strictSettings))
    for harness in harnesses {
        package.targets.append(
            .executableTarget(
                name: harness.name, dependencies: harness.dependencies + ["FuzzSupport"],
                path: "Fuzz/\(harness.name)", swiftSettings: strictSettings))
    }
}
