// OpenSSL's libcrypto, for the SHA-256 of fetched bodies (the crawl store's body hash).
#ifndef SPOTCHECK_CLIBCRYPTO_SHIM_H
#define SPOTCHECK_CLIBCRYPTO_SHIM_H

#include <openssl/evp.h>

/// SHA-256 of `count` bytes into `digest` (32 bytes). Returns 1 on success.
static inline int spotcheck_sha256(const void *_Nullable data, size_t count, unsigned char *_Nonnull digest) {
    unsigned int length = 0;
    return EVP_Digest(data, count, digest, &length, EVP_sha256(), NULL);
}

#endif
