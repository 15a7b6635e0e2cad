#include "list_fetch.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

static int v4_in(const uint8_t *a, uint8_t b0, uint8_t b1, int prefix) {
    uint32_t address = ((uint32_t)a[0] << 24) | ((uint32_t)a[1] << 16) | ((uint32_t)a[2] << 8) | a[3];
    uint32_t network = ((uint32_t)b0 << 24) | ((uint32_t)b1 << 16);
    uint32_t mask = prefix == 0 ? 0 : 0xFFFFFFFFu << (32 - prefix);
    return (address & mask) == (network & mask);
}

static int v4_is_public(const uint8_t *a) {
    if (v4_in(a, 0, 0, 8)) return 0;          // "this network", 0.0.0.0
    if (v4_in(a, 10, 0, 8)) return 0;         // RFC 1918
    if (v4_in(a, 100, 64, 10)) return 0;      // CGNAT shared space
    if (v4_in(a, 127, 0, 8)) return 0;        // loopback
    if (v4_in(a, 169, 254, 16)) return 0;     // link-local (cloud metadata)
    if (v4_in(a, 172, 16, 12)) return 0;      // RFC 1918
    if (a[0] == 192 && a[1] == 0 && a[2] == 0) return 0;   // IETF protocol assignments 192.0.0.0/24
    if (a[0] == 192 && a[1] == 0 && a[2] == 2) return 0;   // TEST-NET-1 192.0.2.0/24
    if (v4_in(a, 192, 168, 16)) return 0;     // RFC 1918
    if (v4_in(a, 198, 18, 15)) return 0;      // benchmarking
    if (a[0] == 198 && a[1] == 51 && a[2] == 100) return 0;  // TEST-NET-2
    if (a[0] == 203 && a[1] == 0 && a[2] == 113) return 0;   // TEST-NET-3
    if (a[0] >= 224) return 0;                // multicast, reserved, broadcast
    return 1;
}

int list_fetch_is_public(int family, const uint8_t *a) {
    if (family == 4) return v4_is_public(a);
    static const uint8_t zero[16] = {0};
    if (memcmp(a, zero, 15) == 0 && (a[15] == 0 || a[15] == 1)) return 0;  // :: and ::1
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    if (memcmp(a, mapped, 12) == 0) return v4_is_public(a + 12);            // ::ffff:a.b.c.d
    if (memcmp(a, zero, 12) == 0) return 0;                                 // deprecated IPv4-compatible
    static const uint8_t nat64[12] = {0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0};
    if (memcmp(a, nat64, 12) == 0) return v4_is_public(a + 12);             // 64:ff9b::/96
    if (a[0] == 0xFF) return 0;                                             // multicast
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) return 0;                    // link-local fe80::/10
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0xC0) return 0;                    // site-local fec0::/10
    if ((a[0] & 0xFE) == 0xFC) return 0;                                    // unique-local fc00::/7
    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0D && a[3] == 0xB8) return 0;  // documentation 2001:db8::/32
    if (a[0] == 0x01 && a[1] == 0x00 && memcmp(a + 2, zero, 6) == 0) return 0;   // discard 100::/64
    return (a[0] & 0xE0) == 0x20;                                           // global unicast 2000::/3 only
}

int list_fetch_in_network(int family, const uint8_t *a, const list_fetch_network *network) {
    if (family != network->family) return 0;
    int bits = network->prefix;
    int bytes = family == 4 ? 4 : 16;
    if (bits < 0 || bits > bytes * 8) return 0;
    for (int i = 0; i < bytes && bits > 0; i++, bits -= 8) {
        uint8_t mask = bits >= 8 ? 0xFF : (uint8_t)(0xFF << (8 - bits));
        if ((a[i] & mask) != (network->address[i] & mask)) return 0;
    }
    return 1;
}

static int policy_allows(const list_fetch_policy *policy, int family, const uint8_t *address) {
    if (policy->allow_any_address) return 1;
    for (size_t i = 0; i < policy->network_count; i++) {
        if (list_fetch_in_network(family, address, &policy->networks[i])) return 1;
    }
    return list_fetch_is_public(family, address);
}

static int socket_allowed(const list_fetch_policy *policy, const struct curl_sockaddr *address, char *refused,
                              size_t refused_size) {
    uint8_t bytes[16];
    int family;
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&address->addr;
        memcpy(bytes, &in->sin_addr, 4);
        family = 4;
    } else if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&address->addr;
        memcpy(bytes, &in6->sin6_addr, 16);
        family = 6;
    } else {
        snprintf(refused, refused_size, "an address of family %d", address->family);
        return 0;
    }
    if (!policy_allows(policy, family, bytes)) {
        inet_ntop(family == 4 ? AF_INET : AF_INET6, bytes, refused, (socklen_t)refused_size);
        return 0;
    }
    return 1;
}

// Called by curl for every connection it is about to make, with the resolved address: the destination check.
// Where one transfer's destination check reads its policy and writes a refusal, and where its body goes.
typedef struct {
    const list_fetch_policy *policy;
    const list_fetch_request *request;
    list_fetch_result *result;
    size_t capacity;
    size_t discarded;
} transfer;

// The destination check of each connection curl opens, on its resolved address.
static curl_socket_t guarded_open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    transfer *context = clientp;
    (void)purpose;
    if (!socket_allowed(context->policy, address, context->result->refused_address, sizeof context->result->refused_address)) {
        context->result->refused_destination = 1;
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

// The body, kept up to max_bytes (past it the transfer stops as too large), or read and dropped.
static size_t write_body(char *data, size_t size, size_t count, void *userdata) {
    transfer *context = userdata;
    list_fetch_result *result = context->result;
    size_t bytes = size * count;
    size_t max_bytes = context->request->max_bytes;
    if (context->request->discard_body) {
        context->discarded += bytes;
        return context->discarded > max_bytes ? 0 : bytes;
    }
    if (bytes > max_bytes - result->length) {
        result->too_large = 1;
        return 0;  // stops the transfer
    }
    if (result->length + bytes > context->capacity) {
        size_t capacity = context->capacity ? context->capacity : 16384;
        while (capacity < result->length + bytes) capacity *= 2;
        if (capacity > max_bytes) capacity = max_bytes;
        unsigned char *grown = realloc(result->body, capacity);
        if (!grown) return 0;
        result->body = grown;
        context->capacity = capacity;
    }
    memcpy(result->body + result->length, data, bytes);
    result->length += bytes;
    return bytes;
}

// Retry-After, as its text (seconds or an HTTP date: the caller decides).
static size_t read_header(char *data, size_t size, size_t count, void *userdata) {
    transfer *context = userdata;
    size_t bytes = size * count;
    static const char name[] = "retry-after:";
    if (bytes > sizeof name - 1 && strncasecmp(data, name, sizeof name - 1) == 0) {
        const char *value = data + sizeof name - 1;
        size_t length = bytes - (sizeof name - 1);
        while (length && (*value == ' ' || *value == '\t')) { value++; length--; }
        while (length && (value[length - 1] == '\r' || value[length - 1] == '\n' || value[length - 1] == ' ')) length--;
        char *out = context->result->retry_after;
        if (length >= sizeof context->result->retry_after) length = sizeof context->result->retry_after - 1;
        memcpy(out, value, length);
        out[length] = 0;
    }
    return bytes;
}

static void set_options(CURL *curl, const list_fetch_request *request, struct curl_slist *headers, transfer *context) {
    const list_fetch_policy *policy = context->policy;
    curl_easy_setopt(curl, CURLOPT_URL, request->url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_PROXY, "");          // no proxy from the environment
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->timeout_ms);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, request->user_agent);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, guarded_open_socket);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, context);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    // The operator's CA file joins the system's: CAINFO names it, CAPATH keeps the system's hashed store.
    if (policy->ca_file && policy->ca_file[0]) {
        curl_easy_setopt(curl, CURLOPT_CAINFO, policy->ca_file);
        curl_easy_setopt(curl, CURLOPT_CAPATH, "/etc/ssl/certs");
    }
    if (!request->discard_body) curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)request->max_bytes);
    if (strcmp(request->method, "POST") == 0) {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
    } else if (strcmp(request->method, "GET") != 0) {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request->method);
    }
    if (request->body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, (const char *)request->body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, context);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, read_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, context);
}

int list_fetch_perform(const list_fetch_request *request, const list_fetch_policy *policy, list_fetch_result *result) {
    pthread_once(&global_once, global_init);
    memset(result, 0, sizeof *result);
    CURL *curl = curl_easy_init();
    if (!curl) return -1;
    struct curl_slist *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) {
        struct curl_slist *grown = curl_slist_append(headers, request->headers[i]);
        if (!grown) {
            curl_slist_free_all(headers);
            curl_easy_cleanup(curl);
            return -1;
        }
        headers = grown;
    }
    transfer context = {.policy = policy, .request = request, .result = result, .capacity = 0, .discarded = 0};
    set_options(curl, request, headers, &context);
    CURLcode code = curl_easy_perform(curl);
    if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && request->discard_body && context.discarded > request->max_bytes)) {
        result->ok = 1;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result->status);
        char *location = NULL;
        if (curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location) {
            if (strlen(location) >= sizeof result->redirect) {
                result->redirect_too_long = 1;
            } else {
                snprintf(result->redirect, sizeof result->redirect, "%s", location);
            }
        }
    } else {
        if (code == CURLE_FILESIZE_EXCEEDED) result->too_large = 1;
        if (code == CURLE_OPERATION_TIMEDOUT) result->timed_out = 1;
        snprintf(result->error, sizeof result->error, "%s", curl_easy_strerror(code));
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return 0;
}

void list_fetch_free(list_fetch_result *result) {
    free(result->body);
    result->body = NULL;
    result->length = 0;
}
