/* The referee's exhaustive material minimax (ai/referee.py's resolve) in C: every move to
 * ``plies`` plies, then every forced capture to its end; pieces counted, men and kings alike. */
#include "core.h"

#define LOST 99

static int balance(const Pos *p, int us)
{
    int w = popcount(p->white), b = popcount(p->black);
    return us ? b - w : w - b;
}

static int resolve_from(const Pos *p, int us, int plies, MoveList *lists, int level)
{
    MoveList *l = &lists[level];
    gen_legal(p, l);
    if (!l->n)
        return p->side == us ? -LOST : LOST;
    if (plies <= 0 && !l->moves[0].captured)
        return balance(p, us);
    int best = p->side == us ? -LOST - 1 : LOST + 1;
    for (int i = 0; i < l->n; i++) {
        Pos q = play(p, &l->moves[i]);
        int v = resolve_from(&q, us, plies - 1, lists, level + 1);
        if (p->side == us ? v > best : v < best)
            best = v;
    }
    return best;
}

/* ``lists`` holds plies + REFEREE_CAPTURES move lists: past the plies only captures go on,
 * and each takes a piece. */
int resolve(const Pos *p, int us, int plies, MoveList *lists)
{
    return resolve_from(p, us, plies, lists, 0);
}
