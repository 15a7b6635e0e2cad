// Shared by the GET (list_fetch.c) and the POST (list_post.c): one destination check and one libcurl set-up.
#ifndef LIST_FETCH_DESTINATION_H
#define LIST_FETCH_DESTINATION_H

#include <curl/curl.h>
#include <stddef.h>

#include "list_fetch.h"

// curl_global_init, once per process.
void list_fetch_global_init_once(void);

// The destination check of one connection curl is about to open, on its resolved address: 1 when `policy` allows
// it; otherwise 0, with the refused address (or its family) written to `refused`.
int list_fetch_socket_allowed(const list_fetch_policy *policy, const struct curl_sockaddr *address, char *refused,
                              size_t refused_size);

// Where one transfer's destination check reads its policy and writes a refusal.
typedef struct {
    const list_fetch_policy *policy;
    int *refused_destination;
    char *refused_address;
    size_t refused_address_size;
} list_fetch_guard;

// The options every transfer shares: `url`, http(s) only, no redirects followed, no proxy from the environment, no
// signals, `timeout_ms` for the whole transfer and for connecting, TLS peer and host verified, `user_agent`, and
// `guard`'s destination check on every connection curl opens (`guard` must outlive the transfer).
void list_fetch_set_common_options(CURL *curl, const char *url, long timeout_ms, const char *user_agent,
                                   list_fetch_guard *guard);

#endif
