import ArgumentParser
import Foundation
import LenientJSON
import PostgresStorage
import SpotlightIndex
import SpotlightModel

/// `spotcheck index …`: the local index with Core Spotlight semantics (docs/index.md).
struct Index: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "The local index: Core Spotlight items and activities in an SQLite file or PostgreSQL, searchable.",
        discussion: """
            Every subcommand takes --index FILE (default spotcheck.sqlite in the working directory) or --index postgres://user@host:port/db. \
            show exits 1 when there is no such item; import exits 3 when the file cannot be read or is \
            not JSON, or some records were skipped (the valid ones were imported); export -o exits 5 \
            when the file cannot be written.

            \(ExitStatus.help([
                .success, .verdictNegative, .inputUnreadable, .outputNotWritable, .databaseUnusable, .databaseFailed,
                .usage,
            ]))
            """,
        subcommands: [
            Import.self, List.self, Show.self, Delete.self, Export.self, Stats.self, ReindexDue.self, Search.self,
        ]
    )

    /// `--index FILE|URL`, shared by every subcommand.
    struct IndexOption: ParsableArguments {
        @Option(
            name: .customLong("index"),
            help: ArgumentHelp(
                "The index: an SQLite file, or a PostgreSQL database (postgres://user@host:port/db).",
                valueName: "file|url"))
        var location = "spotcheck.sqlite"

        /// Opens the index; `create` false refuses a file that does not exist (a typo would
        /// otherwise leave an empty index behind). A database is always created or migrated.
        func open(create: Bool = false) throws -> LocalIndex {
            do {
                return try LocalIndex.open(location, create: create)
            } catch {
                throw Index.exit(for: error)
            }
        }
    }

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    static func fail(_ message: String) {
        Console.log.error("\(message)")
    }

    static func warn(_ message: String) {
        Console.log.notice("\(message)")
    }

    /// Reports an index error on stderr and returns its exit code.
    static func exit(for error: LocalIndexError) -> ExitStatus {
        fail(error.description)
        switch error.kind {
        case .cannotOpen, .fullTextSearchUnavailable: return ExitStatus.databaseUnusable
        case .invalidClientState, .batchingUnsupported: return ExitStatus.usage
        case .invalidItem, .databaseFailure: return ExitStatus.databaseFailed
        }
    }

    /// Runs `body`, turning index errors into their exit codes.
    static func guarded<T>(_ body: () throws(LocalIndexError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw exit(for: error)
        }
    }

    // MARK: - import

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import items and activities from a JSON array or JSON Lines file, in one transaction.",
            discussion: """
                Records: searchable items, {"activity": {…}} and {"clientState": "…", "indexName": "…"} \
                (DESIGN.md, "Local items"). Invalid records are reported with their position (record [i] \
                of an array, line n of JSON Lines) and skipped; the valid ones are imported in one \
                transaction, so an interrupted import leaves the index as it was. Activities are applied \
                after the items, so their related items may come later in the file. Exit 3 when some \
                records were skipped.
                """)

        @OptionGroup var index: IndexOption

        @Argument(help: "The file: a JSON array or JSON Lines.")
        var file: String

        @Option(help: "The named index to import into, as one batch (client states need one).")
        var name: String?

        @Option(help: "The client state to record for --name when the import commits (< 250 bytes).")
        var clientState: String?

        func validate() throws {
            if let name, name.isEmpty { throw ValidationError("--name must not be empty") }
            if let clientState {
                guard name != nil else {
                    throw ValidationError("--client-state needs --name: the default index keeps no client state")
                }
                let bytes = clientState.utf8.count
                if bytes > maximumClientStateBytes {
                    throw ValidationError("--client-state is \(bytes) bytes; Core Spotlight takes less than 250")
                }
            }
        }

        func run() throws {
            let localIndex = try index.open(create: true)
            let result: FileImport
            do {
                result = try localIndex.importFile(file, index: name, clientState: clientState.map { Array($0.utf8) })
            } catch {
                switch error {
                case .unreadableFile(let problem):
                    Index.fail(problem.description)
                    throw ExitStatus.inputUnreadable
                case .index(let problem): throw Index.exit(for: problem)
                }
            }
            for problem in result.skipped { Index.warn("\(file): \(problem) (skipped)") }
            for (position, identifier) in result.ignoredUpdates {
                Index.warn(
                    "\(file): \(position): isUpdate for \"\(identifier)\", which is not indexed: ignored, as Core Spotlight does (AS014)"
                )
            }
            let report = result.report
            print(
                "\(file) (\(result.format.rawValue)): \(report.itemsIndexed) items indexed, \(report.itemsUpdated) updated, "
                    + "\(report.activitiesIndexed) activities indexed; \(result.skipped.count) records skipped; "
                    + "into \(localIndex.location)")
            if !result.skipped.isEmpty { throw ExitStatus.inputUnreadable }
        }
    }

    // MARK: - list

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the live items (identifier, domain, title, expiry), then the activities.")

        @OptionGroup var index: IndexOption

        func run() throws {
            let localIndex = try index.open()
            let output = StandardOutput()
            defer { output.flush() }
            try Index.guarded { () throws(LocalIndexError) in
                try localIndex.forEachItem { items in
                    for indexed in items {
                        let item = indexed.item
                        output.write(
                            "\(item.uniqueIdentifier)\t\(item.domainIdentifier ?? "-")\t\(item.attributeSet.title ?? "")\t"
                                + "expires \(SpotlightDate(utcSeconds: indexed.expiresAt).text)\n")
                    }
                }
                for activity in try localIndex.activities() {
                    let record = activity.record.activity
                    let link =
                        record.contentAttributeSet?.relatedUniqueIdentifier.map { "related \($0)" }
                        ?? record.webpageURL ?? "-"
                    output.write(
                        "activity \(record.activityType)\t\(link)\t\(record.title ?? "")\t"
                            + "expires \(SpotlightDate(utcSeconds: activity.expiresAt).text)\n")
                }
            }
        }
    }

    // MARK: - show

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one item as JSON, with its index times and related activities (exit 1 if absent).")

        @OptionGroup var index: IndexOption

        @Argument(help: "The item's uniqueIdentifier.")
        var identifier: String

        func run() throws {
            let localIndex = try index.open()
            let (item, activities) = try Index.guarded { () throws(LocalIndexError) in
                (try localIndex.item(identifier: identifier), try localIndex.activities(relatedTo: identifier))
            }
            guard let item else {
                Index.fail("\(identifier): no such item in \(localIndex.location) (or it has expired)")
                throw ExitStatus.verdictNegative
            }
            var object = item.item.json
            object.append("indexedAt", .string(SpotlightDate(utcSeconds: item.indexedAt).text))
            object.append("expiresAt", .string(SpotlightDate(utcSeconds: item.expiresAt).text))
            object.append("relatedActivities", .array(activities.map { .object($0.record.json) }))
            print(JSONValue.object(object).serialized(pretty: true))
        }
    }

    // MARK: - delete

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete items by identifier, by domain (sub-domains included), or everything.",
            discussion: """
                --domain a deletes the domains a, a.b, a.b.c …, not ab. Deleting an item deletes the \
                activities related to it. --all also clears every named index's client state.
                """)

        @OptionGroup var index: IndexOption

        @Option(name: .customLong("id"), parsing: .singleValue, help: "An item's uniqueIdentifier (repeatable).")
        var identifiers: [String] = []

        @Option(name: .customLong("domain"), parsing: .singleValue, help: "A domain identifier (repeatable).")
        var domains: [String] = []

        @Flag(help: "Delete every item and activity and every client state.")
        var all = false

        func validate() throws {
            if all, !identifiers.isEmpty || !domains.isEmpty {
                throw ValidationError("--all deletes everything; give it alone")
            }
            if !all, identifiers.isEmpty, domains.isEmpty {
                throw ValidationError("say what to delete: --id ID, --domain DOMAIN or --all")
            }
            if domains.contains("") { throw ValidationError("--domain must not be empty") }
        }

        func run() throws {
            let localIndex = try index.open()
            let report = try Index.guarded { () throws(LocalIndexError) in
                try localIndex.write("delete") { writer in
                    if all { try writer.deleteAll() }
                    try writer.deleteItems(identifiers: identifiers)
                    try writer.deleteItems(domainIdentifiers: domains)
                    return writer.report
                }
            }
            print(
                "\(report.itemsDeleted) items and \(report.activitiesDeleted) activities deleted from \(index.location)"
                    + (all ? "; client states cleared" : ""))
        }
    }

    // MARK: - export

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the live items, activities and client states as JSON Lines that import reads.",
            discussion: """
                Items keep their expiration: one defaulted at indexing is written out, so a re-import \
                expires at the same time.
                """)

        @OptionGroup var index: IndexOption

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
        var output: String?

        func run() throws {
            let localIndex = try index.open()
            var lines: [UInt8] = []
            let standardOutput = StandardOutput()
            var file: FileHandle?
            if let output {
                guard FileManager.default.createFile(atPath: output, contents: nil),
                    let handle = FileHandle(forWritingAtPath: output)
                else {
                    Index.fail("\(output): cannot be written")
                    throw ExitStatus.outputNotWritable
                }
                file = handle
            }
            func emit(_ object: JSONObject, force: Bool = false) {
                if !object.isEmpty {
                    JSONValue.object(object).write(into: &lines)
                    lines.append(0x0A)
                }
                guard force || lines.count > 1 << 20 else { return }
                if let file {
                    file.write(Data(lines))
                } else {
                    standardOutput.write(String(decoding: lines, as: UTF8.self))
                }
                lines.removeAll(keepingCapacity: true)
            }
            try Index.guarded { () throws(LocalIndexError) in
                try localIndex.forEachRecord { record in emit(record.json) }
            }
            emit(JSONObject(), force: true)
            standardOutput.flush()
            try? file?.close()
        }
    }

    // MARK: - stats

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats", abstract: "Counts: items, activities, domains, file size.")

        @OptionGroup var index: IndexOption

        @Option(help: "text or json.")
        var format: OutputFormat = .text

        func run() throws {
            let localIndex = try index.open()
            let statistics = try Index.guarded { () throws(LocalIndexError) in try localIndex.statistics() }
            func counts(_ dictionary: [String: Int]) -> JSONValue {
                .object(JSONObject(dictionary.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) }))
            }
            let states = statistics.clientStates.sorted { $0.key < $1.key }
            switch format {
            case .json:
                let object: JSONObject = [
                    "items": JSONValue(statistics.items), "expiredItems": JSONValue(statistics.expiredItems),
                    "activities": JSONValue(statistics.activities),
                    "expiredActivities": JSONValue(statistics.expiredActivities),
                    "itemsByDomain": counts(statistics.itemsByDomain),
                    "itemsByContentType": counts(statistics.itemsByContentType),
                    "clientStates": .object(
                        JSONObject(states.map { ($0.key, .string(String(decoding: $0.value, as: UTF8.self))) })),
                    "fileBytes": JSONValue(Int(statistics.fileBytes)),
                ]
                print(JSONValue.object(object).serialized(pretty: true))
            case .text:
                print("\(localIndex.location): \(statistics.fileBytes) bytes")
                print("items: \(statistics.items) (\(statistics.expiredItems) expired, not counted)")
                print("activities: \(statistics.activities) (\(statistics.expiredActivities) expired, not counted)")
                for (domain, count) in statistics.itemsByDomain.sorted(by: { $0.key < $1.key }) {
                    print("  domain \(domain.isEmpty ? "(none)" : domain): \(count)")
                }
                for (type, count) in statistics.itemsByContentType.sorted(by: { $0.key < $1.key }) {
                    print("  type \(type.isEmpty ? "(none)" : type): \(count)")
                }
                for (name, state) in states {
                    print("client state of \(name): \(String(decoding: state, as: UTF8.self))")
                }
            }
        }
    }

    // MARK: - reindex-due

    struct ReindexDue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reindex-due",
            abstract: "List the items expiring within a window: what an index delegate would be asked to re-index.")

        @OptionGroup var index: IndexOption

        @Option(help: "The window: a number with s, m, h, d or w (7d, 36h); plain seconds otherwise.")
        var within: String = "7d"

        func validate() throws {
            if Self.seconds(within) == nil {
                throw ValidationError("--within takes a duration such as 7d, 36h, 90m or 3600")
            }
        }

        static func seconds(_ text: String) -> Double? {
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
            // `inf`, `nan` and `1e400` read as numbers; a window must be a finite one.
            if let last = text.last, let unit = units[last], let value = Double(text.dropLast()), value >= 0,
                (value * unit).isFinite
            {
                return value * unit
            }
            if let value = Double(text), value >= 0, value.isFinite { return value }
            return nil
        }

        func run() throws {
            let localIndex = try index.open()
            let window = Self.seconds(within) ?? 0
            let due = try Index.guarded { () throws(LocalIndexError) in try localIndex.reindexDue(within: window) }
            for item in due {
                print("\(SpotlightDate(utcSeconds: item.expiresAt).text)\t\(item.item.uniqueIdentifier)")
            }
        }
    }

    // MARK: - search

    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Full-text search over titles, display names, descriptions and keywords.",
            discussion: """
                Every word must match; the last one also as a prefix (type-ahead) unless --no-prefix. \
                Punctuation and FTS5 operators in the query are plain separators. Results are ranked \
                by bm25 (weights: title 10, display name 6, keywords 4, description 2) times \
                1 + rankingHint/100; an item and its activities are one result. In an SQLite index, \
                a search matching more than 500 ranks the 500 with the highest rankingHint (then the \
                oldest), unless --limit asks for 500 or more.
                """)

        @OptionGroup var index: IndexOption

        @Argument(help: "The query.")
        var query: String

        @Option(help: "Only this domain and its sub-domains.")
        var domain: String?

        @Option(name: .customLong("type"), help: "Only this content type (a UTI such as public.movie).")
        var contentType: String?

        @Option(parsing: .unconditional, help: "At most this many results.")
        var limit = 20

        @Flag(help: "Match whole words only (no type-ahead prefix on the last word).")
        var noPrefix = false

        @Option(help: "text or json.")
        var format: OutputFormat = .text

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() throws {
            let localIndex = try index.open()
            let search = SearchQuery(
                query, domainIdentifier: domain, contentType: contentType, limit: limit,
                prefixMatchesLastWord: !noPrefix)
            let results = try Index.guarded { () throws(LocalIndexError) in try localIndex.search(search) }
            switch format {
            case .json:
                let array = results.map { result -> JSONValue in
                    var object = JSONObject()
                    func put(_ key: String, _ value: String?) { if let value { object.append(key, .string(value)) } }
                    put("uniqueIdentifier", result.uniqueIdentifier)
                    put("title", result.title)
                    put("displayName", result.displayName)
                    put("contentDescription", result.contentDescription)
                    put("domainIdentifier", result.domainIdentifier)
                    put("contentType", result.contentType)
                    put("url", result.url)
                    if let hint = result.rankingHint { object.append("rankingHint", JSONValue(hint)) }
                    object.append("score", JSONValue(result.score))
                    object.append("isItem", .bool(result.isItem))
                    object.append("activityTypes", .array(result.activityTypes.map(JSONValue.string)))
                    return .object(object)
                }
                print(JSONValue.array(array).serialized(pretty: true))
            case .text:
                for (rank, result) in results.enumerated() {
                    let what = result.uniqueIdentifier ?? "activity \(result.activityTypes.first ?? "")"
                    let extras = [result.domainIdentifier, result.contentType].compactMap { $0 }.joined(separator: ", ")
                    let score = (result.score * 1000).rounded() / 1000
                    print(
                        "\(rank + 1). \(result.title ?? "(untitled)") — \(what)\(extras.isEmpty ? "" : " (\(extras))") [\(score)]"
                    )
                }
                if results.isEmpty { print("no results") }
            }
        }
    }
}
