/* The regions' indices kept as the search plays (core.h's EvalRegion says why they can be):
 * a move's piece leaves its start and stands on its end, and each piece it takes leaves its
 * square, so the child's indices are the parent's plus and minus those squares' numbers, a
 * vector of VIEW_LANES views at a time. Inline: the search steps every child it plays. */
#ifndef KBD_REGIONS_H
#define KBD_REGIONS_H

#include <string.h>
#include "core.h"

typedef uint16_t ViewLanes __attribute__((vector_size(2 * VIEW_LANES)));

/* to = from stepped by m, played in p (to and from nviews long; they may not overlap). The
 * numbers stay in 0..3**8 - 1 + 2 * 3**7 on the way: no lane wraps. */
static inline void region_step(const Evaluator *e, const uint16_t *from, uint16_t *to,
                               const Pos *p, const Move *m)
{
    int n = e->nviews;
    if (!n)
        return;
    const uint16_t *ours = e->piece + (size_t)p->side * NSQ * n;
    const uint16_t *end = ours + (size_t)m->end * n, *start = ours + (size_t)m->start * n;
    for (int j = 0; j < n; j += VIEW_LANES) { /* memcpy: no alignment asked of the arrays */
        ViewLanes a, b, c;
        memcpy(&a, from + j, sizeof a);
        memcpy(&b, end + j, sizeof b);
        memcpy(&c, start + j, sizeof c);
        a = a + b - c;
        memcpy(to + j, &a, sizeof a);
    }
    const uint16_t *theirs = e->piece + (size_t)(1 - p->side) * NSQ * n;
    for (Bitboard cap = m->captured; cap; cap &= cap - 1) {
        const uint16_t *t = theirs + (size_t)lsb(cap) * n;
        for (int j = 0; j < n; j += VIEW_LANES) {
            ViewLanes a, b;
            memcpy(&a, to + j, sizeof a);
            memcpy(&b, t + j, sizeof b);
            a = a - b;
            memcpy(to + j, &a, sizeof a);
        }
    }
}

#endif
