public import GRDB

/// A stored value SpotCheck never writes (a text in an integer column: the file was changed by
/// hand or damaged), said in one line for the crawl store's and the local index's errors: what could
/// not be read, the column, and the row's first column (its key), e.g. `could not decode Int from
/// database value "abc" - column: "depth", column index: 4, in the row id:2`. GRDB's own
/// description lists the whole row, which can be megabytes of stored markup.
public func damagedRowMessage(_ error: RowDecodingError) -> String {
    let text = String(describing: error)
    guard let rowStart = text.range(of: ", row: [") else { return text }
    let key = text[rowStart.upperBound...].prefix { $0 != " " && $0 != "]" }
    return "the database holds a value SpotCheck never writes (the file was changed outside SpotCheck or is damaged): "
        + text[..<rowStart.lowerBound] + ", in the row \(key)"
}
