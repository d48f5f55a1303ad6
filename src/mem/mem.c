/* mem.c - the server layers' allocator and its fault injector (mem.h). */
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define MEM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEM_ASAN 1
#endif
#endif
#ifdef MEM_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* allocations that returned NULL, the calling thread's: a hub (one an
 * event loop) asks whether one of its own failed (mem.h) */
static _Thread_local unsigned long failures;
static int counting;           /* fault injection on and not paused */
static int started;            /* fault injection on */
static unsigned long counted, nth;

/* Whether this allocation is to fail: the nth counted one. */
static int fault(void)
{
    if (!counting)
        return 0;
    return ++counted == nth;
}

static void *failed(void)
{
    failures++;
    return NULL;
}

/* The calling thread's scratch block (mem_scratch_start), and whether its
 * allocations come from it now. */
static _Thread_local unsigned char *scratch;
static _Thread_local size_t scratch_size, scratch_used;
static _Thread_local int scratch_on;

enum { SCRATCH_ALIGN = 16 };

void mem_scratch_start(void *block, size_t size)
{
    unsigned char *at = block;
    size_t skip = (SCRATCH_ALIGN - (uintptr_t)at % SCRATCH_ALIGN) % SCRATCH_ALIGN;
    scratch = at;
    scratch_size = size;
    scratch_used = skip < size ? skip : size;
    scratch_on = 1;
    POISON(block, size);
}

void mem_scratch_stop(void)
{
    scratch_on = 0;
}

/* size bytes of the scratch block, or NULL when they do not fit. */
static void *from_scratch(size_t size)
{
    size_t whole = (size + SCRATCH_ALIGN - 1) / SCRATCH_ALIGN * SCRATCH_ALIGN;
    if (whole < size || whole > scratch_size - scratch_used)
        return NULL;
    void *p = scratch + scratch_used;
    scratch_used += whole;
    UNPOISON(p, size);
    return p;
}

static int in_scratch(const void *p)
{
    uintptr_t at = (uintptr_t)p, from = (uintptr_t)scratch;
    return scratch && at >= from && at - from < scratch_size;
}

void *mem_alloc(size_t size)
{
    if (fault())
        return failed();
    void *p = scratch_on ? from_scratch(size ? size : 1) : NULL;
    if (!p)
        p = malloc(size ? size : 1);
    return p ? p : failed();
}

void *mem_calloc(size_t n, size_t size)
{
    void *p = fault() ? NULL : calloc(n ? n : 1, size ? size : 1);
    return p ? p : failed();
}

void *mem_realloc(void *p, size_t size)
{
    void *q = fault() ? NULL : realloc(p, size ? size : 1);
    return q ? q : failed();
}

char *mem_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = mem_alloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void mem_free(void *p)
{
    if (!in_scratch(p))
        free(p);
}

void *mem_lws(void *p, size_t size, const char *reason)
{
    (void)reason;
    if (!size) {
        free(p);
        return NULL;
    }
    return mem_realloc(p, size);
}

void *mem_alloc_work(size_t size)
{
    volatile unsigned char *b = mem_alloc(size);
    long page = sysconf(_SC_PAGESIZE);
    size_t step = page > 0 ? (size_t)page : 4096;
    /* a byte in every page the block reaches into, the last one's too */
    for (size_t i = 0; b && i < size; i += step)
        b[i] = 0;
    if (b && size)
        b[size - 1] = 0;
    return (void *)b;
}

void *mem_map(size_t size)
{
    if (fault())
        return failed();
    void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p != MAP_FAILED ? p : failed();
}

void mem_unmap(void *p, size_t size)
{
    if (p)
        munmap(p, size ? size : 1);
}

unsigned long mem_failures(void)
{
    return failures;
}

void mem_fault_start(unsigned long n)
{
    counted = 0;
    nth = n;
    started = counting = 1;
}

void mem_fault_count(int on)
{
    counting = started && on;
}

unsigned long mem_fault_stop(void)
{
    started = counting = 0;
    return counted;
}

int mem_fault_hit(void)
{
    return nth && counted >= nth;
}
