/* store.c - the store's interface (store.h): each call goes to its
 * backend; and a store shared by several threads (store_shared). */
#include "store.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../mem/mem.h"

int store_save(Store *s, const StoreSave *save)
{
    return s->ops->save(s, save);
}

int store_drop(Store *s, const char *room)
{
    return s->ops->drop(s, room);
}

int store_rooms(Store *s, StoreRoomFn each, void *ctx)
{
    return s->ops->rooms(s, each, ctx);
}

int store_record(Store *s, const char *game, char **text, size_t *len)
{
    return s->ops->record(s, game, text, len);
}

int store_games(Store *s, StoreGameFn each, void *ctx)
{
    return s->ops->games(s, each, ctx);
}

int store_backup(Store *s, const char *path)
{
    return s->ops->backup(s, path);
}

const char *store_error(const Store *s)
{
    return s->ops->error ? s->ops->error(s) : s->error;
}

void store_close(Store *s)
{
    if (s)
        s->ops->close(s);
}

/* ---- shared by threads ----------------------------------------------------- */

typedef struct Shared {
    Store base;
    Store *inner;
    pthread_mutex_t lock;
} Shared;

/* The calling thread's last failure through a shared store. */
static _Thread_local char shared_error[STORE_ERROR_MAX];

/* Ends a call made under the lock: a failure's sentence kept for this
 * thread, then the lock let go. */
static int shared_end(Shared *q, int rc)
{
    if (rc != STORE_OK)
        snprintf(shared_error, sizeof shared_error, "%s", store_error(q->inner));
    pthread_mutex_unlock(&q->lock);
    return rc;
}

static int shared_save(Store *s, const StoreSave *save)
{
    Shared *q = (Shared *)s;
    pthread_mutex_lock(&q->lock);
    return shared_end(q, store_save(q->inner, save));
}

static int shared_drop(Store *s, const char *room)
{
    Shared *q = (Shared *)s;
    pthread_mutex_lock(&q->lock);
    return shared_end(q, store_drop(q->inner, room));
}

static int shared_rooms(Store *s, StoreRoomFn each, void *ctx)
{
    Shared *q = (Shared *)s;
    pthread_mutex_lock(&q->lock);
    return shared_end(q, store_rooms(q->inner, each, ctx));
}

static int shared_record(Store *s, const char *game, char **text, size_t *len)
{
    Shared *q = (Shared *)s;
    pthread_mutex_lock(&q->lock);
    return shared_end(q, store_record(q->inner, game, text, len));
}

static int shared_games(Store *s, StoreGameFn each, void *ctx)
{
    Shared *q = (Shared *)s;
    pthread_mutex_lock(&q->lock);
    return shared_end(q, store_games(q->inner, each, ctx));
}

static int shared_backup(Store *s, const char *path)
{
    Shared *q = (Shared *)s;
    pthread_mutex_lock(&q->lock);
    return shared_end(q, store_backup(q->inner, path));
}

static const char *shared_error_of(const Store *s)
{
    (void)s;
    return shared_error;
}

static void shared_close(Store *s)
{
    Shared *q = (Shared *)s;
    store_close(q->inner);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

static const StoreOps shared_ops = {shared_save,   shared_drop,  shared_rooms,   shared_record,
                                    shared_games,  shared_backup, shared_close, shared_error_of};

void store_unshare(Store *s)
{
    if (!s)
        return;
    Shared *q = (Shared *)s;
    pthread_mutex_destroy(&q->lock);
    free(q);
}

Store *store_shared(Store *inner)
{
    Shared *q = mem_calloc(1, sizeof *q);
    if (!q)
        return NULL;
    pthread_mutexattr_t a;
    int bad = pthread_mutexattr_init(&a) ||
              pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) ||
              pthread_mutex_init(&q->lock, &a);
    pthread_mutexattr_destroy(&a);
    if (bad) {
        free(q);
        return NULL;
    }
    q->base.ops = &shared_ops;
    q->inner = inner;
    return &q->base;
}
