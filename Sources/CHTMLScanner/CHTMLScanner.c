// The only file in SpotCheck that includes libxml2's headers (see include/CHTMLScanner.h).
#include "CHTMLScanner.h"
#include "AttributeCap.h"

#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static pthread_once_t sc_once = PTHREAD_ONCE_INIT;

static void sc_initialize_once(void) { xmlInitParser(); }

void sc_initialize(void) { pthread_once(&sc_once, sc_initialize_once); }

/// HTML's insertion modes (§13.2.6.4) as far as head and body go: "initial", "before html" and
/// "before head" are one (whatever comes first opens the head or goes through it), "in frameset"
/// and the modes inside the body are "in body".
typedef enum sc_phase { SC_BEFORE_HEAD = 0, SC_IN_HEAD, SC_AFTER_HEAD, SC_IN_BODY } sc_phase;

/// Per-scan state, reached through the parser context's `userData`.
typedef struct sc_state {
    htmlParserCtxtPtr context;
    const sc_callbacks *callbacks;
    sc_scan_report *report;
    int wantsCharacters;
    /// Where HTML's tree construction stands (`sc_place_start_tag`): what a browser's insertion
    /// mode would be, as far as head and body go.
    sc_phase phase;
    /// Open `<template>` elements: their content is a fragment of its own and moves nothing.
    int templateDepth;
    /// Inside a `<noscript>` opened in the head: 1 for it, plus one per element libxml2 opened in
    /// it. A browser with scripting (Safari, which shows the banner) reads its content as raw text,
    /// so nothing in it moves the head's end (§13.2.6.4.4, "noscript", scripting flag enabled); its
    /// tags are still reported, as a client without scripting reads them, in the head.
    int headNoscriptDepth;
    /// Where the parser stood when libxml2 closed a template or the head's noscript for an end tag
    /// written inside it: the other ends it reports there are not the source's end tags.
    const xmlChar *inertEndTagAt;
    int skipsUnreadText;
    /// The element whose start was the last callback (its end may come next, with no text between).
    const xmlChar *justOpened;
    /// Inside an element whose content a browser reads as raw text (`<iframe>`, `<noembed>`,
    /// `<noframes>`, `<xmp>`) or escapable raw text (`<textarea>`, `<title>`): 1 for the element itself, plus
    /// one for each element libxml2 opened in it. The tags libxml2 reads there are text to a
    /// browser (HTML §13.2.6.4.7, "generic raw text element parsing algorithm"), so their start and
    /// end callbacks are not passed on.
    int rawTextDepth;
    /// A start tag cut off by the end of the input: a browser's tokenizer emits no tag at an
    /// end of file inside a tag ("eof-in-tag"), where libxml2 reports the element; its start was
    /// not passed on, and its end (the next one libxml2 reports) is not either.
    int droppedAtEnd;
    /// libxml2's count of `<html>`, `<head>` and `<body>` tags it dropped as misplaced, as of the
    /// last callback, and where the parser stood then: libxml2 drops as many of their end tags
    /// later without a callback (`sc_catch_up_dropped_end_tags`).
    int droppedStartTags;
    const xmlChar *lastCursor;
    /// The tag whose attributes `sc_merge_misplaced` hands on (`html` or `body`).
    const char *mergedTag;
    /// The current element's `xmlns:*` declarations as a `prefix` value (SC_ATTR_XMLNS).
    char namespaces[1024];
    /// Attribute values left out before parsing (`sc_cap_attributes`), in document order; the next
    /// one not yet passed; the line of the last one passed and the characters left out on it.
    const sc_value_removal *removals;
    size_t removalCount;
    size_t nextRemoval;
    long removedLine;
    long removedCharacters;
    /// Whether libxml2 takes an element for empty (`htmlTagLookup`, a linear search of its table),
    /// by name pointer: libxml2 gives names from its dictionary (or constants), the same pointer
    /// for the same name for the whole parse. 0 unknown, 1 empty, 2 not empty.
    struct {
        const xmlChar *name;
        unsigned char kind;
    } emptyElements[64];
} sc_state;

// MARK: - Classification (libxml2's HTML parser lower-cases tag and attribute names)

/// `strcmp(name, literal) == 0`, inlined: the comparison stops at the first byte that differs (the
/// name's terminating NUL differs from any of the literal's bytes), so it never reads past `name`.
static inline int sc_is(const char *name, const char *literal) {
    size_t index = 0;
    for (; literal[index] != 0; index++) {
        if (name[index] != literal[index]) return 0;
    }
    return name[index] == 0;
}

/// True for an `xmlns:NAME` attribute (NAME not empty), which declares an RDFa prefix
/// (SC_ATTR_XMLNS): the one test the start callback and the unread-values pass share.
static int sc_is_namespace_declaration(const char *name) {
    return name[0] == 'x' && strncmp(name, "xmlns:", 6) == 0 && name[6] != 0;
}

static sc_tag sc_classify_tag(const char *name) {
    switch (name[0]) {
    case 'a':
        if (name[1] == 0) return SC_TAG_A;
        if (sc_is(name, "area")) return SC_TAG_AREA;
        if (sc_is(name, "audio")) return SC_TAG_AUDIO;
        break;
    case 'b':
        if (sc_is(name, "body")) return SC_TAG_BODY;
        if (sc_is(name, "base")) return SC_TAG_BASE;
        break;
    case 'd':
        if (sc_is(name, "data")) return SC_TAG_DATA;
        break;
    case 'e':
        if (sc_is(name, "embed")) return SC_TAG_EMBED;
        break;
    case 'h':
        if (sc_is(name, "html")) return SC_TAG_HTML;
        if (sc_is(name, "head")) return SC_TAG_HEAD;
        break;
    case 'i':
        if (sc_is(name, "img")) return SC_TAG_IMG;
        if (sc_is(name, "iframe")) return SC_TAG_IFRAME;
        break;
    case 'l':
        if (sc_is(name, "link")) return SC_TAG_LINK;
        break;
    case 'm':
        if (sc_is(name, "meta")) return SC_TAG_META;
        if (sc_is(name, "meter")) return SC_TAG_METER;
        break;
    case 'n':
        if (sc_is(name, "noscript")) return SC_TAG_NOSCRIPT;
        break;
    case 'o':
        if (sc_is(name, "object")) return SC_TAG_OBJECT;
        break;
    case 's':
        if (sc_is(name, "script")) return SC_TAG_SCRIPT;
        if (sc_is(name, "style")) return SC_TAG_STYLE;
        if (sc_is(name, "source")) return SC_TAG_SOURCE;
        if (sc_is(name, "svg")) return SC_TAG_SVG;
        break;
    case 't':
        if (sc_is(name, "title")) return SC_TAG_TITLE;
        if (sc_is(name, "time")) return SC_TAG_TIME;
        if (sc_is(name, "track")) return SC_TAG_TRACK;
        if (sc_is(name, "template")) return SC_TAG_TEMPLATE;
        break;
    case 'v':
        if (sc_is(name, "video")) return SC_TAG_VIDEO;
        break;
    default:
        break;
    }
    return SC_TAG_OTHER;
}

/// Returns the `sc_attribute` for a lower-cased attribute name, or -1.
static int sc_classify_attribute(const char *name) {
    switch (name[0]) {
    case 'a':
        if (sc_is(name, "about")) return SC_ATTR_ABOUT;
        if (sc_is(name, "app-id")) return SC_ATTR_APP_ID;
        if (sc_is(name, "app-argument")) return SC_ATTR_APP_ARGUMENT;
        break;
    case 'c':
        if (sc_is(name, "content")) return SC_ATTR_CONTENT;
        if (sc_is(name, "charset")) return SC_ATTR_CHARSET;
        break;
    case 'd':
        if (sc_is(name, "datetime")) return SC_ATTR_DATETIME;
        if (sc_is(name, "data")) return SC_ATTR_DATA;
        if (sc_is(name, "datatype")) return SC_ATTR_DATATYPE;
        if (sc_is(name, "data-src")) return SC_ATTR_DATA_SRC;
        break;
    case 'h':
        if (sc_is(name, "href")) return SC_ATTR_HREF;
        if (sc_is(name, "http-equiv")) return SC_ATTR_HTTP_EQUIV;
        break;
    case 'i':
        if (name[1] == 'd' && name[2] == 0) return SC_ATTR_ID;
        if (name[1] == 't' && name[2] == 'e' && name[3] == 'm') {
            const char *rest = name + 4;
            if (sc_is(rest, "prop")) return SC_ATTR_ITEMPROP;
            if (sc_is(rest, "scope")) return SC_ATTR_ITEMSCOPE;
            if (sc_is(rest, "type")) return SC_ATTR_ITEMTYPE;
            if (sc_is(rest, "id")) return SC_ATTR_ITEMID;
            if (sc_is(rest, "ref")) return SC_ATTR_ITEMREF;
        }
        break;
    case 'l':
        if (sc_is(name, "lang")) return SC_ATTR_LANG;
        break;
    case 'n':
        if (sc_is(name, "name")) return SC_ATTR_NAME;
        break;
    case 'p':
        if (sc_is(name, "property")) return SC_ATTR_PROPERTY;
        if (sc_is(name, "prefix")) return SC_ATTR_PREFIX;
        break;
    case 'r':
        if (sc_is(name, "rel")) return SC_ATTR_REL;
        if (sc_is(name, "resource")) return SC_ATTR_RESOURCE;
        if (sc_is(name, "rev")) return SC_ATTR_REV;
        if (sc_is(name, "role")) return SC_ATTR_ROLE;
        break;
    case 's':
        if (sc_is(name, "src")) return SC_ATTR_SRC;
        break;
    case 't':
        if (sc_is(name, "typeof")) return SC_ATTR_TYPEOF;
        if (sc_is(name, "type")) return SC_ATTR_TYPE;
        break;
    case 'v':
        if (sc_is(name, "value")) return SC_ATTR_VALUE;
        if (sc_is(name, "vocab")) return SC_ATTR_VOCAB;
        break;
    case 'x':
        if (sc_is(name, "xml:lang")) return SC_ATTR_XML_LANG;
        break;
    default:
        break;
    }
    return -1;
}

/// True when the start tag being reported was written in the source: the nearest '<' before the
/// parser's position opens a tag with this name. An implied element (libxml2 opens `body` when it
/// meets a body-only tag) is reported while another tag is being read, so the check fails.
static int sc_is_written_tag(htmlParserCtxtPtr context, const char *name) {
    if (context->input == NULL || context->input->cur == NULL || context->input->base == NULL) return 0;
    const xmlChar *base = context->input->base;
    const xmlChar *cursor = context->input->cur;
    size_t length = strlen(name);
    for (int steps = 0; cursor > base && steps < 65536; steps++) {
        cursor--;
        if (*cursor != '<') continue;
        if ((size_t)(context->input->end - cursor) < length + 1) return 0;
        return strncasecmp((const char *)cursor + 1, name, length) == 0;
    }
    return 0;
}

// MARK: - Raw text nobody reads

/// The length of the UTF-8 sequence at `bytes` (at most `available` bytes) when it encodes a
/// character libxml2 accepts in script data without an error (XML's `Char`: no C0 control but
/// tab, LF and CR, no surrogate, no U+FFFE or U+FFFF); 0 otherwise.
static size_t sc_accepted_character_length(const unsigned char *bytes, size_t available) {
    unsigned char lead = bytes[0];
    if (lead < 0x80) return (lead >= 0x20 || lead == '\t' || lead == '\n' || lead == '\r') ? 1 : 0;
    size_t length;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (available < length || bytes[1] < low || bytes[1] > high) return 0;
    for (size_t index = 2; index < length; index++) {
        if (bytes[index] < 0x80 || bytes[index] > 0xBF) return 0;
    }
    if (lead == 0xEF && bytes[1] == 0xBF && bytes[2] >= 0xBE) return 0;
    return length;
}

/// A run of characters libxml2 would read one by one, measured: where it stops, the line breaks
/// in it and where its last line starts, and the `</` in it that raise an error in libxml2.
typedef struct sc_run {
    const unsigned char *stop;
    int lines;
    const unsigned char *lastLineStart;
    int strayCloseTags;
} sc_run;

/// Measures the run from `start` up to (not including) where libxml2 stops reading it:
/// - script data (`rawTextName` non-NULL), as `htmlParseScript` reads it in recovery mode: up to
///   the first `</` followed by the element's name in any case; every other `</` is an error;
/// - text (`rawTextName` NULL), as `htmlParseCharData` reads it: up to the next `<` or `&`.
/// Returns 0, and the run is left to libxml2, when it has a character libxml2 would report
/// (invalid UTF-8, a control character, U+FFFE, U+FFFF) or does not stop before `end`.
static int sc_measure_run(const unsigned char *start, const unsigned char *end, const char *rawTextName,
                          sc_run *run) {
    size_t nameLength = rawTextName != NULL ? strlen(rawTextName) : 0;
    memset(run, 0, sizeof *run);
    const unsigned char *cursor = start;
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    // '&' ends text only; script data reads it as any other character.
    const uint64_t ampersandBits = rawTextName == NULL ? highs : 0;
    for (;;) {
#if defined(__SSE2__)
        // Sixteen bytes at a time while none is '<', '&' (text), non-ASCII or a control character
        // other than tab, LF and CR; the line breaks among them are counted as they go. Then
        // straight to the first byte that stops it.
        const __m128i space = _mm_set1_epi8(0x20), angleByte = _mm_set1_epi8('<'),
                      ampersandByte = _mm_set1_epi8('&'), lineFeed = _mm_set1_epi8('\n'),
                      tab = _mm_set1_epi8('\t'), carriageReturn = _mm_set1_epi8('\r');
        const int wantsAmpersand = rawTextName == NULL;
        while (end - cursor >= 16) {
            __m128i block = _mm_loadu_si128((const __m128i *)(const void *)cursor);
            // Signed comparison: every non-ASCII byte is below 0x20 too.
            __m128i flaggedBytes = _mm_or_si128(_mm_cmplt_epi8(block, space), _mm_cmpeq_epi8(block, angleByte));
            if (wantsAmpersand) flaggedBytes = _mm_or_si128(flaggedBytes, _mm_cmpeq_epi8(block, ampersandByte));
            unsigned flagged = (unsigned)_mm_movemask_epi8(flaggedBytes);
            if (flagged == 0) {
                cursor += 16;
                continue;
            }
            unsigned lineFeeds = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, lineFeed));
            unsigned plain = lineFeeds | (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, tab),
                                                                                 _mm_cmpeq_epi8(block, carriageReturn)));
            unsigned stops = flagged & ~plain;
            unsigned passed = stops != 0 ? (1u << __builtin_ctz(stops)) - 1 : 0xFFFFu;
            unsigned passedLineFeeds = lineFeeds & passed;
            if (passedLineFeeds != 0) {
                run->lines += __builtin_popcount(passedLineFeeds);
                run->lastLineStart = cursor + (31 - __builtin_clz(passedLineFeeds)) + 1;
            }
            if (stops == 0) {
                cursor += 16;
                continue;
            }
            cursor += __builtin_ctz(stops);
            break;
        }
#endif
        // Eight bytes at a time while none is '<', '&', a control character or non-ASCII; then
        // straight to the first one that is (the lowest flagged byte is exact: the borrows of
        // these tests only ever flag bytes above a true match).
        while (end - cursor >= 8) {
            uint64_t word;
            memcpy(&word, cursor, sizeof word);
            uint64_t lessThanSpace = (word - ones * 0x20) & ~word;
            uint64_t angle = word ^ (ones * '<');
            uint64_t isAngle = (angle - ones) & ~angle;
            uint64_t ampersand = word ^ (ones * '&');
            uint64_t isAmpersand = (ampersand - ones) & ~ampersand & ampersandBits;
            uint64_t flagged = (word | lessThanSpace | isAngle | isAmpersand) & highs;
            if (flagged != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                cursor += (size_t)__builtin_ctzll(flagged) / 8;
#endif
                break;
            }
            cursor += 8;
        }
        if (cursor >= end) return 0;
        unsigned char byte = *cursor;
        if (byte == '<') {
            if (rawTextName == NULL) break;
            if (end - cursor > 1 && cursor[1] == '/') {
                if ((size_t)(end - cursor - 2) >= nameLength &&
                    strncasecmp((const char *)cursor + 2, rawTextName, nameLength) == 0) {
                    break;
                }
                run->strayCloseTags++;
                cursor += 2;
                continue;
            }
            cursor++;
            continue;
        }
        if (byte == '&' && rawTextName == NULL) break;
        if (byte == '\n') {
            run->lines++;
            run->lastLineStart = cursor + 1;
            cursor++;
            continue;
        }
        size_t length = sc_accepted_character_length(cursor, (size_t)(end - cursor));
        if (length == 0) return 0;
        cursor += length;
    }
    run->stop = cursor;
    return 1;
}

/// The parser's column at `run->stop`, given its column at `start`: libxml2 counts characters,
/// not bytes, and starts again at 1 after a line break.
static int sc_column_after(const sc_run *run, const unsigned char *start, int startColumn) {
    int column = run->lastLineStart != NULL ? 1 : startColumn;
    const unsigned char *byte = run->lastLineStart != NULL ? run->lastLineStart : start;
#if defined(__SSE2__)
    // Sixteen bytes at a time: every byte but a continuation byte (0x80–0xBF, below -64 signed).
    const __m128i continuationLimit = _mm_set1_epi8((char)0xC0);
    while (run->stop - byte >= 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(const void *)byte);
        column += 16 - __builtin_popcount((unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(block, continuationLimit)));
        byte += 16;
    }
#endif
    for (; byte < run->stop; byte++) {
        if ((*byte & 0xC0) != 0x80) column++;
    }
    return column;
}

/// True when libxml2 can take the shortcut at all: UTF-8 read as it is (what SpotCheck passes),
/// the whole document in one buffer. A converted input arrives in chunks.
static int sc_can_move(sc_state *state) {
    xmlParserInputPtr input = state->context->input;
    return input != NULL && input->cur != NULL && input->end != NULL && input->cur < input->end &&
           state->context->charset == XML_CHAR_ENCODING_UTF8 && input->buf != NULL && input->buf->encoder == NULL;
}

static void sc_place_text(sc_state *state, const xmlChar *container, const unsigned char *bytes, size_t length);

/// From the `startElement` callback, where the parser stands at the start tag's `>`: moves it past
/// `run`, measured from just past the `>`, with the line and column reading it would have left. The
/// run's last byte becomes the `>` the parser reads next (it is never read again). Returns the
/// bytes passed over.
static long sc_move_past_measured_run(sc_state *state, const sc_run *run) {
    xmlParserInputPtr input = state->context->input;
    const unsigned char *start = input->cur + 1;
    int column = sc_column_after(run, start, input->col + 1);
    xmlChar *last = (xmlChar *)(uintptr_t)(run->stop - 1);
    *last = '>';
    input->cur = last;
    input->line += run->lines;
    input->col = column - 1;
    state->report->parseErrors += run->strayCloseTags;
    return (long)(run->stop - start);
}

/// From the `startElement` callback: moves the parser past the run that follows the start tag, to
/// where libxml2 would have stopped reading it (`sc_move_past_measured_run`).
static long sc_move_past_run_after_start_tag(sc_state *state, const char *rawTextName) {
    xmlParserInputPtr input = state->context->input;
    if (*input->cur != '>') return 0;
    const unsigned char *start = input->cur + 1;
    sc_run run;
    if (start >= input->end || !sc_measure_run(start, input->end, rawTextName, &run) || run.stop == start) return 0;
    // Text passed over unread is still text to the tree construction (`sc_place_text`).
    if (rawTextName == NULL) sc_place_text(state, state->context->name, start, (size_t)(run.stop - start));
    return sc_move_past_measured_run(state, &run);
}

/// From the `endElement` callback, where the parser stands just past the tag that closed the
/// element: moves it past the text that follows, as `sc_move_past_run_after_start_tag` does.
static long sc_move_past_text_after_end(sc_state *state) {
    xmlParserInputPtr input = state->context->input;
    const unsigned char *start = input->cur;
    sc_run run;
    if (!sc_measure_run(start, input->end, NULL, &run) || run.stop == start) return 0;
    // The text belongs to the element under the one just closed (popped after the callback).
    htmlParserCtxtPtr context = state->context;
    sc_place_text(state, context->nameNr >= 2 ? context->nameTab[context->nameNr - 2] : NULL, start,
                  (size_t)(run.stop - start));
    input->col = sc_column_after(&run, start, input->col);
    input->cur = run.stop;
    input->line += run.lines;
    return (long)(run.stop - start);
}

/// libxml2 opens `<body>` and `<p>` for text that is not white space where no element, or only
/// `<html>` or `<head>`, is open (`htmlCheckParagraph`): text there is always left to libxml2.
static int sc_text_may_imply_elements(const xmlChar *element) {
    return element == NULL || sc_is((const char *)element, "html") || sc_is((const char *)element, "head");
}

/// True when the bytes just before `cursor`, blanks skipped, are `<name` (`opener` "<") or
/// `</name` (`opener` "</"), the name in any case.
static int sc_follows_tag_name(const unsigned char *base, const unsigned char *cursor, const char *opener,
                               const char *name) {
    const unsigned char *at = cursor;
    while (at > base && (at[-1] == ' ' || at[-1] == '\t' || at[-1] == '\n' || at[-1] == '\r')) at--;
    size_t openerLength = strlen(opener), length = strlen(name);
    if ((size_t)(at - base) < openerLength + length) return 0;
    const unsigned char *nameStart = at - length;
    return strncasecmp((const char *)nameStart, name, length) == 0 &&
           memcmp(nameStart - openerLength, opener, openerLength) == 0;
}

/// True when the bytes just before `cursor` are the end tag `</name>` (blanks allowed before the
/// `>`), i.e. the element being closed is the one the end tag names, not one it closes on its way.
static int sc_follows_own_end_tag(const unsigned char *base, const unsigned char *cursor, const char *name) {
    return cursor > base && cursor[-1] == '>' && sc_follows_tag_name(base, cursor - 1, "</", name);
}

/// True when the parser, standing at a start tag's `>`, has just read `<name` and blanks: the tag
/// is `name`'s own and has nothing between its name and the `>` (an element with attributes is
/// always its own tag: libxml2 implies elements without any).
static int sc_follows_own_start_tag_name(const unsigned char *base, const unsigned char *cursor, const char *name) {
    return sc_follows_tag_name(base, cursor, "<", name);
}

/// True when libxml2 takes the element `name` for an empty one (`<br>`, `<img>` …).
static int sc_is_empty_element(sc_state *state, const xmlChar *name) {
    size_t slot = ((uintptr_t)name >> 3) % (sizeof state->emptyElements / sizeof state->emptyElements[0]);
    if (state->emptyElements[slot].name != name) {
        const htmlElemDesc *description = htmlTagLookup(name);
        state->emptyElements[slot].name = name;
        state->emptyElements[slot].kind = description != NULL && description->empty ? 1 : 2;
    }
    return state->emptyElements[slot].kind == 1;
}

// MARK: - Attribute values nobody reads

/// Whether the extractors read the attribute `name` (lower-cased): one `sc_attribute` or an
/// `xmlns:NAME` declaration. The values of all others are left out before parsing.
static int sc_reads_attribute_named(const char *name) {
    return sc_is_namespace_declaration(name) || sc_classify_attribute(name) >= 0;
}

/// The source's column for libxml2's `column` where the parser stands: libxml2 counts the copy
/// without the unread attribute values, so the characters left out earlier on this line are added.
static int sc_source_column(sc_state *state, int column, int line) {
    xmlParserInputPtr input = state->context->input;
    size_t offset = (size_t)input->consumed + (size_t)(input->cur - input->base);
    while (state->nextRemoval < state->removalCount && state->removals[state->nextRemoval].offset <= offset) {
        const sc_value_removal *removal = &state->removals[state->nextRemoval++];
        if (removal->line != state->removedLine) {
            state->removedLine = removal->line;
            state->removedCharacters = 0;
        }
        state->removedCharacters += removal->characters;
    }
    return line == state->removedLine ? column + (int)state->removedCharacters : column;
}

// MARK: - SAX callbacks

/// Elements whose content a browser's tokenizer reads as text up to their own end tag, never as
/// markup (HTML §13.2.6.4.4 and §13.2.6.4.7: `iframe`, `noembed`, `noframes`, `xmp` as raw text,
/// `textarea` and `title` as escapable raw text). libxml2 2.9.14 reads only `script` and `style`
/// that way. `noscript` is read as markup, as a client without scripting does (its place in the
/// head is `headNoscriptDepth`'s).
static int sc_has_raw_text_content(const char *name) {
    switch (name[0]) {
    case 'i': return sc_is(name, "iframe");
    case 'n': return sc_is(name, "noembed") || sc_is(name, "noframes");
    case 't': return sc_is(name, "textarea") || sc_is(name, "title");
    case 'x': return sc_is(name, "xmp");
    default: return 0;
    }
}

/// Elements whose content a browser's tokenizer reads as text up to their own end tag: the raw text
/// elements above, and `script` and `style`.
static int sc_has_text_content(const char *name) {
    return sc_has_raw_text_content(name) || sc_is(name, "script") || sc_is(name, "style");
}

static void sc_move_past_unread_after_start(sc_state *state, sc_tag tag);

/// True for the elements HTML's "in head" insertion mode keeps in the head (§13.2.6.4.4), but
/// `noscript`, which only "in head" keeps there.
static int sc_belongs_in_head(const char *name) {
    switch (name[0]) {
    case 'b': return sc_is(name, "base") || sc_is(name, "basefont") || sc_is(name, "bgsound");
    case 'l': return sc_is(name, "link");
    case 'm': return sc_is(name, "meta");
    case 'n': return sc_is(name, "noframes");
    case 's': return sc_is(name, "script") || sc_is(name, "style");
    case 't': return sc_is(name, "template") || sc_is(name, "title");
    default: return 0;
    }
}

/// Moves the phase for a start tag written in the source, as HTML's tree construction does:
/// - "before head" (§13.2.6.4.3): `<head>` opens the head; anything else opens it implicitly and
///   is read "in head";
/// - "in head" (§13.2.6.4.4): the head's own elements stay; so does `<noscript>`, whose content
///   moves nothing (`headNoscriptDepth`: raw text with scripting enabled, as in Safari); anything
///   else closes the head and is read "after head";
/// - "after head" (§13.2.6.4.6): `<body>` opens the body; the head's own elements go back into
///   the head; anything else opens the body implicitly.
/// `html` and `head` tags are ignored past the point where they open something.
static void sc_place_start_tag(sc_state *state, const char *name) {
    if (state->headNoscriptDepth > 0) {
        state->headNoscriptDepth++;
        return;
    }
    if (state->templateDepth > 0) return;
    int isHTML = sc_is(name, "html"), isHead = sc_is(name, "head");
    for (;;) {
        switch (state->phase) {
        case SC_BEFORE_HEAD:
            state->phase = SC_IN_HEAD;
            if (isHTML || isHead) return;
            continue;
        case SC_IN_HEAD:
            if (isHTML || isHead || sc_belongs_in_head(name)) return;
            if (sc_is(name, "noscript")) {
                state->headNoscriptDepth = 1;
                return;
            }
            state->phase = SC_AFTER_HEAD;
            continue;
        case SC_AFTER_HEAD:
            if (isHTML || isHead || sc_belongs_in_head(name) || sc_is(name, "frameset")) return;
            state->phase = SC_IN_BODY;
            return;
        case SC_IN_BODY:
            return;
        }
    }
}

/// Moves the phase for text a browser's tree construction reads as character tokens: text that
/// is not white space (tab, LF, FF, CR, space) before the body opens it ("anything else" in every
/// mode before "in body"). Text inside `title`, `script`, `style`, `noframes` (raw text in the
/// head), the head's `noscript`, a template or a raw text element does not count.
static void sc_place_text(sc_state *state, const xmlChar *container, const unsigned char *bytes, size_t length) {
    if (state->phase == SC_IN_BODY || state->templateDepth > 0 || state->rawTextDepth > 0 ||
        state->headNoscriptDepth > 0) {
        return;
    }
    if (container != NULL) {
        const char *name = (const char *)container;
        if (sc_is(name, "title") || sc_is(name, "script") || sc_is(name, "style") || sc_is(name, "noframes")) return;
    }
    for (size_t index = 0; index < length; index++) {
        unsigned char byte = bytes[index];
        if (byte != ' ' && byte != '\t' && byte != '\n' && byte != '\f' && byte != '\r') {
            state->phase = SC_IN_BODY;
            return;
        }
    }
}

/// HTML §13.2.6.4.3 "before head", §13.2.6.4.4 "in head" and §13.2.6.4.6 "after head": an end
/// tag `</body>`, `</html>` or `</br>` acts as "anything else" there, so it closes the head and
/// opens the body (`</br>` then inserts a `<br>`); what follows is in the body. Not inside the
/// head's noscript (raw text with scripting enabled), a template or a raw text element.
static void sc_place_body_opening_end_tag(sc_state *state, const char *name) {
    if (state->phase == SC_IN_BODY || state->templateDepth > 0 || state->headNoscriptDepth > 0 ||
        state->rawTextDepth > 0) {
        return;
    }
    if (strcasecmp(name, "body") == 0 || strcasecmp(name, "html") == 0 || strcasecmp(name, "br") == 0) {
        state->phase = SC_IN_BODY;
    }
}

/// The end tags that move the phase: `</head>` ends the head; `</body>` and `</html>` before the
/// body open it (`sc_place_body_opening_end_tag`; libxml2 reports their end when it has the element
/// open, an "Unexpected end tag" error when not, which `sc_structured_error` passes on, as it does
/// for `</br>`); the ends of a template and of the head's noscript (and of what libxml2 opened in
/// them) close what they opened.
static void sc_place_end_tag(sc_state *state, const char *name) {
    const xmlChar *cur = state->context->input != NULL ? state->context->input->cur : NULL;
    const xmlChar *base = cur != NULL ? state->context->input->base : NULL;
    int isTemplate = sc_is(name, "template");
    if (isTemplate && state->templateDepth > 0) {
        state->templateDepth--;
        // Closed by libxml2 for another end tag (`</html>` written in it): that tag is the
        // template's content, which moves nothing; so do the other ends it makes libxml2 report.
        if (cur != NULL && !sc_follows_own_end_tag(base, cur, "template")) state->inertEndTagAt = cur;
    }
    if (state->headNoscriptDepth > 0) {
        // Likewise for the head's noscript, whose content is text.
        if (--state->headNoscriptDepth == 0 && cur != NULL && !sc_follows_own_end_tag(base, cur, "noscript")) {
            state->inertEndTagAt = cur;
        }
        return;
    }
    if (isTemplate || state->templateDepth > 0) return;
    if (cur == NULL) return;
    // An element whose content is text to a browser (a title, a script …) closed by libxml2 for an
    // end tag written in it: that tag is text, and the ends libxml2 reports after it there are not
    // the source's end tags either.
    if (sc_has_text_content(name) && !sc_follows_own_end_tag(base, cur, name)) state->inertEndTagAt = cur;
    if (cur == state->inertEndTagAt || !sc_follows_own_end_tag(base, cur, name)) return;
    if (sc_is(name, "head") && (state->phase == SC_IN_HEAD || state->phase == SC_BEFORE_HEAD)) {
        state->phase = SC_AFTER_HEAD;
    } else if (sc_is(name, "body") || sc_is(name, "html")) {
        sc_place_body_opening_end_tag(state, name);
    }
}

static const xmlChar *sc_start_tag_end(const xmlChar *cursor, const xmlChar *end);

/// True when `cursor` (inside [.., end)) is the tag name `name` (lower case ASCII), in any case,
/// followed by tab, LF, FF, CR, space, `/` or `>`, as the tokenizer ends a tag name.
static int sc_is_tag_name_at(const xmlChar *cursor, const xmlChar *end, const char *name) {
    size_t length = strlen(name);
    if ((size_t)(end - cursor) <= length || strncasecmp((const char *)cursor, name, length) != 0) return 0;
    xmlChar after = cursor[length];
    return after == '>' || after == '/' || after == ' ' || after == '\t' || after == '\n' || after == '\r' ||
           after == '\f';
}

/// The end tag at `cursor` (just past `</`) when it is `</html>`, `</head>` or `</body>`, or NULL.
static const char *sc_structural_end_tag(const xmlChar *cursor, const xmlChar *end) {
    static const char *const names[] = {"html", "head", "body"};
    for (size_t index = 0; index < 3; index++) {
        if (sc_is_tag_name_at(cursor, end, names[index])) return names[index];
    }
    return NULL;
}

/// libxml2 drops an `</html>`, `</head>` or `</body>` end tag without a callback while it has
/// dropped more of their start tags as misplaced (a second `<html>`, a `<head>` in the body) than
/// such end tags (`ctxt->depth`, which `sc_structured_error` counts along). A browser reads those
/// end tags as any other: `</head>` ends the head, and `</html>` or `</body>` before the body opens
/// it. Called first in each callback: when the count went down since the last one, the end tags
/// written in between move the phase. Between two callbacks lies only markup libxml2 reported
/// nothing for; start tags (their quoted values) and comments there are passed over.
static void sc_catch_up_dropped_end_tags(sc_state *state) {
    htmlParserCtxtPtr context = state->context;
    xmlParserInputPtr input = context->input;
    if (input == NULL || input->cur == NULL || input->base == NULL || input->end == NULL) return;
    const xmlChar *from = state->lastCursor, *to = input->cur;
    int fell = context->depth < state->droppedStartTags;
    state->droppedStartTags = context->depth;
    state->lastCursor = to;
    if (!fell || from == NULL || from < input->base || from >= to || to > input->end) return;
    if (state->templateDepth > 0 || state->headNoscriptDepth > 0 || state->rawTextDepth > 0 ||
        (context->name != NULL && sc_has_text_content((const char *)context->name))) {
        return;
    }
    for (const xmlChar *cursor = from; cursor + 1 < to;) {
        if (*cursor != '<') {
            cursor++;
        } else if (cursor[1] == '/') {
            const char *name = sc_structural_end_tag(cursor + 2, input->end);
            if (name != NULL && sc_is(name, "head")) {
                if (state->phase == SC_IN_HEAD || state->phase == SC_BEFORE_HEAD) state->phase = SC_AFTER_HEAD;
            } else if (name != NULL) {
                sc_place_body_opening_end_tag(state, name);
            }
            cursor += 2;
        } else if (cursor[1] == '!' && to - cursor > 3 && cursor[2] == '-' && cursor[3] == '-') {
            const xmlChar *close = cursor + 4;
            while (close + 2 < to && !(close[0] == '-' && close[1] == '-' && close[2] == '>')) close++;
            cursor = close + 2 < to ? close + 3 : to;
        } else if ((cursor[1] | 0x20) >= 'a' && (cursor[1] | 0x20) <= 'z') {
            cursor = sc_start_tag_end(cursor + 2, to);
        } else {
            cursor++;
        }
    }
}

/// True when libxml2 may report `name` without its tag in the source: it implies `html`, `head`,
/// `body` and, for text, `p`.
static int sc_may_be_implied(const char *name) {
    return sc_is(name, "html") || sc_is(name, "head") || sc_is(name, "body") || sc_is(name, "p");
}

/// Fills `element`'s attribute values and mask from libxml2's name/value pairs.
static void sc_read_attributes(sc_state *state, sc_element *element, const xmlChar **attributes) {
    if (attributes == NULL) return;
    size_t used = 0;
    for (const xmlChar **pair = attributes; pair[0] != NULL; pair += 2) {
        if (sc_is_namespace_declaration((const char *)pair[0]) && pair[1] != NULL) {
            // "NAME: IRI " appended while it fits; a declaration that does not fit is left out.
            const char *prefix = (const char *)pair[0] + 6;
            size_t needed = strlen(prefix) + strlen((const char *)pair[1]) + 3;
            if (used + needed < sizeof state->namespaces) {
                used += (size_t)snprintf(state->namespaces + used, sizeof state->namespaces - used, "%s: %s ", prefix,
                                         (const char *)pair[1]);
                element->attributeMask |= 1u << SC_ATTR_XMLNS;
                element->values[SC_ATTR_XMLNS] = state->namespaces;
            }
            continue;
        }
        int attribute = sc_classify_attribute((const char *)pair[0]);
        if (attribute < 0 || (element->attributeMask & (1u << attribute)) != 0) continue;
        element->attributeMask |= 1u << attribute;
        element->values[attribute] = pair[1] != NULL ? (const char *)pair[1] : "";
    }
}

static void sc_ignore_error(void *userData, xmlErrorPtr error);
static void sc_free_own_document(xmlParserCtxtPtr context);

/// Parses `length` bytes of UTF-8 apart from the page, by libxml2 with the scan's options, with
/// `state` as the callbacks' user data: `start` and `characters` (either may be NULL) are the
/// only callbacks, errors are ignored. Returns 0, or -1 when no parser could be made.
static int sc_parse_apart(sc_state *state, const char *bytes, size_t length, startElementSAXFunc start,
                          charactersSAXFunc characters) {
    if (length > INT32_MAX) return -1;
    htmlParserCtxtPtr apart = htmlCreateMemoryParserCtxt(bytes, (int)length);
    if (apart == NULL || apart->sax == NULL) {
        if (apart != NULL) htmlFreeParserCtxt(apart);
        return -1;
    }
    memset(apart->sax, 0, sizeof(htmlSAXHandler));
    apart->sax->initialized = XML_SAX2_MAGIC;
    apart->sax->startElement = start;
    apart->sax->characters = characters;
    apart->sax->ignorableWhitespace = characters;
    apart->sax->serror = sc_ignore_error;
    apart->userData = state;
    htmlCtxtUseOptions(apart, HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC);
    xmlSwitchEncoding(apart, XML_CHAR_ENCODING_UTF8);
    htmlParseDocument(apart);
    sc_free_own_document(apart);
    apart->userData = apart;
    htmlFreeParserCtxt(apart);
    return 0;
}

/// From a script's `startElement` callback: libxml2 ends a script at its first `</script`; a
/// browser does not when the script reads `<!--<script` first (the "double escaped" state: a
/// script that writes a script). The script's content is read as a browser's tokenizer reads it
/// (HTML §13.2.5.4 and §13.2.5.15–.31: script data, escaped after `<!--`, double escaped after
/// `<!--<script`), and each `</script` it reads as text is made `< script` in libxml2's copy of
/// the input, so that both end the script at the same place. The content libxml2 then passes on
/// keeps a space for those slashes.
static void sc_join_double_escaped_script(sc_state *state) {
    if (!sc_can_move(state)) return;
    xmlParserInputPtr input = state->context->input;
    if (*input->cur != '>') return;
    enum { DATA, ESCAPED, DOUBLE_ESCAPED } mode = DATA;
    const xmlChar *cursor = input->cur + 1, *end = input->end;
    while (cursor < end) {
        if (mode == DATA) {
            const xmlChar *open = memchr(cursor, '<', (size_t)(end - cursor));
            if (open == NULL) return;
            cursor = open + 1;
            if (cursor < end && *cursor == '/' && sc_is_tag_name_at(cursor + 1, end, "script")) return;
            if (end - cursor >= 3 && cursor[0] == '!' && cursor[1] == '-' && cursor[2] == '-') {
                // `<!--` leaves the state at "escaped dash dash": `-->` right away ends the escape.
                cursor += 3;
                mode = ESCAPED;
                while (cursor < end && *cursor == '-') cursor++;
                if (cursor < end && *cursor == '>') mode = DATA, cursor++;
            }
            continue;
        }
        xmlChar byte = *cursor;
        if (byte == '-' && end - cursor >= 3 && cursor[1] == '-' && cursor[2] == '>') {
            // `-->` in either escaped state returns to script data.
            mode = DATA;
            cursor += 3;
        } else if (byte == '<' && cursor + 1 < end && cursor[1] == '/' && sc_is_tag_name_at(cursor + 2, end, "script")) {
            if (mode == ESCAPED) return;
            ((xmlChar *)(uintptr_t)cursor)[1] = ' ';
            mode = ESCAPED;
            cursor += 8;
        } else if (byte == '<' && mode == ESCAPED && sc_is_tag_name_at(cursor + 1, end, "script")) {
            mode = DOUBLE_ESCAPED;
            cursor += 7;
        } else {
            cursor++;
        }
    }
}

/// The text of `sc_read_title_as_text`'s own parse, passed on as the title's.
static void sc_title_characters(void *userData, const xmlChar *bytes, int length) {
    sc_state *state = userData;
    if (length > 0) state->callbacks->characters(state->callbacks->context, bytes, length);
}

/// From the title's `startElement` callback, when its text is wanted: a browser reads a title's
/// content up to `</title` as text (escapable raw text, HTML §13.2.5.2), character references
/// decoded and tags kept as written, where libxml2 reads tags there. Content without a `<` reads
/// the same either way and is left to libxml2. Otherwise it is parsed apart, each `<` written as
/// `&lt;`, as a title of its own whose text goes to `characters`, and the parser moves past it.
static void sc_read_title_as_text(sc_state *state) {
    if (!sc_can_move(state)) return;
    xmlParserInputPtr input = state->context->input;
    if (*input->cur != '>') return;
    const unsigned char *start = input->cur + 1;
    sc_run run;
    if (start >= input->end || !sc_measure_run(start, input->end, "title", &run) || run.stop == start) return;
    size_t length = (size_t)(run.stop - start), angles = 0;
    for (const unsigned char *cursor = start; (cursor = memchr(cursor, '<', (size_t)(run.stop - cursor))) != NULL;
         cursor++) {
        angles++;
    }
    if (angles == 0) return;
    static const char opening[] = "<title>", closing[] = "</title>";
    size_t size = sizeof opening - 1 + length + 3 * angles + sizeof closing - 1;
    if (size > INT32_MAX) return;
    char *copy = malloc(size);
    if (copy == NULL) return;
    char *out = copy;
    memcpy(out, opening, sizeof opening - 1);
    out += sizeof opening - 1;
    for (const unsigned char *cursor = start; cursor < run.stop; cursor++) {
        if (*cursor == '<') {
            memcpy(out, "&lt;", 4);
            out += 4;
        } else {
            *out++ = (char)*cursor;
        }
    }
    memcpy(out, closing, sizeof closing - 1);
    int parsed = sc_parse_apart(state, copy, size, NULL, sc_title_characters);
    free(copy);
    if (parsed == 0) sc_move_past_measured_run(state, &run);
}

static void sc_start_element(void *userData, const xmlChar *name, const xmlChar **attributes) {
    sc_state *state = userData;
    sc_catch_up_dropped_end_tags(state);
    sc_element element;
    memset(&element, 0, sizeof element);
    element.name = (const char *)name;
    if (state->rawTextDepth > 0) {
        state->rawTextDepth++;
        state->justOpened = NULL;
        return;
    }
    if (state->context->input != NULL && state->context->input->cur >= state->context->input->end &&
        !sc_may_be_implied((const char *)name)) {
        state->droppedAtEnd = 1;
        state->justOpened = NULL;
        return;
    }
    element.tag = sc_classify_tag((const char *)name);
    element.line = state->context->input != NULL ? state->context->input->line : 0;
    element.column = state->context->input != NULL
                         ? sc_source_column(state, state->context->input->col, state->context->input->line)
                         : 0;
    if (!sc_may_be_implied((const char *)name) || sc_is_written_tag(state->context, (const char *)name)) {
        sc_place_start_tag(state, (const char *)name);
    }
    element.inBody = state->phase == SC_IN_BODY;
    if (element.tag == SC_TAG_TEMPLATE) state->templateDepth++;
    sc_read_attributes(state, &element, attributes);
    state->wantsCharacters = state->callbacks->start(state->callbacks->context, &element);
    state->justOpened = name;
    if (element.tag == SC_TAG_SCRIPT) sc_join_double_escaped_script(state);
    if (sc_has_raw_text_content((const char *)name)) {
        state->rawTextDepth = 1;
        if (state->wantsCharacters && element.tag == SC_TAG_TITLE) sc_read_title_as_text(state);
        return;
    }
    // An element libxml2 implies (`<body>` for an `<h1>`, `<head>` for a `<title>`) is reported
    // while the tag that implied it is read: where that tag has no attributes the parser stands
    // at its `>` too, and what follows is that tag's content, not the implied element's.
    if (!state->wantsCharacters && state->skipsUnreadText && sc_can_move(state) &&
        (attributes != NULL || sc_follows_own_start_tag_name(state->context->input->base,
                                                              state->context->input->cur, (const char *)name))) {
        sc_move_past_unread_after_start(state, element.tag);
    }
}

/// What follows a start tag that nobody reads: the body of a script or style, or the text up to
/// the next tag or reference inside an element that holds content.
static void sc_move_past_unread_after_start(sc_state *state, sc_tag tag) {
    const xmlChar *name = state->context->name;
    if (name == NULL) return;
    if (tag == SC_TAG_SCRIPT || tag == SC_TAG_STYLE) {
        // A body that starts with `<` is left to libxml2, which reads a tag there first.
        const xmlChar *cur = state->context->input->cur;
        if (state->context->input->end - cur < 2 || cur[1] == '<') return;
        if (sc_move_past_run_after_start_tag(state, (const char *)name) > 0) state->report->skippedRawTexts++;
        return;
    }
    if (sc_is_empty_element(state, name) || sc_text_may_imply_elements(name)) return;
    state->report->skippedTextBytes += sc_move_past_run_after_start_tag(state, NULL);
}

static void sc_end_element(void *userData, const xmlChar *name) {
    sc_state *state = userData;
    sc_catch_up_dropped_end_tags(state);
    if (state->droppedAtEnd) {
        state->droppedAtEnd = 0;
        state->justOpened = NULL;
        return;
    }
    if (state->rawTextDepth > 1) {
        state->rawTextDepth--;
        state->justOpened = NULL;
        return;
    }
    state->rawTextDepth = 0;
    sc_place_end_tag(state, (const char *)name);
    state->wantsCharacters = state->callbacks->end(state->callbacks->context,
                                                   sc_classify_tag((const char *)name));
    const xmlChar *opened = state->justOpened;
    state->justOpened = NULL;
    if (state->wantsCharacters || !state->skipsUnreadText || !sc_can_move(state)) return;
    // Only where the parser stands just past the tag that closed this very element: its own end
    // tag, or its start tag when that closed it (`<br>`, `<div/>`). An element closed on the way
    // (`</div>` closing an open `<span>`) is followed by more end callbacks, and the text after
    // belongs to what is open after the last of them.
    htmlParserCtxtPtr context = state->context;
    const xmlChar *cur = context->input->cur, *base = context->input->base;
    int closedHere = sc_follows_own_end_tag(base, cur, (const char *)name);
    // Names are mostly the same pointer (libxml2 keeps them in its dictionary).
    if (!closedHere && opened != NULL && (opened == name || strcmp((const char *)opened, (const char *)name) == 0) &&
        cur - base >= 2 &&
        cur[-1] == '>') {
        closedHere = cur[-2] == '/' || sc_is_empty_element(state, name);
    }
    // The text after belongs to the element under this one (popped after this callback).
    if (!closedHere || context->nameNr < 2 || sc_text_may_imply_elements(context->nameTab[context->nameNr - 2])) return;
    state->report->skippedTextBytes += sc_move_past_text_after_end(state);
}

static void sc_characters(void *userData, const xmlChar *bytes, int length) {
    sc_state *state = userData;
    sc_catch_up_dropped_end_tags(state);
    state->justOpened = NULL;
    if (length > 0) sc_place_text(state, state->context->name, bytes, (size_t)length);
    if (state->wantsCharacters && length > 0) {
        state->callbacks->characters(state->callbacks->context, bytes, length);
    }
}

/// Where the start tag whose attributes start at `cursor` ends: after its first `>` outside a
/// quoted value, or at `end`.
static const xmlChar *sc_start_tag_end(const xmlChar *cursor, const xmlChar *end) {
    while (cursor < end) {
        xmlChar byte = *cursor;
        if (byte == '>') return cursor + 1;
        if ((byte == '"' || byte == '\'') && cursor[-1] == '=') {
            const xmlChar *close = memchr(cursor + 1, byte, (size_t)(end - cursor - 1));
            if (close == NULL) return end;
            cursor = close + 1;
            continue;
        }
        cursor++;
    }
    return end;
}

/// The dropped tag's start callback in `sc_merge_misplaced`'s own parse: its attributes go to
/// Swift as a merge.
static void sc_merge_start(void *userData, const xmlChar *name, const xmlChar **attributes) {
    sc_state *state = userData;
    if (state->mergedTag == NULL || !sc_is((const char *)name, state->mergedTag) || attributes == NULL) return;
    sc_element element;
    memset(&element, 0, sizeof element);
    element.name = state->mergedTag;
    element.tag = sc_classify_tag(state->mergedTag);
    xmlParserInputPtr input = state->context->input;
    element.line = input != NULL ? input->line : 0;
    element.column = input != NULL ? sc_source_column(state, input->col, input->line) : 0;
    element.inBody = state->phase == SC_IN_BODY;
    sc_read_attributes(state, &element, attributes);
    if (element.attributeMask != 0) state->callbacks->mergeAttributes(state->callbacks->context, &element);
}

static void sc_ignore_error(void *userData, xmlErrorPtr error) {
    (void)userData;
    (void)error;
}

/// libxml2 drops an `<html>` start tag once the root is open, and a `<body>` tag once a body is,
/// with their attributes. A browser adds each attribute the element lacks (§13.2.6.4.7, "in body",
/// a start tag "html" or "body"). The tag (`<html` or `<body` just read, the parser standing after
/// its name) is parsed again on its own, by libxml2 with the same options, so its values read
/// exactly as elsewhere, and its attributes are handed to `mergeAttributes`.
static void sc_merge_misplaced(sc_state *state, const char *name) {
    xmlParserInputPtr input = state->context->input;
    if (input == NULL || input->cur == NULL || input->base == NULL || input->end == NULL) return;
    size_t nameLength = strlen(name);
    const xmlChar *open = input->cur;
    for (int steps = 0; open > input->base && *open != '<' && steps < 64; steps++) open--;
    if (*open != '<' || (size_t)(input->end - open) <= nameLength ||
        strncasecmp((const char *)open + 1, name, nameLength) != 0) {
        return;
    }
    const xmlChar *close = sc_start_tag_end(open + 1 + nameLength, input->end);
    state->mergedTag = name;
    sc_parse_apart(state, (const char *)open, (size_t)(close - open), sc_merge_start, NULL);
    state->mergedTag = NULL;
}

static void sc_structured_error(void *userData, xmlErrorPtr error) {
    sc_state *state = userData;
    if (error == NULL) return;
    switch (error->code) {
    case XML_ERR_INVALID_CHAR:
    case XML_ERR_INVALID_ENCODING:
        if (state->report->encodingErrors++ == 0) state->report->encodingErrorLine = error->line;
        break;
    case XML_ERR_UNKNOWN_ENCODING:
    case XML_ERR_UNSUPPORTED_ENCODING:
        state->report->unsupportedEncoding = 1;
        break;
    default:
        // A `<body>` tag met after libxml2 already opened an implied body (or a second one), or a
        // second `<html>`, is dropped from the tree with this error, where a browser adds its
        // attributes to the element. Not inside a raw text element (the tag is text there) nor a
        // template (a browser ignores the tag with a template open).
        if (error->code == XML_HTML_STRUCURE_ERROR && error->str1 != NULL && state->context != NULL &&
            error->ctxt == state->context && error->message != NULL && strstr(error->message, "misplaced") != NULL) {
            // libxml2 counts the tag it drops (`sc_catch_up_dropped_end_tags`).
            state->droppedStartTags++;
            int isBody = strcasecmp(error->str1, "body") == 0, isHTML = strcasecmp(error->str1, "html") == 0;
            if ((isBody || isHTML) && state->rawTextDepth == 0 && state->templateDepth == 0) {
                if (isBody) state->phase = SC_IN_BODY;
                sc_merge_misplaced(state, isBody ? "body" : "html");
            }
        }
        // An end tag for an element libxml2 does not have open ("Unexpected end tag : body", its
        // name in `str1`): `</body>`, `</html>` or `</br>` before the body opens it in a browser,
        // unless it is written where a browser reads text (libxml2's current element a title, a
        // script …, which libxml2 reads an end tag in when it comes first).
        if (error->code == XML_ERR_TAG_NAME_MISMATCH && error->str1 != NULL && state->context != NULL &&
            error->ctxt == state->context &&
            (state->context->name == NULL || !sc_has_text_content((const char *)state->context->name))) {
            sc_place_body_opening_end_tag(state, error->str1);
        }
        state->report->parseErrors++;
        break;
    }
}

// MARK: - Scan

/// The bytes libxml2 is given: `*bytes` as they are, or (a start tag over `SC_MAXIMUM_ATTRIBUTES`)
/// the copy in `cap->bytes` without the attributes past the cap, which the caller frees. Returns 0,
/// -1 when the copy could not be made, -2 for input libxml2 cannot take (over `INT32_MAX` bytes).
static int sc_prepare(const char **bytes, size_t *length, int xml, sc_reads_attribute reads, sc_attribute_cap *cap) {
    memset(cap, 0, sizeof *cap);
    if (*length > (size_t)INT32_MAX) return -2;
    if (sc_cap_attributes(*bytes, *length, SC_MAXIMUM_ATTRIBUTES, xml, reads, cap) != 0) return -1;
    if (cap->bytes != NULL) {
        *bytes = cap->bytes;
        *length = cap->length;
    }
    return 0;
}

/// Entity declarations in a DOCTYPE make libxml2 create a document of its own to hold them
/// (`SAX_COMPAT_MODE`), even with a SAX handler; the parser context does not free it.
static void sc_free_own_document(xmlParserCtxtPtr context) {
    if (context->myDoc != NULL) {
        xmlFreeDoc(context->myDoc);
        context->myDoc = NULL;
    }
}

void sc_scan(const char *bytes, size_t length, const char *encoding, int skipsUnreadText,
             const sc_callbacks *callbacks, sc_scan_report *report) {
    memset(report, 0, sizeof *report);
    sc_initialize();
    int forcedEncoding = encoding != NULL && encoding[0] != 0;
    int forcedUTF8 = forcedEncoding && (strcasecmp(encoding, "UTF-8") == 0 || strcasecmp(encoding, "UTF8") == 0);
    sc_attribute_cap cap;
    // Unread attribute values are left out only where libxml2 reads the bytes as they are (UTF-8),
    // so that its columns can be mended (`sc_source_column`).
    report->status = sc_prepare(&bytes, &length, 0, skipsUnreadText && forcedUTF8 ? sc_reads_attribute_named : NULL, &cap);
    if (report->status != 0) return;
    report->skippedAttributeValues = (long)cap.removalCount;
    report->cappedElements = cap.cappedElements;
    report->cappedFirstLine = cap.firstLine;
    report->droppedAttributes = cap.droppedAttributes;
    report->largestAttributeCount = cap.largestCount;
    htmlParserCtxtPtr context = htmlCreateMemoryParserCtxt(bytes, (int)length);
    if (context == NULL || context->sax == NULL) {
        report->status = -1;
        if (context != NULL) htmlFreeParserCtxt(context);
        free(cap.bytes);
        free(cap.removals);
        return;
    }
    sc_state state = {.context = context, .callbacks = callbacks, .report = report, .wantsCharacters = 0, .phase = SC_BEFORE_HEAD,
                      .skipsUnreadText = skipsUnreadText, .removals = cap.removals, .removalCount = cap.removalCount};

    // Replace the DOM-building SAX2 handler: no tree is built, only our callbacks run.
    memset(context->sax, 0, sizeof(htmlSAXHandler));
    context->sax->initialized = XML_SAX2_MAGIC;
    context->sax->startElement = sc_start_element;
    context->sax->endElement = sc_end_element;
    context->sax->characters = sc_characters;
    context->sax->cdataBlock = sc_characters;
    context->sax->ignorableWhitespace = sc_characters;
    context->sax->serror = sc_structured_error;
    context->userData = &state;

    int options = HTML_PARSE_RECOVER | HTML_PARSE_NONET;
    // An encoding from outside the document wins over <meta charset>.
    if (forcedEncoding) options |= HTML_PARSE_IGNORE_ENC;
    htmlCtxtUseOptions(context, options);
    if (forcedUTF8) {
        // UTF-8 is libxml2's internal encoding: switching by enum avoids a UTF-8 → UTF-8 converter
        // (a copy of every byte, and a slow xmlByteConsumed).
        xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8);
    } else if (forcedEncoding) {
        xmlCharEncodingHandlerPtr handler = xmlFindCharEncodingHandler(encoding);
        if (handler != NULL) {
            xmlSwitchToEncoding(context, handler);
        } else {
            report->unsupportedEncoding = 1;
        }
    }
    // Encoding conversion errors are raised without a parser context and would go to libxml2's
    // thread-local generic handlers (stderr): route them to this scan while it runs.
    xmlSetStructuredErrorFunc(&state, sc_structured_error);
    htmlParseDocument(context);
    xmlSetStructuredErrorFunc(NULL, NULL);

    const char *name = NULL;
    if (context->input != NULL && context->input->buf != NULL && context->input->buf->encoder != NULL) {
        name = context->input->buf->encoder->name;
    } else if (context->encoding != NULL) {
        name = (const char *)context->encoding;
    }
    strncpy(report->encoding, name != NULL ? name : "UTF-8", sizeof report->encoding - 1);

    sc_free_own_document(context);
    context->userData = context;
    htmlFreeParserCtxt(context);
    free(cap.bytes);
    free(cap.removals);
}

// MARK: - XML (sitemaps)

typedef struct sc_xml_state {
    xmlParserCtxtPtr context;
    const sc_xml_callbacks *callbacks;
    sc_xml_report *report;
} sc_xml_state;

static void sc_xml_start(void *userData, const xmlChar *localName, const xmlChar *prefix, const xmlChar *uri,
                         int namespaceCount, const xmlChar **namespaces, int attributeCount, int defaulted,
                         const xmlChar **attributes) {
    (void)prefix; (void)namespaceCount; (void)namespaces; (void)attributeCount; (void)defaulted; (void)attributes;
    sc_xml_state *state = userData;
    int line = state->context->input != NULL ? state->context->input->line : 0;
    state->callbacks->start(state->callbacks->context, (const char *)localName, (const char *)uri, line);
}

static void sc_xml_end(void *userData, const xmlChar *localName, const xmlChar *prefix, const xmlChar *uri) {
    (void)prefix; (void)uri;
    sc_xml_state *state = userData;
    state->callbacks->end(state->callbacks->context, (const char *)localName);
}

static void sc_xml_characters(void *userData, const xmlChar *bytes, int length) {
    sc_xml_state *state = userData;
    if (length > 0) state->callbacks->characters(state->callbacks->context, bytes, length);
}

static void sc_xml_internal_subset(void *userData, const xmlChar *name, const xmlChar *externalID,
                                   const xmlChar *systemID) {
    (void)name; (void)externalID; (void)systemID;
    sc_xml_state *state = userData;
    state->report->hasDoctype = 1;
}

static void sc_xml_error(void *userData, xmlErrorPtr error) {
    sc_xml_state *state = userData;
    if (error == NULL || error->level < XML_ERR_ERROR || state->report->errorCode != 0) return;
    state->report->errorCode = error->code;
    state->report->errorLine = error->line;
    if (error->message != NULL) {
        strncpy(state->report->errorMessage, error->message, sizeof state->report->errorMessage - 1);
        size_t end = strlen(state->report->errorMessage);
        while (end > 0 && (state->report->errorMessage[end - 1] == '\n')) state->report->errorMessage[--end] = 0;
    }
}

void sc_scan_xml(const char *bytes, size_t length, const sc_xml_callbacks *callbacks, sc_xml_report *report) {
    memset(report, 0, sizeof *report);
    sc_initialize();
    sc_attribute_cap cap;
    report->status = sc_prepare(&bytes, &length, 1, NULL, &cap);
    if (report->status != 0) return;
    report->cappedElements = cap.cappedElements;
    report->cappedFirstLine = cap.firstLine;
    xmlParserCtxtPtr context = xmlCreateMemoryParserCtxt(bytes, (int)length);
    if (context == NULL || context->sax == NULL) {
        report->status = -1;
        if (context != NULL) xmlFreeParserCtxt(context);
        free(cap.bytes);
        return;
    }
    sc_xml_state state = {.context = context, .callbacks = callbacks, .report = report};
    memset(context->sax, 0, sizeof(xmlSAXHandler));
    context->sax->initialized = XML_SAX2_MAGIC;
    context->sax->startElementNs = sc_xml_start;
    context->sax->endElementNs = sc_xml_end;
    context->sax->characters = sc_xml_characters;
    context->sax->cdataBlock = sc_xml_characters;
    context->sax->internalSubset = sc_xml_internal_subset;
    context->sax->serror = sc_xml_error;
    context->userData = &state;
    // No XML_PARSE_NOENT (no substitution), no DTDLOAD/DTDATTR, no XINCLUDE, no HUGE limits.
    xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlSetStructuredErrorFunc(&state, sc_xml_error);
    xmlParseDocument(context);
    xmlSetStructuredErrorFunc(NULL, NULL);
    report->wellFormed = context->wellFormed;
    sc_free_own_document(context);
    context->userData = context;
    xmlFreeParserCtxt(context);
    free(cap.bytes);
}
