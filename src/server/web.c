/* web.c - finding the browser table's files (web.h). */
#include "web.h"

#include <string.h>

const WebFile *web_find(const char *name)
{
    for (const WebFile *f = web_files; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

const char *web_type(const char *name)
{
    static const struct {
        const char *ext, *type;
    } types[] = {{".html", "text/html; charset=utf-8"},
                 {".js", "text/javascript; charset=utf-8"},
                 {".css", "text/css; charset=utf-8"},
                 {".svg", "image/svg+xml"},
                 {".png", "image/png"},
                 {".ico", "image/x-icon"},
                 {".json", "application/json"},
                 {".txt", "text/plain; charset=utf-8"}};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0)
            return types[i].type;
    return "text/plain";
}

int web_name_ok(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n < 64 && name[0] != '.' &&
           strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") ==
               n;
}
