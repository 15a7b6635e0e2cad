// CBOR module
