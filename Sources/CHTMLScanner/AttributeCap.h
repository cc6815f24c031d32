// Private to CHTMLScanner: the attribute cap applied before libxml2 parses a document.
#ifndef SPOTCHECK_ATTRIBUTECAP_H
#define SPOTCHECK_ATTRIBUTECAP_H

#include <stddef.h>

typedef struct sc_attribute_cap {
    /// A malloc'd copy of the document without the attributes past the cap (the caller frees it),
    /// or NULL when no start tag has more than the cap (nothing copied).
    char *bytes;
    size_t length;
    /// Start tags that had more attributes than the cap; the line of the first; attributes left out;
    /// the most attributes one tag had.
    long cappedElements;
    long firstLine;
    long droppedAttributes;
    long largestCount;
} sc_attribute_cap;

/// Leaves out every attribute past the `cap`-th of each start tag (their newlines stay), reading
/// `bytes` as HTML or (`xml` non-zero) as XML. Returns 0, or -1 when the copy could not be allocated.
int sc_cap_attributes(const char *bytes, size_t length, int cap, int xml, sc_attribute_cap *result);

#endif
