/* job.c - the jobs the hub hands out to run off its thread (hub.h,
 * HubJob): an expert's decision or a review; running one, and what it is
 * for. Jobs are made by pace.c (decisions) and archive.c (reviews), and
 * come back through hub_job_done (hub.c).
 */
#include "room.h"

#include <stdlib.h>

void hub_job_run(HubJob *j, void *work, size_t size)
{
    ReviewJob *rv = j->review;
    if (j->kind == HUB_JOB_REVIEW) {
        rv->status = lit_review(&rv->start, rv->events, rv->n_events, rv->seat, &rv->options,
                                work, size, rv->decisions, rv->n_events, &rv->summary);
        return;
    }
    lit_bot_lend(&j->bot, work, size);
    j->status = lit_bot_act(&j->bot, &j->view, &j->action);
    lit_bot_lend(&j->bot, NULL, 0);
}

void hub_job_free(HubJob *j)
{
    if (j && j->review) {
        free(j->review->events);
        free(j->review->decisions);
        free(j->review);
    }
    free(j);
}

int hub_job_kind(const HubJob *j)
{
    return j->kind;
}

const char *hub_job_room(const HubJob *j)
{
    return j->room;
}

uint32_t hub_job_seq(const HubJob *j)
{
    return j->seq;
}
