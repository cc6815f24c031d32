/// An `apple-app-site-association` file (apple-markup-rules.md §3): filled in by the universal-links work.
public struct AASADocument: Sendable, Hashable {
    public init() {}
}
