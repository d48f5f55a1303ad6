/* status.c - names and sentences of the statuses, from LIT_STATUS_MAP. */
#include "literature/status.h"

#include <string.h>

static const char *const names[LIT_STATUS_COUNT_] = {
    "ok",
#define LIT_X_(code, name, text) name,
    LIT_STATUS_MAP(LIT_X_)
#undef LIT_X_
};

static const char *const texts[LIT_STATUS_COUNT_] = {
    "success",
#define LIT_X_(code, name, text) text,
    LIT_STATUS_MAP(LIT_X_)
#undef LIT_X_
};

const char *lit_status_name(int status)
{
    if (status > 0 || status <= -LIT_STATUS_COUNT_)
        return "unknown";
    return names[-status];
}

const char *lit_status_text(int status)
{
    if (status > 0 || status <= -LIT_STATUS_COUNT_)
        return "unknown status";
    return texts[-status];
}

int lit_status_from_name(const char *name)
{
    for (int i = 0; i < LIT_STATUS_COUNT_; i++)
        if (strcmp(names[i], name) == 0)
            return -i;
    return 1;
}
