/// What `crawl` accepts for each setting, checked both where options are parsed and where a
/// store's `settings_json` is read back (`--resume`, `report`, workers): a tampered store must
/// not run a crawl no command line could start (concurrency 0 fetches nothing and still ends
/// "finished"; a timeout of 1e300 traps where it becomes milliseconds; issue 35).
extension CrawlSettings {
    /// The largest values in seconds: a wait longer than these is a mistake or a tampered store.
    public enum Limit {
        /// `--timeout`, per request.
        public static let longestTimeout = 3600
        /// `--delay` between two requests to one host (the scheduler waits at most 300 s anyway).
        public static let longestDelay = 3600
        /// `--robots-retry`: a day.
        public static let longestRobotsRetry = 86_400
        /// `--max-body`: the least bytes kept per response.
        public static let leastBodyBytes = 1024
    }

    /// A stored setting no option would have let through: its key in `settings_json`, the value
    /// and what it must be.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var key: String
        public var value: String
        public var expected: String

        public var description: String { "\(key) \(value): \(expected)" }
    }

    /// The first setting out of range, nil when all are as an option would leave them.
    public func problem() -> Problem? {
        func seconds(_ key: String, _ value: Double, least: Double, strictly: Bool, most: Int) -> Problem? {
            // Written `!(…)` so that NaN, which fails every comparison, is refused too.
            let inRange = (strictly ? value > least : value >= least) && value <= Double(most)
            return inRange
                ? nil
                : Problem(
                    key: key, value: "\(value)",
                    expected: "must be \(strictly ? "more than" : "at least") \(least) and at most \(most) seconds")
        }
        func atLeast(_ key: String, _ value: Int, _ least: Int) -> Problem? {
            value >= least ? nil : Problem(key: key, value: "\(value)", expected: "must be at least \(least)")
        }
        let checks: [Problem?] = [
            atLeast("concurrency", concurrency, 1),
            atLeast("perHost", perHost, 1),
            seconds("delay", delay, least: 0, strictly: false, most: Limit.longestDelay),
            atLeast("maximumDepth", maximumDepth, 0),
            atLeast("maximumPages", maximumPages, 1),
            atLeast("maximumBodyBytes", maximumBodyBytes, Limit.leastBodyBytes),
            seconds("timeout", timeout, least: 0, strictly: true, most: Limit.longestTimeout),
            atLeast("maximumRedirects", maximumRedirects, 0),
            atLeast("maximumAttempts", maximumAttempts, 1),
            robotsRetryWait.flatMap {
                seconds("robotsRetryWait", $0, least: 0, strictly: false, most: Limit.longestRobotsRetry)
            },
            maximumImages.flatMap { atLeast("maximumImages", $0, 0) },
            render.flatMap { atLeast("render.concurrency", $0.concurrency, 1) },
            render.flatMap { seconds("render.timeout", $0.timeout, least: 0, strictly: true, most: 3600) },
        ]
        return checks.lazy.compactMap { $0 }.first
    }
}
