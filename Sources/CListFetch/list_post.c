#include "list_post.h"
#include "destination.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
    list_post_result *result;
    size_t discarded;
} post_context;

// The answer's body is not needed: read and dropped, up to 64 KiB.
static size_t post_discard(char *data, size_t size, size_t count, void *userdata) {
    post_context *context = userdata;
    (void)data;
    size_t bytes = size * count;
    context->discarded += bytes;
    return context->discarded > 65536 ? 0 : bytes;
}

// Retry-After as whole seconds (the HTTP-date form is ignored).
static size_t post_header(char *data, size_t size, size_t count, void *userdata) {
    post_context *context = userdata;
    size_t bytes = size * count;
    static const char name[] = "retry-after:";
    if (bytes > sizeof name - 1 && strncasecmp(data, name, sizeof name - 1) == 0) {
        char value[32];
        size_t length = bytes - (sizeof name - 1);
        if (length >= sizeof value) length = sizeof value - 1;
        memcpy(value, data + sizeof name - 1, length);
        value[length] = 0;
        char *end = NULL;
        long seconds = strtol(value, &end, 10);
        if (end != value && seconds >= 0) context->result->retry_after = seconds;
    }
    return bytes;
}

int list_post(const char *url, const char *const *headers, size_t header_count, const unsigned char *body, size_t length,
              long timeout_ms, const list_fetch_policy *policy, list_post_result *result) {
    list_fetch_global_init_once();
    memset(result, 0, sizeof *result);
    result->retry_after = -1;
    CURL *curl = curl_easy_init();
    if (!curl) return -1;
    post_context context = {.result = result, .discarded = 0};
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) {
        struct curl_slist *grown = curl_slist_append(list, headers[i]);
        if (!grown) {
            curl_slist_free_all(list);
            curl_easy_cleanup(curl);
            return -1;
        }
        list = grown;
    }
    list_fetch_guard guard = {.policy = policy, .refused_destination = &result->refused_destination,
                              .refused_address = result->refused_address,
                              .refused_address_size = sizeof result->refused_address};
    list_fetch_set_common_options(curl, url, timeout_ms, "WalletVerifier webhook", &guard);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, (const char *)body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)length);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, post_discard);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &context);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, post_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &context);

    CURLcode code = curl_easy_perform(curl);
    if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && context.discarded > 65536)) {
        result->ok = 1;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result->status);
    } else {
        if (code == CURLE_OPERATION_TIMEDOUT) result->timed_out = 1;
        snprintf(result->error, sizeof result->error, "%s", curl_easy_strerror(code));
    }
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
    return 0;
}
