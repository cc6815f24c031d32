import Foundation

/// Where a PostgreSQL database is and who logs in, read the way libpq reads it: a
/// `postgres://user:password@host:port/database` (or `postgresql://`) URL, whose missing parts come
/// from `PGUSER`, `PGHOST`, `PGPORT` and `PGDATABASE`, then libpq's defaults (the login name,
/// localhost, 5432, the user's name); the password from the URL, else `PGPASSWORD`, else the
/// password file (`PGPASSFILE` or `~/.pgpass`, lines `host:port:database:user:password` with `*`
/// wildcards, `\:` and `\\` escapes; ignored, as libpq does, when others may read it).
///
/// The password is never part of the description: `description` is the URL without it, for
/// messages, logs and reports.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var database: String
    /// Kept out of `description`, and out of every message the store makes.
    var password: String?
    /// libpq's `sslmode`, default `prefer`.
    public var tls: TLSMode
    /// `sslrootcert`: the certificate authorities `verify-ca` and `verify-full` trust (default: the system's).
    public var rootCertificate: String?
    /// Server settings for the session, from libpq's `options` (the URL's `options=`, else
    /// `PGOPTIONS`): `-c name=value` or `--name=value` each, e.g. `options=-csearch_path%3Dshop`
    /// keeps an index or a crawl in the `shop` schema.
    public var serverSettings: [String: String] = [:]

    /// libpq's `sslmode` values. `allow` and `prefer` try TLS and fall back to none; `require`
    /// insists on TLS without checking the certificate (as libpq does without a root
    /// certificate); `verify-ca` checks the chain, `verify-full` the chain and the host name.
    public enum TLSMode: String, Sendable, Hashable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// Whether `text` names a PostgreSQL database rather than a file.
    public static func isURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads a location. `environment` and `home` stand in for the process's (tests pass their own).
    public init(url text: String, environment: [String: String]? = nil, home: String? = nil)
        throws(PostgresStoreError)
    {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let home = home ?? NSHomeDirectory()
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw PostgresStoreError(
                location: Self.withoutPassword(text),
                message: "not a PostgreSQL URL; write postgres://user@host:port/database")
        }
        let query = components.queryItems ?? []
        let mode = query.first { $0.name == "sslmode" }?.value ?? environment["PGSSLMODE"] ?? "prefer"
        guard let tlsMode = TLSMode(rawValue: mode) else {
            throw PostgresStoreError(
                location: Self.withoutPassword(text),
                message: "sslmode=\(mode) is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        tls = tlsMode
        rootCertificate = query.first { $0.name == "sslrootcert" }?.value ?? environment["PGSSLROOTCERT"]
        if let options = query.first(where: { $0.name == "options" })?.value ?? environment["PGOPTIONS"] {
            guard let settings = Self.serverSettings(options) else {
                throw PostgresStoreError(
                    location: Self.withoutPassword(text),
                    message: "options=\(options): write server settings as -c name=value or --name=value")
            }
            serverSettings = settings
        }
        let systemUser = environment["USER"] ?? NSUserName()
        user =
            components.user.flatMap { $0.removingPercentEncoding }.flatMap(Self.nonEmpty)
            ?? environment["PGUSER"].flatMap(Self.nonEmpty) ?? systemUser
        host = components.host.flatMap(Self.nonEmpty) ?? environment["PGHOST"].flatMap(Self.nonEmpty) ?? "localhost"
        port = components.port ?? environment["PGPORT"].flatMap { Int($0) } ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database =
            path.removingPercentEncoding.flatMap(Self.nonEmpty)
            ?? environment["PGDATABASE"].flatMap(Self.nonEmpty) ?? user
        password =
            components.password.flatMap { $0.removingPercentEncoding }
            ?? environment["PGPASSWORD"]
            ?? Self.passwordFromFile(
                environment["PGPASSFILE"] ?? (home as NSString).appendingPathComponent(".pgpass"), host: host,
                port: port, database: database, user: user)
    }

    /// `postgres://user@host:port/database`: no password, ever.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        // Percent-encoded, so the URL shown reads back as the same location.
        let safe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_.~="))
        let options = serverSettings.sorted { $0.key < $1.key }.map {
            ("-c\($0.key)=" + $0.value.replacingOccurrences(of: " ", with: "\\ "))
                .addingPercentEncoding(withAllowedCharacters: safe) ?? ""
        }
        return "postgres://\(user)@\(shownHost):\(port)/\(database)"
            + (options.isEmpty ? "" : "?options=" + options.joined(separator: "%20"))
    }

    /// libpq's `options` as name-value pairs: `-c name=value`, `-cname=value` or `--name=value`,
    /// separated by spaces (a backslash keeps the next character, a space included); nil for
    /// anything else.
    static func serverSettings(_ options: String) -> [String: String]? {
        var words: [String] = []
        var current = ""
        var escaped = false
        for character in options {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        var settings: [String: String] = [:]
        var index = 0
        while index < words.count {
            var setting = words[index]
            if setting == "-c", index + 1 < words.count {
                index += 1
                setting = words[index]
            } else if setting.hasPrefix("--") {
                setting.removeFirst(2)
            } else if setting.hasPrefix("-c") {
                setting.removeFirst(2)
            } else {
                return nil
            }
            guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else { return nil }
            settings[String(setting[..<equals])] = String(setting[setting.index(after: equals)...])
            index += 1
        }
        return settings
    }

    /// `text` with the password part of its authority replaced by `***` (for messages about a
    /// URL that could not be read).
    static func withoutPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
            let colon = rest[..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<rest.index(after: colon)]) + "***" + String(rest[at...])
    }

    /// The password of the first matching line of a libpq password file, if the file exists and
    /// only its owner may read it.
    static func passwordFromFile(_ path: String, host: String, port: Int, database: String, user: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let permissions = attributes[.posixPermissions] as? Int, permissions & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        let wanted = [host, String(port), database, user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.passwordFileFields(line)
            guard fields.count == 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// A password-file line split on unescaped colons, with `\:` and `\\` unescaped.
    static func passwordFileFields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
