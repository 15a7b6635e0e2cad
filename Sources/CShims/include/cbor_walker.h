#ifndef CSHIMS_CBOR_WALKER_H
#define CSHIMS_CBOR_WALKER_H
#include <stddef.h>
#include <stdint.h>
#endif
