/* test_canary.c - a deliberate leak, built only with -DLIT_CANARY=ON. The
 * sanitizer suite must fail on it (scripts/test.sh checks that it does);
 * if it passes, leaks and undefined behaviour would pass unseen too. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

Test(canary, leaks_on_purpose)
{
    char *p = malloc(64);
    cr_assert_not_null(p);
    memset(p, 1, 64);
    p = NULL; /* the only pointer is gone: LeakSanitizer reports it */
    cr_assert_null(p);
}
