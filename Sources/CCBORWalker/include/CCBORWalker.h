#ifndef CCBORWALKER_H
#define CCBORWALKER_H
// Bounded streaming walk over CBOR input on libcbor (cbor_walker.h).
#include "cbor_walker.h"
#endif
