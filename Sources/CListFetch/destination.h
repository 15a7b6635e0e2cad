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

#endif
