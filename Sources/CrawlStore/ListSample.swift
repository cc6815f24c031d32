/// The first items of a list a store keeps whole, and how long the list is: what a report shows
/// of what was not crawled, in memory that does not grow with the list (issue 35 §2).
public struct ListSample<Element: Sendable & Equatable>: Sendable, Equatable {
    /// The whole list's length.
    public var total: Int
    /// Its first items, in the store's order.
    public var first: [Element]

    public init(total: Int, first: [Element]) {
        self.total = total
        self.first = first
    }
}
