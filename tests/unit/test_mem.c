/* test_mem.c - the server layers' allocator (src/mem/mem.h): a scratch
 * block's pieces, what falls back to malloc, fault injection over both,
 * in the sanitizer build, a piece poisoned once the block is taken back,
 * and a workspace whose pages are all in memory when it is handed over.
 * Leaks and bad frees are the sanitizer build's to find. */
#define _DEFAULT_SOURCE /* mincore */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/mem/mem.h"

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifdef TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

enum { BLOCK = 256 };

static _Alignas(16) unsigned char block[BLOCK + 1];

static int inside(const void *p, const unsigned char *b, size_t size)
{
    uintptr_t at = (uintptr_t)p, from = (uintptr_t)b;
    return at >= from && at - from < size;
}

Test(scratch, pieces_come_from_the_block_one_after_another_aligned)
{
    mem_scratch_start(block, BLOCK);
    unsigned char *a = mem_alloc(1), *b = mem_alloc(17), *c = mem_alloc(0);
    mem_scratch_stop();
    cr_assert(inside(a, block, BLOCK) && inside(b, block, BLOCK) && inside(c, block, BLOCK));
    cr_assert_eq(a, block);
    cr_assert_eq(b, block + 16, "a piece of 1 byte takes 16");
    cr_assert_eq(c, block + 48, "17 bytes take 32, and 0 bytes are 1");
    memset(b, 0xab, 17); /* all of it writable */
    mem_free(a);         /* nothing: taken back by the next start */
    mem_free(b);
    mem_free(c);
    /* stopped: malloc again, freed as malloc's */
    void *d = mem_alloc(8);
    cr_assert(d && !inside(d, block, BLOCK));
    mem_free(d);
    /* the next start takes every piece back: the first piece is the block's start again */
    mem_scratch_start(block, BLOCK);
    cr_assert_eq(mem_alloc(40), block);
    mem_scratch_stop();
}

Test(scratch, a_block_not_aligned_hands_out_aligned_pieces)
{
    mem_scratch_start(block + 1, BLOCK);
    unsigned char *a = mem_alloc(3);
    mem_scratch_stop();
    cr_assert_eq(a, block + 16);
}

Test(scratch, what_does_not_fit_comes_from_malloc_and_is_freed_as_such)
{
    mem_scratch_start(block, BLOCK);
    unsigned char *a = mem_alloc(BLOCK - 32);
    unsigned char *big = mem_alloc(64); /* 32 left */
    unsigned char *b = mem_alloc(32);   /* fits what is left */
    mem_scratch_stop();
    cr_assert(inside(a, block, BLOCK) && inside(b, block, BLOCK));
    cr_assert_eq(b, block + BLOCK - 32);
    cr_assert(big && !inside(big, block, BLOCK));
    memset(big, 1, 64);
    mem_free(big); /* a leak or a bad free here is the sanitizers' */
}

Test(scratch, fault_injection_fails_a_piece_as_any_allocation)
{
    unsigned long before = mem_failures();
    mem_scratch_start(block, BLOCK);
    mem_fault_start(2);
    void *a = mem_alloc(8), *b = mem_alloc(8), *c = mem_alloc(8);
    unsigned long counted = mem_fault_stop();
    mem_scratch_stop();
    cr_assert_eq(counted, 3);
    cr_assert(a && c);
    cr_assert_null(b, "the second allocation fails though the block has room");
    cr_assert_eq(mem_failures(), before + 1);
    cr_assert_eq(c, block + 16, "a failed piece takes nothing of the block");
}

Test(scratch, a_json_value_read_into_the_block_is_whole_and_its_decref_frees_nothing)
{
    /* as hub_receive reads a message: jansson allocates through mem.h */
    json_set_alloc_funcs(mem_alloc, mem_free);
    static _Alignas(16) unsigned char big[4096];
    const char *text = "{\"type\":\"act\",\"id\":\"a-long-client-action-id\",\"seq\":12,"
                       "\"ask\":{\"card\":\"QH\",\"target\":4}}";
    mem_scratch_start(big, sizeof big);
    json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
    mem_scratch_stop();
    cr_assert_not_null(j);
    cr_assert(inside(j, big, sizeof big));
    char *again = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER); /* malloc'd */
    cr_assert_not_null(again);
    cr_assert(!inside(again, big, sizeof big));
    cr_assert_str_eq(again, text);
    mem_free(again);
    json_decref(j);
    /* a value bigger than the block: what fits in it and the rest malloc'd */
    char many[2 + 2 * 1000];
    size_t n = 0;
    many[n++] = '[';
    for (int i = 0; i < 1000; i++) {
        many[n++] = '7';
        many[n++] = i < 999 ? ',' : ']';
    }
    many[n] = '\0';
    mem_scratch_start(big, sizeof big);
    json_t *a = json_loads(many, 0, NULL);
    mem_scratch_stop();
    cr_assert_not_null(a);
    cr_assert_eq(json_array_size(a), 1000);
    cr_assert_eq(json_integer_value(json_array_get(a, 999)), 7);
    json_decref(a); /* frees the malloc'd part: no leak */
}

#ifdef TEST_ASAN
Test(scratch, a_piece_is_poisoned_once_the_block_is_taken_back)
{
    mem_scratch_start(block, BLOCK);
    unsigned char *a = mem_alloc(24);
    mem_scratch_stop();
    cr_assert(!__asan_region_is_poisoned(a, 24), "handed out: usable");
    cr_assert(__asan_address_is_poisoned(a + 24), "past the piece: not");
    mem_scratch_start(block, BLOCK);
    cr_assert(__asan_address_is_poisoned(a), "taken back by the next start");
    mem_scratch_stop();
}
#endif

/* ---- a workspace made resident ------------------------------------------ */

/* Pages of [p, p + size) that are in memory, by mincore. */
static size_t resident_pages(const void *p, size_t size, size_t *pages)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = (uintptr_t)p & ~(uintptr_t)(page - 1);
    size_t len = (uintptr_t)p + size - from;
    *pages = (len + page - 1) / page;
    unsigned char *in = malloc(*pages);
    cr_assert(in);
    cr_assert_eq(mincore((void *)from, len, in), 0);
    size_t n = 0;
    for (size_t i = 0; i < *pages; i++)
        n += in[i] & 1;
    free(in);
    return n;
}

Test(work, every_page_of_a_workspace_is_in_memory_before_its_first_use)
{
    size_t size = 8u << 20, pages;
    void *plain = mem_alloc(size), *work = mem_alloc_work(size);
    cr_assert(plain && work);
    /* malloc of 8 MiB maps fresh pages that nothing has touched */
    cr_assert_lt(resident_pages(plain, size, &pages), pages / 2);
    cr_assert_eq(resident_pages(work, size, &pages), pages);
    free(plain);
    free(work);
}

Test(work, a_workspace_is_counted_and_failed_as_any_allocation)
{
    mem_fault_start(1);
    unsigned long before = mem_failures();
    cr_assert_null(mem_alloc_work(1u << 20));
    cr_assert_eq(mem_failures(), before + 1);
    void *p = mem_alloc_work(1u << 20);
    cr_assert_not_null(p);
    mem_fault_start(0);
    free(p);
}
