/* store.c - the store's interface (store.h): each call goes to its
 * backend. */
#include "store.h"

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
    return s->error;
}

void store_close(Store *s)
{
    if (s)
        s->ops->close(s);
}
