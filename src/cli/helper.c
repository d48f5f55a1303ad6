/* helper.c - a second thread for lit_odds_helped (helper.h). The counting
 * hands it one call at a time (run) and waits for it (wait): a mutex and a
 * condition variable, the call's function and argument the only state. */
#include "helper.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct Helper {
    LitHelper lent; /* first: helper_of casts back */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    void (*fn)(void *); /* the call to run; NULL when there is none */
    void *arg;
    int busy; /* a call is given and not yet done */
    int stop;
};

static Helper *helper_of(LitHelper *l)
{
    return (Helper *)l;
}

static void *helper_main(void *arg)
{
    Helper *h = arg;
    pthread_mutex_lock(&h->lock);
    for (;;) {
        while (!h->fn && !h->stop)
            pthread_cond_wait(&h->changed, &h->lock);
        if (!h->fn)
            break;
        void (*fn)(void *) = h->fn;
        void *fa = h->arg;
        pthread_mutex_unlock(&h->lock);
        fn(fa);
        pthread_mutex_lock(&h->lock);
        h->fn = NULL;
        h->busy = 0;
        pthread_cond_broadcast(&h->changed);
    }
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

static int helper_run(LitHelper *l, void (*fn)(void *), void *arg)
{
    Helper *h = helper_of(l);
    pthread_mutex_lock(&h->lock);
    int taken = !h->busy;
    if (taken) {
        h->fn = fn;
        h->arg = arg;
        h->busy = 1;
        pthread_cond_broadcast(&h->changed);
    }
    pthread_mutex_unlock(&h->lock);
    return taken ? 0 : -1;
}

static void helper_wait(LitHelper *l)
{
    Helper *h = helper_of(l);
    pthread_mutex_lock(&h->lock);
    while (h->busy)
        pthread_cond_wait(&h->changed, &h->lock);
    pthread_mutex_unlock(&h->lock);
}

Helper *helper_new(int threads)
{
    if (threads < 2)
        return NULL;
    Helper *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->lent.run = helper_run;
    h->lent.wait = helper_wait;
    if (pthread_mutex_init(&h->lock, NULL)) {
        free(h);
        return NULL;
    }
    if (pthread_cond_init(&h->changed, NULL)) {
        pthread_mutex_destroy(&h->lock);
        free(h);
        return NULL;
    }
    if (pthread_create(&h->thread, NULL, helper_main, h)) {
        pthread_cond_destroy(&h->changed);
        pthread_mutex_destroy(&h->lock);
        free(h);
        return NULL;
    }
    return h;
}

void helper_free(Helper *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    h->stop = 1;
    pthread_cond_broadcast(&h->changed);
    pthread_mutex_unlock(&h->lock);
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->changed);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

LitHelper *helper_lent(Helper *h)
{
    return h ? &h->lent : NULL;
}

int helper_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 2 ? 2 : 1;
}
