/* claims.c - a set's claim figures from a walk over one team's placements
 * (counting.h has Claim): the deals in which the team holds all of the set
 * and the likeliest placement. */
#include "counting.h"

/* The team holding the placed cards of a set: -1 when none is placed, 2
 * when both teams hold some. */
int claims_team(const LitKnow *k, uint64_t setmask)
{
    int team = -1;
    for (int s = 0; s < k->pub.rules.players; s++)
        if (k->held[s] & setmask)
            team = team < 0 || team == lit_team_of(s) ? lit_team_of(s) : 2;
    return team;
}

/* Counts a placement by seat y (seat: where each card is) that has fields
 * deals of the fields: its deals are those times the splits of the merged
 * fields' other cards; the first with the most is the likeliest. */
void claims_count(Claim *cl, const LitU192 *fields, uint64_t y, const int *seat)
{
    LitU192 split = fields_splits(cl->cx, y), deals;
    lit_u192_mul(&deals, fields, &split);
    lit_u192_add(&cl->all, &cl->all, &deals);
    if (lit_u192_cmp(&deals, &cl->best) > 0) {
        cl->best = deals;
        memcpy(cl->seat, seat, sizeof cl->seat);
    }
}

/* A placement by seat (the walk is over seats): the deals of the fields in
 * which the block gives its vector by field. */
int claims_visit(Walk *w, uint64_t v, uint32_t index)
{
    Claim *cl = w->ctx;
    LitU192 d;
    (void)index;
    if (lookup(cl->gv, fields_of(cl->cx, v), &d))
        claims_count(cl, &d, v, w->seat);
    return 0;
}
