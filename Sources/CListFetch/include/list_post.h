#ifndef LIST_POST_H
#define LIST_POST_H

#include <stddef.h>
#include "list_fetch.h"

/// The outcome of one POST (redirects are not followed).
typedef struct {
    int ok;                   // 1 when a response (any status) was read
    long status;              // HTTP status
    long retry_after;         // Retry-After in seconds when the answer carried one as a number, else -1
    int refused_destination;  // the resolved address is not allowed (no connection was made)
    char refused_address[64]; // that address, for the log
    int timed_out;
    char error[256];          // curl's message for a failed transfer
} list_post_result;

/// POSTs `length` bytes of `body` to `url` (http or https only) with the `header_count` header lines `headers`
/// ("Name: value"), within `timeout_ms`, connecting only to addresses `policy` allows (checked on the address actually
/// connected to, after name resolution). No proxy, no cookies, no redirects followed; the answer's body is read and
/// discarded (at most 64 KiB). Returns 0 when the transfer ran (see `result`), -1 when curl could not start.
int list_post(const char *url, const char *const *headers, size_t header_count, const unsigned char *body, size_t length,
              long timeout_ms, const list_fetch_policy *policy, list_post_result *result);

#endif
