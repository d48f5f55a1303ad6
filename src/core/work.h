/* work.h - a workspace: aligned pieces carved out of a caller's buffer.
 *
 * Internal to the library (deduction and the bots include it; it is not
 * installed). The core never allocates, and neither do the layers above it
 * that count, sample or search: each takes one buffer from its caller and
 * carves its tables out of it here. Every piece starts on a 16-byte boundary
 * whatever the buffer's own alignment, so vectors of doubles and 128-bit
 * counters may live in it.
 */
#ifndef LIT_CORE_WORK_H
#define LIT_CORE_WORK_H

#include <stddef.h>
#include <stdint.h>

#define LIT_WORK_ALIGN 16

typedef struct LitWork {
    unsigned char *p; /* the next free byte, aligned */
    size_t left;      /* bytes from p to the end, a multiple of the alignment */
} LitWork;

/* A workspace over size bytes at buf: its start rounded up to the alignment,
 * its end down. */
static inline LitWork lit_work_of(void *buf, size_t size)
{
    size_t skip = (LIT_WORK_ALIGN - (uintptr_t)buf % LIT_WORK_ALIGN) % LIT_WORK_ALIGN;
    LitWork w = {(unsigned char *)buf + skip, size > skip ? size - skip : 0};
    w.left &= ~(size_t)(LIT_WORK_ALIGN - 1);
    return w;
}

/* bytes rounded up to the alignment. */
static inline size_t lit_work_round(size_t bytes)
{
    return (bytes + LIT_WORK_ALIGN - 1) & ~(size_t)(LIT_WORK_ALIGN - 1);
}

/* Takes bytes from the workspace (rounded up, so the next piece stays
 * aligned): the piece, or NULL (and w unchanged) when it does not fit. */
static inline void *lit_work_take(LitWork *w, size_t bytes)
{
    if (bytes > w->left || lit_work_round(bytes) > w->left)
        return NULL;
    bytes = lit_work_round(bytes);
    void *out = w->p;
    w->p += bytes;
    w->left -= bytes;
    return out;
}

/* Takes n items of size bytes each: NULL when they do not fit or n * size
 * overflows. */
static inline void *lit_work_take_n(LitWork *w, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    return lit_work_take(w, n * size);
}

#endif
