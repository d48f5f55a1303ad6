/* pool.c - the workers that run the hub's jobs off the loop (pool.h). */
#include "pool.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../mem/mem.h"
#include "literature/bot.h"
#include "literature/review.h"

int pool_default_experts(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > POOL_EXPERTS_MAX ? POOL_EXPERTS_MAX : (int)cores;
}

/* The expert worker with the fewest jobs out (out is only ever changed in
 * the loop, which this is: read without the lock). */
static PoolWorker *least_busy(Pool *pool)
{
    PoolWorker *best = &pool->workers[0];
    for (int i = 1; i < pool->experts; i++)
        if (pool->workers[i].out < best->out)
            best = &pool->workers[i];
    return best;
}

int pool_post(Pool *pool, HubJob *job)
{
    if (!pool->running) /* stopped: the server is on its way out */
        return 1;
    PoolWorker *w = hub_job_kind(job) == HUB_JOB_REVIEW ? &pool->review : least_busy(pool);
    pthread_mutex_lock(&w->lock);
    int full = w->out >= POOL_QUEUE;
    if (!full) {
        w->todo[(w->todo_head + w->todo_n) % POOL_QUEUE] = job;
        w->todo_n++;
        w->out++;
        pthread_cond_signal(&w->ready);
    }
    pthread_mutex_unlock(&w->lock);
    return full;
}

/* The worker thread: runs jobs in the order they came, until told to stop
 * (a job being run is finished first). */
static void *work(void *arg)
{
    PoolWorker *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->stop && !w->todo_n)
            pthread_cond_wait(&w->ready, &w->lock);
        if (w->stop)
            break;
        HubJob *job = w->todo[w->todo_head];
        w->todo_head = (w->todo_head + 1) % POOL_QUEUE;
        w->todo_n--;
        pthread_mutex_unlock(&w->lock);
        hub_job_run(job, w->work, w->size);
        pthread_mutex_lock(&w->lock);
        w->done[w->done_n++] = job;
        ev_async_send(w->pool->loop, &w->async);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* In the loop: the jobs run, to the pool's done (which may post more). */
static void on_done(struct ev_loop *loop, ev_async *a, int revents)
{
    (void)loop;
    (void)revents;
    PoolWorker *w = a->data;
    HubJob *done[POOL_QUEUE];
    pthread_mutex_lock(&w->lock);
    int n = w->done_n;
    memcpy(done, w->done, (size_t)n * sizeof *done);
    w->done_n = 0;
    w->out -= n;
    pthread_mutex_unlock(&w->lock);
    w->pool->done(done, n, w->pool->ctx);
}

/* Starts a worker with a workspace of size bytes: 0, or -1 (no memory, no
 * thread) with nothing to undo. It takes no signal: SIGINT and SIGTERM are
 * the loop's. */
static int worker_start(Pool *pool, PoolWorker *w, size_t size)
{
    memset(w, 0, sizeof *w);
    w->pool = pool;
    w->size = size;
    if (!(w->work = mem_map(size)))
        return -1;
    if (pthread_mutex_init(&w->lock, NULL)) {
        mem_unmap(w->work, size);
        return -1;
    }
    if (pthread_cond_init(&w->ready, NULL)) {
        pthread_mutex_destroy(&w->lock);
        mem_unmap(w->work, size);
        return -1;
    }
    ev_async_init(&w->async, on_done);
    w->async.data = w;
    ev_async_start(pool->loop, &w->async);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&w->thread, NULL, work, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        ev_async_stop(pool->loop, &w->async);
        pthread_cond_destroy(&w->ready);
        pthread_mutex_destroy(&w->lock);
        mem_unmap(w->work, size);
        return -1;
    }
    return 0;
}

/* Stops a worker (a job being run is finished) and joins it; the jobs not
 * yet back in the hub are freed (the hub is stopping too). */
static void worker_stop(Pool *pool, PoolWorker *w)
{
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_broadcast(&w->ready);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    for (int i = 0; i < w->todo_n; i++)
        hub_job_free(w->todo[(w->todo_head + i) % POOL_QUEUE]);
    for (int i = 0; i < w->done_n; i++)
        hub_job_free(w->done[i]);
    w->todo_n = w->done_n = w->out = 0;
    ev_async_stop(pool->loop, &w->async);
    pthread_cond_destroy(&w->ready);
    pthread_mutex_destroy(&w->lock);
    mem_unmap(w->work, w->size);
    w->work = NULL;
}

int pool_start(Pool *pool, struct ev_loop *loop, int experts, PoolDone done, void *ctx)
{
    memset(pool, 0, sizeof *pool);
    pool->loop = loop;
    pool->done = done;
    pool->ctx = ctx;
    if (experts < 1 || experts > POOL_EXPERTS_MAX ||
        worker_start(pool, &pool->review, LIT_REVIEW_WORK))
        return -1;
    for (; pool->experts < experts; pool->experts++)
        if (worker_start(pool, &pool->workers[pool->experts], LIT_BOT_WORK)) {
            while (pool->experts > 0)
                worker_stop(pool, &pool->workers[--pool->experts]);
            worker_stop(pool, &pool->review);
            return -1;
        }
    pool->running = 1;
    return 0;
}

void pool_stop(Pool *pool)
{
    if (!pool->running)
        return;
    pool->running = 0;
    for (int i = 0; i < pool->experts; i++)
        worker_stop(pool, &pool->workers[i]);
    worker_stop(pool, &pool->review);
}
