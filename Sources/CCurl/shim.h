// libcurl for Swift. libcurl's option setters and info getters are variadic C functions, which
// Swift cannot call; these typed wrappers are the only way Swift sets options. Used by the
// crawler's fetcher (the only module that imports CCurl).
#ifndef SPOTCHECK_CCURL_SHIM_H
#define SPOTCHECK_CCURL_SHIM_H

#include <curl/curl.h>

/// `curl_easy_setopt` for `long` options.
static inline CURLcode spotcheck_curl_easy_setopt_long(CURL *_Nonnull handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for string and pointer options (libcurl copies strings).
static inline CURLcode spotcheck_curl_easy_setopt_pointer(CURL *_Nonnull handle, CURLoption option, const void *_Nullable value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for `curl_off_t` options.
static inline CURLcode spotcheck_curl_easy_setopt_offset(CURL *_Nonnull handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// `CURLOPT_WRITEFUNCTION` / `CURLOPT_HEADERFUNCTION`.
typedef size_t (*spotcheck_curl_write_callback)(char *_Nonnull data, size_t size, size_t count, void *_Nullable context);
static inline CURLcode spotcheck_curl_easy_setopt_write_function(CURL *_Nonnull handle, CURLoption option, spotcheck_curl_write_callback _Nullable callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// `curl_easy_getinfo` for `long` values.
static inline CURLcode spotcheck_curl_easy_getinfo_long(CURL *_Nonnull handle, CURLINFO info, long *_Nonnull value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_easy_getinfo` for `curl_off_t` values (times in microseconds, sizes).
static inline CURLcode spotcheck_curl_easy_getinfo_offset(CURL *_Nonnull handle, CURLINFO info, curl_off_t *_Nonnull value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_easy_getinfo` for string values (owned by the handle).
static inline CURLcode spotcheck_curl_easy_getinfo_string(CURL *_Nonnull handle, CURLINFO info, const char *_Nullable *_Nonnull value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_multi_setopt` for `long` options.
static inline CURLMcode spotcheck_curl_multi_setopt_long(CURLM *_Nonnull handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

/// `curl_global_init(CURL_GLOBAL_ALL)`: the flags are a macro expression Swift does not import.
static inline CURLcode spotcheck_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

#endif
