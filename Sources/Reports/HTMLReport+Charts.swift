/// Inline SVG charts for the overview: horizontal bars and a response-time histogram. Colours
/// come from the report's style sheet through classes; labels are escaped.
enum SVGChart {
    struct Bar: Sendable, Hashable {
        let label: String
        let value: Int
        /// A class naming the colour: error, warning, info, rule, status.
        let kind: String
        /// At most this many characters of the label are written beside the bar (cut with `…`);
        /// the bar's tooltip has it whole.
        var shortLabel: Int?

        var shownLabel: String {
            guard let shortLabel, label.count > shortLabel else { return label }
            return label.prefix(shortLabel - 1) + "\u{2026}"
        }
    }

    static let width = 520
    static let rowHeight = 20
    static let labelWidth = 150
    /// The findings-by-rule chart spans the page, its labels carrying the rules' titles.
    static let wideWidth = 1080
    static let wideLabelWidth = 600

    /// One labelled horizontal bar per item, scaled to the largest value.
    static func bars(_ bars: [Bar], width: Int = width, labelWidth: Int = labelWidth) -> String {
        guard !bars.isEmpty else { return "<p class=\"muted\">nothing to show</p>" }
        let largest = max(bars.map(\.value).max() ?? 1, 1)
        let plot = width - labelWidth - 50
        let height = bars.count * rowHeight + 4
        var svg =
            "<svg class=\"bars\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\""
        svg += " aria-label=\"\(bars.map { "\($0.label) \($0.value)" }.joined(separator: ", ").htmlEscaped)\">"
        for (row, bar) in bars.enumerated() {
            let y = row * rowHeight + 2
            let length = bar.value == 0 ? 0 : max(2, bar.value * plot / largest)
            svg +=
                "<text x=\"\(labelWidth - 6)\" y=\"\(y + 14)\" text-anchor=\"end\">\(bar.shownLabel.htmlEscaped)</text>"
            svg +=
                "<rect class=\"\(bar.kind.htmlEscaped)\" x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(length)\" height=\"\(rowHeight - 5)\" rx=\"2\">"
            svg += "<title>\(bar.label.htmlEscaped): \(bar.value)</title></rect>"
            svg += "<text x=\"\(labelWidth + length + 5)\" y=\"\(y + 14)\">\(bar.value)</text>"
        }
        return svg + "</svg>"
    }

    /// Vertical bars, one per response-time bin, with the bin's upper bound below.
    static func histogram(_ bins: ResponseTimeBins) -> String {
        guard bins.total > 0 else { return "<p class=\"muted\">no response times in this report</p>" }
        let plotHeight = 120
        let barWidth = (width - 20) / bins.counts.count
        let largest = max(bins.counts.max() ?? 1, 1)
        let height = plotHeight + 40
        var svg =
            "<svg class=\"histogram\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\""
        svg +=
            " aria-label=\"response times: \(zip(bins.labels, bins.counts).map { "\($0) \($1)" }.joined(separator: ", "))\">"
        for (index, count) in bins.counts.enumerated() {
            let x = 10 + index * barWidth
            let barHeight = count == 0 ? 0 : max(2, count * plotHeight / largest)
            let y = plotHeight + 14 - barHeight
            svg +=
                "<rect class=\"time\" x=\"\(x + 2)\" y=\"\(y)\" width=\"\(barWidth - 4)\" height=\"\(barHeight)\" rx=\"2\">"
            svg += "<title>\(bins.labels[index]): \(count) pages</title></rect>"
            svg += "<text x=\"\(x + barWidth / 2)\" y=\"\(y - 3)\" text-anchor=\"middle\">\(count)</text>"
            svg +=
                "<text class=\"axis\" x=\"\(x + barWidth / 2)\" y=\"\(plotHeight + 30)\" text-anchor=\"middle\">\(bins.labels[index])</text>"
        }
        return svg + "</svg>"
    }
}

/// Response times counted into fixed bins (milliseconds; upper bounds inclusive), the last open.
struct ResponseTimeBins: Sendable, Hashable {
    static let upperBounds: [Double] = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000]

    private(set) var counts = [Int](repeating: 0, count: upperBounds.count + 1)

    init(_ seconds: [Double]) {
        for value in seconds where value.isFinite && value >= 0 {
            let milliseconds = value * 1000
            let bin = Self.upperBounds.firstIndex { milliseconds <= $0 } ?? Self.upperBounds.count
            counts[bin] += 1
        }
    }

    var total: Int { counts.reduce(0, +) }

    var labels: [String] {
        Self.upperBounds.map {
            $0 >= 1000 ? "≤\(Int($0) / 1000)\(Int($0) % 1000 == 0 ? "" : ".5") s" : "≤\(Int($0)) ms"
        }
            + [">5 s"]
    }
}
