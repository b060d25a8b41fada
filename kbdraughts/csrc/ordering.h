/* The order of the moves, ai/ordering.py (ordering.c): the killers and the history, below the
 * search that uses them. */
#ifndef KBD_ORDERING_H
#define KBD_ORDERING_H

#include "core.h"
#include "table.h"

typedef struct {
    int64_t history[64 * 64];
    int killers[MAX_PLY][2];
} Ordering;

void order_moves(const Ordering *o, const MoveList *l, const Entry *tt, int ply, int *out);
void order_new_search(Ordering *o);

/* Ordering.cutoff: a quiet move refuted the opponent's last move at ply. Inline: the tree
 * calls it at every quiet cut-off. */
static inline void order_cutoff(Ordering *o, const Move *m, int depth, int ply)
{
    int i = m->start << 6 | m->end;
    o->history[i] += (int64_t)depth * depth;
    int *k = o->killers[ply];
    if (k[0] != i) {
        k[1] = k[0];
        k[0] = i;
    }
}

#endif
