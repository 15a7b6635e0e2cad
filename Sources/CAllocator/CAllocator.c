// The functions are static inline in the header; this file gives the target a source to build.
#include "CAllocator.h"
