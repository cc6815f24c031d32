extension HTMLReport {
    /// "Changes since the baseline" (`crawl --baseline OLD`): pages added and removed, findings
    /// fixed and new, attribute-set fields changed, candidates gained and lost. Every value is
    /// escaped; nothing of it becomes a link.
    func baselineSection(_ diff: ReportDiff) -> String {
        var html = "<section id=\"baseline\">\n<h2>Changes since the baseline</h2>\n"
        if diff.isEmpty { return html + "<p>No differences.</p>\n</section>\n" }
        func list(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            html += "<h3>\(title.htmlEscaped) (\(items.count))</h3>\n<ul>\n"
            for item in items.prefix(coverageListLimit) { html += "<li>\(item.htmlEscaped)</li>\n" }
            if items.count > coverageListLimit {
                html +=
                    "<li class=\"muted\">and \(items.count - coverageListLimit) more (report.json has them all)</li>\n"
            }
            html += "</ul>\n"
        }
        list("Findings fixed", diff.findingsFixed.map { "\($0.rule) \($0.url)" })
        list("New findings", diff.findingsNew.map { "\($0.rule) \($0.url)" })
        list("Candidates gained", diff.candidatesGained)
        list("Candidates lost", diff.candidatesLost)
        list("Pages added", diff.pagesAdded)
        list("Pages removed", diff.pagesRemoved)
        list(
            "Attribute-set fields changed",
            diff.fieldsChanged.map {
                "\($0.url) \($0.field): \($0.old?.serialized(pretty: false) ?? "(none)") → \($0.new?.serialized(pretty: false) ?? "(none)")"
            })
        return html + "</section>\n"
    }
}
