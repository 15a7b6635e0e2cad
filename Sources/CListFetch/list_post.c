#include "list_post.h"
#include "destination.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

typedef struct {
    list_post_result *result;
    const list_fetch_policy *policy;
    size_t discarded;
} post_context;

// Called by curl for every connection it is about to make, with the resolved address: the destination check.
static curl_socket_t post_open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    post_context *context = clientp;
    (void)purpose;
    if (!list_fetch_socket_allowed(context->policy, address, context->result->refused_address,
                                   sizeof context->result->refused_address)) {
        context->result->refused_destination = 1;
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

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
    post_context context = {.result = result, .policy = policy, .discarded = 0};
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
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_PROXY, "");
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, (const char *)body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)length);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "WalletVerifier webhook");
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, post_open_socket);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &context);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, post_discard);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &context);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, post_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &context);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);

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
