public import LenientJSON

extension SARIFLog {
    /// A SARIF log (as `json` writes it: one run, one result per finding, in order) with each
    /// result marked against a baseline: `baselineState` `"unchanged"` and an external
    /// `suppressions` entry (status `accepted`, naming the baseline file) for a known finding,
    /// `baselineState` `"new"` for the others. Viewers that honour suppressions (GitHub code
    /// scanning among them) then show only the new ones.
    public static func marking(_ log: JSONValue, known: [Bool], baselineFile: String?) -> JSONValue {
        guard var object = log.objectValue, var runs = object["runs"]?.arrayValue, var run = runs.first?.objectValue,
            let results = run["results"]?.arrayValue
        else { return log }
        let justification = "accepted in the baseline" + (baselineFile.map { " \($0)" } ?? "")
        let marked = results.enumerated().map { index, result -> JSONValue in
            guard var fields = result.objectValue else { return result }
            let isKnown = index < known.count && known[index]
            fields.set("baselineState", isKnown ? "unchanged" : "new")
            if isKnown {
                fields.set(
                    "suppressions",
                    [["kind": "external", "status": "accepted", "justification": .string(justification)]])
            }
            return .object(fields)
        }
        run.set("results", .array(marked))
        runs[0] = .object(run)
        object.set("runs", .array(runs))
        return .object(object)
    }
}
