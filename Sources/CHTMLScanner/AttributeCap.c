// Caps the attributes of each start tag before libxml2 reads the document (issue 17 §2.2).
//
// libxml2 2.9.14 checks every new attribute of a start tag against all earlier ones (HTML:
// `htmlParseStartTag`, `xmlStrEqual`; XML: `xmlParseStartTag2`): 300,000 attributes on one
// `<meta>` took 88 s of CPU, 100,000 on a sitemap's `<urlset>` 2 s. This pass tokenizes start tags
// the way the parser does (a name; blanks; `name`, optional `= value` quoted or not; in HTML a name
// that does not start like one is skipped up to the next blank) and, for a tag with more than
// `cap` attributes, leaves out everything from attribute `cap + 1` to the end of the tag, keeping
// its newlines so every later line number stays the source's. Comments (and in HTML the text of
// `<script>` and `<style>`, in XML CDATA sections) are passed over as the parser does. It reads
// each byte at most a few times; when no tag is over the cap (every real page), nothing is copied
// for the cap. The same pass leaves out the quoted values of attributes nobody reads, when asked
// (HTML only; DEVELOPERS.md, "libxml2 facts"): libxml2 reads each of their characters one by one,
// and the copy this takes is cheaper than that.
#include "AttributeCap.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// What each byte is to the tokenizer, one table lookup instead of a chain of comparisons.
enum {
    SC_BLANK = 1,        // ' ', tab, LF, CR, FF
    SC_LETTER = 2,       // ASCII letters
    SC_NAME_START = 4,   // an HTML name's first byte: a letter, '_', ':' or '.'
    SC_NAME_PART = 8,    // an HTML name's later bytes: those, digits and '-'
};

static const unsigned char sc_byte_class[256] = {
    [' '] = SC_BLANK, ['\t'] = SC_BLANK, ['\n'] = SC_BLANK, ['\r'] = SC_BLANK, ['\f'] = SC_BLANK,
    ['_'] = SC_NAME_START | SC_NAME_PART, [':'] = SC_NAME_START | SC_NAME_PART, ['.'] = SC_NAME_START | SC_NAME_PART,
    ['-'] = SC_NAME_PART,
    ['0'] = SC_NAME_PART, ['1'] = SC_NAME_PART, ['2'] = SC_NAME_PART, ['3'] = SC_NAME_PART, ['4'] = SC_NAME_PART,
    ['5'] = SC_NAME_PART, ['6'] = SC_NAME_PART, ['7'] = SC_NAME_PART, ['8'] = SC_NAME_PART, ['9'] = SC_NAME_PART,
#define SC_LETTER_CLASS SC_LETTER | SC_NAME_START | SC_NAME_PART
    ['a'] = SC_LETTER_CLASS, ['b'] = SC_LETTER_CLASS, ['c'] = SC_LETTER_CLASS, ['d'] = SC_LETTER_CLASS,
    ['e'] = SC_LETTER_CLASS, ['f'] = SC_LETTER_CLASS, ['g'] = SC_LETTER_CLASS, ['h'] = SC_LETTER_CLASS,
    ['i'] = SC_LETTER_CLASS, ['j'] = SC_LETTER_CLASS, ['k'] = SC_LETTER_CLASS, ['l'] = SC_LETTER_CLASS,
    ['m'] = SC_LETTER_CLASS, ['n'] = SC_LETTER_CLASS, ['o'] = SC_LETTER_CLASS, ['p'] = SC_LETTER_CLASS,
    ['q'] = SC_LETTER_CLASS, ['r'] = SC_LETTER_CLASS, ['s'] = SC_LETTER_CLASS, ['t'] = SC_LETTER_CLASS,
    ['u'] = SC_LETTER_CLASS, ['v'] = SC_LETTER_CLASS, ['w'] = SC_LETTER_CLASS, ['x'] = SC_LETTER_CLASS,
    ['y'] = SC_LETTER_CLASS, ['z'] = SC_LETTER_CLASS,
    ['A'] = SC_LETTER_CLASS, ['B'] = SC_LETTER_CLASS, ['C'] = SC_LETTER_CLASS, ['D'] = SC_LETTER_CLASS,
    ['E'] = SC_LETTER_CLASS, ['F'] = SC_LETTER_CLASS, ['G'] = SC_LETTER_CLASS, ['H'] = SC_LETTER_CLASS,
    ['I'] = SC_LETTER_CLASS, ['J'] = SC_LETTER_CLASS, ['K'] = SC_LETTER_CLASS, ['L'] = SC_LETTER_CLASS,
    ['M'] = SC_LETTER_CLASS, ['N'] = SC_LETTER_CLASS, ['O'] = SC_LETTER_CLASS, ['P'] = SC_LETTER_CLASS,
    ['Q'] = SC_LETTER_CLASS, ['R'] = SC_LETTER_CLASS, ['S'] = SC_LETTER_CLASS, ['T'] = SC_LETTER_CLASS,
    ['U'] = SC_LETTER_CLASS, ['V'] = SC_LETTER_CLASS, ['W'] = SC_LETTER_CLASS, ['X'] = SC_LETTER_CLASS,
    ['Y'] = SC_LETTER_CLASS, ['Z'] = SC_LETTER_CLASS,
#undef SC_LETTER_CLASS
};

static int sc_is_blank(unsigned char c) { return sc_byte_class[c] & SC_BLANK; }

static int sc_is_letter(unsigned char c) { return sc_byte_class[c] & SC_LETTER; }

/// libxml2's `htmlParseHTMLName`: a letter, `_`, `:` or `.`, then letters, digits, `:`, `-`, `_`, `.`.
/// In XML, any run of bytes up to a blank, `=`, `>`, `/` or a quote (XML names may be non-ASCII).
static size_t sc_name_length(const unsigned char *cursor, const unsigned char *end, int xml) {
    if (xml) {
        const unsigned char *start = cursor;
        while (cursor < end && !sc_is_blank(*cursor) && *cursor != '=' && *cursor != '>' && *cursor != '/' &&
               *cursor != '"' && *cursor != '\'' && *cursor != '<' && *cursor != 0) {
            cursor++;
        }
        return (size_t)(cursor - start);
    }
    if (cursor >= end || !(sc_byte_class[*cursor] & SC_NAME_START)) return 0;
    const unsigned char *start = cursor;
    while (cursor < end && (sc_byte_class[*cursor] & SC_NAME_PART)) cursor++;
    return (size_t)(cursor - start);
}

/// The first occurrence of `needle` (ASCII, matched case-insensitively) at or after `cursor`, or `end`.
static const unsigned char *sc_find(const unsigned char *cursor, const unsigned char *end, const char *needle) {
    size_t length = strlen(needle);
    while (cursor < end) {
        const unsigned char *open = memchr(cursor, needle[0], (size_t)(end - cursor));
        if (open == NULL || (size_t)(end - open) < length) return end;
        if (strncasecmp((const char *)open, needle, length) == 0) return open;
        cursor = open + 1;
    }
    return end;
}

/// Values to leave out of one start tag: [start, end) ranges, in order.
typedef struct sc_value_ranges {
    const unsigned char *(*ranges)[2];
    size_t count;
    size_t capacity;
    int failed;
} sc_value_ranges;

static void sc_add_range(sc_value_ranges *values, const unsigned char *start, const unsigned char *end) {
    if (values->count == values->capacity) {
        size_t capacity = values->capacity > 0 ? values->capacity * 2 : 16;
        void *grown = realloc(values->ranges, capacity * sizeof *values->ranges);
        if (grown == NULL) {
            values->failed = 1;
            return;
        }
        values->ranges = grown;
        values->capacity = capacity;
    }
    values->ranges[values->count][0] = start;
    values->ranges[values->count][1] = end;
    values->count++;
}

/// libxml2 reads names of up to 100 bytes (`HTML_PARSER_BUFFER_SIZE`); a longer one is read as
/// two, so its value is left alone.
enum { SC_LONGEST_WHOLE_NAME = 99 };

/// True when nobody reads the attribute `name` and libxml2 reads its quoted value [start, end)
/// without a word: printable ASCII but `&` (no reference, no line break, nothing invalid).
static int sc_value_is_unread(const unsigned char *name, size_t nameLength, const unsigned char *start,
                              const unsigned char *end, sc_reads_attribute reads) {
    if (end - start < 2 || nameLength > SC_LONGEST_WHOLE_NAME) return 0;
    char lowered[SC_LONGEST_WHOLE_NAME + 1];
    for (size_t index = 0; index < nameLength; index++) {
        unsigned char byte = name[index];
        lowered[index] = (char)(byte >= 'A' && byte <= 'Z' ? byte | 0x20 : byte);
    }
    lowered[nameLength] = 0;
    if (reads(lowered)) return 0;
    const unsigned char *byte = start;
#if defined(__SSE2__)
    // Sixteen bytes at a time: below 0x20 (signed: every non-ASCII byte too), DEL or '&'.
    const __m128i space = _mm_set1_epi8(0x20), delete = _mm_set1_epi8(0x7F), ampersand = _mm_set1_epi8('&');
    for (; end - byte >= 16; byte += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(const void *)byte);
        __m128i flagged = _mm_or_si128(_mm_cmplt_epi8(block, space),
                                       _mm_or_si128(_mm_cmpeq_epi8(block, delete), _mm_cmpeq_epi8(block, ampersand)));
        if (_mm_movemask_epi8(flagged) != 0) return 0;
    }
#endif
    for (; byte < end; byte++) {
        if (*byte < 0x20 || *byte > 0x7E || *byte == '&') return 0;
    }
    return 1;
}

/// Where a start tag's attributes end (its `>`, its `/>`, a NUL or the end of input), counting
/// its attributes; `*excess` is where attribute `cap + 1` starts, or NULL. With `reads`, the
/// unread values before the excess are added to `values`.
static const unsigned char *sc_attributes_end(const unsigned char *cursor, const unsigned char *end, int cap,
                                              int xml, long *count, const unsigned char **excess,
                                              sc_reads_attribute reads, sc_value_ranges *values) {
    *count = 0;
    *excess = NULL;
    while (cursor < end && sc_is_blank(*cursor)) cursor++;
    while (cursor < end && *cursor != 0 && *cursor != '>' && !(*cursor == '/' && cursor + 1 < end && cursor[1] == '>')) {
        size_t nameLength = sc_name_length(cursor, end, xml);
        if (nameLength == 0) {
            // Not a name: libxml2 skips up to the next blank or the end of the tag (XML: one byte).
            if (xml) {
                cursor++;
                continue;
            }
            while (cursor < end && *cursor != 0 && !sc_is_blank(*cursor) && *cursor != '>' &&
                   !(*cursor == '/' && cursor + 1 < end && cursor[1] == '>')) {
                cursor++;
            }
        } else {
            if (*count == cap) *excess = cursor;
            *count += 1;
            const unsigned char *name = cursor;
            cursor += nameLength;
            while (cursor < end && sc_is_blank(*cursor)) cursor++;
            if (cursor < end && *cursor == '=') {
                cursor++;
                while (cursor < end && sc_is_blank(*cursor)) cursor++;
                if (cursor < end && (*cursor == '"' || *cursor == '\'')) {
                    const unsigned char *close = memchr(cursor + 1, *cursor, (size_t)(end - cursor - 1));
                    if (close != NULL && reads != NULL && *excess == NULL &&
                        sc_value_is_unread(name, nameLength, cursor + 1, close, reads)) {
                        sc_add_range(values, cursor + 1, close);
                    }
                    cursor = close != NULL ? close + 1 : end;
                } else {
                    while (cursor < end && *cursor != 0 && !sc_is_blank(*cursor) && *cursor != '>') cursor++;
                }
            }
        }
        while (cursor < end && sc_is_blank(*cursor)) cursor++;
    }
    return cursor;
}

static long sc_count_lines(const unsigned char *start, const unsigned char *end) {
    long lines = 1;
    while (start < end) {
        const unsigned char *newline = memchr(start, '\n', (size_t)(end - start));
        if (newline == NULL) break;
        lines++;
        start = newline + 1;
    }
    return lines;
}

/// Appends `[start, end)` to `output`, or only its newlines when `newlinesOnly`.
static void sc_append(unsigned char *output, size_t *used, const unsigned char *start, const unsigned char *end,
                      int newlinesOnly) {
    if (!newlinesOnly) {
        memcpy(output + *used, start, (size_t)(end - start));
        *used += (size_t)(end - start);
        return;
    }
    for (const unsigned char *cursor = start; cursor < end; cursor++) {
        if (*cursor == '\n') output[(*used)++] = '\n';
    }
}

/// Appends a removal, growing the array; 0 when it cannot.
static int sc_add_removal(sc_attribute_cap *result, size_t *capacity, sc_value_removal removal) {
    if (result->removalCount == *capacity) {
        size_t grown = *capacity > 0 ? *capacity * 2 : 64;
        void *removals = realloc(result->removals, grown * sizeof *result->removals);
        if (removals == NULL) return 0;
        result->removals = removals;
        *capacity = grown;
    }
    result->removals[result->removalCount++] = removal;
    return 1;
}

int sc_cap_attributes(const char *bytes, size_t length, int cap, int xml, sc_reads_attribute reads,
                      sc_attribute_cap *result) {
    memset(result, 0, sizeof *result);
    if (xml) reads = NULL;
    const unsigned char *start = (const unsigned char *)bytes;
    const unsigned char *end = start + length;
    const unsigned char *cursor = start;
    const unsigned char *copied = start; // bytes before this are in `output` (once there is one)
    unsigned char *output = NULL;
    size_t used = 0;
    sc_value_ranges values = {0};
    size_t removalCapacity = 0;
    // Lines are counted once, up to `linesCounted`, as removals need them.
    const unsigned char *linesCounted = start;
    long line = 1;
    // A title's content is text a browser keeps as written (escapable raw text): values inside it
    // are never left out, though libxml2 reads tags there and the cap still applies.
    const unsigned char *keepsValuesUntil = start;
    while (cursor < end) {
        const unsigned char *open = memchr(cursor, '<', (size_t)(end - cursor));
        if (open == NULL || open + 1 >= end) break;
        unsigned char next = open[1];
        if (next == '!' && end - open >= 4 && open[2] == '-' && open[3] == '-') {
            const unsigned char *close = sc_find(open + 4, end, "-->");
            cursor = close == end ? end : close + 3;
            continue;
        }
        if (xml && next == '!' && end - open >= 9 && memcmp(open + 2, "[CDATA[", 7) == 0) {
            const unsigned char *close = sc_find(open + 9, end, "]]>");
            cursor = close == end ? end : close + 3;
            continue;
        }
        if (xml ? (next == '!' || next == '?' || next == '/' || sc_is_blank(next)) : !sc_is_letter(next)) {
            cursor = open + 1;
            continue;
        }
        const unsigned char *name = open + 1;
        size_t nameLength = sc_name_length(name, end, xml);
        long count = 0;
        const unsigned char *excess = NULL;
        values.count = 0;
        const unsigned char *tagEnd =
            sc_attributes_end(name + nameLength, end, cap, xml, &count, &excess, open < keepsValuesUntil ? NULL : reads,
                              &values);
        if (values.failed) goto failure;
        if ((excess != NULL || values.count > 0) && output == NULL) {
            output = malloc(length > 0 ? length : 1);
            if (output == NULL) goto failure;
        }
        for (size_t index = 0; index < values.count; index++) {
            const unsigned char *valueStart = values.ranges[index][0], *valueEnd = values.ranges[index][1];
            line += sc_count_lines(linesCounted, valueStart) - 1;
            linesCounted = valueStart;
            sc_append(output, &used, copied, valueStart, 0);
            sc_value_removal removal = {.offset = used, .line = line, .characters = (long)(valueEnd - valueStart)};
            if (!sc_add_removal(result, &removalCapacity, removal)) goto failure;
            copied = valueEnd;
        }
        if (excess != NULL) {
            if (result->cappedElements == 0) result->firstLine = sc_count_lines(start, open);
            sc_append(output, &used, copied, excess, 0);
            sc_append(output, &used, excess, tagEnd, 1);
            copied = tagEnd;
            result->cappedElements += 1;
            result->droppedAttributes += count - cap;
            if (count > result->largestCount) result->largestCount = count;
        }
        cursor = tagEnd < end ? tagEnd + 1 : end;
        // The text of script and style is not markup: libxml2 reads it up to the matching end tag.
        const char *rawText = xml ? NULL
                              : nameLength == 6 && strncasecmp((const char *)name, "script", 6) == 0 ? "</script"
                              : nameLength == 5 && strncasecmp((const char *)name, "style", 5) == 0 ? "</style"
                                                                                                    : NULL;
        if (rawText != NULL && cursor < end) cursor = sc_find(cursor, end, rawText);
        // Searched from outside a title only, so each byte is searched once.
        if (reads != NULL && cursor >= keepsValuesUntil && cursor < end && nameLength == 5 &&
            strncasecmp((const char *)name, "title", 5) == 0) {
            keepsValuesUntil = sc_find(cursor, end, "</title");
        }
    }
    free(values.ranges);
    if (output != NULL) {
        sc_append(output, &used, copied, end, 0);
        result->bytes = (char *)output;
        result->length = used;
    }
    return 0;

failure:
    free(values.ranges);
    free(output);
    free(result->removals);
    memset(result, 0, sizeof *result);
    return -1;
}
