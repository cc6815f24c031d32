// A streaming HTML scanner over libxml2's HTML parser (SAX interface).
//
// This header is the whole C surface SpotCheck's Swift code sees of libxml2: libxml2's own headers
// are included only by CHTMLScanner.c. Debian builds libxml2 with ICU, and a Swift module that
// imports Foundation cannot also see <libxml/encoding.h> (ICU's UErrorCode is defined twice), so no
// libxml2 type or pointer crosses this boundary. The scanner classifies tags and attributes in C
// (cheap byte compares) so the Swift side is only called with what it needs.
#ifndef SPOTCHECK_CHTMLSCANNER_H
#define SPOTCHECK_CHTMLSCANNER_H

#include <stddef.h>

#if __has_attribute(swift_name)
#define SC_SWIFT_NAME(x) __attribute__((swift_name(#x)))
#else
#define SC_SWIFT_NAME(x)
// MARK: - XML (sitemaps)

/// Callbacks for `sc_scan_xml`: element names are local names with their namespace URI (or NULL).
typedef struct sc_xml_callbacks {
    void *_Nullable context;
    void (*_Nonnull start)(void *_Nullable context, const char *_Nonnull localName,
                           const char *_Nullable namespaceURI, int line);
    void (*_Nonnull end)(void *_Nullable context, const char *_Nonnull localName);
    void (*_Nonnull characters)(void *_Nullable context, const unsigned char *_Nonnull bytes, int length);
} sc_xml_callbacks;

typedef struct sc_xml_report {
    /// 0 when the scan ran; -1 when no parser could be created, -2 for an oversized input.
    int status;
    /// Non-zero when the document was well-formed XML.
    int wellFormed;
    /// Non-zero when the document has a DOCTYPE (refused: entities are never expanded or loaded).
    int hasDoctype;
    /// The first fatal error: libxml2's code, line and message.
    int errorCode;
    int errorLine;
    char errorMessage[160];
    /// Start tags with more than `SC_MAXIMUM_ATTRIBUTES` attributes (the rest of each was left
    /// out before parsing: libxml2's duplicate check is quadratic), and the line of the first.
    long cappedElements;
    long cappedFirstLine;
} sc_xml_report;

/// Parses XML with a SAX handler and safe options: no network, no DTD loading, no entity
/// substitution, no XInclude. Nothing is built; callbacks only.
void sc_scan_xml(const char *_Nonnull bytes, size_t length, const sc_xml_callbacks *_Nonnull callbacks,
                 sc_xml_report *_Nonnull report);

#endif

/// Element names the extractors care about; every other element is `SC_TAG_OTHER`.
typedef enum sc_tag {
    SC_TAG_OTHER = 0,
    SC_TAG_HTML, SC_TAG_HEAD, SC_TAG_BODY, SC_TAG_META, SC_TAG_LINK, SC_TAG_TITLE, SC_TAG_BASE,
    SC_TAG_SCRIPT, SC_TAG_STYLE, SC_TAG_A, SC_TAG_AREA, SC_TAG_IMG, SC_TAG_AUDIO, SC_TAG_VIDEO,
    SC_TAG_EMBED, SC_TAG_IFRAME, SC_TAG_SOURCE, SC_TAG_TRACK, SC_TAG_OBJECT, SC_TAG_DATA,
    SC_TAG_METER, SC_TAG_TIME, SC_TAG_SVG, SC_TAG_TEMPLATE, SC_TAG_NOSCRIPT,
    SC_TAG_COUNT
} sc_tag;

/// Attributes the extractors read. `values[attribute]` holds the first occurrence's value.
typedef enum sc_attribute {
    SC_ATTR_ID = 0, SC_ATTR_ITEMSCOPE, SC_ATTR_ITEMPROP, SC_ATTR_ITEMTYPE, SC_ATTR_ITEMID,
    SC_ATTR_ITEMREF, SC_ATTR_PROPERTY, SC_ATTR_NAME, SC_ATTR_CONTENT, SC_ATTR_TYPEOF, SC_ATTR_VOCAB,
    SC_ATTR_RESOURCE, SC_ATTR_PREFIX, SC_ATTR_ABOUT, SC_ATTR_REL, SC_ATTR_HREF, SC_ATTR_SRC,
    SC_ATTR_LANG, SC_ATTR_TYPE, SC_ATTR_DATETIME, SC_ATTR_VALUE, SC_ATTR_DATA, SC_ATTR_CHARSET,
    SC_ATTR_HTTP_EQUIV, SC_ATTR_DATATYPE, SC_ATTR_XML_LANG, SC_ATTR_REV, SC_ATTR_ROLE,
    /// Smart App Banner parameters written as attributes of their own (Safari reads only `content`).
    SC_ATTR_APP_ID, SC_ATTR_APP_ARGUMENT,
    SC_ATTR_DATA_SRC,
    /// Not one attribute: every `xmlns:NAME="IRI"` of the element, rewritten as an RDFa `prefix`
    /// value (`NAME: IRI NAME: IRI`), so `xmlns:og="http://ogp.me/ns#"` declares `og:` too.
    SC_ATTR_XMLNS,
    SC_ATTR_COUNT
} sc_attribute;

/// One start tag, valid only for the duration of the callback.
typedef struct sc_element {
    const char *_Nonnull name;
    /// First value of each `sc_attribute`; NULL when absent, "" for a bare boolean attribute.
    const char *_Nullable values[SC_ATTR_COUNT];
    /// Bit `1 << attribute` for every `sc_attribute` present.
    unsigned int attributeMask;
    sc_tag tag;
    /// Source line and column (1-based) of the end of the start tag: where the parser stands when
    /// it reports the tag (at its closing `>`).
    int line;
    int column;
    /// Non-zero when a browser puts the element in `<body>`: HTML's tree construction (§13.2.6.4)
    /// closes the head at the first start tag that does not belong there (anything but `base`,
    /// `basefont`, `bgsound`, `link`, `meta`, `noframes`, `noscript`, `script`, `style`,
    /// `template`, `title`), at text that is not white space, or at the `<body>` tag, whichever
    /// comes first (what is inside the head's `noscript`, read as raw text by a browser with
    /// scripting, or inside a template, moves nothing); the head's own elements written after
    /// `</head>` and before that still go in the head. libxml2's tree (an HTML 4 parser) differs, so the scanner follows the rules
    /// itself (`sc_place_start_tag`).
    int inBody;
} sc_element;

/// Callbacks into Swift. `start` and `end` return non-zero while character data is wanted, so the
/// scanner calls `characters` only then.
typedef struct sc_callbacks {
    void *_Nullable context;
    int (*_Nonnull start)(void *_Nullable context, const sc_element *_Nonnull element);
    int (*_Nonnull end)(void *_Nullable context, sc_tag tag);
    void (*_Nonnull characters)(void *_Nullable context, const unsigned char *_Nonnull bytes, int length);
    /// A second `<html>` start tag, or a `<body>` tag met once the body is open (content came
    /// first, or a second `<body>`): a browser adds each of its attributes the element does not
    /// have yet (§13.2.6.4.7, "in body", a start tag "html" or "body"), where libxml2 drops the
    /// tag. `element` holds its attributes; its `tag` says which element they go to.
    void (*_Nonnull mergeAttributes)(void *_Nullable context, const sc_element *_Nonnull element);
} sc_callbacks;

/// What the parser reported besides the callbacks.
typedef struct sc_scan_report {
    /// 0 when the scan ran; otherwise the scanner could not start (out of memory).
    int status;
    /// Number of parser errors libxml2 raised (HTML is rarely valid; informative only).
    int parseErrors;
    /// Bytes that were not valid in the document's encoding (SpotCheck decodes pages itself and
    /// passes UTF-8, so none are expected). `encodingErrorLine` is the line of the first one.
    int encodingErrors;
    int encodingErrorLine;
    /// A declared charset libxml2 does not support (`<meta charset>` or the caller's), or 0.
    int unsupportedEncoding;
    /// The encoding the document was decoded with, as libxml2 names it ("" when unknown).
    char encoding[48];
    /// Start tags with more than `SC_MAXIMUM_ATTRIBUTES` attributes (the rest of each was left
    /// out before parsing), the line of the first, the attributes left out and the most one had.
    long cappedElements;
    long cappedFirstLine;
    long droppedAttributes;
    long largestAttributeCount;
    /// Script and style bodies passed over unread (`skipsUnreadText`), and the bytes of text
    /// passed over unread.
    long skippedRawTexts;
    long skippedTextBytes;
    /// Quoted values of attributes nobody reads, left out before parsing (`skipsUnreadText`).
    long skippedAttributeValues;
} sc_scan_report;

/// The attributes of one start tag libxml2 is given; the rest of a longer tag is left out before
/// parsing (libxml2 compares each attribute with every earlier one: quadratic). Real pages have at
/// most 70 (the 130 pages of `../shared/corpora/realpages`).
enum { SC_MAXIMUM_ATTRIBUTES = 256 };

/// Initializes libxml2 once per process. Safe to call from any thread, any number of times.
void sc_initialize(void) SC_SWIFT_NAME(scInitialize());

/// Scans `length` bytes of HTML. `encoding` (nullable) overrides detection and `<meta charset>`
/// (`HTML_PARSE_IGNORE_ENC`); SpotCheck passes "UTF-8" with bytes it has decoded itself.
/// Runs synchronously on the calling thread; each call uses its own parser context, so different
/// threads may scan different documents at the same time.
/// `skipsUnreadText` non-zero: what follows a start or end tag whose callback returned 0 (the
/// body of a `<script>` or `<style>`, text up to the next tag) is passed over in one scan instead
/// of being read by libxml2 character by character, with the same callbacks, lines, columns and
/// error count (see `sc_measure_run`).
void sc_scan(const char *_Nonnull bytes, size_t length, const char *_Nullable encoding, int skipsUnreadText,
             const sc_callbacks *_Nonnull callbacks, sc_scan_report *_Nonnull report);

// MARK: - XML (sitemaps)

/// Callbacks for `sc_scan_xml`: element names are local names with their namespace URI (or NULL).
typedef struct sc_xml_callbacks {
    void *_Nullable context;
    void (*_Nonnull start)(void *_Nullable context, const char *_Nonnull localName,
                           const char *_Nullable namespaceURI, int line);
    void (*_Nonnull end)(void *_Nullable context, const char *_Nonnull localName);
    void (*_Nonnull characters)(void *_Nullable context, const unsigned char *_Nonnull bytes, int length);
} sc_xml_callbacks;

typedef struct sc_xml_report {
    /// 0 when the scan ran; -1 when no parser could be created, -2 for an oversized input.
    int status;
    /// Non-zero when the document was well-formed XML.
    int wellFormed;
    /// Non-zero when the document has a DOCTYPE (refused: entities are never expanded or loaded).
    int hasDoctype;
    /// The first fatal error: libxml2's code, line and message.
    int errorCode;
    int errorLine;
    char errorMessage[160];
    /// Start tags with more than `SC_MAXIMUM_ATTRIBUTES` attributes (the rest of each was left
    /// out before parsing: libxml2's duplicate check is quadratic), and the line of the first.
    long cappedElements;
    long cappedFirstLine;
} sc_xml_report;

/// Parses XML with a SAX handler and safe options: no network, no DTD loading, no entity
/// substitution, no XInclude. Nothing is built; callbacks only.
void sc_scan_xml(const char *_Nonnull bytes, size_t length, const sc_xml_callbacks *_Nonnull callbacks,
                 sc_xml_report *_Nonnull report);

#endif
