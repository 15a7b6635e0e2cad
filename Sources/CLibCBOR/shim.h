#ifndef CLIBCBOR_SHIM_H
#define CLIBCBOR_SHIM_H
#include <cbor.h>
#endif
