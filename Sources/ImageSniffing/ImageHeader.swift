/// What the first bytes of an image file say: its format and, for raster formats, its pixel size, found
/// without decoding the image.
///
/// ```swift
/// if let header = ImageHeader.sniff(prefix) {
///     print(header.format, header.width ?? 0, header.height ?? 0)
///     if !header.format.matches(mediaType: contentType) { … }
/// }
/// ```
public struct ImageHeader: Sendable, Hashable {
    /// The format the bytes are in.
    public let format: ImageFormat
    /// Width in pixels (at least 1), or nil when unknown. Nil exactly when ``height`` is nil.
    public let width: Int?
    /// Height in pixels (at least 1), or nil when unknown. Nil exactly when ``width`` is nil.
    public let height: Int?
    /// Whether the dimensions are unknown only because the buffer ended before them (for example a JPEG whose
    /// EXIF block is longer than the prefix read): reading more of the file may give them. Always false when
    /// the dimensions are known, and false when the header is malformed or the format carries no pixel size
    /// here (SVG, AVIF, HEIC, TIFF).
    public let dimensionsNeedMoreBytes: Bool

    /// How many leading bytes a fetcher should read so that ``sniff(_:)`` finds the dimensions of nearly every
    /// real image: 64 KiB, enough for a JPEG whose start-of-frame follows an EXIF or ICC block of that size.
    public static let bytesNeeded = 64 * 1024

    /// A header; a width or height below 1 makes both nil.
    public init(format: ImageFormat, width: Int?, height: Int?, dimensionsNeedMoreBytes: Bool = false) {
        self.format = format
        if let width, let height, width >= 1, height >= 1 {
            self.width = width
            self.height = height
            self.dimensionsNeedMoreBytes = false
        } else {
            self.width = nil
            self.height = nil
            self.dimensionsNeedMoreBytes = dimensionsNeedMoreBytes
        }
    }

    /// The pixel size, when both dimensions are known.
    public var dimensions: (width: Int, height: Int)? {
        guard let width, let height else { return nil }
        return (width, height)
    }

    /// Whether a declared `Content-Type` value names this header's format (see ``ImageFormat/matches(mediaType:)``).
    public func matches(mediaType: String) -> Bool {
        format.matches(mediaType: mediaType)
    }

    /// Recognises an image from the first bytes of its file (ideally ``bytesNeeded`` of them, or the whole file
    /// when shorter), or returns nil when they are no image format known here.
    ///
    /// Never traps: hostile or truncated input gives nil, or the format with nil dimensions. The work is linear
    /// in the number of bytes at most.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageHeader? {
        if let result = bytes.withContiguousStorageIfAvailable({ sniff(ByteView(buffer: $0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer { sniff(ByteView(buffer: $0)) }
    }

    static func sniff(_ bytes: ByteView) -> ImageHeader? {
        let sniffers: [(ByteView) -> ImageHeader?] = [
            sniffPNG, sniffJPEG, sniffGIF, sniffWebP, sniffBMP, sniffICO, sniffTIFF, sniffISOBMFF, sniffSVG,
        ]
        for sniffer in sniffers {
            if let header = sniffer(bytes) { return header }
        }
        return nil
    }
}
