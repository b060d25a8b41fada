/* The referee's exhaustive material minimax (ai/referee.py's resolve) in C: every move to
 * ``plies`` plies, then every forced capture to its end; pieces counted, men and kings alike. */
#include "core.h"

#define LOST 99

static int balance(const Pos *p, int us)
{
    int w = popcount(p->white), b = popcount(p->black);
    return us ? b - w : w - b;
}

typedef struct {
    MoveList *lists;
    int64_t left; /* positions still allowed; below zero the judgement is abandoned */
} Budget;

static int resolve_from(const Pos *p, int us, int plies, Budget *b, int level)
{
    if (--b->left < 0)
        return 0; /* the caller sees b->left and abandons the result */
    MoveList *l = &b->lists[level];
    gen_legal(p, l);
    if (!l->n)
        return p->side == us ? -LOST : LOST;
    if (plies <= 0 && !l->moves[0].captured)
        return balance(p, us);
    int best = p->side == us ? -LOST - 1 : LOST + 1;
    for (int i = 0; i < l->n; i++) {
        Pos q = play(p, &l->moves[i]);
        int v = resolve_from(&q, us, plies - 1, b, level + 1);
        if (b->left < 0)
            return 0;
        if (p->side == us ? v > best : v < best)
            best = v;
    }
    return best;
}

/* ``lists`` holds plies + REFEREE_CAPTURES move lists: past the plies only captures go on,
 * and each takes a piece. ``*left``: positions allowed, one spent per position visited as
 * referee.py's Nodes spends them; below zero when they ran out (the value is then void). */
int resolve(const Pos *p, int us, int plies, MoveList *lists, int64_t *left)
{
    Budget b = {lists, *left};
    int v = resolve_from(p, us, plies, &b, 0);
    *left = b.left;
    return v;
}
