#ifndef CSHIMS_CBOR_WALKER_H
#define CSHIMS_CBOR_WALKER_H
#include <stddef.h>
#include <stdint.h>

// Bounded streaming walk over one CBOR item, decoded with libcbor's cbor_stream_decode.
// The walk checks structure (nesting, counts, breaks, string chunks) and limits, and
// records one flat event per item head (plus one per `break`). It never allocates from a
// declared length: a count or length larger than the remaining input fails as truncated.

/// Event kinds (CBORDecoder.swift switches on these constants).
enum {
    CBOR_WALK_UINT = 0,         // value: the integer
    CBOR_WALK_NEGINT = 1,       // value: n, the item is -1 - n
    CBOR_WALK_BYTES = 2,        // value: content length; content follows the head
    CBOR_WALK_TEXT = 3,         // value: content length; content follows the head
    CBOR_WALK_ARRAY = 4,        // value: element count
    CBOR_WALK_MAP = 5,          // value: pair count
    CBOR_WALK_TAG = 6,          // value: tag number; one item follows
    CBOR_WALK_SIMPLE = 7,       // value: simple value (0-19, 32-255)
    CBOR_WALK_FALSE = 8,
    CBOR_WALK_TRUE = 9,
    CBOR_WALK_NULL = 10,
    CBOR_WALK_UNDEFINED = 11,
    CBOR_WALK_FLOAT = 12,       // value: IEEE 754 bits of the value as a double
    CBOR_WALK_BYTES_INDEF = 13, // definite byte-string chunks follow, then BREAK
    CBOR_WALK_TEXT_INDEF = 14,  // definite text-string chunks follow, then BREAK
    CBOR_WALK_ARRAY_INDEF = 15, // items follow, then BREAK
    CBOR_WALK_MAP_INDEF = 16,   // key/value items follow, then BREAK
    CBOR_WALK_BREAK = 17,
};

/// Walk results. CBOR_WALK_OK or the reason the walk stopped (see error_offset).
enum {
    CBOR_WALK_OK = 0,
    CBOR_WALK_ERR_TRUNCATED = 1,       // offset: start of the item that runs past the end
    CBOR_WALK_ERR_TRAILING = 2,        // offset: first byte after the item
    CBOR_WALK_ERR_MALFORMED = 3,       // offset: the offending head
    CBOR_WALK_ERR_DEPTH = 4,           // offset: the container that nests too deep
    CBOR_WALK_ERR_CONTAINER = 5,       // offset: the container with too many entries
    CBOR_WALK_ERR_ITEMS = 6,           // offset: the first item over the limit
    CBOR_WALK_ERR_NO_MEMORY = 7,       // offset: the item being recorded
};

typedef struct cbor_walk_event {
    uint64_t value;       // meaning depends on kind (see above)
    uint64_t offset;      // byte offset of the head in the input
    uint8_t kind;         // CBOR_WALK_*
    uint8_t head_length;  // 1, 2, 3, 5 or 9
} cbor_walk_event;

typedef struct cbor_walk_limits {
    size_t max_depth;                // nesting of arrays, maps and tags
    size_t max_items_per_container;  // array elements, map pairs, string chunks
    size_t max_total_items;          // all items, chunks included (breaks excluded)
} cbor_walk_limits;

/// Event storage. The caller may supply `events`/`capacity` (owned = 0) or leave them
/// empty; when more room is needed the walker switches to a malloc'd buffer (owned = 1),
/// which the caller releases with cbor_walk_events_release.
typedef struct cbor_walk_events {
    cbor_walk_event *events;
    size_t count;
    size_t capacity;
    int owned;
} cbor_walk_events;

/// Walks exactly one item that must occupy all `length` bytes of `data`.
/// Returns CBOR_WALK_OK or an error code; on error `*error_offset` is set.
int cbor_walk(const uint8_t *data, size_t length, const cbor_walk_limits *limits,
              cbor_walk_events *out, size_t *error_offset);

/// Frees the buffer if the walker allocated it.
void cbor_walk_events_release(cbor_walk_events *events);

/// The libcbor version this walker was built against ("0.8.0"); Debian's soname pins the library to it.
const char *cbor_walker_libcbor_version(void);

#endif
