/// What the first bytes of an image file say: filled in by the asset-check work.
public struct ImageHeader: Sendable, Hashable {
    public init() {}
}
