#ifndef CSHIMS_CBOR_WALKER_H
#define CSHIMS_CBOR_WALKER_H
#include <stddef.h>
#include <stdint.h>

// Bounded streaming walk over one CBOR item, decoded with libcbor's cbor_stream_decode, that
// builds the decoder's node table as it goes. The walk checks structure (nesting, counts, breaks,
// string chunks), limits, UTF-8 in text strings and duplicate map keys. It never allocates from a
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
    CBOR_WALK_ERR_UTF8 = 8,            // offset: first byte of the ill-formed sequence
    CBOR_WALK_ERR_DUPLICATE_KEY = 9,   // offset: the key equal to an earlier key of its map
};

typedef struct cbor_walk_limits {
    size_t max_depth;                // nesting of arrays, maps and tags
    size_t max_items_per_container;  // array elements, map pairs, string chunks
    size_t max_total_items;          // all items, chunks included (breaks excluded)
} cbor_walk_limits;

/// One item: a row of the node table, in pre-order (a container's or a tag's content follows
/// its head). CBORTree.swift uses this type as its `CBORNode`.
typedef struct cbor_tree_node {
    uint64_t value;      // by kind: the integer, n, a string's length, a container's count, the tag, the simple value, float bits
    long start;          // input index of the head
    long end;            // input index one past the item's last byte
    int32_t firstChild;  // containers: first slot of their block; indefinite strings: see cbor_tree_output.chunks
    int32_t childCount;  // containers: child rows (2 per map pair); indefinite strings: chunk count
    uint8_t kind;        // CBOR_WALK_*; indefinite arrays and maps are stored as definite ones
    uint8_t headLength;  // 1, 2, 3, 5 or 9
} cbor_tree_node;

/// The content of one chunk of an indefinite-length string (input indices).
typedef struct cbor_tree_chunk {
    long start;
    long end;
} cbor_tree_chunk;

/// A growable array. The caller may supply `items`/`capacity` (owned = 0) or leave them empty;
/// when more room is needed the walker switches to a malloc'd buffer (owned = 1), released by
/// cbor_tree_output_release.
typedef struct cbor_tree_buffer {
    void *items;
    size_t count;
    size_t capacity;
    int owned;
} cbor_tree_buffer;

/// What one walk appends to a table whose earlier walks the caller keeps: rows, slots and input
/// indices are written with the bases added.
typedef struct cbor_tree_output {
    cbor_tree_buffer nodes;     // cbor_tree_node; the walked item is the first
    cbor_tree_buffer slots;     // int32_t: child rows, one block per container (keys and values alternate)
    cbor_tree_buffer chunks;    // cbor_tree_chunk; an indefinite string's `firstChild` indexes here, without base
    cbor_tree_buffer deferred;  // int32_t: rows of maps whose keys the caller checks (keys other than
                                // integers and definite strings, or maps too large for pairwise comparison)
    size_t indefinite_strings;  // rows of indefinite-length strings written
    long row_base;              // added to every row written
    long slot_base;             // added to every slot index written
    long input_base;            // added to every input index written
} cbor_tree_output;

/// Walks exactly one item that must occupy all `length` bytes of `data`, appending its rows to
/// `out`. Structural errors take precedence over UTF-8 and duplicate-key errors (the first of
/// those in pre-order, a map's keys checked when it closes). Returns CBOR_WALK_OK or an error
/// code; on error `*error_offset` is set (an offset in `data`) and `out` holds a partial walk.
int cbor_walk_tree(const uint8_t *data, size_t length, const cbor_walk_limits *limits,
                   cbor_tree_output *out, size_t *error_offset);

/// Walks `count` items one after another into `out`, as cbor_walk_tree would each: item i occupies
/// `ranges[count + i]` bytes at `data + ranges[i]` (`out->input_base` is the input index of
/// `data[0]`), and its root row is written to `ranges[2 * count + i]`. Stops at the first item that
/// fails and returns its status (the caller decodes the items one at a time then, to report it).
int cbor_walk_tree_each(const uint8_t *data, size_t *ranges, size_t count, const cbor_walk_limits *limits,
                        cbor_tree_output *out, size_t *error_offset);

/// Frees the buffers the walker allocated.
void cbor_tree_output_release(cbor_tree_output *out);

/// The libcbor version this walker was built against ("0.8.0"); Debian's soname pins the library to it.
const char *cbor_walker_libcbor_version(void);

#endif
