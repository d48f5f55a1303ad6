/* mem.h - the one allocator of the server's layers (src/store, src/server)
 * and of the libraries under them, with a fault injector for tests.
 *
 * Every allocation of the store and the hub goes through mem_alloc,
 * mem_calloc, mem_realloc or mem_strdup, and the libraries are given the
 * same allocator: jansson (json_set_alloc_funcs, by hub_new), SQLite
 * (SQLITE_CONFIG_MALLOC, by the store's first open), libwebsockets
 * (lws_set_allocator, by net_serve). Memory from these is plain malloc
 * memory: free() releases it, and mem_free is free (but for a scratch
 * block's pieces, below).
 *
 * Two things come of it:
 * - mem_failures() counts the allocations that failed so far on the
 *   calling thread (each event loop's hub asks of its own), whichever
 *   layer asked. jansson drops a value it cannot allocate without a word
 *   (json_object_set_new, json_array_append_new return -1 and leave the
 *   object short of it), so the hub compares the count before and after
 *   building a frame or a room's state, and a short one is never sent or
 *   saved.
 * - A test switches fault injection on (mem_fault_start): the allocations
 *   are counted from there, and the nth fails, as if memory had run out
 *   (Lua's ltests.c does the same). Off, which is the product's case, an
 *   allocation costs one test of a flag more than malloc.
 *
 * A scratch block (mem_scratch_start) serves a thread's allocations for a
 * while from one block of memory instead: see below.
 *
 * Fault injection is for one thread: a server of one event loop (its
 * tests run `lit serve --loops 1`). The expert's worker thread allocates
 * nothing (the bots allocate nothing).
 */
#ifndef LIT_MEM_MEM_H
#define LIT_MEM_MEM_H

#include <stddef.h>

/* malloc, calloc, realloc and strdup, counted and failed when fault
 * injection is on; NULL when out of memory (mem_realloc then leaves p as it
 * was). mem_free(p) is free(p), but for a piece of the thread's scratch
 * block (nothing). */
void *mem_alloc(size_t size);
void *mem_calloc(size_t n, size_t size);
void *mem_realloc(void *p, size_t size);
char *mem_strdup(const char *s);
void mem_free(void *p);

/* mem_alloc for a benchmark's workspace, with a byte written in every
 * page of it, so that the kernel makes them now: a 64 MiB workspace is
 * 16,384 pages, and faulted in by the first counts that reach them they
 * cost those counts tens of milliseconds (docs/BENCHMARKS.md, "One timing
 * a position"), which are not the counting's. (A bot's or the server's is
 * left to be made as it is reached: at about 13 us a page fault on the
 * machine measured, making 68 MiB at once cost each `lit serve` start half
 * a second of CPU, for pages a 6-player game never reaches.) Its bytes are
 * not set to anything a reader may count on. */
void *mem_alloc_work(size_t size);

/* A workspace of size bytes straight from the kernel (mmap), for the
 * server's counting and its bots: zero pages, each made when first reached,
 * all given back by mem_unmap(p, size) (NULL: nothing). Counted and failed
 * as mem_alloc is. What malloc does with a block this large anyway, minus
 * what AddressSanitizer adds to it: poisoning and quarantining 64 MiB at
 * every free (which made the sanitizer build's fault test, a hub made and
 * freed 580 times, 2.6 times slower; docs/BENCHMARKS.md, "The test
 * suite"). */
void *mem_map(size_t size);
void mem_unmap(void *p, size_t size);

/* libwebsockets' allocator (lws_set_allocator): realloc, and free when
 * size is 0; reason is lws's and unused. */
void *mem_lws(void *p, size_t size, const char *reason);

/* Allocations that have failed since the program started, injected or not. */
unsigned long mem_failures(void);

/* ---- a scratch block ----------------------------------------------------- */

/* From mem_scratch_start to mem_scratch_stop, the calling thread's
 * allocations are taken from block (size bytes, aligned for any type), one
 * after another; one that does not fit in what is left comes from malloc.
 * mem_free of a piece of the block is nothing; the next mem_scratch_start
 * takes them all back at once. For what lives only as long as a call (the
 * JSON of a client message: hub_receive reads it into its hub's block and
 * drops it when the message is handled): no malloc or free a value, and
 * memory that stays in cache from one message to the next. A piece must not
 * be kept past the next start, nor passed to free() or mem_realloc. Counted and failed
 * like any allocation when fault injection is on. Under AddressSanitizer
 * the block is poisoned but for the pieces handed out, so a piece used
 * after the next start is reported as a use after free would be. */
void mem_scratch_start(void *block, size_t size);
void mem_scratch_stop(void);

/* ---- fault injection (tests) ------------------------------------------- */

/* Counts allocations from 0 from now on, and fails the nth (0: none; every
 * later one succeeds). */
void mem_fault_start(unsigned long nth);

/* Pauses (0) or resumes (1) the counting: the test's own allocations in
 * the same libraries (reading the frames with jansson) are not counted. */
void mem_fault_count(int on);

/* Stops fault injection; returns the allocations counted since
 * mem_fault_start. */
unsigned long mem_fault_stop(void);

/* Whether the nth allocation has been reached (and failed). */
int mem_fault_hit(void);

#endif
