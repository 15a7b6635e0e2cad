// Bounded streaming walk over CBOR input on libcbor's cbor_stream_decode, building the decoder's
// node table. libcbor decodes one head at a time (no allocation); this file adds what libcbor 0.8
// does not check: nesting and count limits, break placement, indefinite-string chunk types,
// declared lengths against the remaining input, trailing bytes, UTF-8 and duplicate map keys.
// Callbacks live in C because their length parameter type differs across libcbor versions
// (size_t in 0.8, uint64_t from 0.9). The table is built here rather than from an event list in
// Swift: it is one pass instead of two and no per-item Swift work.
#include "cbor_walker.h"

#include <cbor.h>
#include <stdlib.h>
#include <string.h>

// ---- libcbor callbacks: each records the kind and argument of the one head just decoded ----

typedef struct {
    uint64_t value;
    uint8_t kind;
    uint8_t fired;
} decoded_head;

static void set_head(void *context, uint8_t kind, uint64_t value) {
    decoded_head *head = (decoded_head *)context;
    head->kind = kind;
    head->value = value;
    head->fired = 1;
}

static void set_double(void *context, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    set_head(context, CBOR_WALK_FLOAT, bits);
}

static void on_uint8(void *c, uint8_t v) { set_head(c, CBOR_WALK_UINT, v); }
static void on_uint16(void *c, uint16_t v) { set_head(c, CBOR_WALK_UINT, v); }
static void on_uint32(void *c, uint32_t v) { set_head(c, CBOR_WALK_UINT, v); }
static void on_uint64(void *c, uint64_t v) { set_head(c, CBOR_WALK_UINT, v); }
static void on_negint8(void *c, uint8_t v) { set_head(c, CBOR_WALK_NEGINT, v); }
static void on_negint16(void *c, uint16_t v) { set_head(c, CBOR_WALK_NEGINT, v); }
static void on_negint32(void *c, uint32_t v) { set_head(c, CBOR_WALK_NEGINT, v); }
static void on_negint64(void *c, uint64_t v) { set_head(c, CBOR_WALK_NEGINT, v); }
static void on_bytes(void *c, cbor_data d, size_t n) { (void)d; set_head(c, CBOR_WALK_BYTES, n); }
static void on_bytes_start(void *c) { set_head(c, CBOR_WALK_BYTES_INDEF, 0); }
static void on_text(void *c, cbor_data d, size_t n) { (void)d; set_head(c, CBOR_WALK_TEXT, n); }
static void on_text_start(void *c) { set_head(c, CBOR_WALK_TEXT_INDEF, 0); }
static void on_array(void *c, size_t n) { set_head(c, CBOR_WALK_ARRAY, n); }
static void on_array_indef(void *c) { set_head(c, CBOR_WALK_ARRAY_INDEF, 0); }
static void on_map(void *c, size_t n) { set_head(c, CBOR_WALK_MAP, n); }
static void on_map_indef(void *c) { set_head(c, CBOR_WALK_MAP_INDEF, 0); }
static void on_tag(void *c, uint64_t v) { set_head(c, CBOR_WALK_TAG, v); }
static void on_float(void *c, float v) { set_double(c, (double)v); }
static void on_double(void *c, double v) { set_double(c, v); }
static void on_undefined(void *c) { set_head(c, CBOR_WALK_UNDEFINED, 0); }
static void on_null(void *c) { set_head(c, CBOR_WALK_NULL, 0); }
static void on_bool(void *c, bool v) { set_head(c, v ? CBOR_WALK_TRUE : CBOR_WALK_FALSE, 0); }
static void on_break(void *c) { set_head(c, CBOR_WALK_BREAK, 0); }

static const struct cbor_callbacks walker_callbacks = {
    .uint8 = on_uint8, .uint16 = on_uint16, .uint32 = on_uint32, .uint64 = on_uint64,
    .negint8 = on_negint8, .negint16 = on_negint16, .negint32 = on_negint32, .negint64 = on_negint64,
    .byte_string = on_bytes, .byte_string_start = on_bytes_start,
    .string = on_text, .string_start = on_text_start,
    .array_start = on_array, .indef_array_start = on_array_indef,
    .map_start = on_map, .indef_map_start = on_map_indef,
    .tag = on_tag,
    .float2 = on_float, .float4 = on_float, .float8 = on_double,
    .undefined = on_undefined, .null = on_null, .boolean = on_bool,
    .indef_break = on_break,
};

/// Decodes the head at data[pos]. Returns a status; sets *head and *read.
/// libcbor 0.8 rejects some well-formed heads, which are decoded here instead: one-byte tags
/// 6-20 (c6-d4, including COSE_Encrypt0/Mac0/Sign1 = 16/17/18) and simple values other than
/// false/true/null/undefined (e0-f3, f8 xx).
static int decode_head(const uint8_t *data, size_t length, size_t pos, decoded_head *head,
                       size_t *read) {
    uint8_t initial = data[pos];
    if (initial >= 0xc6 && initial <= 0xd4) {
        set_head(head, CBOR_WALK_TAG, initial - 0xc0u);
        *read = 1;
        return CBOR_WALK_OK;
    }
    if (initial >= 0xe0 && initial <= 0xf3) {
        set_head(head, CBOR_WALK_SIMPLE, initial - 0xe0u);
        *read = 1;
        return CBOR_WALK_OK;
    }
    if (initial == 0xf8) {
        if (length - pos < 2) return CBOR_WALK_ERR_TRUNCATED;
        if (data[pos + 1] < 32) return CBOR_WALK_ERR_MALFORMED;  // RFC 8949 §3.3
        set_head(head, CBOR_WALK_SIMPLE, data[pos + 1]);
        *read = 2;
        return CBOR_WALK_OK;
    }
    head->fired = 0;
    struct cbor_decoder_result result =
        cbor_stream_decode(data + pos, length - pos, &walker_callbacks, head);
    if (result.status == CBOR_DECODER_NEDATA) return CBOR_WALK_ERR_TRUNCATED;
    if (result.status != CBOR_DECODER_FINISHED || !head->fired || result.read == 0 ||
        result.read > length - pos)
        return CBOR_WALK_ERR_MALFORMED;
    *read = result.read;
    return CBOR_WALK_OK;
}

// ---- the walk ----

typedef struct {
    uint64_t remaining;    // definite: items still expected (2 per map pair)
    uint64_t entries;      // indefinite: items seen so far (keys and values counted separately)
    size_t offset;         // head offset of the container
    size_t row;            // the container's row (local)
    size_t next;           // arrays and maps: first pending child row; indefinite strings: first chunk
    uint8_t kind;          // CBOR_WALK_ARRAY, _MAP, _TAG or one of the _INDEF kinds
} frame;

static int is_indefinite(uint8_t kind) {
    return kind >= CBOR_WALK_BYTES_INDEF && kind <= CBOR_WALK_MAP_INDEF;
}

static int is_indefinite_string(uint8_t kind) {
    return kind == CBOR_WALK_BYTES_INDEF || kind == CBOR_WALK_TEXT_INDEF;
}

/// Room for `more` elements of `size` bytes, up to `bound` in all. A walk adds at most one element
/// per input byte, so the bound is what the buffer held before the walk plus the walk's input
/// length. Returns 0 when out of memory or over the bound.
static int grow(cbor_tree_buffer *buffer, size_t size, size_t more, size_t bound);

static inline int reserve(cbor_tree_buffer *buffer, size_t size, size_t more, size_t bound) {
    if (__builtin_expect(more <= buffer->capacity - buffer->count, 1)) return 1;
    return grow(buffer, size, more, bound);
}

/// reserve's slow path, out of line: the walk calls reserve for nearly every item and rarely grows.
__attribute__((noinline)) static int grow(cbor_tree_buffer *buffer, size_t size, size_t more, size_t bound) {
    if (more > bound || buffer->count > bound - more) return 0;
    size_t needed = buffer->count + more;
    size_t wanted = buffer->capacity ? buffer->capacity * 2 : 64;
    // Leaving the caller's scratch buffer: room for a typical density (one item per 8 bytes) at once.
    if (!buffer->owned && wanted < bound / 8 + 64) wanted = bound / 8 + 64;
    if (wanted < needed) wanted = needed;
    if (wanted > bound) wanted = bound;
    void *grown;
    if (buffer->owned) {
        grown = realloc(buffer->items, wanted * size);
    } else {
        grown = malloc(wanted * size);
        if (grown && buffer->count) memcpy(grown, buffer->items, buffer->count * size);
    }
    if (!grown) return 0;
    buffer->items = grown;
    buffer->capacity = wanted;
    buffer->owned = 1;
    return 1;
}

static void release(cbor_tree_buffer *buffer) {
    if (buffer->owned) free(buffer->items);
    buffer->items = NULL;
    buffer->count = 0;
    buffer->capacity = 0;
    buffer->owned = 0;
}

/// The offset of the first byte of the first ill-formed UTF-8 sequence, or `length` when valid
/// (RFC 3629 / Unicode Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
static size_t utf8_first_invalid(const uint8_t *s, size_t length) {
    size_t i = 0;
    while (i < length) {
        if (length - i >= 8) {  // eight ASCII bytes at a time: nearly all text here is ASCII
            uint64_t word;
            memcpy(&word, s + i, sizeof word);
            if ((word & 0x8080808080808080ull) == 0) {
                i += 8;
                continue;
            }
        }
        uint8_t lead = s[i];
        if (lead < 0x80) {
            i += 1;
            continue;
        }
        size_t n;
        uint8_t low = 0x80, high = 0xBF;  // allowed second byte, by lead (Table 3-7)
        if (lead >= 0xC2 && lead <= 0xDF) n = 2;
        else if (lead == 0xE0) { n = 3; low = 0xA0; }
        else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) n = 3;
        else if (lead == 0xED) { n = 3; high = 0x9F; }
        else if (lead == 0xF0) { n = 4; low = 0x90; }
        else if (lead >= 0xF1 && lead <= 0xF3) n = 4;
        else if (lead == 0xF4) { n = 4; high = 0x8F; }
        else return i;
        if (i + 1 >= length || s[i + 1] < low || s[i + 1] > high) return i;
        for (size_t k = 2; k < n; k++)
            if (i + k >= length || (s[i + k] & 0xC0) != 0x80) return i;
        i += n;
    }
    return length;
}

/// The walk's state; rows and slots are local (without the output's bases).
typedef struct {
    const uint8_t *data;
    cbor_tree_output *out;
    cbor_tree_buffer pending;  // int32_t rows of the children of the open arrays and maps, in order
    frame *stack;
    size_t depth;              // open frames
    size_t nesting;            // open arrays, maps and tags
    int semantic;              // the first UTF-8 or duplicate-key error, reported if the structure is sound
    size_t semantic_at;
    size_t node_bound, slot_bound, chunk_bound, deferred_bound;  // see reserve
} walk;

static cbor_tree_node *node_at(walk *w, size_t row) {
    return &((cbor_tree_node *)w->out->nodes.items)[row];
}

static int32_t *slot_at(walk *w, size_t slot) {
    return &((int32_t *)w->out->slots.items)[slot];
}

static void semantic_error(walk *w, int status, size_t offset) {
    if (w->semantic) return;
    w->semantic = status;
    w->semantic_at = offset;
}

/// Pairwise comparison is cheap for small maps; larger ones (and maps with keys other than
/// integers and definite strings) are left to the caller's hashing comparison.
enum { PAIRWISE_TEXT_PAIRS = 16, PAIRWISE_INTEGER_PAIRS = 64 };

/// Duplicate keys of the map at `row`, by value: `01` and `18 01` are the same key.
/// Returns 0 when out of memory.
static int check_keys(walk *w, size_t row) {
    if (w->semantic) return 1;  // only the first error is reported
    cbor_tree_node *map = node_at(w, row);
    size_t pairs = (size_t)map->childCount / 2;
    if (pairs < 2) return 1;
    size_t first = (size_t)((long)map->firstChild - w->out->slot_base);
    long row_base = w->out->row_base;
    int integers_only = 1;
    for (size_t i = 0; i < pairs; i++) {
        uint8_t kind = node_at(w, (size_t)(*slot_at(w, first + 2 * i) - row_base))->kind;
        if (kind == CBOR_WALK_TEXT || kind == CBOR_WALK_BYTES) {
            integers_only = 0;
        } else if (kind != CBOR_WALK_UINT && kind != CBOR_WALK_NEGINT) {
            integers_only = -1;
            break;
        }
    }
    if (integers_only < 0 || pairs > (integers_only ? PAIRWISE_INTEGER_PAIRS : PAIRWISE_TEXT_PAIRS)) {
        cbor_tree_buffer *deferred = &w->out->deferred;
        if (!reserve(deferred, sizeof(int32_t), 1, w->deferred_bound)) return 0;
        ((int32_t *)deferred->items)[deferred->count++] = (int32_t)(row_base + (long)row);
        return 1;
    }
    long base = w->out->input_base;
    for (size_t i = 1; i < pairs; i++) {
        cbor_tree_node *x = node_at(w, (size_t)(*slot_at(w, first + 2 * i) - row_base));
        for (size_t j = 0; j < i; j++) {
            cbor_tree_node *y = node_at(w, (size_t)(*slot_at(w, first + 2 * j) - row_base));
            if (x->kind != y->kind || x->value != y->value) continue;  // for strings, value is the length
            if (x->kind == CBOR_WALK_TEXT || x->kind == CBOR_WALK_BYTES) {
                const uint8_t *a = w->data + (x->start - base) + x->headLength;
                const uint8_t *b = w->data + (y->start - base) + y->headLength;
                if (x->value && memcmp(a, b, (size_t)x->value) != 0) continue;
            }
            semantic_error(w, CBOR_WALK_ERR_DUPLICATE_KEY, (size_t)(x->start - base));
            return 1;
        }
    }
    return 1;
}

/// Closes the container or tag on top of the stack, which ends before `end`. An array's or a map's
/// children were gathered while they were built (their own blocks come first) and are stored now
/// as one block: slots are taken for children that exist, never for a declared count.
/// Returns 0 when out of memory.
static int close_frame(walk *w, size_t end) {
    frame *top = &w->stack[w->depth - 1];
    cbor_tree_node *node = node_at(w, top->row);
    node->end = w->out->input_base + (long)end;
    if (top->kind == CBOR_WALK_TAG) return 1;
    if (is_indefinite_string(top->kind)) {
        node->firstChild = (int32_t)top->next;
        node->childCount = (int32_t)(w->out->chunks.count - top->next);
        return 1;
    }
    size_t count = w->pending.count - top->next;
    cbor_tree_buffer *slots = &w->out->slots;
    if (!reserve(slots, sizeof(int32_t), count, w->slot_bound)) return 0;
    if (count) memcpy(slot_at(w, slots->count), (int32_t *)w->pending.items + top->next, count * sizeof(int32_t));
    node->firstChild = (int32_t)(w->out->slot_base + (long)slots->count);
    node->childCount = (int32_t)count;
    if (top->kind == CBOR_WALK_MAP_INDEF) node->kind = CBOR_WALK_MAP;
    if (top->kind == CBOR_WALK_ARRAY_INDEF) node->kind = CBOR_WALK_ARRAY;
    slots->count += count;
    w->pending.count = top->next;
    return node->kind == CBOR_WALK_MAP ? check_keys(w, top->row) : 1;
}

/// One item has ended at `end`: count it in the enclosing definite containers, closing those
/// that are now full. Returns 1 when the outermost item is complete, -1 when out of memory. Inlined: it runs after
/// every item, and usually only counts one down.
static inline __attribute__((always_inline)) int complete_item(walk *w, size_t end) {
    while (w->depth > 0) {
        frame *top = &w->stack[w->depth - 1];
        if (is_indefinite(top->kind)) return 0;
        if (--top->remaining > 0) return 0;
        if (!close_frame(w, end)) return -1;
        w->depth--;
        w->nesting--;  // definite frames are arrays, maps and tags
    }
    return 1;
}

int cbor_walk_tree(const uint8_t *data, size_t length, const cbor_walk_limits *limits,
                   cbor_tree_output *out, size_t *error_offset) {
    // Frames: at most max_depth arrays/maps/tags plus one indefinite string, and never more
    // than there are input bytes.
    size_t stack_capacity = (limits->max_depth < length ? limits->max_depth : length) + 2;
    frame local_stack[48];
    int32_t local_pending[64];
    walk w = {.data = data, .out = out, .stack = local_stack,
              .pending = {.items = local_pending, .count = 0, .capacity = 64, .owned = 0},
              .node_bound = out->nodes.count + length, .slot_bound = out->slots.count + length,
              .chunk_bound = out->chunks.count + length, .deferred_bound = out->deferred.count + length};
    if (stack_capacity > sizeof local_stack / sizeof local_stack[0]) {
        w.stack = malloc(stack_capacity * sizeof *w.stack);
        if (!w.stack) {
            *error_offset = 0;
            return CBOR_WALK_ERR_NO_MEMORY;
        }
    }

    size_t total = 0;  // items seen
    size_t pos = 0;
    int done = 0;
    int status = CBOR_WALK_OK;
    size_t fail_at = 0;
    long row_base = out->row_base, input_base = out->input_base;

#define FAIL(code, offset) \
    do {                   \
        status = (code);   \
        fail_at = (offset); \
        goto finish;       \
    } while (0)
#define COMPLETE(end)                                          \
    do {                                                       \
        done = complete_item(&w, (end));                       \
        if (done < 0) FAIL(CBOR_WALK_ERR_NO_MEMORY, pos);      \
    } while (0)

    for (;;) {
        if (pos == length) {
            if (done) break;
            FAIL(CBOR_WALK_ERR_TRUNCATED, w.depth ? w.stack[w.depth - 1].offset : pos);
        }
        if (done) FAIL(CBOR_WALK_ERR_TRAILING, pos);

        decoded_head head;
        size_t read = 0;
        int head_status = decode_head(data, length, pos, &head, &read);
        if (head_status != CBOR_WALK_OK) FAIL(head_status, pos);
        size_t head_length = read;
        if (head.kind == CBOR_WALK_BYTES || head.kind == CBOR_WALK_TEXT) {
            if (head.value > read) FAIL(CBOR_WALK_ERR_MALFORMED, pos);
            head_length = read - (size_t)head.value;
        }
        if (head_length == 0 || head_length > 9) FAIL(CBOR_WALK_ERR_MALFORMED, pos);
        frame *parent = w.depth ? &w.stack[w.depth - 1] : NULL;

        if (head.kind == CBOR_WALK_BREAK) {
            if (!parent || !is_indefinite(parent->kind)) FAIL(CBOR_WALK_ERR_MALFORMED, pos);
            // A break where a map value is due.
            if (parent->kind == CBOR_WALK_MAP_INDEF && (parent->entries & 1))
                FAIL(CBOR_WALK_ERR_MALFORMED, pos);
            if (!close_frame(&w, pos + 1)) FAIL(CBOR_WALK_ERR_NO_MEMORY, pos);
            if (!is_indefinite_string(parent->kind)) w.nesting--;
            w.depth--;
            pos += 1;
            COMPLETE(pos);
            continue;
        }

        // Inside an indefinite string only definite chunks of the same major type may appear.
        int is_chunk = parent && is_indefinite_string(parent->kind);
        if (is_chunk) {
            uint8_t chunk = parent->kind == CBOR_WALK_BYTES_INDEF ? CBOR_WALK_BYTES : CBOR_WALK_TEXT;
            if (head.kind != chunk) FAIL(CBOR_WALK_ERR_MALFORMED, pos);
        }
        if (++total > limits->max_total_items) FAIL(CBOR_WALK_ERR_ITEMS, pos);
        if (parent && is_indefinite(parent->kind)) {
            parent->entries++;
            uint64_t entries = parent->kind == CBOR_WALK_MAP_INDEF ? (parent->entries + 1) / 2
                                                                   : parent->entries;
            if (entries > limits->max_items_per_container)
                FAIL(CBOR_WALK_ERR_CONTAINER, parent->offset);
        }
        size_t start = pos;
        pos += read;
        size_t remaining_bytes = length - pos;
        // Every text string must be valid UTF-8, and so must each chunk of an indefinite one on its own
        // (RFC 8949 §3.2.3). Only the first error is reported, so later strings are not checked.
        if (head.kind == CBOR_WALK_TEXT && !w.semantic) {
            size_t bad = utf8_first_invalid(data + start + head_length, (size_t)head.value);
            if (bad < head.value) semantic_error(&w, CBOR_WALK_ERR_UTF8, start + head_length + bad);
        }

        if (is_chunk) {  // a chunk is content, not a row
            cbor_tree_buffer *chunks = &out->chunks;
            if (!reserve(chunks, sizeof(cbor_tree_chunk), 1, w.chunk_bound)) FAIL(CBOR_WALK_ERR_NO_MEMORY, start);
            ((cbor_tree_chunk *)chunks->items)[chunks->count++] =
                (cbor_tree_chunk){.start = input_base + (long)(start + head_length), .end = input_base + (long)pos};
            continue;  // the string's frame stays open until its break
        }

        if (!reserve(&out->nodes, sizeof(cbor_tree_node), 1, w.node_bound)) FAIL(CBOR_WALK_ERR_NO_MEMORY, start);
        size_t row = out->nodes.count++;
        *node_at(&w, row) = (cbor_tree_node){.value = head.value, .start = input_base + (long)start,
                                             .end = input_base + (long)pos, .firstChild = 0, .childCount = 0,
                                             .kind = head.kind, .headLength = (uint8_t)head_length};
        if (parent && parent->kind != CBOR_WALK_TAG) {  // a tag's content is the row after it
            if (!reserve(&w.pending, sizeof(int32_t), 1, length)) FAIL(CBOR_WALK_ERR_NO_MEMORY, start);
            ((int32_t *)w.pending.items)[w.pending.count++] = (int32_t)(row_base + (long)row);
        }

        switch (head.kind) {
        case CBOR_WALK_ARRAY:
        case CBOR_WALK_MAP:
        case CBOR_WALK_TAG:
        case CBOR_WALK_ARRAY_INDEF:
        case CBOR_WALK_MAP_INDEF: {
            if (w.nesting >= limits->max_depth || w.depth + 1 >= stack_capacity)
                FAIL(CBOR_WALK_ERR_DEPTH, start);
            uint64_t expected = 0;  // items a definite container still needs
            if (head.kind == CBOR_WALK_ARRAY) {
                // Each element takes at least one byte: fail before trusting the count.
                if (head.value > remaining_bytes) FAIL(CBOR_WALK_ERR_TRUNCATED, start);
                if (head.value > limits->max_items_per_container)
                    FAIL(CBOR_WALK_ERR_CONTAINER, start);
                expected = head.value;
            } else if (head.kind == CBOR_WALK_MAP) {
                if (head.value > remaining_bytes / 2) FAIL(CBOR_WALK_ERR_TRUNCATED, start);
                if (head.value > limits->max_items_per_container)
                    FAIL(CBOR_WALK_ERR_CONTAINER, start);
                expected = head.value * 2;
            } else if (head.kind == CBOR_WALK_TAG) {
                expected = 1;
            }
            if (!is_indefinite(head.kind) && expected == 0) {
                cbor_tree_node *node = node_at(&w, row);  // empty array or map
                node->firstChild = (int32_t)(out->slot_base + (long)out->slots.count);
                COMPLETE(pos);
                break;
            }
            w.stack[w.depth++] = (frame){.remaining = expected, .entries = 0, .offset = start,
                                         .row = row, .next = w.pending.count, .kind = head.kind};
            w.nesting++;
            break;
        }
        case CBOR_WALK_BYTES_INDEF:
        case CBOR_WALK_TEXT_INDEF:
            if (w.depth + 1 >= stack_capacity) FAIL(CBOR_WALK_ERR_DEPTH, start);
            out->indefinite_strings++;
            w.stack[w.depth++] = (frame){.remaining = 0, .entries = 0, .offset = start, .row = row,
                                         .next = out->chunks.count, .kind = head.kind};
            break;
        default:
            COMPLETE(pos);
            break;
        }
    }
#undef COMPLETE
#undef FAIL

finish:
    if (w.stack != local_stack) free(w.stack);
    release(&w.pending);
    if (status == CBOR_WALK_OK && w.semantic) {
        status = w.semantic;
        fail_at = w.semantic_at;
    }
    *error_offset = fail_at;
    return status;
}

int cbor_walk_tree_each(const uint8_t *data, size_t *ranges, size_t count, const cbor_walk_limits *limits,
                        cbor_tree_output *out, size_t *error_offset) {
    // Room for the typical density (one item per 8 bytes) of all items at once, not per item.
    size_t total = 0;
    for (size_t i = 0; i < count; i++) total += ranges[count + i];
    size_t expected = total / 8 + 64 < total ? total / 8 + 64 : total;
    *error_offset = 0;
    if (!reserve(&out->nodes, sizeof(cbor_tree_node), expected, out->nodes.count + total) ||
        !reserve(&out->slots, sizeof(int32_t), expected, out->slots.count + total))
        return CBOR_WALK_ERR_NO_MEMORY;
    long input_base = out->input_base;
    int status = CBOR_WALK_OK;
    for (size_t i = 0; i < count && status == CBOR_WALK_OK; i++) {
        ranges[2 * count + i] = (size_t)(out->row_base + (long)out->nodes.count);
        out->input_base = input_base + (long)ranges[i];
        status = cbor_walk_tree(data + ranges[i], ranges[count + i], limits, out, error_offset);
    }
    out->input_base = input_base;
    return status;
}

void cbor_tree_output_release(cbor_tree_output *out) {
    release(&out->nodes);
    release(&out->slots);
    release(&out->chunks);
    release(&out->deferred);
}

const char *cbor_walker_libcbor_version(void) { return CBOR_VERSION; }
