#ifndef LIST_FETCH_H
#define LIST_FETCH_H

#include <stddef.h>
#include <stdint.h>

/// One destination the operator allows although it is not public: an IPv4 or IPv6 network (prefix bits of address).
typedef struct {
    int family;               // 4 or 6
    uint8_t address[16];      // network address, IPv4 in the first 4 bytes
    int prefix;               // prefix length in bits
} list_fetch_network;

/// What a fetch is allowed to connect to: public unicast addresses, plus the operator's networks; or anything when
/// `allow_any_address` is set (the hop's host name is on the operator's allow-list). `ca_file`, when not NULL, is a PEM
/// file of CA certificates https servers may also chain to, besides the system's store (a private CA).
typedef struct {
    const list_fetch_network *networks;
    size_t network_count;
    int allow_any_address;
    const char *ca_file;
} list_fetch_policy;

/// One request: every outbound call the product makes (list fetching, webhooks, the conformance targets).
typedef struct {
    const char *method;             // "GET", "POST", or another method sent as is ("PUT")
    const char *url;                // http or https only
    const char *const *headers;     // "Name: value" lines
    size_t header_count;
    const unsigned char *body;      // NULL: none
    size_t body_length;
    long timeout_ms;                // the whole transfer, connecting included
    size_t max_bytes;               // the most body kept (too_large past it); with discard_body, the most read
    int discard_body;               // read and drop the body; an answer past max_bytes still counts as answered
    const char *user_agent;
} list_fetch_request;

/// The outcome of one request (one hop: redirects are not followed here).
typedef struct {
    int ok;                   // 1 when a response (any status) was read
    long status;              // HTTP status
    unsigned char *body;      // malloc'd; free with list_fetch_free
    size_t length;
    int too_large;            // the body passed max_bytes (the transfer was stopped)
    int refused_destination;  // the resolved address is not allowed (no connection was made)
    char refused_address[64]; // that address, for the log
    char redirect[2048];      // Location for a 3xx, resolved against the URL ("" when none)
    int redirect_too_long;    // the Location did not fit `redirect`
    char retry_after[32];     // the Retry-After header's value ("" when none)
    int timed_out;
    char error[256];          // curl's message for a failed transfer
} list_fetch_result;

/// Performs `request`, connecting only to addresses `policy` allows (checked on the address actually connected to,
/// after name resolution). No proxy, no cookies, no redirects followed, TLS peer and host verified. Returns 0 when
/// the transfer ran (see `result`), -1 when curl could not start.
int list_fetch_perform(const list_fetch_request *request, const list_fetch_policy *policy, list_fetch_result *result);

/// Frees the body of a result.
void list_fetch_free(list_fetch_result *result);

/// 1 when the address (4 or 16 bytes) is a public unicast address: not loopback, private (RFC 1918, CGNAT), link-local,
/// unique-local, multicast, unspecified, broadcast, reserved or documentation; IPv4-mapped and NAT64 IPv6 addresses
/// are judged by their IPv4 address.
int list_fetch_is_public(int family, const uint8_t *address);

/// 1 when `address` is inside `network`.
int list_fetch_in_network(int family, const uint8_t *address, const list_fetch_network *network);

#endif
