/* play.c - the play session of `lit play`: the game being played and its
 * bots, the hint, the marks (the record's comment lines: hints, the aid,
 * requests for hand sizes), the bots' moves at their pace, saving the
 * record and resuming one. Both faces, plain mode (cmd_play.c) and the
 * table (table.c), play through it; it calls neither. */
#include "play.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "literature/rng.h"
#include "literature/status.h"

/* The signal that asked the session to stop, or 0. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

void play_catch_stops(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++)
        sigaction(stops[i], &sa, NULL);
    /* a reader of plain mode's output that goes away is seen as a failed
     * write, not a death: the game is kept all the same */
    signal(SIGPIPE, SIG_IGN);
}

int play_stopped(void)
{
    return stop_signal;
}

void play_mark(Play *pl, const char *fmt, const char *arg)
{
    if (pl->n_marks == MAX_MARKS)
        return;
    Mark *m = &pl->marks[pl->n_marks++];
    m->before = pl->log.len + 1;
    snprintf(m->text, sizeof m->text, fmt, arg);
}

/* Writes the record, with the marks as comment lines before their actions:
 * 0, or -1 with errno set (and *fits 0 when it does not fit). */
static int write_record(Play *pl, int *fits)
{
    LitRecord rec;
    lit_record_init(&rec, pl->log.events, NULL, pl->log.len);
    lit_record_set_game(&rec, &pl->start, &pl->g);
    rec.has_seed = (uint8_t)(pl->has_seed != 0);
    rec.seed = pl->seed;
    rec.n_events = pl->log.len;
    const char *after[LIT_MAX_ACTIONS];
    for (uint32_t i = 0; i < pl->log.len; i++)
        after[i] = pl->after[i];
    rec.marks = after;
    snprintf(rec.event, sizeof rec.event, "%s", pl->event[0] ? pl->event : "lit play");
    memcpy(rec.site, pl->site, sizeof rec.site);
    memcpy(rec.date, pl->date, sizeof rec.date);
    for (int s = 0; s < pl->rules.players; s++) {
        if (s == pl->me)
            snprintf(rec.names[s], sizeof rec.names[s], "%s", pl->name);
        else if (pl->kept[s][0])
            snprintf(rec.names[s], sizeof rec.names[s], "%s", pl->kept[s]);
        else
            lit_bot_spec_format(&pl->spec[s], rec.names[s], sizeof rec.names[s]);
    }
    char *text = malloc(LIT_RECORD_TEXT_MAX);
    *fits = 1;
    if (!text)
        return errno = ENOMEM, -1;
    int n = lit_record_format(&rec, text, LIT_RECORD_TEXT_MAX);
    SaveFile sf; /* a failed save leaves the file as it was (a game resumed) */
    FILE *f = n < 0 ? NULL : save_open(&sf, pl->record);
    int ok = f != NULL, k = 0;
    for (char *line = text; ok && *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        unsigned long num = isdigit((unsigned char)line[0]) ? strtoul(line, NULL, 10) : 0;
        while (k < pl->n_marks && num && pl->marks[k].before <= num)
            fprintf(f, "; %s\n", pl->marks[k++].text);
        ok = fwrite(line, 1, len, f) == len;
        line += len;
    }
    while (ok && k < pl->n_marks) /* marks after the last action */
        fprintf(f, "; %s\n", pl->marks[k++].text);
    if (f && save_close(&sf, ok && !ferror(f)) != 0)
        ok = 0;
    int err = errno;
    free(text);
    *fits = n >= 0;
    errno = err;
    return ok ? 0 : -1;
}

int play_save(Play *pl)
{
    int fits;
    if (write_record(pl, &fits)) {
        record_save_failed(pl->record, fits, errno);
        return -1;
    }
    if (pl->g.pub.result == LIT_ONGOING)
        printf("saved: %s (lit play --resume %s goes on with it)\n", pl->record, pl->record);
    else
        printf("saved: %s\n", pl->record);
    return 0;
}

int play_act(Play *pl, const LitAction *a)
{
    int st = lit_game_play(&pl->g, &pl->log, a);
    int fits;
    if (st == LIT_OK && !pl->unkept && write_record(pl, &fits))
        pl->unkept = errno ? errno : EIO; /* said by the save at the end */
    return st;
}

/* The marks of a saved game (its "; " comment lines: hints, the aid),
 * each before the move that follows it. */
static void keep_marks(Play *pl, const char *path)
{
    char *text;
    size_t len;
    if (read_file(path, LIT_RECORD_TEXT_MAX, &text, &len))
        return;
    uint32_t last = 0;
    for (char *line = text; line < text + len;) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(text + len - line);
        if (n > 0 && isdigit((unsigned char)line[0])) {
            last = (uint32_t)strtoul(line, NULL, 10);
            /* a comment after the move (a stand-in's, a fallback), kept */
            char *semi = memchr(line, ';', n);
            if (semi && last >= 1 && last <= LIT_MAX_ACTIONS) {
                char *from = semi + 1 + strspn(semi + 1, " \t");
                snprintf(pl->after[last - 1], sizeof pl->after[last - 1], "%.*s",
                         (int)(line + n - from), from);
                pl->after[last - 1][strcspn(pl->after[last - 1], "\r")] = 0;
            }
        }
        if (n > 2 && line[0] == ';' && line[1] == ' ' && pl->n_marks < MAX_MARKS) {
            Mark *m = &pl->marks[pl->n_marks++];
            m->before = last + 1;
            snprintf(m->text, sizeof m->text, "%.*s", (int)(n - 2), line + 2);
            if (strcmp(m->text, "aid on") == 0 || strcmp(m->text, "aid off") == 0)
                pl->aid = m->text[5] == 'n';
            static const char you[] = "you: seat ";
            if (strncmp(m->text, you, sizeof you - 1) == 0 &&
                isdigit((unsigned char)m->text[sizeof you - 1])) {
                char *end;
                long seat = strtol(m->text + sizeof you - 1, &end, 10);
                if (!*end && seat >= 1 && seat <= pl->rules.players)
                    pl->marked_seat = (int)seat - 1;
            }
        }
        line += n + 1;
    }
    free(text);
}

/* The events of a saved game into the session's history, each through the
 * referee: LIT_OK with the position reached in *rp, or the status that
 * stops it (a message printed for a bad event, a record with no deal, a
 * game that is over). */
static int replay_saved(Play *pl, const LitRecord *rec, const uint32_t *lines,
                        const char *path, LitReplay *rp)
{
    int st = lit_replay_start(rp, rec);
    if (st == LIT_OK && !rp->known)
        st = LIT_MISSING_TAG;
    if (st == LIT_OK && deal_as_dealt(path, rec, &rp->game))
        return LIT_BAD_DEAL;
    for (uint32_t i = 0; st == LIT_OK && i < rec->n_events; i++) {
        LitEvent e;
        st = lit_replay_step(rp, &rec->events[i], &e);
        if (st == LIT_OK)
            lit_log_push(&pl->log, &e);
        else
            fail_at(path, lines[i], st);
    }
    if (st == LIT_MISSING_TAG)
        say("%s: the record has no deal (Seed or Hand tags) to play on", path);
    uint32_t line = 0; /* a Result or Score tag the moves do not give: as lit replay says */
    if (st == LIT_OK && (st = lit_replay_check_result(rp, rec, &line)) != LIT_OK)
        fail_at(path, line, st);
    if (st == LIT_OK && rp->game.pub.result != LIT_ONGOING) {
        say("%s: that game is over (%s)", path, lit_result_name(rp->game.pub.result));
        st = LIT_GAME_OVER;
    }
    return st;
}

/* The seats of a saved game: a bot where the seat's name is one; of the
 * seats no bot names, the first is yours (unless seat is given), the
 * others are played by basic and keep their names. LIT_OK, or LIT_BAD_SEAT
 * with a message. */
static int take_seats(Play *pl, const LitRecord *rec, int seat, int name_given,
                      const char *path)
{
    int human = pl->marked_seat;
    for (int s = 0; s < pl->rules.players; s++) {
        const char *name = rec->names[s];
        if (lit_bot_spec_parse(&pl->spec[s], name, strlen(name)) != LIT_OK) {
            if (human < 0)
                human = s;
            snprintf(pl->kept[s], sizeof pl->kept[s], "%s", name);
            pl->spec[s] = lit_bot_spec_default(LIT_BOT_BASIC);
        }
    }
    if (seat >= pl->rules.players) {
        say("--seat: there are %d seats", pl->rules.players);
        return LIT_BAD_SEAT;
    }
    pl->me = seat >= 0 ? seat : human;
    /* a move to another seat, marked so that a later resume finds it */
    if (seat >= 0 && seat != human) {
        char n[4];
        snprintf(n, sizeof n, "%d", seat + 1);
        play_mark(pl, "you: seat %s", n);
    }
    if (pl->me >= 0 && pl->me < pl->rules.players && pl->kept[pl->me][0] && !name_given)
        snprintf(pl->name, sizeof pl->name, "%s", pl->kept[pl->me]);
    if (pl->me < 0 || pl->me >= pl->rules.players) {
        say("%s: which seat is yours? every seat is named by a bot: give --seat", path);
        return LIT_BAD_SEAT;
    }
    if (!pl->record)
        pl->record = path;
    return LIT_OK;
}

int play_resume(Play *pl, const char *path, int seat, int name_given)
{
    /* A saved game: its rules, deal and events; the human is --seat or
     * the one seat whose name is no bot. */
    Loaded ld;
    memset(&ld, 0, sizeof ld);
    if (record_load(path, &ld))
        return -1;
    LitReplay rp;
    int st = replay_saved(pl, &ld.rec, ld.lines, path, &rp);
    pl->rules = ld.rec.rules;
    pl->marked_seat = -1;
    if (st == LIT_OK) {
        pl->g = rp.game;
        lit_replay_start(&rp, &ld.rec);
        pl->start = rp.game;
        pl->seed = ld.rec.seed;
        pl->has_seed = ld.rec.has_seed;
        memcpy(pl->event, ld.rec.event, sizeof pl->event);
        memcpy(pl->site, ld.rec.site, sizeof pl->site);
        memcpy(pl->date, ld.rec.date, sizeof pl->date);
        keep_marks(pl, path);
        st = take_seats(pl, &ld.rec, seat, name_given, path);
    }
    record_free(&ld);
    return st == LIT_OK ? 0 : -1;
}

void play_start_bots(Play *pl)
{
    for (int s = 0; s < pl->rules.players; s++) {
        lit_bot_init(&pl->bot[s], &pl->spec[s], lit_seed_mix(pl->seed, (uint64_t)(100 + s)));
        lit_bot_lend(&pl->bot[s], pl->work, LIT_BOT_WORK);
    }
    LitBotSpec best = lit_bot_spec_default(LIT_BOT_BEST);
    lit_bot_init(&pl->hinter, &best, lit_seed_mix(pl->seed, 99));
    lit_bot_lend(&pl->hinter, pl->work, LIT_BOT_WORK);
}

/* The move text of an action for hints: "asks 4 for Qh". */
void play_move_text(const Play *pl, const LitAction *a, char *buf, size_t cap)
{
    LitEvent e;
    char line[LIT_LINE_MAX];
    memset(&e, 0, sizeof e);
    e.action = *a;
    buf[0] = 0;
    if (lit_event_format(&pl->rules, &e, 0, line, sizeof line) > 0)
        snprintf(buf, cap, "%s", strchr(line, ' ') + 1);
}

int play_odds(Play *pl, const LitView *v, LitKnow *k, LitOdds *o)
{
    int st = lit_know_from_view(k, v);
    if (st == LIT_OK)
        st = lit_odds_or_estimate(k, LIT_CHANCE_SAMPLES, pl->log.len, pl->work, LIT_ODDS_WORK,
                                  o);
    return st;
}

int play_hint(Play *pl, char *text, size_t cap, char *why, size_t why_cap)
{
    LitView v;
    LitAction h;
    lit_view_make(&v, &pl->g, &pl->log, pl->me);
    if (lit_bot_act(&pl->hinter, &v, &h) != LIT_OK)
        return -1;
    play_move_text(pl, &h, text, cap);
    int bound = 0;
    double p = -1;
    lit_bot_chance(&v, &h, pl->log.len, pl->work, LIT_BOT_WORK, &p, &bound);
    if (p < 0)
        snprintf(why, why_cap, "%s", "");
    else
        snprintf(why, why_cap, " (%s%s %.0f%%)", h.kind == LIT_ASK ? "hits" : "right",
                 bound ? " at most" : "", 100 * p);
    play_mark(pl, "hint: %.80s", text);
    return 0;
}

/* The pace's pause after a bot's move: ms milliseconds (none for 0). */
static void pause_ms(long ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

int play_bot_move(Play *pl, int pause)
{
    LitView v;
    LitAction a;
    int t = pl->g.pub.turn;
    lit_view_make(&v, &pl->g, &pl->log, t);
    if (lit_bot_act(&pl->bot[t], &v, &a) != LIT_OK || play_act(pl, &a) != LIT_OK)
        return -1;
    if (pause)
        pause_ms(pl->pace_ms);
    return 0;
}
