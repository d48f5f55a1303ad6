/* mem.c - the server layers' allocator and its fault injector (mem.h). */
#include "mem.h"

#include <stdlib.h>
#include <string.h>

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

void *mem_alloc(size_t size)
{
    void *p = fault() ? NULL : malloc(size ? size : 1);
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
