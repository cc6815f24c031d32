/// An AASA pattern compiled to a nondeterministic automaton over Unicode scalars (§3.4):
/// `*` zero or more characters, `?` exactly one, `?*` therefore one or more, and `$(name)` substitution variables
/// (custom values, which may hold `?`/`*`, or the predefined classes and code lists). Matching simulates the
/// automaton on the whole input, so time is O(input × pattern) whatever the pattern (no backtracking blow-up).
struct GlobPattern: Sendable {
    private enum Edge: Sendable {
        case scalar(Unicode.Scalar)
        case any
        case characterClass(CharacterClass)
        case scalarSet(Set<Unicode.Scalar>)

        func accepts(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .scalar(let expected): expected == scalar
            case .any: true
            case .characterClass(let characterClass): characterClass.contains(scalar)
            case .scalarSet(let set): set.contains(scalar)
            }
        }
    }

    /// Two-letter codes (`$(region)`, `$(lang)`) as first letter → possible second letters, so that a code
    /// list compiles to at most 26 states instead of one branch per code.
    struct CodeTable: Sendable {
        let exact: [(first: Unicode.Scalar, seconds: Set<Unicode.Scalar>)]
        let folded: [(first: Unicode.Scalar, seconds: Set<Unicode.Scalar>)]

        init(_ codes: [String]) {
            func table(_ codes: [String]) -> [(first: Unicode.Scalar, seconds: Set<Unicode.Scalar>)] {
                var seconds: [Unicode.Scalar: Set<Unicode.Scalar>] = [:]
                for code in codes {
                    let scalars = Array(code.unicodeScalars)
                    guard scalars.count == 2 else { continue }
                    seconds[scalars[0], default: []].insert(scalars[1])
                }
                return seconds.keys.sorted().map { (first: $0, seconds: seconds[$0] ?? []) }
            }
            exact = table(codes)
            folded = table(codes.map(GlobPattern.fold))
        }

        static let regions = CodeTable(ISOCodes.regions)
        static let languages = CodeTable(ISOCodes.languages)
    }

    private struct State: Sendable {
        var edges: [(edge: Edge, target: Int)] = []
        var epsilons: [Int] = []
    }

    /// The single-character predefined variables.
    enum CharacterClass: String, Sendable, CaseIterable {
        case alpha, upper, lower, alnum, digit, xdigit

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            let isUpper = ("A"..."Z").contains(scalar)
            let isLower = ("a"..."z").contains(scalar)
            let isDigit = ("0"..."9").contains(scalar)
            switch self {
            case .alpha: return isUpper || isLower
            case .upper: return isUpper
            case .lower: return isLower
            case .alnum: return isUpper || isLower || isDigit
            case .digit: return isDigit
            case .xdigit: return isDigit || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
            }
        }
    }

    /// Names of the predefined variables.
    static let predefinedNames: Set<String> = Set(CharacterClass.allCases.map(\.rawValue)).union(["region", "lang"])

    private var states: [State] = [State()]
    private var accepting = 0

    /// Compiles `pattern`. `variables` maps custom names to their values (custom names win over predefined
    /// ones); `$(name)` with an unknown name can match nothing. With `foldCase` the pattern, the variable values
    /// and the predefined classes are folded to lower case; inputs must then be folded with ``fold(_:)``.
    /// Without `expandingVariables`, `$(` is literal (legacy `paths`).
    init(_ pattern: String, variables: [String: [String]] = [:], foldCase: Bool, expandingVariables: Bool = true) {
        var end = 0
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if expandingVariables, scalars[index] == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                let close = scalars[(index + 2)...].firstIndex(of: ")")
            {
                let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                end = appendVariable(name, from: end, variables: variables, foldCase: foldCase)
                index = close + 1
                continue
            }
            // `**` is `*`: collapsing runs keeps hostile patterns such as 100 000 stars linear.
            if scalars[index] != "*" || index == 0 || scalars[index - 1] != "*" {
                end = appendSimple(scalars[index], from: end, foldCase: foldCase)
            }
            index += 1
        }
        accepting = end
    }

    /// Lower-cases each scalar on its own (the folding used for patterns and inputs alike).
    static func fold(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            output.append(contentsOf: foldedScalars(scalar))
        }
        return String(output)
    }

    private static func foldedScalars(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if scalar.isASCII {
            return [("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar]
        }
        return Array(scalar.properties.lowercaseMapping.unicodeScalars)
    }

    private mutating func newState() -> Int {
        states.append(State())
        return states.count - 1
    }

    /// `*`, `?` or a literal scalar.
    private mutating func appendSimple(_ scalar: Unicode.Scalar, from start: Int, foldCase: Bool) -> Int {
        switch scalar {
        case "*":
            let loop = newState()
            states[start].epsilons.append(loop)
            states[loop].edges.append((.any, loop))
            return loop
        case "?":
            let next = newState()
            states[start].edges.append((.any, next))
            return next
        default:
            var current = start
            for literal in foldCase ? Self.foldedScalars(scalar) : [scalar] {
                let next = newState()
                states[current].edges.append((.scalar(literal), next))
                current = next
            }
            return current
        }
    }

    private mutating func appendVariable(
        _ name: String, from start: Int, variables: [String: [String]], foldCase: Bool
    ) -> Int {
        let alternatives: [String]
        if let values = variables[name] {
            alternatives = values
        } else if let characterClass = CharacterClass(rawValue: name) {
            let effective: CharacterClass =
                foldCase && (characterClass == .upper || characterClass == .lower) ? .alpha : characterClass
            let next = newState()
            states[start].edges.append((.characterClass(effective), next))
            return next
        } else if name == "region" || name == "lang" {
            let table = name == "region" ? CodeTable.regions : CodeTable.languages
            let join = newState()
            for (first, seconds) in foldCase ? table.folded : table.exact {
                let middle = newState()
                states[start].edges.append((.scalar(first), middle))
                states[middle].edges.append((.scalarSet(seconds), join))
            }
            return join
        } else {
            // Undefined: a dead end, so the pattern matches nothing (UL017 reports it).
            return newState()
        }
        let join = newState()
        for alternative in alternatives {
            let branch = newState()
            states[start].epsilons.append(branch)
            var end = branch
            for scalar in alternative.unicodeScalars {
                end = appendSimple(scalar, from: end, foldCase: foldCase)
            }
            states[end].epsilons.append(join)
        }
        return join
    }

    /// Whether the whole of `input` matches.
    func matches(_ input: String) -> Bool {
        var marks = [Int](repeating: -1, count: states.count)
        var current: [Int] = []
        var generation = 0
        addClosure(of: 0, to: &current, marks: &marks, generation: generation)
        for scalar in input.unicodeScalars {
            generation += 1
            var next: [Int] = []
            for state in current {
                for (edge, target) in states[state].edges where edge.accepts(scalar) {
                    addClosure(of: target, to: &next, marks: &marks, generation: generation)
                }
            }
            if next.isEmpty {
                return false
            }
            current = next
        }
        return current.contains(accepting)
    }

    private func addClosure(of state: Int, to set: inout [Int], marks: inout [Int], generation: Int) {
        guard marks[state] != generation else { return }
        var pending = [state]
        marks[state] = generation
        while let next = pending.popLast() {
            set.append(next)
            for target in states[next].epsilons where marks[target] != generation {
                marks[target] = generation
                pending.append(target)
            }
        }
    }
}
