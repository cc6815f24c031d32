// zlib for Swift. `inflateInit2` is a macro (it passes the library version and the stream size),
// which Swift cannot call; this wrapper is the only entry point Swift uses to start inflating.
#ifndef SPOTCHECK_CZLIB_SHIM_H
#define SPOTCHECK_CZLIB_SHIM_H

#include <zlib.h>

/// `inflateInit2(stream, 15 + 32)`: zlib or gzip header detected automatically.
static inline int spotcheck_inflate_init_auto(z_stream *_Nonnull stream) {
    return inflateInit2(stream, 15 + 32);
}

#endif
