/* fuzz_notation.c - the record reader on arbitrary bytes.
 *
 * Invariants: whatever parses formats; the text formatted parses to an equal
 * record (parse(format(r)) == r) and formats to the same text (a fixed
 * point); replaying it, with or without refusals, never crashes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "literature/notation.h"
#include "literature/status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CAP = LIT_RECORD_MAX_EVENTS, TEXT = LIT_RECORD_TEXT_MAX };
static LitEvent ev1[CAP], ev2[CAP];
static char text1[TEXT], text2[TEXT];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LitRecord a, b;
    lit_record_init(&a, ev1, NULL, CAP);
    lit_record_init(&b, ev2, NULL, CAP);
    /* The input as one move line too (lit play's commands): a move that
     * parses formats to a line that parses to the same move. */
    LitEvent m1, m2;
    LitRules rules;
    lit_rules_default(&rules);
    if (lit_move_parse(&rules, (const char *)data, size, &m1) == LIT_OK) {
        char line[LIT_LINE_MAX];
        int n = lit_event_format(&rules, &m1, 0, line, sizeof line);
        if (n < 0 || lit_move_parse(&rules, line, (size_t)n, &m2) != LIT_OK ||
            memcmp(&m1.action, &m2.action, sizeof m1.action) != 0)
            abort();
    }
    if (lit_record_parse(&a, (const char *)data, size, NULL) != LIT_OK)
        return 0;
    int n1 = lit_record_format(&a, text1, sizeof text1);
    if (n1 < 0)
        abort();
    LitParseError err;
    if (lit_record_parse(&b, text1, (size_t)n1, &err) != LIT_OK)
        abort();
    if (!lit_record_equal(&a, &b))
        abort();
    int n2 = lit_record_format(&b, text2, sizeof text2);
    if (n2 != n1 || memcmp(text1, text2, (size_t)n1) != 0)
        abort();

    LitReplay rp;
    if (lit_replay_start(&rp, &a) == LIT_OK) {
        for (uint32_t i = 0; i < a.n_events; i++) {
            LitReplay before = rp;
            LitEvent e;
            if (lit_replay_step(&rp, &a.events[i], &e) != LIT_OK &&
                memcmp(&before, &rp, sizeof rp) != 0)
                abort(); /* a refused step changed the replay */
        }
        lit_replay_check_result(&rp, &a, NULL);
    }
    return 0;
}
