import Foundation
import SpotCheckTestSupport
import Testing

@testable import PostgresStorage

/// How `--store postgres://…` is read: libpq's URL, environment and password file conventions.
@Suite("PostgreSQL locations")
struct PostgresLocationTests {
    @Test func theURLNamesEveryPartAndTheDescriptionNeverShowsThePassword() throws {
        let location = try PostgresLocation(
            url: "postgres://crawler:s%3Acret@db.example.com:6543/spot%20check", environment: [:], home: "/nonexistent")
        #expect(location.user == "crawler")
        #expect(location.password == "s:cret")
        #expect(location.host == "db.example.com")
        #expect(location.port == 6543)
        #expect(location.database == "spot check")
        #expect(location.description == "postgres://crawler@db.example.com:6543/spot check")
        #expect(!location.description.contains("cret"))
        #expect(location.tls == .prefer)
    }

    @Test func missingPartsComeFromTheEnvironmentThenLibpqsDefaults() throws {
        let fromEnvironment = try PostgresLocation(
            url: "postgresql://",
            environment: [
                "PGUSER": "ci", "PGHOST": "10.0.0.5", "PGPORT": "6000",
                "PGDATABASE": "crawls", "PGPASSWORD": "from-env", "USER": "login",
            ], home: "/nonexistent")
        #expect(fromEnvironment.description == "postgres://ci@10.0.0.5:6000/crawls")
        #expect(fromEnvironment.password == "from-env")
        let defaults = try PostgresLocation(url: "postgres://", environment: ["USER": "login"], home: "/nonexistent")
        #expect(defaults.description == "postgres://login@localhost:5432/login")
        #expect(defaults.password == nil)
    }

    @Test func thePasswordFileIsReadLikeLibpqAndIgnoredWhenOthersMayReadIt() throws {
        let folder = Scratch.path("pgpass")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/.pgpass"
        try """
        # comment
        other.example.com:5432:*:crawler:wrong
        db.example.com:5432:spot:crawler:pa\\:ss\\\\word
        *:*:*:*:fallback
        """.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let location = try PostgresLocation(
            url: "postgres://crawler@db.example.com/spot", environment: [:], home: folder)
        #expect(location.password == "pa:ss\\word")
        let elsewhere = try PostgresLocation(url: "postgres://x@h/db", environment: [:], home: folder)
        #expect(elsewhere.password == "fallback")
        // PGPASSWORD comes before the file, the URL before both.
        let fromEnvironment = try PostgresLocation(
            url: "postgres://crawler@db.example.com/spot", environment: ["PGPASSWORD": "env"], home: folder)
        #expect(fromEnvironment.password == "env")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let readable = try PostgresLocation(
            url: "postgres://crawler@db.example.com/spot", environment: [:], home: folder)
        #expect(readable.password == nil)
    }

    @Test(arguments: [
        ("postgres://u:secret@h:1/d", "postgres://u:***@h:1/d"),
        ("postgres://u@h/d", "postgres://u@h/d"),
        ("postgres://u:p@ss@h/d", "postgres://u:***@h/d"),
    ])
    func aURLThatCannotBeReadIsShownWithoutItsPassword(url: String, shown: String) {
        #expect(PostgresLocation.withoutPassword(url) == shown)
    }

    @Test(
        "libpq's options become server settings, and the description reads back as the same location",
        arguments: [
            ("options=-csearch_path%3Dshop", ["search_path": "shop"]),
            (
                "options=-c%20search_path%3Dshop%20--statement_timeout%3D5s",
                ["search_path": "shop", "statement_timeout": "5s"]
            ),
            ("options=-capplication_name%3Da%5C%20b", ["application_name": "a b"]),
        ] as [(String, [String: String])])
    func serverSettings(query: String, expected: [String: String]) throws {
        let location = try PostgresLocation(
            url: "postgres://u:secret@h:5/d?" + query, environment: [:], home: "/nonexistent")
        #expect(location.serverSettings == expected)
        let again = try PostgresLocation(url: location.description, environment: [:], home: "/nonexistent")
        #expect(again.serverSettings == expected)
        #expect(!location.description.contains("secret"))
        #expect(PostgresSchema.firstSchema(of: location) == expected["search_path"])
    }

    @Test func optionsThatAreNotServerSettingsAreAClearError() {
        #expect(throws: PostgresStoreError.self) {
            try PostgresLocation(url: "postgres://h/d?options=-x", environment: [:], home: "/nonexistent")
        }
        #expect(PostgresLocation.serverSettings("-c") == nil)
        #expect(PostgresLocation.serverSettings("-c =x") == nil)
    }

    @Test func anUnknownSSLModeOrANonPostgresURLIsAClearError() {
        #expect(throws: PostgresStoreError.self) {
            try PostgresLocation(url: "postgres://u:secret@h/d?sslmode=sometimes", environment: [:], home: "/")
        }
        do {
            _ = try PostgresLocation(url: "mysql://u:secret@h/d", environment: [:], home: "/")
            Issue.record("a mysql URL was accepted")
        } catch {
            #expect(!error.description.contains("secret"))
            #expect(error.description.contains("not a PostgreSQL URL"))
        }
        #expect(PostgresLocation.isURL("POSTGRESQL://h/d"))
        #expect(!PostgresLocation.isURL("reports/crawl.sqlite"))
    }
}
