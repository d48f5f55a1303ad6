/* pool.h - the workers of `lit serve`: threads that run the hub's jobs
 * (hub.h, HubJob) off the event loop, apart from the loop (as libuv keeps
 * its threadpool apart from uv_loop).
 *
 * Workers, each one thread with its own workspace: the experts' run
 * decisions (LIT_BOT_WORK), as many as the machine has cores by default
 * (`lit serve --workers`), each decision to the expert worker with the
 * fewest jobs out; the review worker runs reviews (LIT_REVIEW_WORK; a
 * review takes seconds: it never holds up a table's expert). Each runs its
 * jobs one at a time in the order they came; an ev_async brings the jobs
 * run back to the loop, where done is called with them.
 */
#ifndef LIT_SERVER_POOL_H
#define LIT_SERVER_POOL_H

#include <ev.h>
#include <pthread.h>
#include <stddef.h>

#include "hub.h"

enum {
    /* jobs out at once a worker: queued, being run, or back and not yet
     * taken by the loop. One a room at most; beyond this the hub keeps the
     * rooms waiting, in order (HubConfig.post). */
    POOL_QUEUE = 64,
    POOL_EXPERTS_MAX = 64          /* expert workers at most (--workers) */
};

/* Called in the loop with the jobs a worker has run (n of them, oldest
 * first); they are the callee's. */
typedef void (*PoolDone)(HubJob **jobs, int n, void *ctx);

/* A worker: one thread, one workspace, a bounded queue of jobs to run and
 * one of jobs run. */
typedef struct PoolWorker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t ready;          /* a job to run, or stop */
    HubJob *todo[POOL_QUEUE];      /* to run: a ring from todo_head */
    int todo_head, todo_n;
    HubJob *done[POOL_QUEUE];      /* run, for the loop */
    int done_n;
    int out;                       /* jobs taken and not yet back in the loop */
    int stop;
    void *work;
    size_t size;                   /* its bytes */
    ev_async async;                /* wakes the loop: jobs are done */
    struct Pool *pool;
} PoolWorker;

/* The workers; the caller holds it (no allocation but the workspaces). */
typedef struct Pool {
    struct ev_loop *loop;
    PoolDone done;
    void *ctx;
    int running;                   /* the workers run */
    int experts;                   /* expert workers: workers[0 .. experts) */
    PoolWorker review;
    PoolWorker workers[POOL_EXPERTS_MAX];
} Pool;

/* The expert workers `lit serve` starts when not told: one a core online
 * (1 when that is not known), at most POOL_EXPERTS_MAX. */
int pool_default_experts(void);

/* Starts experts expert workers (1 to POOL_EXPERTS_MAX) and the review
 * worker on loop, done called there with ctx: 0, or -1 with none running
 * and nothing to undo (no memory or no thread). The threads take no
 * signal: SIGINT and SIGTERM are the loop's. */
int pool_start(Pool *pool, struct ev_loop *loop, int experts, PoolDone done, void *ctx);

/* HubConfig.post's work: a review to the review worker, an expert's
 * decision to the expert worker with the fewest jobs out, 0; or 1 when
 * that worker's queue is full or the pool is not running. Never waits:
 * the loop takes a worker's lock for a moment. */
int pool_post(Pool *pool, HubJob *job);

/* Stops the workers if they run (a job being run is finished first) and
 * joins them; the jobs not yet back in the loop are freed (the hub is
 * stopping too). */
void pool_stop(Pool *pool);

#endif
