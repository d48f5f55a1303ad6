/* field.c - the fields of a client's message that several messages take:
 * read and checked, and answered when wrong.
 */
#include "room.h"

#include <jansson.h>
#include <string.h>

#include "literature/notation.h"
#include "literature/status.h"

int hub_field_int(json_t *j, const char *key, json_int_t *out)
{
    json_t *v = json_object_get(j, key);
    if (!v)
        return 1;
    if (!json_is_integer(v))
        return -1;
    *out = json_integer_value(v);
    return 0;
}

int hub_field_seat(HubClient *c, const Room *r, json_t *j)
{
    json_int_t s = 0;
    if (hub_field_int(j, "seat", &s) != 0) {
        hub_send_fail_text(c, E_BAD_MESSAGE, "seat must be a number", NULL);
        return -1;
    }
    if (s < 1 || s > r->opt.rules.players) {
        hub_send_status(c, LIT_BAD_SEAT, NULL);
        return -1;
    }
    return (int)(s - 1);
}

const char *hub_field_name(HubClient *c, json_t *j)
{
    const char *name = json_string_value(json_object_get(j, "name"));
    size_t len = name ? json_string_length(json_object_get(j, "name")) : 0;
    if (!name || strlen(name) != len || lit_name_check_new(name, len, HUB_NAME_MAX) != LIT_OK) {
        hub_send_status(c, LIT_BAD_NAME, NULL);
        return NULL;
    }
    /* a record names a bot's seat by its level: a person so named would be
     * taken for a bot in every replay and review */
    LitBotSpec spec;
    if (lit_bot_spec_parse(&spec, name, len) == LIT_OK) {
        hub_send_error(c, lit_status_name(LIT_BAD_NAME),
                       "that name is a bot's (records name bots so): pick another", NULL);
        return NULL;
    }
    return name;
}
