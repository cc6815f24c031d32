// Private to CHTMLScanner: the attribute cap applied before libxml2 parses a document.
#ifndef SPOTCHECK_ATTRIBUTECAP_H
#define SPOTCHECK_ATTRIBUTECAP_H

#include <stddef.h>

/// A value left out of the copy: where (an offset into the copy, the line), and how many
/// characters it had (libxml2 counts columns in characters).
typedef struct sc_value_removal {
    size_t offset;
    long line;
    long characters;
} sc_value_removal;

/// Whether anyone reads the attribute `name` (NUL-terminated, lower-cased by the caller).
typedef int (*sc_reads_attribute)(const char *name);

typedef struct sc_attribute_cap {
    /// A malloc'd copy of the document without the attributes past the cap and the values left out
    /// (the caller frees it), or NULL when nothing was left out (nothing copied).
    char *bytes;
    size_t length;
    /// Start tags that had more attributes than the cap; the line of the first; attributes left out;
    /// the most attributes one tag had.
    long cappedElements;
    long firstLine;
    long droppedAttributes;
    long largestCount;
    /// Quoted values of attributes nobody reads, left out (`""` stays), in document order.
    sc_value_removal *removals;
    size_t removalCount;
} sc_attribute_cap;

/// Leaves out every attribute past the `cap`-th of each start tag (their newlines stay), reading
/// `bytes` as HTML or (`xml` non-zero) as XML. In HTML, with `reads` non-NULL, also leaves out the
/// quoted value of every attribute `reads` says nobody reads when libxml2 would read it without a
/// word (printable ASCII, no `&`, no line break): the attribute stays, with `""`. Returns 0, or -1
/// when the copy could not be allocated. The caller frees `bytes` and `removals`.
int sc_cap_attributes(const char *bytes, size_t length, int cap, int xml, sc_reads_attribute reads,
                      sc_attribute_cap *result);

#endif
