#ifndef CALLOCATOR_H
#define CALLOCATOR_H
#include <stddef.h>
#include <stdlib.h>  /* defines __GLIBC__ on glibc */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// Hands the allocator's free pages back to the kernel (glibc `malloc_trim`); returns 1 when memory was released,
/// 0 when none was or the C library has no such call.
static inline int callocator_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

/// glibc's view of the heap: bytes handed out (small blocks and mmapped ones) and bytes held free inside the
/// allocator. Both 0 on other C libraries.
static inline void callocator_read(size_t *inUse, size_t *freeHeld) {
#if defined(__GLIBC__)
    struct mallinfo2 info = mallinfo2();
    *inUse = info.uordblks + info.hblkhd;
    *freeHeld = info.fordblks;
#else
    *inUse = 0;
    *freeHeld = 0;
#endif
}

#endif
