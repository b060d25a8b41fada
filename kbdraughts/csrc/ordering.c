/* The order of the moves, ai/ordering.py in C: the table's move first, then two killers a
 * ply, then history; captures largest first. Its cut-off (order_cutoff) is in ordering.h. */
#include "ordering.h"

#define TT_KEY (1LL << 62)
static const int64_t KILLER_KEYS[2] = {1LL << 61, 1LL << 60};

/* Indices of the moves in the order to try them: a stable sort by key, largest first, as
 * sorted(..., reverse=True) gives them. */
void order_moves(const Ordering *o, const MoveList *l, const Entry *tt, int ply, int *out)
{
    int n = l->n;
    int64_t keys[MAX_MOVES];
    if (l->moves[0].captured) {
        for (int i = 0; i < n; i++) {
            const Move *m = &l->moves[i];
            keys[i] = popcount(m->captured);
            if (tt && m->start == tt->mstart && m->end == tt->mend && m->captured == tt->mcap)
                keys[i] = TT_KEY;
        }
    } else {
        int k1 = o->killers[ply][0], k2 = o->killers[ply][1];
        int ttk = tt ? tt->mstart << 6 | tt->mend : -1;
        int f1 = 0, f2 = 0;
        for (int i = 0; i < n; i++) {
            int idx = l->moves[i].start << 6 | l->moves[i].end;
            keys[i] = o->history[idx];
            if (idx == k1 && !f1) { keys[i] = KILLER_KEYS[0]; f1 = 1; }
            else if (idx == k2 && !f2) { keys[i] = KILLER_KEYS[1]; f2 = 1; }
        }
        for (int i = 0; i < n; i++)
            if ((l->moves[i].start << 6 | l->moves[i].end) == ttk) {
                keys[i] = TT_KEY;
                break;
            }
    }
    for (int i = 0; i < n; i++) { /* insertion sort: stable, and lists are short */
        int j = i;
        while (j > 0 && keys[out[j - 1]] < keys[i]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = i;
    }
}

/* Ordering.new_search: killers forgotten and history halved, the next search is from another
 * root. */
void order_new_search(Ordering *o)
{
    for (int i = 0; i < 64 * 64; i++)
        o->history[i] >>= 1;
    for (int p = 0; p < MAX_PLY; p++)
        o->killers[p][0] = o->killers[p][1] = -1;
}
