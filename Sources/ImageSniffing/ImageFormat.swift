/// An image file format recognised from a file's first bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// Portable Network Graphics (also APNG and Apple's CgBI variant).
    case png
    /// JPEG / JFIF / EXIF.
    case jpeg
    /// GIF 87a or 89a.
    case gif
    /// WebP (lossy VP8, lossless VP8L, extended VP8X).
    case webp
    /// Windows bitmap.
    case bmp
    /// Windows icon (`.ico`).
    case ico
    /// Scalable Vector Graphics (text); never has pixel dimensions here.
    case svg
    /// AV1 Image File Format (ISO-BMFF `ftyp` brand `avif` / `avis`).
    case avif
    /// HEIF / HEIC (ISO-BMFF `ftyp` brands `heic`, `heix`, `mif1`, …).
    case heic
    /// TIFF (`II*\0` / `MM\0*`, also BigTIFF).
    case tiff

    /// The canonical media type a server should send for this format, such as `image/jpeg`.
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .bmp: "image/bmp"
        case .ico: "image/vnd.microsoft.icon"
        case .svg: "image/svg+xml"
        case .avif: "image/avif"
        case .heic: "image/heic"
        case .tiff: "image/tiff"
        }
    }

    /// Every media type (lowercase, without parameters) accepted as naming this format: the canonical one
    /// first, then common aliases such as `image/jpg` or `image/x-icon`.
    public var acceptedMediaTypes: [String] {
        switch self {
        case .png: ["image/png", "image/apng", "image/x-png"]
        case .jpeg: ["image/jpeg", "image/jpg", "image/pjpeg"]
        case .gif: ["image/gif"]
        case .webp: ["image/webp"]
        case .bmp: ["image/bmp", "image/x-bmp", "image/x-ms-bmp"]
        case .ico: ["image/vnd.microsoft.icon", "image/x-icon", "image/ico", "image/icon"]
        case .svg: ["image/svg+xml"]
        case .avif: ["image/avif"]
        case .heic: ["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"]
        case .tiff: ["image/tiff", "image/x-tiff"]
        }
    }

    /// Whether a declared `Content-Type` value names this format.
    ///
    /// Parameters (`; charset=…`), surrounding whitespace and letter case are ignored, and aliases count
    /// (`image/jpg` for JPEG, `image/x-icon` for ICO). An empty or unrelated type does not match.
    public func matches(mediaType: String) -> Bool {
        guard let essence = Self.essence(of: mediaType) else { return false }
        return acceptedMediaTypes.contains(essence)
    }

    /// The format a declared `Content-Type` value names, if it is one of the image types above.
    public init?(mediaType: String) {
        guard let essence = Self.essence(of: mediaType),
            let format = Self.allCases.first(where: { $0.acceptedMediaTypes.contains(essence) })
        else { return nil }
        self = format
    }

    /// `type/subtype` in lowercase without parameters or surrounding whitespace; nil when empty.
    static func essence(of mediaType: String) -> String? {
        let beforeParameters =
            mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            .first ?? ""
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        let trimmed = beforeParameters.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard !trimmed.isEmpty else { return nil }
        return String(trimmed).lowercased()
    }
}
