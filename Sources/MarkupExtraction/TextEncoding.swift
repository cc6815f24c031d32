/// An encoding of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/#names-and-labels):
/// what a page's bytes are decoded with. The raw value is the standard's name for it.
public enum TextEncoding: String, Sendable, Hashable, CaseIterable {
    case utf8 = "UTF-8"
    case utf16LE = "UTF-16LE"
    case utf16BE = "UTF-16BE"
    case ibm866 = "IBM866"
    case iso8859Part2 = "ISO-8859-2"
    case iso8859Part3 = "ISO-8859-3"
    case iso8859Part4 = "ISO-8859-4"
    case iso8859Part5 = "ISO-8859-5"
    case iso8859Part6 = "ISO-8859-6"
    case iso8859Part7 = "ISO-8859-7"
    case iso8859Part8 = "ISO-8859-8"
    case iso8859Part8I = "ISO-8859-8-I"
    case iso8859Part10 = "ISO-8859-10"
    case iso8859Part13 = "ISO-8859-13"
    case iso8859Part14 = "ISO-8859-14"
    case iso8859Part15 = "ISO-8859-15"
    case iso8859Part16 = "ISO-8859-16"
    case koi8R = "KOI8-R"
    case koi8U = "KOI8-U"
    case macintosh = "macintosh"
    case windows874 = "windows-874"
    case windows1250 = "windows-1250"
    case windows1251 = "windows-1251"
    case windows1252 = "windows-1252"
    case windows1253 = "windows-1253"
    case windows1254 = "windows-1254"
    case windows1255 = "windows-1255"
    case windows1256 = "windows-1256"
    case windows1257 = "windows-1257"
    case windows1258 = "windows-1258"
    case xMacCyrillic = "x-mac-cyrillic"
    case gbk = "GBK"
    case gb18030 = "gb18030"
    case big5 = "Big5"
    case eucJP = "EUC-JP"
    case iso2022JP = "ISO-2022-JP"
    case shiftJIS = "Shift_JIS"
    case eucKR = "EUC-KR"
    /// The standard's decoder for labels of encodings that can smuggle markup past filters
    /// (ISO-2022-KR, HZ-GB-2312 …): it decodes a whole document to one U+FFFD. SpotCheck never
    /// decodes with it (see `MarkupExtractor`): such a label is reported as unsupported instead.
    case replacement = "replacement"
    case xUserDefined = "x-user-defined"

    /// The standard's "get an encoding": the encoding a label names (ASCII whitespace trimmed,
    /// ASCII case ignored), or nil when it names none. `utf-7` is not a label (browsers refuse
    /// UTF-7), nor is any name the standard does not list.
    public init?(label: String) {
        let trimmed = label.trimmingASCIIWhitespace()
        guard trimmed.utf8.count <= Self.longestLabel else { return nil }
        guard let encoding = Self.labels[String(trimmed.lowercased())] else { return nil }
        self = encoding
    }

    /// The name of this encoding in the standard (`GBK`, `windows-1251`, `UTF-8`).
    public var name: String { rawValue }

    /// True for the encodings whose bytes 0x00–0x7F are ASCII (all but UTF-16 and ISO-2022-JP,
    /// whose escape sequences are ASCII bytes too, and `replacement`).
    var isASCIICompatible: Bool {
        switch self {
        case .utf16LE, .utf16BE, .iso2022JP, .replacement: false
        default: true
        }
    }

    private static let longestLabel = 19

    /// Every label of the standard (its `encodings.json`), lower-cased.
    static let labels: [String: TextEncoding] = [
        "866": .ibm866,
        "ansi_x3.4-1968": .windows1252,
        "arabic": .iso8859Part6,
        "ascii": .windows1252,
        "asmo-708": .iso8859Part6,
        "big5": .big5,
        "big5-hkscs": .big5,
        "chinese": .gbk,
        "cn-big5": .big5,
        "cp1250": .windows1250,
        "cp1251": .windows1251,
        "cp1252": .windows1252,
        "cp1253": .windows1253,
        "cp1254": .windows1254,
        "cp1255": .windows1255,
        "cp1256": .windows1256,
        "cp1257": .windows1257,
        "cp1258": .windows1258,
        "cp819": .windows1252,
        "cp866": .ibm866,
        "csbig5": .big5,
        "cseuckr": .eucKR,
        "cseucpkdfmtjapanese": .eucJP,
        "csgb2312": .gbk,
        "csibm866": .ibm866,
        "csiso2022jp": .iso2022JP,
        "csiso2022kr": .replacement,
        "csiso58gb231280": .gbk,
        "csiso88596e": .iso8859Part6,
        "csiso88596i": .iso8859Part6,
        "csiso88598e": .iso8859Part8,
        "csiso88598i": .iso8859Part8I,
        "csisolatin1": .windows1252,
        "csisolatin2": .iso8859Part2,
        "csisolatin3": .iso8859Part3,
        "csisolatin4": .iso8859Part4,
        "csisolatin5": .windows1254,
        "csisolatin6": .iso8859Part10,
        "csisolatin9": .iso8859Part15,
        "csisolatinarabic": .iso8859Part6,
        "csisolatincyrillic": .iso8859Part5,
        "csisolatingreek": .iso8859Part7,
        "csisolatinhebrew": .iso8859Part8,
        "cskoi8r": .koi8R,
        "csksc56011987": .eucKR,
        "csmacintosh": .macintosh,
        "csshiftjis": .shiftJIS,
        "csunicode": .utf16LE,
        "cyrillic": .iso8859Part5,
        "dos-874": .windows874,
        "ecma-114": .iso8859Part6,
        "ecma-118": .iso8859Part7,
        "elot_928": .iso8859Part7,
        "euc-jp": .eucJP,
        "euc-kr": .eucKR,
        "gb18030": .gb18030,
        "gb2312": .gbk,
        "gb_2312": .gbk,
        "gb_2312-80": .gbk,
        "gbk": .gbk,
        "greek": .iso8859Part7,
        "greek8": .iso8859Part7,
        "hebrew": .iso8859Part8,
        "hz-gb-2312": .replacement,
        "ibm819": .windows1252,
        "ibm866": .ibm866,
        "iso-10646-ucs-2": .utf16LE,
        "iso-2022-cn": .replacement,
        "iso-2022-cn-ext": .replacement,
        "iso-2022-jp": .iso2022JP,
        "iso-2022-kr": .replacement,
        "iso-8859-1": .windows1252,
        "iso-8859-10": .iso8859Part10,
        "iso-8859-11": .windows874,
        "iso-8859-13": .iso8859Part13,
        "iso-8859-14": .iso8859Part14,
        "iso-8859-15": .iso8859Part15,
        "iso-8859-16": .iso8859Part16,
        "iso-8859-2": .iso8859Part2,
        "iso-8859-3": .iso8859Part3,
        "iso-8859-4": .iso8859Part4,
        "iso-8859-5": .iso8859Part5,
        "iso-8859-6": .iso8859Part6,
        "iso-8859-6-e": .iso8859Part6,
        "iso-8859-6-i": .iso8859Part6,
        "iso-8859-7": .iso8859Part7,
        "iso-8859-8": .iso8859Part8,
        "iso-8859-8-e": .iso8859Part8,
        "iso-8859-8-i": .iso8859Part8I,
        "iso-8859-9": .windows1254,
        "iso-ir-100": .windows1252,
        "iso-ir-101": .iso8859Part2,
        "iso-ir-109": .iso8859Part3,
        "iso-ir-110": .iso8859Part4,
        "iso-ir-126": .iso8859Part7,
        "iso-ir-127": .iso8859Part6,
        "iso-ir-138": .iso8859Part8,
        "iso-ir-144": .iso8859Part5,
        "iso-ir-148": .windows1254,
        "iso-ir-149": .eucKR,
        "iso-ir-157": .iso8859Part10,
        "iso-ir-58": .gbk,
        "iso8859-1": .windows1252,
        "iso8859-10": .iso8859Part10,
        "iso8859-11": .windows874,
        "iso8859-13": .iso8859Part13,
        "iso8859-14": .iso8859Part14,
        "iso8859-15": .iso8859Part15,
        "iso8859-2": .iso8859Part2,
        "iso8859-3": .iso8859Part3,
        "iso8859-4": .iso8859Part4,
        "iso8859-5": .iso8859Part5,
        "iso8859-6": .iso8859Part6,
        "iso8859-7": .iso8859Part7,
        "iso8859-8": .iso8859Part8,
        "iso8859-9": .windows1254,
        "iso88591": .windows1252,
        "iso885910": .iso8859Part10,
        "iso885911": .windows874,
        "iso885913": .iso8859Part13,
        "iso885914": .iso8859Part14,
        "iso885915": .iso8859Part15,
        "iso88592": .iso8859Part2,
        "iso88593": .iso8859Part3,
        "iso88594": .iso8859Part4,
        "iso88595": .iso8859Part5,
        "iso88596": .iso8859Part6,
        "iso88597": .iso8859Part7,
        "iso88598": .iso8859Part8,
        "iso88599": .windows1254,
        "iso_8859-1": .windows1252,
        "iso_8859-15": .iso8859Part15,
        "iso_8859-1:1987": .windows1252,
        "iso_8859-2": .iso8859Part2,
        "iso_8859-2:1987": .iso8859Part2,
        "iso_8859-3": .iso8859Part3,
        "iso_8859-3:1988": .iso8859Part3,
        "iso_8859-4": .iso8859Part4,
        "iso_8859-4:1988": .iso8859Part4,
        "iso_8859-5": .iso8859Part5,
        "iso_8859-5:1988": .iso8859Part5,
        "iso_8859-6": .iso8859Part6,
        "iso_8859-6:1987": .iso8859Part6,
        "iso_8859-7": .iso8859Part7,
        "iso_8859-7:1987": .iso8859Part7,
        "iso_8859-8": .iso8859Part8,
        "iso_8859-8:1988": .iso8859Part8,
        "iso_8859-9": .windows1254,
        "iso_8859-9:1989": .windows1254,
        "koi": .koi8R,
        "koi8": .koi8R,
        "koi8-r": .koi8R,
        "koi8-u": .koi8U,
        "koi8_r": .koi8R,
        "korean": .eucKR,
        "ks_c_5601-1987": .eucKR,
        "ks_c_5601-1989": .eucKR,
        "ksc5601": .eucKR,
        "ksc_5601": .eucKR,
        "l1": .windows1252,
        "l2": .iso8859Part2,
        "l3": .iso8859Part3,
        "l4": .iso8859Part4,
        "l5": .windows1254,
        "l6": .iso8859Part10,
        "l9": .iso8859Part15,
        "latin1": .windows1252,
        "latin2": .iso8859Part2,
        "latin3": .iso8859Part3,
        "latin4": .iso8859Part4,
        "latin5": .windows1254,
        "latin6": .iso8859Part10,
        "logical": .iso8859Part8I,
        "mac": .macintosh,
        "macintosh": .macintosh,
        "ms_kanji": .shiftJIS,
        "replacement": .replacement,
        "shift-jis": .shiftJIS,
        "shift_jis": .shiftJIS,
        "sjis": .shiftJIS,
        "sun_eu_greek": .iso8859Part7,
        "tis-620": .windows874,
        "ucs-2": .utf16LE,
        "unicode": .utf16LE,
        "unicode-1-1-utf-8": .utf8,
        "unicode20utf8": .utf8,
        "unicodefeff": .utf16LE,
        "unicodefffe": .utf16BE,
        "us-ascii": .windows1252,
        "utf-16": .utf16LE,
        "utf-16be": .utf16BE,
        "utf-16le": .utf16LE,
        "utf-8": .utf8,
        "utf8": .utf8,
        "visual": .iso8859Part8,
        "windows-1250": .windows1250,
        "windows-1251": .windows1251,
        "windows-1252": .windows1252,
        "windows-1253": .windows1253,
        "windows-1254": .windows1254,
        "windows-1255": .windows1255,
        "windows-1256": .windows1256,
        "windows-1257": .windows1257,
        "windows-1258": .windows1258,
        "windows-31j": .shiftJIS,
        "windows-874": .windows874,
        "windows-949": .eucKR,
        "x-cp1250": .windows1250,
        "x-cp1251": .windows1251,
        "x-cp1252": .windows1252,
        "x-cp1253": .windows1253,
        "x-cp1254": .windows1254,
        "x-cp1255": .windows1255,
        "x-cp1256": .windows1256,
        "x-cp1257": .windows1257,
        "x-cp1258": .windows1258,
        "x-euc-jp": .eucJP,
        "x-gbk": .gbk,
        "x-mac-cyrillic": .xMacCyrillic,
        "x-mac-roman": .macintosh,
        "x-mac-ukrainian": .xMacCyrillic,
        "x-sjis": .shiftJIS,
        "x-unicode20utf8": .utf8,
        "x-user-defined": .xUserDefined,
        "x-x-big5": .big5,
    ]
}
