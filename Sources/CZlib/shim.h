// zlib for Swift. `inflateInit2` is a macro (it passes the library version and the stream size),
// which Swift cannot call; these wrappers are the only entry points Swift uses to start inflating
// or deflating.
#ifndef SPOTCHECK_CZLIB_SHIM_H
#define SPOTCHECK_CZLIB_SHIM_H

#include <zlib.h>

/// `inflateInit2(stream, 15 + 32)`: zlib or gzip header detected automatically.
static inline int spotcheck_inflate_init_auto(z_stream *_Nonnull stream) {
    return inflateInit2(stream, 15 + 32);
}

/// `deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)`: a gzip stream
/// (header and CRC-32 trailer) at the given compression level.
static inline int spotcheck_deflate_init_gzip(z_stream *_Nonnull stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
