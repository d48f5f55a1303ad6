/* job.c - the jobs the hub hands out to run off its thread (hub.h,
 * HubJob): an expert's decision, a hint or a review; running one, and what
 * it is for. Jobs are made by pace.c (decisions), play.c (hints) and
 * archive.c (reviews), and come back through hub_job_done (hub.c).
 */
#include "room.h"

#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"

#include "literature/status.h"

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
    j->chance = -1;
    if (j->kind == HUB_JOB_HINT && j->status == LIT_OK)
        lit_bot_chance(&j->view, &j->action, j->seq, work, size, &j->chance, &j->at_most);
}

HubJob *hub_job_for_seat(Room *r, int s, int kind)
{
    LitView v;
    lit_view_make(&v, &r->game, &r->log, s);
    HubJob *j = mem_alloc(sizeof *j + v.history_len * sizeof *j->events);
    if (!j)
        return NULL;
    memset(j, 0, sizeof *j);
    j->id = ++r->hub->jobs;
    j->kind = kind;
    memcpy(j->room, r->code, sizeof j->room);
    j->seq = r->game_seq;
    j->status = LIT_NO_SPACE; /* until it runs */
    j->chance = -1;
    j->view = v;
    memcpy(j->events, v.history, v.history_len * sizeof *j->events);
    j->view.history = j->events;
    return j;
}

void hub_job_free(HubJob *j)
{
    if (j && j->review) {
        free(j->review->events);
        free(j->review->by);
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
