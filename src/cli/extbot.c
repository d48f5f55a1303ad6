/* extbot.c - a bot in another process over the bot protocol (extbot.h,
 * docs/BOT_PROTOCOL.md). */
#include "extbot.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "../wire/wire.h"
#include "literature/notation.h"
#include "literature/status.h"

extern char **environ;

/* Pipes are made and processes spawned under one lock, so no process
 * started by another thread inherits a pipe end before it is close-on-exec. */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

/* The process groups of the bots running, for extbot_kill_all (read in a
 * signal handler, so lock-free atomics; slots changed under spawn_lock, 0
 * for none). */
static atomic_int running[EXTBOT_RUNNING_MAX];

/* Puts to in from's slot (under spawn_lock): 0, or -1 when none is free. */
static int running_swap(pid_t from, pid_t to)
{
    for (int i = 0; i < EXTBOT_RUNNING_MAX; i++)
        if (atomic_load(&running[i]) == (int)from) {
            atomic_store(&running[i], (int)to);
            return 0;
        }
    return -1;
}

void extbot_kill_all(void)
{
    for (int i = 0; i < EXTBOT_RUNNING_MAX; i++) {
        int pid = atomic_load(&running[i]);
        if (pid > 0)
            kill(-(pid_t)pid, SIGKILL);
    }
}

static int cloexec_pipe(int fd[2])
{
    if (pipe(fd) != 0)
        return -1;
    for (int i = 0; i < 2; i++)
        if (fcntl(fd[i], F_SETFD, FD_CLOEXEC) != 0) {
            close(fd[0]);
            close(fd[1]);
            return -1;
        }
    return 0;
}

/* ---- writing -------------------------------------------------------------- */

static double deadline_after(int ms)
{
    return now_seconds() + ms / 1000.0;
}

static int ms_left(double deadline)
{
    double left = (deadline - now_seconds()) * 1000.0;
    return left <= 0 ? 0 : left > 1e9 ? 1000000000 : (int)left + 1;
}

/* Writes a whole buffer before the deadline: 0, or -1 (the bot is then dead:
 * it exited or does not read its input). */
static int write_all(ExtBot *b, const char *p, size_t n)
{
    double deadline = deadline_after(b->timeout_ms);
    while (n > 0 && !b->dead) {
        ssize_t w = write(b->to_bot, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pfd = {b->to_bot, POLLOUT, 0};
            int left = ms_left(deadline);
            int r = left > 0 ? poll(&pfd, 1, left) : 0;
            if (r > 0 && !(pfd.revents & (POLLERR | POLLHUP)))
                continue;
            b->closed = r > 0; /* its input closed (it exits, mostly) */
        } else {
            b->closed = w < 0 && errno == EPIPE;
        }
        b->dead = 1;
    }
    return b->dead ? -1 : 0;
}

/* Sends one object as a line, and frees it. */
static void send_json(ExtBot *b, json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!text) {
        b->dead = 1; /* out of memory: the bot cannot be told what happens */
        return;
    }
    size_t n = strlen(text);
    text[n] = '\n'; /* json_dumps' terminating 0 becomes the newline */
    write_all(b, text, n + 1);
    free(text);
}

/* ---- what is sent ------------------------------------------------------------ */

/* The seat's own facts and the public state. */
static json_t *seat_json(const char *type, const LitView *v)
{
    const LitPublic *p = &v->pub;
    return json_pack("{s:s,s:i,s:s,s:i,s:o,s:o}", "type", type, "seat", v->seat + 1, "team",
                     wire_team_name(lit_team_of(v->seat)), "dealer", p->dealer + 1, "hand",
                     wire_cards(p->rules.deck, v->hand), "state", wire_state(p));
}

int extbot_start(ExtBot *b, const char *cmd, int timeout_ms, int start_ms,
                 const LitRules *rules)
{
    memset(b, 0, sizeof *b);
    b->to_bot = b->from_bot = -1;
    b->timeout_ms = timeout_ms;
    b->start_ms = start_ms;
    b->buf = malloc(EXTBOT_LINE_MAX);
    if (!b->buf) {
        say("out of memory");
        return -1;
    }
    int in[2], out[2];
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    int spawn_error = errno = 0;
    pthread_mutex_lock(&spawn_lock);
    int ok = cloexec_pipe(in) == 0;
    if (ok && cloexec_pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        ok = 0;
    }
    if (ok) {
        /* its own process group, so that stopping it stops whatever the
         * command started too */
        posix_spawnattr_init(&attr);
        /* SIGPIPE back to its default: the arena ignores it, and an ignored
         * signal would stay ignored in the bot */
        sigset_t deflt;
        sigemptyset(&deflt);
        sigaddset(&deflt, SIGPIPE);
        posix_spawnattr_setsigdefault(&attr, &deflt);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        char *argv[] = {"sh", "-c", (char *)cmd, NULL};
        spawn_error = posix_spawn(&b->pid, "/bin/sh", &fa, &attr, argv, environ);
        ok = spawn_error == 0;
        /* known to extbot_kill_all before a signal can come between (the
         * registry has a slot for every bot the arena can start) */
        if (ok)
            running_swap(0, b->pid);
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&attr);
        close(in[0]);
        close(out[1]);
        if (!ok) {
            close(in[1]);
            close(out[0]);
        }
    }
    pthread_mutex_unlock(&spawn_lock);
    if (!ok) {
        say("cannot start the bot '%s': %s", cmd, strerror(spawn_error ? spawn_error : errno));
        free(b->buf);
        b->buf = NULL;
        return -1;
    }
    b->to_bot = in[1];
    b->from_bot = out[0];
    fcntl(b->to_bot, F_SETFL, fcntl(b->to_bot, F_GETFL) | O_NONBLOCK);
    fcntl(b->from_bot, F_SETFL, fcntl(b->from_bot, F_GETFL) | O_NONBLOCK);

    int deck = rules->deck;
    char text[LIT_RULES_TEXT_MAX];
    lit_rules_format(rules, text, sizeof text);
    json_t *options = json_object(), *sets = json_object();
    for (int i = 0; i < lit_rules_option_count(); i++)
        json_object_set_new(options, lit_rules_option_name(i),
                            json_string(lit_rules_option_value(rules, i)));
    for (int set = 0; set < lit_deck_sets(deck); set++)
        json_object_set_new(sets, lit_set_name(deck, set),
                            wire_cards(deck, lit_set_mask(deck, set)));
    send_json(b, json_pack("{s:s,s:i,s:s,s:o,s:i,s:o,s:{s:o,s:o}}", "type", "hello",
                           "protocol", EXTBOT_PROTOCOL, "rules", text, "options", options,
                           "players", rules->players, "sets", sets, "teams", "A",
                           wire_seats(lit_team_seats(rules, 0)), "B",
                           wire_seats(lit_team_seats(rules, 1))));
    return 0;
}

/* Waits up to ms for the bot's shell to end, leaving it to be reaped
 * (WNOWAIT: the zombie keeps its id, the group's, from being taken by
 * another process before the group is killed). info->si_pid is 0 while it
 * runs. */
static void wait_exit(const ExtBot *b, int ms, siginfo_t *info)
{
    for (int waited = 0;; waited += 10) {
        memset(info, 0, sizeof *info);
        if (waitid(P_PID, (id_t)b->pid, info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
            info->si_pid != 0 || waited >= ms)
            return;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void extbot_stop(ExtBot *b)
{
    if (b->to_bot >= 0) {
        if (!b->dead)
            send_json(b, json_pack("{s:s}", "type", "bye"));
        close(b->to_bot);
    }
    if (b->pid > 0) {
        /* a second to leave, then the whole process group is killed (also
         * when the shell is gone and what it started is not) */
        siginfo_t info;
        wait_exit(b, 1000, &info);
        kill(-b->pid, SIGKILL);
        /* out of the registry before the leader is reaped and its id, the
         * group's, may be taken by another process */
        pthread_mutex_lock(&spawn_lock);
        running_swap(b->pid, 0);
        pthread_mutex_unlock(&spawn_lock);
        int status;
        waitpid(b->pid, &status, 0);
    }
    if (b->from_bot >= 0)
        close(b->from_bot);
    free(b->buf);
    memset(b, 0, sizeof *b);
    b->to_bot = b->from_bot = -1;
}

/* How the bot ended, once a pipe to or from it has closed: its status, the
 * shell's, left to be reaped by extbot_stop (WNOWAIT), waited for 5 s at
 * most, once (a bot that closed a pipe and goes on running has not ended).
 * "" while it has not. */
static const char *ended(ExtBot *b)
{
    /* (closed: its output ended, or its input, which may come first when
     * it exits; not a bot that only stopped reading) */
    if (!b->closed || b->pid <= 0 || b->waited)
        return b->ended;
    b->waited = 1;
    siginfo_t info;
    wait_exit(b, 5000, &info);
    if (info.si_pid != 0 && info.si_code == CLD_EXITED)
        snprintf(b->ended, sizeof b->ended, "exit status %d%s", info.si_status,
                 info.si_status == 127   ? ": no such command"
                 : info.si_status == 126 ? ": the command cannot be run"
                                         : "");
    else if (info.si_pid != 0)
        snprintf(b->ended, sizeof b->ended, "killed by signal %d", info.si_status);
    return b->ended;
}

int extbot_never_answered(ExtBot *b, char *what, size_t cap)
{
    if (b->lines || !ended(b)[0])
        return 0;
    snprintf(what, cap, "%s", b->ended);
    return 1;
}


void extbot_game(ExtBot *b, uint64_t game, const LitView *v)
{
    json_t *j = seat_json("game", v);
    json_object_set_new(j, "game", json_integer((json_int_t)game));
    send_json(b, j);
}

void extbot_event(ExtBot *b, const LitView *v, const LitEvent *e, uint32_t n)
{
    json_t *j = wire_event(&v->pub.rules, e, n);
    json_object_set_new(j, "type", json_string("event"));
    json_object_set_new(j, "hand", wire_cards(v->pub.rules.deck, v->hand));
    json_object_set_new(j, "state", wire_state(&v->pub));
    send_json(b, j);
}

void extbot_result(ExtBot *b, uint64_t game, const LitView *v)
{
    const LitPublic *p = &v->pub;
    send_json(b, json_pack("{s:s,s:I,s:s,s:[i,i],s:s}", "type", "result", "game",
                           (json_int_t)game, "result", lit_result_name(p->result), "score",
                           p->score[0], p->score[1], "team", wire_team_name(lit_team_of(v->seat))));
}

void extbot_refused(ExtBot *b, const LitView *v, uint32_t n, const char *reason,
                    const char *message, const LitAction *played)
{
    send_json(b, json_pack("{s:s,s:i,s:s,s:s,s:o}", "type", "refused", "n", n, "reason",
                           reason, "message", message, "played",
                           wire_action(&v->pub.rules, played)));
}

/* ---- reading an answer ----------------------------------------------------------- */

/* The next line from the bot before the deadline: 1 with the line (NUL in
 * place of its newline) in b->buf[0 .. *n), 0 on timeout, -1 when the bot
 * exited, -2 for a line over the cap (the rest of it is skipped). */
static int read_line(ExtBot *b, double deadline, size_t *n)
{
    for (;;) {
        char *nl = memchr(b->buf, '\n', b->len);
        if (nl) {
            size_t k = (size_t)(nl - b->buf);
            if (b->skipping) {
                memmove(b->buf, nl + 1, b->len - k - 1);
                b->len -= k + 1;
                b->skipping = 0;
                continue;
            }
            *nl = 0;
            *n = k;
            b->lines++;
            return 1;
        }
        if (b->len == EXTBOT_LINE_MAX) {
            int was = b->skipping;
            b->len = 0;
            b->skipping = 1;
            if (!was) {
                b->lines++;
                return -2;
            }
        }
        int left = ms_left(deadline);
        struct pollfd pfd = {b->from_bot, POLLIN, 0};
        int r = left > 0 ? poll(&pfd, 1, left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        ssize_t got = read(b->from_bot, b->buf + b->len, EXTBOT_LINE_MAX - b->len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0) {
            b->dead = 1;
            b->closed = got == 0;
            return -1;
        }
        b->len += (size_t)got;
    }
}

/* Drops the line read last (it starts the buffer). */
static void consume(ExtBot *b, size_t n)
{
    memmove(b->buf, b->buf + n + 1, b->len - n - 1);
    b->len -= n + 1;
}

static int why_is(char why[EXTBOT_WHY_MAX], const char *name, const char *detail)
{
    snprintf(why, EXTBOT_WHY_MAX, "%s: %s", name, detail);
    return -1;
}

/* The refusal of a request to a dead bot: how it ended, when it has. */
static int dead_why(ExtBot *b, char why[EXTBOT_WHY_MAX])
{
    if (ended(b)[0]) {
        snprintf(why, EXTBOT_WHY_MAX, "exited: the bot has exited (%s)", b->ended);
        return -1;
    }
    return why_is(why, "exited",
                  b->closed ? "the bot closed its input or output" : "the bot stopped reading its input");
}

/* The action of an answer object (n already matched), or 1 for a resync. */
static int parse_action(const LitView *v, json_t *j, LitAction *out, char why[EXTBOT_WHY_MAX])
{
    static const char *const extra[] = {"n", NULL};
    static const char *const resync[] = {"n", "action", NULL};
    const char *kind = json_string_value(json_object_get(j, "action"));
    if (kind && strcmp(kind, "resync") == 0) {
        const char *bad = wire_unknown_key(j, resync, NULL);
        if (!bad)
            return 1;
        snprintf(why, EXTBOT_WHY_MAX, "bad_message: unknown key \"%.*s\" in resync",
                 wire_cut(bad, 64), bad);
        return -1;
    }
    if (kind && !wire_action_kind(kind))
        return why_is(why, "bad_message", "action is none of ask, claim, pass, choose, resync");
    WireError err;
    if (wire_read_action(&v->pub.rules, v->seat, j, extra, out, &err)) {
        snprintf(why, EXTBOT_WHY_MAX, "%s: %.200s", err.name, err.detail);
        return -1;
    }
    return 0;
}

static json_t *request_json(const LitView *v, uint32_t n, int timeout_ms)
{
    json_t *j = seat_json("act", v);
    json_object_set_new(j, "n", json_integer(n));
    wire_set_legal(j, v);
    json_object_set_new(j, "deadline_ms", json_integer(timeout_ms));
    return j;
}

static json_t *view_json(const LitView *v, uint32_t n)
{
    json_t *j = seat_json("view", v), *history = json_array();
    for (uint32_t i = 0; i < v->history_len; i++)
        json_array_append_new(history, wire_event(&v->pub.rules, &v->history[i], i + 1));
    json_object_set_new(j, "n", json_integer(n));
    json_object_set_new(j, "history", history);
    return j;
}

/* why with every byte outside printable ASCII written \xNN (and a
 * backslash as \\), cut to fit: what a bot writes reaches the terminal only
 * so, and can neither end a log line nor drive the terminal. */
static void why_shown(char why[EXTBOT_WHY_MAX])
{
    char raw[EXTBOT_WHY_MAX];
    memcpy(raw, why, EXTBOT_WHY_MAX);
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)raw; *p; p++) {
        char piece[5];
        int n;
        if (*p == '\\')
            n = snprintf(piece, sizeof piece, "\\\\");
        else if (*p >= 0x20 && *p < 0x7f)
            n = snprintf(piece, sizeof piece, "%c", *p);
        else
            n = snprintf(piece, sizeof piece, "\\x%02x", *p);
        if (k + (size_t)n >= EXTBOT_WHY_MAX)
            break;
        memcpy(why + k, piece, (size_t)n);
        k += (size_t)n;
    }
    why[k] = 0;
}

/* extbot_act, why not yet shown. */
static int act(ExtBot *b, const LitView *v, LitAction *out, char why[EXTBOT_WHY_MAX])
{
    uint32_t n = v->history_len + 1;
    int resynced = 0;
    if (b->dead)
        return dead_why(b, why);
    /* the time the request allows (the first one a process gets, its start
     * too), said in it as deadline_ms, and given again after a resync */
    int allow = b->timeout_ms + (b->asked++ ? 0 : b->start_ms);
    send_json(b, request_json(v, n, allow));
    double deadline = deadline_after(allow);
    uint32_t other = 0; /* lines with another n, for this request */
    json_int_t last = 0;
    for (;;) {
        size_t len;
        int r = b->dead ? -1 : read_line(b, deadline, &len);
        if (r == 0 && other) {
            snprintf(why, EXTBOT_WHY_MAX,
                     "timeout: no answer in time (%u line%s with another n ignored, the last "
                     "n %lld, this request's %u)",
                     other, other == 1 ? "" : "s", (long long)last, n);
            return -1;
        }
        if (r == 0)
            return why_is(why, "timeout", "no answer in time");
        if (r == -1)
            return dead_why(b, why);
        if (r == -2)
            return why_is(why, "too_long", "a line over 65536 bytes");
        json_error_t err;
        json_t *j = json_loadb(b->buf, len, JSON_REJECT_DUPLICATES, &err);
        consume(b, len);
        if (!j)
            return why_is(why, "not_json", err.text);
        json_int_t got;
        if (!json_is_object(j) || json_unpack(j, "{s:I}", "n", &got) != 0) {
            json_decref(j);
            return why_is(why, "bad_message", "not an object with a number n");
        }
        if (got != (json_int_t)n) {
            b->stale++; /* an answer to an earlier request, after its time */
            other++;
            last = got;
            json_decref(j);
            continue;
        }
        int st = parse_action(v, j, out, why);
        json_decref(j);
        if (st <= 0)
            return st;
        /* A resync: the whole view, then the request again, once. */
        if (resynced++)
            return why_is(why, "resync_again", "a second resync for one request");
        send_json(b, view_json(v, n));
        send_json(b, request_json(v, n, allow));
        deadline = deadline_after(allow);
    }
}

int extbot_act(ExtBot *b, const LitView *v, LitAction *out, char why[EXTBOT_WHY_MAX])
{
    int st = act(b, v, out, why);
    if (st != LIT_OK)
        why_shown(why);
    return st;
}
