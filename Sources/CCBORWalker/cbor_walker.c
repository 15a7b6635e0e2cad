// Bounded streaming walk over CBOR input on libcbor's cbor_stream_decode.
// libcbor decodes one head at a time (no allocation); this file adds what libcbor 0.8 does not
// check: nesting and count limits, break placement, indefinite-string chunk types, declared
// lengths against the remaining input, and trailing bytes. Callbacks live in C because their
// length parameter type differs across libcbor versions (size_t in 0.8, uint64_t from 0.9).
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

// ---- the walk ----

typedef struct {
    uint64_t remaining;  // definite: items still expected (2 per map pair)
    uint64_t entries;    // indefinite: items seen so far (keys and values counted separately)
    size_t offset;       // head offset of the container
    uint8_t kind;        // CBOR_WALK_ARRAY, _MAP, _TAG or one of the _INDEF kinds
} frame;

static int is_indefinite(uint8_t kind) {
    return kind >= CBOR_WALK_BYTES_INDEF && kind <= CBOR_WALK_MAP_INDEF;
}

static int is_indefinite_string(uint8_t kind) {
    return kind == CBOR_WALK_BYTES_INDEF || kind == CBOR_WALK_TEXT_INDEF;
}

/// Appends one event, growing the buffer if needed. Returns 0 when out of memory.
static int record(cbor_walk_events *out, size_t input_length, uint8_t kind, uint64_t value,
                  size_t offset, size_t head_length) {
    if (out->count == out->capacity) {
        // Every event consumes at least one input byte, so input_length bounds the count.
        size_t wanted = out->capacity ? out->capacity * 2 : 64;
        if (!out->owned && wanted < input_length / 8 + 64) wanted = input_length / 8 + 64;
        if (wanted > input_length) wanted = input_length;
        if (wanted <= out->count) wanted = out->count + 1;
        cbor_walk_event *grown;
        if (out->owned) {
            grown = realloc(out->events, wanted * sizeof *grown);
        } else {
            grown = malloc(wanted * sizeof *grown);
            if (grown && out->count) memcpy(grown, out->events, out->count * sizeof *grown);
        }
        if (!grown) return 0;
        out->events = grown;
        out->capacity = wanted;
        out->owned = 1;
    }
    cbor_walk_event *event = &out->events[out->count++];
    event->value = value;
    event->offset = offset;
    event->kind = kind;
    event->head_length = (uint8_t)head_length;
    return 1;
}

/// One item has ended: count it in the enclosing definite containers, closing those that are
/// now full. Returns 1 when the outermost item is complete.
static int complete_item(frame *stack, size_t *depth, size_t *nesting) {
    while (*depth > 0) {
        frame *top = &stack[*depth - 1];
        if (is_indefinite(top->kind)) return 0;
        if (--top->remaining > 0) return 0;
        (*depth)--;
        (*nesting)--;  // definite frames are arrays, maps and tags
    }
    return 1;
}

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

int cbor_walk(const uint8_t *data, size_t length, const cbor_walk_limits *limits,
              cbor_walk_events *out, size_t *error_offset) {
    // Frames: at most max_depth arrays/maps/tags plus one indefinite string, and never more
    // than there are input bytes.
    size_t stack_capacity = (limits->max_depth < length ? limits->max_depth : length) + 2;
    frame local_stack[48];
    frame *stack = local_stack;
    if (stack_capacity > sizeof local_stack / sizeof local_stack[0]) {
        stack = malloc(stack_capacity * sizeof *stack);
        if (!stack) {
            *error_offset = 0;
            return CBOR_WALK_ERR_NO_MEMORY;
        }
    }

    size_t depth = 0;    // open frames
    size_t nesting = 0;  // open arrays, maps and tags
    size_t total = 0;    // items seen
    size_t pos = 0;
    int done = 0;
    int status = CBOR_WALK_OK;
    size_t fail_at = 0;
    out->count = 0;

#define FAIL(code, offset) \
    do {                   \
        status = (code);   \
        fail_at = (offset); \
        goto finish;       \
    } while (0)

    for (;;) {
        if (pos == length) {
            if (done) break;
            FAIL(CBOR_WALK_ERR_TRUNCATED, depth ? stack[depth - 1].offset : pos);
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
        frame *parent = depth ? &stack[depth - 1] : NULL;

        if (head.kind == CBOR_WALK_BREAK) {
            if (!parent || !is_indefinite(parent->kind)) FAIL(CBOR_WALK_ERR_MALFORMED, pos);
            // A break where a map value is due.
            if (parent->kind == CBOR_WALK_MAP_INDEF && (parent->entries & 1))
                FAIL(CBOR_WALK_ERR_MALFORMED, pos);
            if (!record(out, length, CBOR_WALK_BREAK, 0, pos, 1))
                FAIL(CBOR_WALK_ERR_NO_MEMORY, pos);
            if (!is_indefinite_string(parent->kind)) nesting--;
            depth--;
            pos += 1;
            done = complete_item(stack, &depth, &nesting);
            continue;
        }

        // Inside an indefinite string only definite chunks of the same major type may appear.
        if (parent && is_indefinite_string(parent->kind)) {
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
        if (!record(out, length, head.kind, head.value, pos, head_length))
            FAIL(CBOR_WALK_ERR_NO_MEMORY, pos);
        size_t start = pos;
        pos += read;
        size_t remaining_bytes = length - pos;

        switch (head.kind) {
        case CBOR_WALK_ARRAY:
        case CBOR_WALK_MAP:
        case CBOR_WALK_TAG:
        case CBOR_WALK_ARRAY_INDEF:
        case CBOR_WALK_MAP_INDEF: {
            if (nesting >= limits->max_depth || depth + 1 >= stack_capacity)
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
                done = complete_item(stack, &depth, &nesting);  // empty array or map
                break;
            }
            stack[depth++] = (frame){.remaining = expected, .entries = 0, .offset = start,
                                     .kind = head.kind};
            nesting++;
            break;
        }
        case CBOR_WALK_BYTES_INDEF:
        case CBOR_WALK_TEXT_INDEF:
            if (depth + 1 >= stack_capacity) FAIL(CBOR_WALK_ERR_DEPTH, start);
            stack[depth++] = (frame){.remaining = 0, .entries = 0, .offset = start,
                                     .kind = head.kind};
            break;
        default:
            done = complete_item(stack, &depth, &nesting);
            break;
        }
    }
#undef FAIL

finish:
    if (stack != local_stack) free(stack);
    *error_offset = fail_at;
    return status;
}

void cbor_walk_events_release(cbor_walk_events *events) {
    if (events->owned) free(events->events);
    events->events = NULL;
    events->count = 0;
    events->capacity = 0;
    events->owned = 0;
}

const char *cbor_walker_libcbor_version(void) { return CBOR_VERSION; }
