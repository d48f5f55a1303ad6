/* table.c - the full-screen table of `lit play` (ncursesw): colour, suit
 * symbols in a UTF-8 locale and letters otherwise, every choice made with
 * the keyboard (docs/PLAY.md "The table"). A face of the play session
 * (play.c): the game, the bots' moves, the hint and the marks are its. */
#include "table.h"

#include <langinfo.h>
#include <locale.h>
#include <ncurses.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "common.h"
#include <term.h> /* after common.h: its macros (lines, columns...) are everywhere */

#include "literature/infer.h"
#include "literature/status.h"

enum { RED = 1, GREEN, YELLOW, CYAN };

typedef enum Mode {
    NORMAL, ASK_SEAT, ASK_CARD, CLAIM_SET, CLAIM_SEAT, CLAIM_CONFIRM, CHOOSE_SEAT
} Mode;

typedef struct Table {
    Play *pl;
    int utf8, colour;
    int full_history;     /* the whole history, or only the last question */
    int sheet;            /* the scoresheet pane (with the aid on) */
    int sizes_now;        /* hand sizes asked for this turn (counts=request) */
    Mode mode;
    int cursor;           /* seat, card or set under the cursor */
    LitAction act;        /* the move being built */
    int claim_pos;        /* the card of the claim being assigned */
    char msg[256];
    LitOdds odds;         /* for the sheet */
    int odds_at;          /* history length the odds are of, or -1 */
    double one_at;        /* when 1 was typed for a seat (10 to 12 follow), or 0 */
    int ahead[16];        /* keys typed while the bots played, for the turn */
    int n_ahead;
} Table;

static const char *suit_symbol(char suit)
{
    switch (suit) {
    case 'c': return "\u2663";
    case 'd': return "\u2666";
    case 'h': return "\u2665";
    default: return "\u2660";
    }
}

/* A card as the table shows it: rank and suit symbol (or letter), red for
 * diamonds and hearts. */
static void put_card(Table *t, int deck, int card, int highlight)
{
    const char *name = lit_card_name(deck, card);
    size_t len = strlen(name);
    char suit = name[len - 1];
    int red = suit == 'd' || suit == 'h';
    if (highlight)
        attron(A_REVERSE);
    if (t->colour && red)
        attron(COLOR_PAIR(RED));
    if (t->utf8 && strncmp(name, "JK", 2) != 0)
        printw("%.*s%s", (int)(len - 1), name, suit_symbol(suit));
    else
        printw("%s", name);
    if (t->colour && red)
        attroff(COLOR_PAIR(RED));
    if (highlight)
        attroff(A_REVERSE);
}

/* Whether the seat picker of `p` passes the turn (emptied by a claim, or
 * under pass-play) rather than choosing a seat. */
static int pass_phase(const LitPublic *p)
{
    return p->phase == LIT_PHASE_PASS || p->phase == LIT_PHASE_PLAY;
}

static void hline_at(Table *t, int y)
{
    move(y, 0);
    for (int x = 0; x < COLS; x++)
        addstr(t->utf8 ? "\u2500" : "-");
}

static int sizes_visible(const Table *t)
{
    int c = t->pl->rules.counts;
    return c == LIT_COUNTS_SHOWN || (c == LIT_COUNTS_REQUEST && t->sizes_now);
}

static void draw_seats(Table *t, int *y)
{
    Play *pl = t->pl;
    const LitPublic *p = &pl->g.pub;
    move(*y, 0);
    for (int s = 0; s < pl->rules.players; s++) {
        char name[LIT_BOT_TEXT_MAX];
        lit_bot_spec_format(&pl->spec[s], name, sizeof name);
        int here = p->turn == s;
        int pick = (t->mode == ASK_SEAT || t->mode == CHOOSE_SEAT || t->mode == CLAIM_SEAT) &&
                   t->cursor == s;
        if (getcurx(stdscr) > COLS - 28)
            move(++*y, 0);
        if (here)
            attron(A_BOLD);
        if (pick)
            attron(A_REVERSE);
        printw("%s%d %s (%c)", here ? (t->utf8 ? "\u25b6" : ">") : " ", s + 1,
               s == pl->me ? pl->name : name, "AB"[lit_team_of(s)]);
        if (sizes_visible(t) || s == pl->me)
            printw(" %d", p->counts[s]);
        else
            printw(" ?");
        if (pick)
            attroff(A_REVERSE);
        if (here)
            attroff(A_BOLD);
        printw("   ");
    }
    *y += 1;
}

static void draw_claimed(Table *t, int *y)
{
    const LitPublic *p = &t->pl->g.pub;
    int deck = t->pl->rules.deck;
    for (int team = 0; team < 3; team++) {
        unsigned sets = team < 2 ? p->won[team] : p->dead;
        move((*y)++, 0);
        printw(team < 2 ? "team %c won:" : "out of play:", "AB"[team < 2 ? team : 0]);
        for (; sets; sets &= sets - 1)
            printw(" %s", lit_set_name(deck, lit_lsb(sets)));
    }
}

static void draw_history(Table *t, int top, int bottom)
{
    Play *pl = t->pl;
    char line[LIT_LINE_MAX];
    move(top, 0);
    printw("%s (f: %s)", t->full_history ? "history" : "last question",
           t->full_history ? "only the last question" : "the whole history");
    if (!t->full_history) {
        /* the last question, then every claim with the holders it revealed
         * (docs/RULES.md "Display rules": a claim's truth stays on the
         * table), the latest that fit; and the last action when it is a
         * pass or a choice */
        int y = top + 1;
        for (uint32_t i = pl->log.len; i-- > 0;)
            if (pl->log.events[i].action.kind == LIT_ASK) {
                lit_event_format(&pl->rules, &pl->log.events[i], (int)i + 1, line, sizeof line);
                mvprintw(y++, 2, "%.*s", COLS - 3, line);
                break;
            }
        const LitEvent *last = pl->log.len ? &pl->log.events[pl->log.len - 1] : NULL;
        int tail = last && last->action.kind != LIT_ASK && last->action.kind != LIT_CLAIM;
        uint32_t claims = 0, skip;
        for (uint32_t i = 0; i < pl->log.len; i++)
            claims += pl->log.events[i].action.kind == LIT_CLAIM;
        int room = bottom - y - tail;
        skip = room <= 0 ? claims : claims > (uint32_t)room ? claims - (uint32_t)room : 0;
        for (uint32_t i = 0, k = 0; i < pl->log.len; i++) {
            if (pl->log.events[i].action.kind != LIT_CLAIM || k++ < skip)
                continue;
            lit_event_format(&pl->rules, &pl->log.events[i], (int)i + 1, line, sizeof line);
            mvprintw(y++, 2, "%.*s", COLS - 3, line);
        }
        if (tail && y < bottom) {
            lit_event_format(&pl->rules, last, (int)pl->log.len, line, sizeof line);
            mvprintw(y, 2, "%.*s", COLS - 3, line);
        }
        return;
    }
    int rows = bottom - top - 1;
    uint32_t first = pl->log.len > (uint32_t)rows ? pl->log.len - (uint32_t)rows : 0;
    for (uint32_t i = first; i < pl->log.len; i++) {
        lit_event_format(&pl->rules, &pl->log.events[i], (int)i + 1, line, sizeof line);
        mvprintw(top + 1 + (int)(i - first), 2, "%.*s", COLS - 3, line);
    }
}

static void draw_sheet(Table *t, int top, int bottom)
{
    Play *pl = t->pl;
    const LitRules *r = &pl->rules;
    if (t->odds_at != (int)pl->log.len) {
        LitView v;
        LitKnow k;
        lit_view_make(&v, &pl->g, &pl->log, pl->me);
        t->odds.exact = 0;
        if (lit_know_from_view(&k, &v) == LIT_OK)
            lit_odds(&k, pl->work, LIT_ODDS_WORK, &t->odds);
        t->odds_at = (int)pl->log.len;
    }
    mvprintw(top, 0, "scoresheet (s: hide): the chance each seat holds each card");
    if (!t->odds.exact) {
        mvprintw(top + 1, 2, "(beyond exact counting here)");
        return;
    }
    int col_w = 5 + 5 * r->players, cols = COLS / col_w > 0 ? COLS / col_w : 1;
    int rows = bottom - top - 2, i = 0;
    move(top + 1, 0);
    for (int c = 0; c < cols; c++) {
        mvprintw(top + 1, c * col_w, "     ");
        for (int s = 0; s < r->players; s++)
            printw("%5d", s + 1);
    }
    for (uint64_t live = pl->g.pub.live & ~pl->g.hands[pl->me]; live && i < rows * cols; i++) {
        int card = lit_pop_lsb(&live);
        move(top + 2 + i % rows, (i / rows) * col_w);
        put_card(t, r->deck, card, 0);
        move(top + 2 + i % rows, (i / rows) * col_w + 5);
        for (int s = 0; s < r->players; s++) {
            double x = t->odds.p[card][s];
            if (x > 0.9995)
                printw("    X");
            else if (x < 0.0005)
                printw("    .");
            else
                printw("  .%02d", (int)(x * 100 + 0.5) % 100);
        }
    }
}

/* Your hand from row y; the last row it took. */
static int draw_hand(Table *t, int y)
{
    Play *pl = t->pl;
    int deck = pl->rules.deck;
    uint64_t hand = pl->g.hands[pl->me];
    mvprintw(y, 0, "your hand:");
    int i = 0;
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t m = hand & lit_set_mask(deck, set);
        if (!m)
            continue;
        if (getcurx(stdscr) > COLS - 24)
            move(++y, 2);
        printw("  ");
        while (m) {
            int c = lit_pop_lsb(&m);
            put_card(t, deck, c, 0);
            printw(" ");
        }
        printw(t->utf8 ? "\u2502" : "|");
        i++;
    }
    return y;
}

/* The live cards (for asking) in deck order: the i-th. */
static int nth_live(const Play *pl, int i)
{
    uint64_t live = pl->g.pub.live;
    return i >= 0 && i < lit_popcount(live) ? lit_nth_card(live, i) : -1;
}

static void draw_choice(Table *t, int y)
{
    Play *pl = t->pl;
    int deck = pl->rules.deck;
    move(y, 0);
    switch (t->mode) {
    case ASK_SEAT:
        printw("ask whom? (left/right, Enter; Esc cancels)");
        break;
    case CHOOSE_SEAT:
        printw("%s whom? (left/right, Enter; Esc cancels)",
               pass_phase(&pl->g.pub) ? "pass to" : "choose");
        break;
    case ASK_CARD: {
        printw("ask seat %d for which card? (arrows, Enter; Esc cancels)", t->act.target + 1);
        move(y + 1, 0);
        uint64_t ok = lit_askable(&pl->g.pub, pl->g.hands[pl->me]);
        for (int i = 0; i < lit_popcount(pl->g.pub.live); i++) {
            int c = nth_live(pl, i);
            if (getcurx(stdscr) > COLS - 6)
                move(getcury(stdscr) + 1, 0);
            if (!(ok & lit_bit(c)))
                attron(A_DIM);
            put_card(t, deck, c, i == t->cursor);
            if (!(ok & lit_bit(c)))
                attroff(A_DIM);
            printw(" ");
        }
        break;
    }
    case CLAIM_SET: {
        printw("claim which set? (left/right, Enter; Esc cancels)");
        move(y + 1, 0);
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            if (!(pl->g.pub.live & lit_set_mask(deck, set)))
                continue;
            if (getcurx(stdscr) > COLS - 16)
                move(getcury(stdscr) + 1, 0);
            if (set == t->cursor)
                attron(A_REVERSE);
            printw("%s", lit_set_name(deck, set));
            if (set == t->cursor)
                attroff(A_REVERSE);
            printw("  ");
        }
        break;
    }
    case CLAIM_SEAT:
    case CLAIM_CONFIRM: {
        int first = lit_set_first(deck, t->act.set);
        printw("claim %s:", lit_set_name(deck, t->act.set));
        for (int i = 0; i < lit_deck_set_size(deck); i++) {
            printw(" ");
            put_card(t, deck, first + i, t->mode == CLAIM_SEAT && i == t->claim_pos);
            if (i < t->claim_pos || t->mode == CLAIM_CONFIRM)
                printw(":%d", t->act.holders[i] + 1);
        }
        move(y + 1, 0);
        if (t->mode == CLAIM_SEAT)
            printw("who holds it? (left/right over the seats, Enter; Esc cancels)");
        else
            printw("make this claim? y: yes, n or Esc: cancel");
        break;
    }
    default:
        break;
    }
}

/* text from the top left, broken between words to the terminal's width. */
static void say_wrapped(const char *text)
{
    int y = 0, width = COLS > 1 ? COLS - 1 : 1;
    while (*text && y < LINES) {
        int n = (int)strlen(text);
        if (n > width) {
            n = width;
            while (n > 0 && text[n] != ' ')
                n--;
            if (n == 0)
                n = width;
        }
        mvprintw(y++, 0, "%.*s", n, text);
        text += n;
        while (*text == ' ')
            text++;
    }
}

/* The smallest terminal the table is drawn in (below it a word to make it
 * larger): the widest line of seats, and a history of two rows. */
enum { TABLE_COLS = 60 };

/* The table, with the area below the history lifted lift rows (for a card
 * picker of several rows): how many rows the bottom area overflowed (> 0:
 * draw again, lifted), or 0 when drawn. */
static int draw_at(Table *t, int lift)
{
    Play *pl = t->pl;
    const LitPublic *p = &pl->g.pub;
    char rules[LIT_RULES_TEXT_MAX];
    lit_rules_format(&pl->rules, rules, sizeof rules);
    erase();
    /* the score and the turn first: a long rules text is cut, not them */
    attron(A_BOLD);
    mvprintw(0, 0, "Literature");
    attroff(A_BOLD);
    printw("  score A %d : B %d", p->score[0], p->score[1]);
    if (p->result == LIT_ONGOING) {
        if (p->turn == pl->me && t->colour)
            attron(COLOR_PAIR(GREEN) | A_BOLD);
        printw("   %s", p->turn == pl->me ? "YOUR TURN" : "");
        if (p->turn != pl->me)
            printw("seat %d to play", p->turn + 1);
        printw(" (%s)", lit_phase_name(p->phase));
        if (p->turn == pl->me && t->colour)
            attroff(COLOR_PAIR(GREEN) | A_BOLD);
    }
    int room = COLS - getcurx(stdscr) - 4;
    if (room > 0)
        printw("   %.*s", room, rules);
    int y = 1;
    hline_at(t, y++);
    draw_seats(t, &y);
    draw_claimed(t, &y);
    hline_at(t, y++);
    int bottom = LINES - 7 - lift;
    if (COLS < TABLE_COLS || bottom - y < 2) {
        char text[256];
        snprintf(text, sizeof text,
                 "The terminal is too small for the table (%d x %d): it needs %d columns and "
                 "room for the seats and the history. Make it larger, or play with --plain. "
                 "q quits (the game is saved).",
                 COLS, LINES, TABLE_COLS);
        erase();
        say_wrapped(text);
        refresh();
        return 0;
    }
    if (t->sheet && pl->aid)
        draw_sheet(t, y, bottom);
    else
        draw_history(t, y, bottom);
    hline_at(t, bottom);
    int below = draw_hand(t, bottom + 1) + 1;
    int choice = below > bottom + 3 ? below : bottom + 3;
    draw_choice(t, choice);
    int last = getcury(stdscr);
    if (last > LINES - 3 && lift == 0)
        return last - (LINES - 3);
    move(LINES - 2, 0);
    clrtoeol();
    if (t->colour)
        attron(COLOR_PAIR(YELLOW));
    printw("%.*s", COLS - 1, t->msg);
    if (t->colour)
        attroff(COLOR_PAIR(YELLOW));
    move(LINES - 1, 0);
    clrtoeol();
    printw("%.*s", COLS - 1,
           pl->rules.counts == LIT_COUNTS_REQUEST
               ? (pl->aid ? "a ask  c claim  p pass  h hint  A aid off  s sheet  f history  z sizes  q quit"
                          : "a ask  c claim  p pass  h hint  A aid on  s sheet  f history  z sizes  q quit")
               : (pl->aid ? "a ask  c claim  p pass/choose  h hint  A aid off  s sheet  f history  q quit"
                          : "a ask  c claim  p pass/choose  h hint  A aid on  s sheet  f history  q quit"));
    refresh();
    return 0;
}

static void draw(Table *t)
{
    int over = draw_at(t, 0);
    if (over > 0)
        draw_at(t, over);
}

static void say_status(Table *t, int st)
{
    snprintf(t->msg, sizeof t->msg, "%s: %s", lit_status_name(st), lit_status_text(st));
}

/* Plays the move built if the referee takes it; else says which rule
 * forbids it. 1 when played. */
static int try_play(Table *t, const LitAction *a)
{
    Play *pl = t->pl;
    int st = play_act(pl, a);
    if (st != LIT_OK) {
        say_status(t, st);
        return 0;
    }
    char text[LIT_LINE_MAX];
    lit_event_format(&pl->rules, &pl->log.events[pl->log.len - 1], (int)pl->log.len, text,
                     sizeof text);
    snprintf(t->msg, sizeof t->msg, "%.200s", text);
    t->mode = NORMAL;
    t->sizes_now = 0;
    return 1;
}

static int step_seat(const Play *pl, int from, int dir)
{
    int n = pl->rules.players;
    return ((from + dir) % n + n) % n;
}

/* Moves the seat cursor by an arrow or to a seat's number (1 to 9). */
/* A key choosing a seat: the arrows, or its number; at 10 and 12 players
 * 1 then 0, 1 or 2 within a second is seat 10, 11 or 12. */
static void seat_key(Table *t, int ch, int left, int right)
{
    if (left || right)
        t->cursor = step_seat(t->pl, t->cursor, right ? 1 : -1);
    int players = t->pl->rules.players;
    double now = now_seconds();
    if (ch >= '0' && ch <= '2' && t->one_at > 0 && now - t->one_at < 1.0 &&
        10 + ch - '0' <= players) {
        t->cursor = 9 + ch - '0';
        t->one_at = 0;
        return;
    }
    t->one_at = ch == '1' ? now : 0;
    if (ch >= '1' && ch <= '9' && ch - '1' < players)
        t->cursor = ch - '1';
}

/* A key with no choice under way: start an ask, a claim, a pass or choice
 * (or say which rule forbids it now); the hint, the aid, the sheet, the
 * history's length, hand sizes. */
static void key_normal(Table *t, int ch)
{
    Play *pl = t->pl;
    const LitPublic *p = &pl->g.pub;
    int deck = pl->rules.deck, me = pl->me;
    if (ch == 'a') {
        if (p->phase != LIT_PHASE_PLAY) {
            LitAction a = lit_action_make(LIT_ASK, me);
            a.target = (uint8_t)step_seat(pl, me, 1);
            a.card = (uint8_t)lit_lsb(p->live);
            say_status(t, lit_game_check(&pl->g, &a));
            return;
        }
        t->mode = ASK_SEAT;
        t->cursor = step_seat(pl, me, 1);
    } else if (ch == 'c') {
        t->mode = CLAIM_SET;
        t->cursor = lit_set_of(deck, lit_lsb(p->live));
    } else if (ch == 'p') {
        if (p->phase == LIT_PHASE_PLAY && !pl->rules.pass_play) {
            LitAction a = lit_action_make(LIT_PASS, me);
            a.target = (uint8_t)step_seat(pl, me, 2);
            say_status(t, lit_game_check(&pl->g, &a));
            return;
        }
        t->mode = CHOOSE_SEAT;
        t->cursor = step_seat(pl, me, p->phase == LIT_PHASE_CHOOSE_CLAIMER ? 1 : 2);
    } else if (ch == 'h') {
        char text[LIT_LINE_MAX], why[32];
        if (play_hint(pl, text, sizeof text, why, sizeof why) == 0)
            snprintf(t->msg, sizeof t->msg, "hint: %.200s%s", text, why);
    } else if (ch == 'A') {
        pl->aid = !pl->aid;
        play_mark(pl, "aid %s", pl->aid ? "on" : "off");
        snprintf(t->msg, sizeof t->msg, "the scoresheet aid is %s", pl->aid ? "on" : "off");
    } else if (ch == 's') {
        if (!pl->aid)
            snprintf(t->msg, sizeof t->msg, "aid_off: the scoresheet aid is off (A turns it on)");
        else
            t->sheet = !t->sheet;
    } else if (ch == 'f') {
        t->full_history = !t->full_history;
    } else if (ch == 'z' && pl->rules.counts == LIT_COUNTS_REQUEST) {
        t->sizes_now = 1;
        play_mark(pl, "%s", "hand sizes asked for");
    }
}

/* Enter on a seat: the pass or choice is played; the seat asked is checked
 * by the referee (a teammate or a seat with no cards is refused) before the
 * card is chosen. The check is the public one of an ask for any live card
 * without the hand: the checks of the card wait for its choice. */
static void enter_seat(Table *t)
{
    Play *pl = t->pl;
    const LitPublic *p = &pl->g.pub;
    if (t->mode == CHOOSE_SEAT) {
        LitAction a = lit_action_make(pass_phase(p) ? LIT_PASS : LIT_CHOOSE, pl->me);
        a.target = (uint8_t)t->cursor;
        try_play(t, &a);
        return;
    }
    LitAction a = lit_action_make(LIT_ASK, pl->me);
    a.target = (uint8_t)t->cursor;
    a.card = (uint8_t)lit_lsb(p->live);
    int st = lit_public_check(p, &a, NULL);
    if (st != LIT_OK) {
        say_status(t, st);
        return;
    }
    t->act = lit_action_make(LIT_ASK, pl->me);
    t->act.target = (uint8_t)t->cursor;
    t->mode = ASK_CARD;
    t->cursor = 0;
}

/* A key while choosing a claim: its set (CLAIM_SET), each card's seat
 * (CLAIM_SEAT), then yes or no (CLAIM_CONFIRM). */
static void key_claim(Table *t, int ch, int left, int right, int enter)
{
    Play *pl = t->pl;
    int deck = pl->rules.deck;
    if (t->mode == CLAIM_SET) {
        int sets = lit_deck_sets(deck);
        for (int i = 0; (left || right) && i < sets; i++) {
            t->cursor = (t->cursor + (right ? 1 : sets - 1)) % sets;
            if (pl->g.pub.live & lit_set_mask(deck, t->cursor))
                break;
        }
        if (!enter)
            return;
        t->act = lit_action_make(LIT_CLAIM, pl->me);
        t->act.set = (uint8_t)t->cursor;
        t->claim_pos = 0;
        t->mode = CLAIM_SEAT;
        t->cursor = pl->me;
    } else if (t->mode == CLAIM_SEAT) {
        seat_key(t, ch, left, right);
        if (!enter)
            return;
        t->act.holders[t->claim_pos++] = (uint8_t)t->cursor;
        if (t->claim_pos == lit_deck_set_size(deck))
            t->mode = CLAIM_CONFIRM;
    } else if (ch == 'y') { /* not Enter: one Enter too many after the last seat */
        try_play(t, &t->act);
    } else if (ch == 'n') {
        t->mode = NORMAL;
        snprintf(t->msg, sizeof t->msg, "claim cancelled");
    }
}

/* One key in the current mode. */
static void key(Table *t, int ch)
{
    int esc = ch == 27, enter = ch == '\n' || ch == '\r' || ch == KEY_ENTER;
    int left = ch == KEY_LEFT || ch == KEY_UP, right = ch == KEY_RIGHT || ch == KEY_DOWN;
    t->msg[0] = t->mode == NORMAL ? 0 : t->msg[0];
    if (esc && t->mode != NORMAL) {
        t->mode = NORMAL;
        snprintf(t->msg, sizeof t->msg, "cancelled");
        return;
    }
    switch (t->mode) {
    case NORMAL:
        key_normal(t, ch);
        return;
    case ASK_SEAT:
    case CHOOSE_SEAT:
        seat_key(t, ch, left, right);
        if (enter)
            enter_seat(t);
        return;
    case ASK_CARD: {
        int n = lit_popcount(t->pl->g.pub.live);
        if (left || right)
            t->cursor = (t->cursor + (right ? 1 : n - 1)) % n;
        if (enter) {
            t->act.card = (uint8_t)nth_live(t->pl, t->cursor);
            try_play(t, &t->act);
        }
        return;
    }
    default:
        key_claim(t, ch, left, right, enter);
        return;
    }
}

/* The terminal as it was before the table, for a crash to put back. */
static struct termios before;
static int have_before;
static char crash_text[256];

#if !defined(__SANITIZE_ADDRESS__) /* the sanitizer reports a fault itself */
/* A crash (a bug): the terminal put back as it was, where the game is
 * (saved up to its last move), then the signal's own end. Only
 * async-signal-safe calls. */
static void on_crash(int sig)
{
    static const char reset[] = "\033[?1049l\033[?25h\033[0m\r\n";
    if (have_before)
        tcsetattr(STDIN_FILENO, TCSANOW, &before);
    ssize_t w = write(STDOUT_FILENO, reset, sizeof reset - 1);
    w = write(STDERR_FILENO, crash_text, strlen(crash_text));
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}
#endif

static void catch_crashes(const Play *pl)
{
    have_before = tcgetattr(STDIN_FILENO, &before) == 0;
    snprintf(crash_text, sizeof crash_text,
             "lit play: stopped by a fault; the game is saved up to its last move: "
             "lit play --resume %.150s\n",
             pl->record);
#if !defined(__SANITIZE_ADDRESS__)
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        signal(faults[i], on_crash);
#endif
}

/* What wait_key gives when the terminal has gone (closed, hung up). */
enum { KEY_GONE = -2 };

/* A key within ms milliseconds (one ncurses holds already at once), ERR
 * without one or when a signal cut the wait, KEY_GONE when the terminal
 * has gone (its reads would fail at once, for ever). */
static int wait_key(int ms)
{
    int ch = getch(); /* nodelay: a key read ahead, or one waiting */
    if (ch != ERR)
        return ch;
    struct pollfd p = {STDIN_FILENO, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0)
        return ERR;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
        return KEY_GONE;
    return getch();
}

/* The pace's pause after a bot's move, reading the keys meanwhile: 1 when
 * one asks to quit (q, Ctrl-C), a signal stops the table or the terminal
 * has gone; the other keys are kept for the player's turn. */
static int bots_pause(Table *t, long ms)
{
    double end = now_seconds() + (double)ms / 1000;
    for (;;) {
        long left = (long)((end - now_seconds()) * 1000);
        int ch = wait_key(left <= 0 ? 0 : left < 100 ? (int)left : 100);
        if (play_stopped() || ch == KEY_GONE || ch == 'q' || ch == 3 /* Ctrl-C */)
            return 1;
        if (ch == KEY_RESIZE)
            draw(t);
        else if (ch != ERR && t->n_ahead < (int)(sizeof t->ahead / sizeof *t->ahead))
            t->ahead[t->n_ahead++] = ch;
        if (left <= 0)
            return 0;
    }
}

/* The next key of the player's turn: one typed ahead, else one read
 * within 100 ms (ERR), or KEY_GONE. An escape sequence the terminal's
 * description does not know (a key ncurses cannot name) is read whole and
 * is no key (ERR), where its Escape cancelled the choice under way. */
static int next_key(Table *t)
{
    int ch;
    if (t->n_ahead == 0) {
        ch = wait_key(100);
    } else {
        ch = t->ahead[0];
        memmove(t->ahead, t->ahead + 1, (size_t)--t->n_ahead * sizeof *t->ahead);
    }
    if (ch != 27)
        return ch;
    int next = getch(); /* nodelay: the rest of a sequence came with it */
    if (next != '[' && next != 'O') {
        if (next != ERR)
            ungetch(next);
        return ch;
    }
    /* CSI or SS3: parameters, then a final byte from '@' to '~' */
    for (int i = 0; i < 32 && (next = getch()) != ERR; i++)
        if (next >= '@' && next <= '~' && (i > 0 || next != '['))
            break;
    return ERR;
}

int table_usable(void)
{
    int err = 0;
    if (setupterm(NULL, STDOUT_FILENO, &err) != OK)
        return 0;
    /* a terminal that cannot move the cursor (TERM=dumb) cannot draw it */
    char cup[] = "cup";
    const char *move = tigetstr(cup);
    int ok = move != NULL && move != (char *)-1;
    del_curterm(cur_term);
    return ok;
}

int table_loop(Play *pl)
{
    static Table t;
    memset(&t, 0, sizeof t);
    t.pl = pl;
    t.full_history = pl->rules.history == LIT_HISTORY_FULL;
    t.odds_at = -1;
    setlocale(LC_ALL, "");
    t.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    /* before initscr, which then leaves these signals to us */
    play_catch_stops();
    catch_crashes(pl);
    initscr();
    raw(); /* Ctrl-C comes as a key: quitting that way saves the game too */
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(50);
    curs_set(0);
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(RED, COLOR_RED, -1);
        init_pair(GREEN, COLOR_GREEN, -1);
        init_pair(YELLOW, COLOR_YELLOW, -1);
        init_pair(CYAN, COLOR_CYAN, -1);
        t.colour = 1;
    }
    nodelay(stdscr, TRUE); /* keys waited for by wait_key: a signal is seen */
    int quit = 0, dirty = 1;
    while (pl->g.pub.result == LIT_ONGOING && !quit && !play_stopped()) {
        int turn = pl->g.pub.turn;
        if (dirty)
            draw(&t);
        dirty = 1;
        if (turn != pl->me) {
            if (play_bot_move(pl, 0)) {
                quit = 1;
                break;
            }
            draw(&t);
            quit = bots_pause(&t, pl->pace_ms);
            continue;
        }
        int ch = next_key(&t);
        if ((ch == 'q' && t.mode == NORMAL) || ch == 3 /* Ctrl-C */ || ch == KEY_GONE)
            quit = 1;
        else if (ch != ERR)
            key(&t, ch);
        else
            dirty = 0;
    }
    if (play_stopped())
        quit = 1;
    if (!quit) {
        int mine = lit_team_of(pl->me);
        snprintf(t.msg, sizeof t.msg, "game over: %s, score A %d : B %d. Any key to leave.",
                 pl->g.pub.result == LIT_DRAW                          ? "a draw"
                 : pl->g.pub.result == (mine ? LIT_WIN_B : LIT_WIN_A) ? "your team wins"
                                                                       : "your team loses",
                 pl->g.pub.score[0], pl->g.pub.score[1]);
        draw(&t);
        int ch;
        while ((ch = next_key(&t)) == ERR && !play_stopped())
            ;
    }
    endwin();
    return quit;
}
