/* common.c - rule options, files and clocks for the subcommands. */
#include "common.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "literature/status.h"

void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("lit: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int help_or_usage(const char *usage, int opt)
{
    fputs(usage, opt == OPT_HELP ? stdout : stderr);
    return opt == OPT_HELP ? 0 : 2;
}

int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

int no_operands(const char *cmd, int argc, char **argv)
{
    if (optind == argc)
        return 0;
    say("%s: unexpected argument '%s'", cmd, argv[optind]);
    return 2;
}

int log_new(LitLog *log)
{
    LitEvent *events = malloc(sizeof *events * LIT_MAX_ACTIONS);
    if (!events) {
        say("out of memory");
        return 1;
    }
    lit_log_init(log, events, LIT_MAX_ACTIONS);
    return 0;
}

int rule_args_take(RuleArgs *ra, int opt, const char *arg)
{
    switch (opt) {
    case OPT_RULES:
        ra->preset = arg;
        return 1;
    case OPT_RULE:
    case OPT_PLAYERS:
        if (opt == OPT_RULE && !strchr(arg, '=')) {
            say("--rule: not KEY=VALUE: '%s'", arg);
            return -1;
        }
        if (ra->n_overrides >= (int)(sizeof ra->overrides / sizeof ra->overrides[0])) {
            say("too many rule options");
            return -1;
        }
        ra->is_players[ra->n_overrides] = opt == OPT_PLAYERS;
        ra->overrides[ra->n_overrides++] = arg;
        return 1;
    default:
        return 0;
    }
}

int rule_args_build(const RuleArgs *ra, LitRules *rules)
{
    const char *preset = ra->preset ? ra->preset : "classic";
    int st = lit_rules_preset(rules, preset, strlen(preset));
    if (st != LIT_OK) {
        say("--rules %s: %s: %s", preset, lit_status_name(st), lit_status_text(st));
        return -1;
    }
    for (int i = 0; i < ra->n_overrides; i++) {
        char kv[64];
        const char *opt = ra->is_players[i] ? "--players" : "--rule";
        snprintf(kv, sizeof kv, "%s%s", ra->is_players[i] ? "players=" : "",
                 ra->overrides[i]);
        /* (a longer argument is cut, and no cut one is a valid option) */
        st = lit_rules_set(rules, kv, strlen(kv));
        if (st != LIT_OK) {
            say("%s %s: %s: %s", opt, ra->overrides[i], lit_status_name(st),
                lit_status_text(st));
            return -1;
        }
    }
    return 0;
}

int read_file(const char *path, size_t max, char **data, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        say("%s: %s", path, strerror(errno));
        return -1;
    }
    char *buf = malloc(max + 1);
    if (!buf) {
        say("out of memory");
        if (f != stdin)
            fclose(f);
        return -1;
    }
    size_t n = fread(buf, 1, max + 1, f);
    int bad = ferror(f), err = errno;
    if (f != stdin)
        fclose(f);
    if (bad) {
        say("%s: %s", path, strerror(err)); /* a folder: "Is a directory" */
        free(buf);
        return -1;
    }
    *data = buf;
    *len = n; /* max + 1 bytes tells the caller the file is too long */
    return 0;
}

void fail_at(const char *file, uint32_t line, int status)
{
    fprintf(stderr, "%s:%u: %s: %s\n", file, line, lit_status_name(status),
            lit_status_text(status));
}

int deal_as_dealt(const char *file, const LitRecord *rec, const LitGame *start)
{
    const LitRules *r = &start->pub.rules;
    for (int s = 0; s < r->players; s++) {
        int has = lit_popcount(start->hands[s]), gets = lit_deal_size(r, start->pub.dealer, s);
        if (has != gets) {
            fprintf(stderr,
                    "%s:%u: bad_deal: seat %d holds %d cards, where the deal (one card at a "
                    "time from the dealer's left) gives it %d: the counting and the bots "
                    "take only a dealt game\n",
                    file, rec->deal_line ? rec->deal_line : 1, s + 1, has, gets);
            return -1;
        }
    }
    return 0;
}

void fail_parse(const char *file, const LitParseError *err)
{
    if (!err->tag[0]) {
        fail_at(file, err->line, err->status);
        return;
    }
    fprintf(stderr, "%s:%u: %s: %s: %.*s\n", file, err->line, lit_status_name(err->status),
            lit_status_text(err->status), (int)sizeof err->tag, err->tag);
}

int record_read(const char *file, Loaded *out, LitParseError *err)
{
    char *text;
    size_t len;
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    if (read_file(file, LIT_RECORD_TEXT_MAX, &text, &len))
        return -1;
    out->events = malloc(sizeof *out->events * LIT_RECORD_MAX_EVENTS);
    out->lines = malloc(sizeof *out->lines * LIT_RECORD_MAX_EVENTS);
    out->by = malloc(LIT_RECORD_MAX_EVENTS);
    int rc = -1;
    if (!out->events || !out->lines || !out->by) {
        say("out of memory");
    } else {
        lit_record_init(&out->rec, out->events, out->lines, LIT_RECORD_MAX_EVENTS);
        out->rec.by = out->by;
        rc = lit_record_parse(&out->rec, text, len, err) == LIT_OK ? 0 : 1;
    }
    free(text);
    return rc;
}

int record_load(const char *file, Loaded *out)
{
    LitParseError err;
    int rc = record_read(file, out, &err);
    if (rc == 1)
        fail_parse(file, &err);
    return rc ? 1 : 0;
}

void record_free(Loaded *l)
{
    free(l->events);
    free(l->lines);
    free(l->by);
    l->events = NULL;
    l->lines = NULL;
    l->by = NULL;
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double largest_se(const LitKnow *k, const LitOdds *o)
{
    double most = 0;
    for (uint64_t live = k->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        for (int s = 0; s < k->pub.rules.players; s++)
            if (o->p_se[c][s] > most)
                most = o->p_se[c][s];
    }
    return most;
}

void record_of_game(LitRecord *rec, const LitGame *start, const LitGame *end,
                    const LitLog *log, uint64_t seed, const char *event)
{
    lit_record_init(rec, log->events, NULL, log->len);
    lit_record_set_game(rec, start, end);
    rec->has_seed = 1;
    rec->seed = seed;
    rec->n_events = log->len;
    snprintf(rec->event, sizeof rec->event, "%s", event);
}

/* The temporary files being written (from save_open to save_close), one a
 * thread: a signal that stops the command removes them (stop_on_signals),
 * as a save that fails does. */
enum { SAVING_MAX = 1024 };
static _Atomic(const char *) saving[SAVING_MAX];

static void saving_add(SaveFile *sf)
{
    for (int i = 0; i < SAVING_MAX; i++) {
        const char *none = NULL;
        if (atomic_compare_exchange_strong(&saving[i], &none, sf->tmp)) {
            sf->slot = i;
            return;
        }
    }
    sf->slot = -1; /* more at once than threads: not removed on a signal */
}

static void saving_drop(SaveFile *sf)
{
    if (sf->slot >= 0)
        atomic_store(&saving[sf->slot], NULL);
    sf->slot = -1;
}

static void (*stop_also)(void);

static void on_stop_signal(int sig)
{
    for (int i = 0; i < SAVING_MAX; i++) {
        const char *tmp = atomic_load(&saving[i]);
        if (tmp)
            unlink(tmp);
    }
    if (stop_also)
        stop_also();
    signal(sig, SIG_DFL);
    raise(sig);
}

void stop_on_signals(void (*also)(void))
{
    stop_also = also;
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++) {
        struct sigaction was; /* (one ignored, as nohup or a script's & leave it, stays so) */
        if (sigaction(stops[i], NULL, &was) == 0 && was.sa_handler != SIG_IGN)
            signal(stops[i], on_stop_signal);
    }
}

FILE *save_open(SaveFile *sf, const char *path)
{
    struct stat st;
    int exists = lstat(path, &st) == 0;
    sf->path = path;
    sf->tmp[0] = '\0';
    sf->slot = -1;
    if (exists && S_ISREG(st.st_mode) && access(path, W_OK) != 0)
        return sf->f = NULL; /* a file you may not write is not replaced */
    if ((!exists && errno == ENOENT) || (exists && S_ISREG(st.st_mode))) {
        int n = snprintf(sf->tmp, sizeof sf->tmp, "%s.%ld.tmp", path, (long)getpid());
        saving_add(sf); /* before the file is made: a signal finds it */
        if (n > 0 && (size_t)n < sizeof sf->tmp && (sf->f = fopen(sf->tmp, "w"))) {
            if (exists) /* the file keeps its permissions */
                (void)fchmod(fileno(sf->f), st.st_mode & 07777);
            return sf->f;
        }
        saving_drop(sf);
        sf->tmp[0] = '\0'; /* (a folder that takes no new file: in place) */
    }
    return sf->f = fopen(path, "w");
}

int save_close(SaveFile *sf, int ok)
{
    int err = ok ? 0 : errno;
    if (fflush(sf->f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (fclose(sf->f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    sf->f = NULL;
    if (sf->tmp[0]) {
        if (ok && rename(sf->tmp, sf->path) != 0) {
            ok = 0;
            err = errno;
        }
        if (!ok)
            remove(sf->tmp);
    }
    saving_drop(sf);
    errno = err;
    return ok ? 0 : -1;
}

int save_possible(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return S_ISDIR(st.st_mode) ? (errno = EISDIR, -1) : access(path, W_OK);
    if (errno != ENOENT)
        return -1;
    char dir[4096] = ".";
    const char *slash = strrchr(path, '/');
    if (slash == path) {
        dir[0] = '/';
    } else if (slash) {
        size_t len = (size_t)(slash - path);
        if (len >= sizeof dir)
            return errno = ENAMETOOLONG, -1;
        memcpy(dir, path, len);
        dir[len] = '\0';
    }
    return access(dir, W_OK | X_OK);
}

int record_save(const char *path, const LitRecord *rec, char *text)
{
    char *own = text ? NULL : malloc(LIT_RECORD_TEXT_MAX);
    if (!text && !(text = own)) {
        say("out of memory");
        return -1;
    }
    int n = lit_record_format(rec, text, LIT_RECORD_TEXT_MAX);
    SaveFile sf;
    FILE *f = n < 0 ? NULL : save_open(&sf, path);
    int ok = f && fwrite(text, 1, (size_t)n, f) == (size_t)n;
    if (f && save_close(&sf, ok) != 0)
        ok = 0;
    int err = errno;
    free(own);
    if (!ok) {
        record_save_failed(path, n >= 0, err);
        return -1;
    }
    return 0;
}

void record_save_failed(const char *path, int fits, int err)
{
    if (!fits)
        say("%s: cannot write the record: it does not fit", path);
    else
        say("%s: cannot write the record: %s", path, strerror(err));
}

int make_folder(const char *path)
{
    char part[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof part) {
        say("%s: not a folder name", path);
        return -1;
    }
    memcpy(part, path, len + 1);
    /* each parent, then the folder: one that is there already is fine */
    for (size_t i = 1; i <= len; i++) {
        if (part[i] != '/' && part[i] != 0)
            continue;
        char c = part[i];
        part[i] = 0;
        struct stat st;
        if (mkdir(part, 0777) != 0 && errno != EEXIST) {
            say("%s: cannot make the folder: %s", part, strerror(errno));
            return -1;
        }
        if (stat(part, &st) != 0 || !S_ISDIR(st.st_mode)) {
            say("%s: not a folder", part);
            return -1;
        }
        part[i] = c;
    }
    return 0;
}

/* k after the first m of the applied actions: 0, or the action (1..m)
 * after which certain knowledge finds no deal (UINT32_MAX: k cannot start,
 * which a history the referee took never meets). */
static uint32_t know_fails(LitKnow *k, const LitRules *r, int dealer, int seat, uint64_t hand,
                           const LitEvent *applied, uint32_t m)
{
    if (lit_know_start(k, r, dealer, seat, hand) != LIT_OK)
        return UINT32_MAX;
    for (uint32_t i = 0; i < m; i++)
        if (lit_know_apply(k, &applied[i]) != LIT_OK || !k->consistent)
            return i + 1;
    return 0;
}

uint32_t history_impossible_at(const LitRules *r, int dealer, int seat, uint64_t hand,
                               const LitEvent *applied, uint32_t n)
{
    LitKnow *k = malloc(sizeof *k);
    uint32_t at = 0;
    if (!k)
        goto done;
    /* certain knowledge, action by action: where it first finds none */
    at = know_fails(k, r, dealer, seat, hand, applied, n);
    if (at == UINT32_MAX) { /* not told */
        at = 0;
        goto done;
    }
    if (at || n == 0 || lit_know_feasible(k))
        goto done;
    /* the search finds none after n: the first m after which it finds none
     * (a deal that fits m + 1 actions fits m; none after 0 is never) */
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (know_fails(k, r, dealer, seat, hand, applied, mid) || !lit_know_feasible(k))
            hi = mid;
        else
            lo = mid; /* one fits: later */
    }
    at = hi;
done:
    free(k);
    return at;
}
