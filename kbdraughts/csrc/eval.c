/* The evaluation: eval/evaluation.py's features and heuristic.py's quick weighing, the same
 * integer sum of hundredths (core.h's EVAL_SCALE), so the scores compare exactly. */
#include <stdlib.h>
#include <string.h>
#include "core.h"

EvalMasks MASKS;

static int crown_steps(Bitboard men, int side)
{
    if (!men)
        return 99;
    return side == 0 ? 7 - SQ_RANK[msb(men)] : SQ_RANK[lsb(men)];
}

static int runaway_men(Bitboard men, int side, Bitboard theirs, Bitboard occupied, int lead)
{
    int n = 0;
    Bitboard run = men & MASKS.run_from[side];
    while (run) {
        int s = lsb(run);
        run &= run - 1;
        if (!(MASKS.run_path[side][s] & occupied) && !(MASKS.run_danger[side][s] & theirs)) {
            int steps = side == 0 ? 7 - SQ_RANK[s] : SQ_RANK[s];
            if (steps <= lead)
                n++;
        }
    }
    return n;
}

/* evaluation.capturable: the targets a piece next to them could jump now. */
static Bitboard capturable(Bitboard targets, Bitboard by, Bitboard empty)
{
    return targets & (((by >> 4) & (empty << 4)) | ((by >> 5) & (empty << 5))
                      | ((by << 4) & (empty >> 4)) | ((by << 5) & (empty >> 5)));
}

static int passed_men(Bitboard men, int side, Bitboard theirs)
{
    int n = 0;
    Bitboard run = men & MASKS.run_from[side];
    while (run) {
        int s = lsb(run);
        run &= run - 1;
        n += !(MASKS.run_path[side][s] & theirs);
    }
    return n;
}

static Bitboard king_reach(Bitboard kings, Bitboard empty)
{
    Bitboard reach = 0;
    for (int d = 4; d <= 5; d++) {
        Bitboard f = kings;
        while (f) {
            f = (f << d) & empty;
            reach |= f;
        }
        f = kings;
        while (f) {
            f = (f >> d) & empty;
            reach |= f;
        }
    }
    return reach;
}

/* What every feature reads, computed once a position. */
typedef struct {
    Bitboard white, black, kings, wm, bm, occupied, empty;
    int us;
} Board;

/* One function a feature of OTHERS (the schema's X-macro KBD_OTHERS calls them, in order):
 * evaluation.py's function of the same name, White's less Black's. */
static inline int other_kings(const Board *b)
{
    return popcount(b->white & b->kings) - popcount(b->black & b->kings);
}

static inline int other_endgame(const Board *b) { return popcount(b->occupied) <= 8; }

static inline int other_opening(const Board *b) { return popcount(b->occupied) >= 20; }

/* Runaway men, only against a side without kings: those whose two steps ahead are free are
 * looked at one by one. */
static inline int other_runaway(const Board *b)
{
    Bitboard free = b->empty | MASKS.off;
    int run = 0;
    if (!(b->black & b->kings)) {
        Bitboard cand = b->wm & MASKS.run_from[0] & (free >> 4) & (free >> 5);
        if (cand)
            run = runaway_men(cand, 0, b->black, b->occupied, crown_steps(b->bm, 1) - b->us);
    }
    if (!(b->white & b->kings)) {
        Bitboard cand = b->bm & MASKS.run_from[1] & (free << 4) & (free << 5);
        if (cand)
            run -= runaway_men(cand, 1, b->white, b->occupied,
                               crown_steps(b->wm, 0) - 1 + b->us);
    }
    return run;
}

static inline int other_blocked_men(const Board *b)
{
    Bitboard empty = b->empty, white = b->white, black = b->black;
    return popcount(b->wm & ~((empty >> 4) | (empty >> 5)) & ((black >> 4) | (black >> 5)))
         - popcount(b->bm & ~((empty << 4) | (empty << 5)) & ((white << 4) | (white << 5)));
}

static inline int other_outposts(const Board *b)
{
    Bitboard wf = b->white | MASKS.off, bf = b->black | MASKS.off;
    return popcount(b->wm & MASKS.outposts & (wf << 4) & (wf << 5))
         - popcount(b->bm & MASKS.outposts & (bf >> 4) & (bf >> 5));
}

static inline int other_king_mobility(const Board *b)
{
    if (!b->kings)
        return 0;
    return popcount(king_reach(b->white & b->kings, b->empty))
         - popcount(king_reach(b->black & b->kings, b->empty));
}

/* A king of the side with fewer pieces on `where` (the main road, a double corner). */
static inline int weaker_king_on(const Board *b, Bitboard where)
{
    if (!b->kings)
        return 0;
    int nw = popcount(b->white), nb = popcount(b->black);
    return (nw < nb && (b->white & b->kings & where)) - (nb < nw && (b->black & b->kings & where));
}

static inline int other_main_road(const Board *b) { return weaker_king_on(b, MASKS.main_road); }

static inline int other_double_corner(const Board *b)
{
    return weaker_king_on(b, MASKS.double_corner);
}

static inline int other_flank_imbalance(const Board *b)
{
    return abs(2 * popcount(b->wm & MASKS.left) - popcount(b->wm))
         - abs(2 * popcount(b->bm & MASKS.left) - popcount(b->bm));
}

static inline int other_hanging(const Board *b)
{
    return popcount(capturable(b->wm, b->black, b->empty))
         - popcount(capturable(b->bm, b->white, b->empty));
}

/* The side to move has the opposition when its system holds an odd count (men alone, as
 * many a side). */
static inline int other_opposition(const Board *b)
{
    if (b->kings || popcount(b->wm) != popcount(b->bm))
        return 0;
    Bitboard system = b->us == 0 ? MASKS.system : BB_BOARD & ~MASKS.system;
    int mover_has = popcount(b->occupied & system) % 2 == 1;
    return mover_has == (b->us == 0) ? 1 : -1;
}

static inline int other_passed_men(const Board *b)
{
    return passed_men(b->wm, 0, b->black) - passed_men(b->bm, 1, b->white);
}

/* With the processor's own bit count where it has one (chosen at load time): some ten counts
 * a leaf, each a call into libgcc without it. */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("popcnt", "default")))
#endif
void other_features(const Pos *p, int out[N_OTHERS])
{
    Board b = {p->white, p->black, p->kings, p->white & ~p->kings, p->black & ~p->kings,
               p->white | p->black, BB_BOARD & ~(p->white | p->black), p->side};
#define X(C, name) out[C] = other_##name(&b);
    KBD_OTHERS(X)
#undef X
}

/* The men sums by the values per man Python hands over (MASKS.man_values): no feature of
 * MEN_SUMS has code of its own here. */
void men_sums(const Pos *p, int out[N_MEN_SUMS])
{
    for (int f = 0; f < N_MEN_SUMS; f++)
        out[f] = 0;
    for (int side = 0; side < 2; side++) {
        Bitboard men = (side ? p->black : p->white) & ~p->kings;
        int sign = side ? -1 : 1;
        while (men) {
            const int *v = MASKS.man_values[side][lsb(men)];
            men &= men - 1;
            for (int f = 0; f < N_MEN_SUMS; f++)
                out[f] += sign * v[f];
        }
    }
}

static double material(const Pos *p)
{
    int w = popcount(p->white & ~p->kings) * 100 + popcount(p->white & p->kings) * 250;
    int b = popcount(p->black & ~p->kings) * 100 + popcount(p->black & p->kings) * 250;
    return p->side ? b - w : w - b;
}

/* The views' indices (regions.region_index, a king counted as a man) from the pieces. */
void region_indices(const Evaluator *e, const Pos *p, uint16_t *out)
{
    int n = e->nviews;
    memset(out, 0, sizeof(uint16_t) * (size_t)n);
    for (int side = 0; side < 2; side++)
        for (Bitboard b = side ? p->black : p->white; b; b &= b - 1) {
            const uint16_t *add = e->piece + ((size_t)side * NSQ + (size_t)lsb(b)) * n;
            for (int j = 0; j < n; j++)
                out[j] = (uint16_t)(out[j] + add[j]);
        }
}

/* The regions that apply under sig, their indices given: a view with a king counts nothing.
 * Whole hundredths: the sum is exact in any order, so White's and Black's views go to two
 * sums, not one chain of dependent additions. */
#define REGIONS_SUM(T) /* the same loops for the tables in 16 and in 32 bits */              \
    do {                                                                                    \
        if (!kings) { /* most leaves: no view to leave out */                               \
            for (int r = 0; r < e->nreg; r++)                                               \
                if (on[r]) {                                                                \
                    int v = 2 * e->regions[r].slot;                                         \
                    w += e->regions[r].T[views[v]];                                         \
                    b += e->regions[r].T[views[v + 1]];                                     \
                }                                                                           \
            break;                                                                          \
        }                                                                                   \
        for (int r = 0; r < e->nreg; r++) {                                                 \
            const EvalRegion *g = &e->regions[r];                                           \
            if (on[r] && !(kings & g->on[0]))                                               \
                w += g->T[views[2 * g->slot]];                                              \
            if (on[r] && !(kings & g->on[1]))                                               \
                b += g->T[views[2 * g->slot + 1]];                                          \
        }                                                                                   \
    } while (0)

static int64_t regions_value(const Evaluator *e, const Pos *p, int sig, const uint16_t *views)
{
    const unsigned char *on = e->region_on + (size_t)sig * e->nreg;
    Bitboard kings = p->kings;
    int64_t w = 0, b = 0;
    if (e->narrow)
        REGIONS_SUM(narrow);
    else
        REGIONS_SUM(table);
    return w - b;
}

/* Heuristic._quickly(pos, 0): the row of the signature (the `when` features that hold), the
 * men weighed by four table look-ups a side, the other features one by one. */
double evaluate(const Evaluator *e, const Pos *p)
{
    uint16_t views[MAX_VIEWS];
    if (e->nviews)
        region_indices(e, p, views);
    return evaluate_indexed(e, p, views);
}

double evaluate_indexed(const Evaluator *e, const Pos *p, const uint16_t *views)
{
    if (e->material_only)
        return material(p);
    int o[N_OTHERS + N_MEN_SUMS]; /* the conditions' values: OTHERS, then MEN_SUMS */
    other_features(p, o);
    if (e->men_bits)
        men_sums(p, o + N_OTHERS);
    int sig = 0;
    for (int k = 0; k < e->nbits; k++)
        if (o[e->bit_feature[k]])
            sig |= 1 << k;
    const EvalRow *row = &e->rows[sig];
    Bitboard wm = p->white & ~p->kings, bm = p->black & ~p->kings;
    /* In hundredths, 64 bits: each weight fits 32 (evaluator.c checks), no sum overflows. */
    int64_t total = (int64_t)row->white[0][wm & 511] + row->white[1][wm >> 9 & 511]
                  + row->white[2][wm >> 18 & 511] + row->white[3][wm >> 27]
                  - row->black[0][bm & 511] - row->black[1][bm >> 9 & 511]
                  - row->black[2][bm >> 18 & 511] - row->black[3][bm >> 27];
    for (int j = 0; j < N_OTHERS; j++)
        total += (int64_t)row->weights[j] * o[j];
    if (e->npat) {
        const int32_t *pw = e->pattern_weights + (size_t)sig * e->npat;
        Bitboard st[5] = {BB_BOARD & ~(p->white | p->black), wm, p->white & p->kings, bm,
                          p->black & p->kings};
        for (int k = 0; k < e->npat; k++) {
            const Bitboard (*m)[5] = e->patterns[k];
            int hw = !((st[0] & m[0][0]) | (st[1] & m[0][1]) | (st[2] & m[0][2])
                       | (st[3] & m[0][3]) | (st[4] & m[0][4]));
            int hb = !((st[0] & m[1][0]) | (st[1] & m[1][1]) | (st[2] & m[1][2])
                       | (st[3] & m[1][3]) | (st[4] & m[1][4]));
            total += (int64_t)pw[k] * (hw - hb);
        }
    }
    if (e->nreg)
        total += regions_value(e, p, sig, views);
    int64_t base = row->cnst; /* the phases, the same for both sides */
    int k = 0;
#define X(C) base += (int64_t)row->on_phase[k++] * o[C];
    KBD_PHASES(X)
#undef X
    return (double)(base + (p->side ? -total : total)) / EVAL_SCALE;
}
