/* web.h - the browser table's files (web/), carried in the binary: a build
 * step (tools/embed_web.cmake) writes them as this table, so `lit serve`
 * deploys as one file. `lit serve --web DIR` reads them from DIR instead,
 * for working on the page without building. */
#ifndef LIT_SERVER_WEB_H
#define LIT_SERVER_WEB_H

#include <stddef.h>

typedef struct WebFile {
    const char *name;           /* "app.js"; NULL ends the table */
    const unsigned char *data;
    size_t len;
} WebFile;

extern const WebFile web_files[];

/* The file of that name in the table, or NULL. */
const WebFile *web_find(const char *name);

/* The content type for a file name by its extension ("text/plain" when
 * unknown). */
const char *web_type(const char *name);

/* Whether name may be a web file's: letters, digits, '.', '-', '_', not
 * starting with '.' (so never a path out of the folder). */
int web_name_ok(const char *name);

#endif
