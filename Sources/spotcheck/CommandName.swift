import ArgumentParser

/// The first argument checked against the subcommands' names before ArgumentParser sees it:
/// `spotcheck crawll public` would otherwise say `2 unexpected arguments` (issue 31).
enum CommandName {
    /// What `spotcheck` takes as its first argument besides options.
    static var known: [String] {
        SpotCheck.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// Throws `ExitStatus.usage` (after saying so, with the closest name) when the first argument is
    /// neither an option nor a subcommand.
    static func check(_ arguments: [String]) throws(ExitStatus) {
        guard let first = arguments.first, !first.hasPrefix("-"), !known.contains(first) else { return }
        Console.log.error("\(message(for: first))")
        throw .usage
    }

    /// `unknown command "crawll"; did you mean "crawl"? …`: the closest name when it is at most
    /// a third of the name's letters (at least 1, at most 3) away, else the list.
    static func message(for name: String) -> String {
        let ranked = known.map { (name: $0, distance: editDistance(name.lowercased(), $0)) }
            .min { $0.distance < $1.distance }
        let limit = min(3, max(1, name.count / 3))
        let list = known.joined(separator: ", ")
        if let ranked, ranked.distance <= limit {
            return "unknown command \"\(name)\"; did you mean \"\(ranked.name)\"? (the commands: \(list))"
        }
        return "unknown command \"\(name)\"; the commands are \(list) (spotcheck help COMMAND says more)"
    }

    /// Levenshtein distance, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
