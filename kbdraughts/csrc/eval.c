/* The evaluation: eval/evaluation.py's features and heuristic.py's quick weighing, the same
 * numbers in the same order of floating-point operations (so the scores compare exactly). */
#include <stdlib.h>
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

void other_features(const Pos *p, int out[N_OTHERS])
{
    Bitboard white = p->white, black = p->black, kings = p->kings;
    Bitboard wm = white & ~kings, bm = black & ~kings;
    Bitboard occupied = white | black, empty = BB_BOARD & ~occupied, free = empty | MASKS.off;
    int us = p->side, run = 0;
    if (!(black & kings)) {
        Bitboard cand = wm & MASKS.run_from[0] & (free >> 4) & (free >> 5);
        if (cand)
            run = runaway_men(cand, 0, black, occupied, crown_steps(bm, 1) - us);
    }
    if (!(white & kings)) {
        Bitboard cand = bm & MASKS.run_from[1] & (free << 4) & (free << 5);
        if (cand)
            run -= runaway_men(cand, 1, white, occupied, crown_steps(wm, 0) - 1 + us);
    }
    int blocked = popcount(wm & ~((empty >> 4) | (empty >> 5)) & ((black >> 4) | (black >> 5)))
                - popcount(bm & ~((empty << 4) | (empty << 5)) & ((white << 4) | (white << 5)));
    Bitboard wf = white | MASKS.off, bf = black | MASKS.off;
    int outposts = popcount(wm & MASKS.outposts & (wf << 4) & (wf << 5))
                 - popcount(bm & MASKS.outposts & (bf >> 4) & (bf >> 5));
    int nk = 0, mobility = 0, road = 0;
    if (kings) {
        Bitboard wk = white & kings, bk = black & kings;
        nk = popcount(wk) - popcount(bk);
        mobility = popcount(king_reach(wk, empty)) - popcount(king_reach(bk, empty));
        int nw = popcount(white), nb = popcount(black);
        road = (nw < nb && (wk & MASKS.main_road)) - (nb < nw && (bk & MASKS.main_road));
    }
    int flanks = abs(2 * popcount(wm & MASKS.left) - popcount(wm))
               - abs(2 * popcount(bm & MASKS.left) - popcount(bm));
    int pieces = popcount(occupied), opp = 0, corner = 0;
    if (!kings && popcount(wm) == popcount(bm)) {
        /* the side to move has the opposition when its system holds an odd count */
        Bitboard system = us == 0 ? MASKS.system : BB_BOARD & ~MASKS.system;
        int mover_has = popcount(occupied & system) % 2 == 1;
        opp = mover_has == (us == 0) ? 1 : -1;
    }
    if (kings) {
        int nw = popcount(white), nb = popcount(black);
        corner = (nw < nb && (white & kings & MASKS.double_corner))
               - (nb < nw && (black & kings & MASKS.double_corner));
    }
    out[O_KINGS] = nk;
    out[O_ENDGAME] = pieces <= 8;
    out[O_OPENING] = pieces >= 20;
    out[O_HANGING] = popcount(capturable(wm, black, empty)) - popcount(capturable(bm, white, empty));
    out[O_OPPOSITION] = opp;
    out[O_PASSED] = passed_men(wm, 0, black) - passed_men(bm, 1, white);
    out[O_CORNER] = corner;
    out[O_RUNAWAY] = run;
    out[O_BLOCKED] = blocked;
    out[O_OUTPOSTS] = outposts;
    out[O_MOBILITY] = mobility;
    out[O_ROAD] = road;
    out[O_FLANKS] = flanks;
}

static int tempo(Bitboard men, int side)
{
    int t = 0;
    while (men) {
        int s = lsb(men);
        men &= men - 1;
        t += side == 0 ? SQ_RANK[s] : 7 - SQ_RANK[s];
    }
    return t;
}

void men_sums(const Pos *p, int out[6])
{
    Bitboard wm = p->white & ~p->kings, bm = p->black & ~p->kings;
    out[0] = popcount(wm & MASKS.centre) - popcount(bm & MASKS.centre);
    out[1] = popcount(wm & MASKS.back_rank[0]) - popcount(bm & MASKS.back_rank[1]);
    out[2] = tempo(wm, 0) - tempo(bm, 1);
    out[3] = popcount(wm & MASKS.guard[0]) - popcount(bm & MASKS.guard[1]);
    out[4] = popcount(wm & MASKS.golden) - popcount(bm & MASKS.golden);
    out[5] = popcount(wm) - popcount(bm);
}

static double material(const Pos *p)
{
    int w = popcount(p->white & ~p->kings) * 100 + popcount(p->white & p->kings) * 250;
    int b = popcount(p->black & ~p->kings) * 100 + popcount(p->black & p->kings) * 250;
    return p->side ? b - w : w - b;
}

/* regions.region_index: the arrangement of men on a region's squares in base 3 from one
 * side's view (``ours`` 1, ``theirs`` 2), or -1 with a king there. */
static int region_index(const int *sq, int k, Bitboard ours, Bitboard theirs, Bitboard kings)
{
    int index = 0, place = 1;
    for (int i = 0; i < k; i++) {
        int s = sq[i];
        if (kings >> s & 1)
            return -1;
        index += place * ((int)(ours >> s & 1) + 2 * (int)(theirs >> s & 1));
        place *= 3;
    }
    return index;
}

/* region_index by the view's look-up tables when it has them: the same number. */
static inline int view_index(const EvalRegion *g, int v, Bitboard ours, Bitboard theirs,
                             Bitboard kings)
{
    int n = g->parts[v];
    if (!n)
        return region_index(g->sq[v], g->k, ours, theirs, kings);
    if (kings & g->on[v])
        return -1;
    int index = 0;
    for (int p = 0; p < n; p++) {
        int b = g->base[v][p];
        Bitboard m = g->mask[v][p];
        const unsigned short *d = g->digits[v][p];
        index += d[(ours >> b) & m] + 2 * d[(theirs >> b) & m];
    }
    return index;
}

static double regions_value(const Evaluator *e, const Pos *p, int sig)
{
    const unsigned char *on = e->region_on + (size_t)sig * e->nreg;
    double sum = 0.0;
    for (int r = 0; r < e->nreg; r++) {
        if (!on[r])
            continue;
        const EvalRegion *g = &e->regions[r];
        int iw = view_index(g, 0, p->white, p->black, p->kings);
        int ib = view_index(g, 1, p->black, p->white, p->kings);
        sum += (iw >= 0 ? g->table[iw] : 0.0) - (ib >= 0 ? g->table[ib] : 0.0);
    }
    return sum;
}

/* Heuristic._quickly(pos, 0): the row of the signature (the `when` features that hold), the
 * men weighed by four table look-ups a side, the other features one by one. */
double evaluate(const Evaluator *e, const Pos *p)
{
    if (e->material_only)
        return material(p);
    int o[N_OTHERS];
    other_features(p, o);
    int sig = 0;
    for (int k = 0; k < e->nbits; k++)
        if (o[e->bit_feature[k]])
            sig |= 1 << k;
    const EvalRow *row = &e->rows[sig];
    Bitboard wm = p->white & ~p->kings, bm = p->black & ~p->kings;
    double total = row->white[0][wm & 511] + row->white[1][wm >> 9 & 511]
                 + row->white[2][wm >> 18 & 511] + row->white[3][wm >> 27];
    total = total - row->black[0][bm & 511] - row->black[1][bm >> 9 & 511]
                  - row->black[2][bm >> 18 & 511] - row->black[3][bm >> 27];
    double dot = 0.0; /* sum(map(mul, weights, other)): left to right */
    for (int j = 0; j < N_OTHERS; j++)
        dot += row->weights[j] * (double)o[j];
    total += dot;
    if (e->npat) {
        const double *pw = e->pattern_weights + (size_t)sig * e->npat;
        Bitboard st[5] = {BB_BOARD & ~(p->white | p->black), wm, p->white & p->kings, bm,
                          p->black & p->kings};
        double pat = 0.0; /* sum(map(mul, weights, counts)): left to right */
        for (int k = 0; k < e->npat; k++) {
            const Bitboard (*m)[5] = e->patterns[k];
            int hw = !((st[0] & m[0][0]) | (st[1] & m[0][1]) | (st[2] & m[0][2])
                       | (st[3] & m[0][3]) | (st[4] & m[0][4]));
            int hb = !((st[0] & m[1][0]) | (st[1] & m[1][1]) | (st[2] & m[1][2])
                       | (st[3] & m[1][3]) | (st[4] & m[1][4]));
            pat += pw[k] * (double)(hw - hb);
        }
        total += pat;
    }
    if (e->nreg)
        total += regions_value(e, p, sig);
    return row->cnst + row->on_endgame * (double)o[O_ENDGAME] + (p->side ? -total : total);
}
