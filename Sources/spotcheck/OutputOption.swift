import ArgumentParser

/// `--output`'s value, checked before anything runs.
enum OutputOption {
    /// `-o -` would make a folder named `-` (the convention reads it as standard output, which a
    /// folder of report files cannot be), so it is refused (issue 31).
    static func check(_ output: String?) throws(ValidationError) {
        guard output == "-" else { return }
        throw ValidationError(
            "--output -: the reports are a folder of files (report.json and the --format files), not one stream "
                + "for standard output; name a folder, e.g. --output reports/site (or ./- for a folder named -)")
    }
}
