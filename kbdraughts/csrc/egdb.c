/* Endgame tables: kbdraughts/egdb/index.py's ranking, retrograde generation, and the
 * consistency pass (each value and distance recomputed from the successors').
 *
 * Only quiet moves that crown nothing stay inside a table; a capture or a crowning converts
 * into a table built before (fewer pieces, or fewer men), whose values are read. The
 * generation counts each position's quiet moves, seeds the positions decided at once (no move:
 * lost at 0 plies; a conversion that wins: won at 1; only losing conversions: lost at 1), then
 * walks back level by level with un-moves: a position lost at d makes each predecessor won at
 * d + 1 (the first, hence shortest, win), and a position won at d takes one from each
 * predecessor's count, which is lost at d + 1 when its count runs out (the last, hence longest,
 * defence) unless a conversion of its draws. What is left is drawn. */
#include <stdlib.h>
#include <string.h>
#include "egdb.h"

static uint64_t CB[33][33]; /* binomial coefficients C(n, k) */

#define RANK1 0x0000000FU
#define RANK8 0xF0000000U
#define MIDDLE (~RANK1 & ~RANK8)
#define BLACK_MEN (~RANK1)
#define DRAWS 4 /* state bit: a conversion that draws */

void eg_init(void)
{
    for (int n = 0; n <= 32; n++) {
        CB[n][0] = 1;
        for (int k = 1; k <= n; k++)
            CB[n][k] = CB[n - 1][k - 1] + (k < n ? CB[n - 1][k] : 0);
    }
}

static uint32_t to_dark(Bitboard b)
{
    return (uint32_t)((b & 0xF) | (b >> 1 & 0xFF0) | (b >> 2 & 0xFF000) | (b >> 3 & 0xFF00000)
                      | (b >> 4 & 0xF0000000));
}

static Bitboard to_padded(uint32_t d)
{
    Bitboard b = d;
    return (b & 0xF) | (b & 0xFF0) << 1 | (b & 0xFF000) << 2 | (b & 0xFF00000) << 3
           | (b & 0xF0000000) << 4;
}

static uint64_t rank_set(uint32_t chosen, uint32_t free)
{
    uint64_t r = 0;
    for (int i = 1; chosen; i++) {
        uint32_t low = chosen & -chosen;
        r += CB[__builtin_popcount(free & (low - 1))][i];
        chosen ^= low;
    }
    return r;
}

static uint32_t unrank_set(uint64_t r, int k, uint32_t free)
{
    uint32_t chosen = 0;
    for (int i = k; i >= 1; i--) {
        int c = i - 1;
        while (CB[c + 1][i] <= r)
            c++;
        r -= CB[c][i];
        uint32_t f = free;
        for (int skip = c; skip; skip--)
            f &= f - 1;
        chosen |= f & -f;
    }
    return chosen;
}

static uint64_t block(const Material *m, int j)
{
    return CB[4][j] * CB[24][m->wm - j] * CB[28 - (m->wm - j)][m->bm];
}

static uint64_t kings_w(const Material *m) { return CB[32 - m->wm - m->bm][m->wk]; }
static uint64_t kings_b(const Material *m) { return CB[32 - m->wm - m->bm - m->wk][m->bk]; }

uint64_t eg_half(const Material *m)
{
    uint64_t men = 0;
    for (int j = 0; j <= 4 && j <= m->wm; j++)
        men += block(m, j);
    return men * kings_w(m) * kings_b(m);
}

Material eg_material(const Pos *p)
{
    Material m = {popcount(p->white & ~p->kings), popcount(p->white & p->kings),
                  popcount(p->black & ~p->kings), popcount(p->black & p->kings)};
    return m;
}

int eg_covers(const Pos *p)
{
    uint32_t k = to_dark(p->kings);
    return !(to_dark(p->white) & ~k & RANK8) && !(to_dark(p->black) & ~k & RANK1);
}

uint64_t eg_index(const Material *m, const Pos *p)
{
    uint32_t w = to_dark(p->white), b = to_dark(p->black), k = to_dark(p->kings);
    uint32_t wmen = w & ~k, bmen = b & ~k, free = ~wmen & ~bmen;
    int j = __builtin_popcount(wmen & RANK1);
    uint64_t men = (rank_set(wmen & RANK1, RANK1) * CB[24][m->wm - j]
                    + rank_set(wmen & MIDDLE, MIDDLE)) * CB[28 - (m->wm - j)][m->bm]
                   + rank_set(bmen, BLACK_MEN & ~wmen);
    for (int i = 0; i < j; i++)
        men += block(m, i);
    uint64_t kb = kings_b(m);
    uint64_t kings = rank_set(w & k, free) * kb + rank_set(b & k, free & ~(w & k));
    return (uint64_t)p->side * eg_half(m) + men * kings_w(m) * kb + kings;
}

void eg_unrank(const Material *m, uint64_t index, Pos *p)
{
    uint64_t half = eg_half(m), kw = kings_w(m), kb = kings_b(m);
    p->side = index >= half;
    uint64_t r = index % half, men = r / (kw * kb), kings = r % (kw * kb);
    int j = 0;
    while (men >= block(m, j))
        men -= block(m, j++);
    uint64_t blacks = men % CB[28 - (m->wm - j)][m->bm], high_n = men / CB[28 - (m->wm - j)][m->bm];
    uint32_t wmen = unrank_set(high_n / CB[24][m->wm - j], j, RANK1)
                    | unrank_set(high_n % CB[24][m->wm - j], m->wm - j, MIDDLE);
    uint32_t bmen = unrank_set(blacks, m->bm, BLACK_MEN & ~wmen);
    uint32_t free = ~wmen & ~bmen;
    uint32_t wk = unrank_set(kings / kb, m->wk, free);
    uint32_t bk = unrank_set(kings % kb, m->bk, free & ~wk);
    p->white = to_padded(wmen | wk);
    p->black = to_padded(bmen | bk);
    p->kings = to_padded(wk | bk);
}


/* The value of the position a conversion leads to, for its side to move; -1: no table. */
static int converted(const Tables *t, const Pos *q, Material *missing)
{
    if (!(q->side ? q->black : q->white))
        return EG_LOSS; /* everything taken */
    Material c = eg_material(q);
    const uint8_t *v = t->values[c.wm][c.wk][c.bm][c.bk];
    if (!v) {
        *missing = c;
        return -1;
    }
    return packed(v, eg_index(&c, q));
}

/* -- generation -------------------------------------------------------------------------- */

typedef struct {
    const Material *m;
    const Tables *t;
    uint8_t *state, *left, *dist;
    MoveList *list;
    int longest;
} Solver;

/* Count position i's quiet moves and decide it when its conversions (or no moves) do. */
static int seed(Solver *s, uint64_t i, Material *missing)
{
    Pos p;
    eg_unrank(s->m, i, &p);
    gen_legal(&p, s->list);
    int quiet = 0, wins = 0, draws = 0;
    for (int k = 0; k < s->list->n; k++) {
        const Move *mv = &s->list->moves[k];
        if (!mv->captured && !mv->crowned) {
            quiet++;
            continue;
        }
        Pos q = play(&p, mv);
        int v = converted(s->t, &q, missing);
        if (v < 0)
            return EG_MISSING;
        wins |= v == EG_LOSS;
        draws |= v == EG_DRAW;
    }
    s->left[i] = (uint8_t)quiet;
    if (wins || (!quiet && !draws)) {
        s->state[i] = wins ? EG_WIN : EG_LOSS;
        s->dist[i] = s->list->n > 0; /* a conversion: 1 ply; no move at all: 0 */
    } else {
        s->state[i] = draws ? DRAWS : EG_UNKNOWN;
    }
    return EG_OK;
}

/* The positions whose side to move played a quiet move (no crowning) into p. */
static int unmoves(const Pos *p, Pos *out)
{
    int n = 0, o = !p->side;
    Bitboard own = o ? p->black : p->white, empty = BB_BOARD & ~(p->white | p->black);
    for (Bitboard b = own; b; b &= b - 1) {
        int sq = lsb(b), king = (p->kings >> sq) & 1;
        int from[NSQ], nf = 0;
        if (king) {
            for (int d = 0; d < 4; d++)
                for (int k = 0; k < RAY_LEN[sq][d] && (empty >> RAY[sq][d][k] & 1); k++)
                    from[nf++] = RAY[sq][d][k];
        } else {
            for (int step = 4; step <= 5; step++) {
                int t = o ? sq + step : sq - step; /* a man came from one step behind */
                if (t >= 0 && t < NSQ && (BB_BOARD & empty) >> t & 1)
                    from[nf++] = t;
            }
        }
        for (int k = 0; k < nf; k++) {
            Bitboard moved = (1ULL << sq) | (1ULL << from[k]);
            Pos q = *p;
            if (o)
                q.black ^= moved;
            else
                q.white ^= moved;
            if (king)
                q.kings ^= moved;
            q.side = o;
            if (!gives_capture(&q)) /* with a capture on, the quiet move was not legal */
                out[n++] = q;
        }
    }
    return n;
}

/* Pass on position i's value (decided at distance d) to its predecessors. */
static int propagate(Solver *s, uint64_t i, int d, Pos *before)
{
    Pos p;
    eg_unrank(s->m, i, &p);
    int n = unmoves(&p, before), lost = (s->state[i] & 3) == EG_LOSS;
    for (int k = 0; k < n; k++) {
        uint64_t q = eg_index(s->m, &before[k]);
        if (s->state[q] & 3)
            continue;
        if (lost || (--s->left[q] == 0 && !(s->state[q] & DRAWS))) {
            if (d + 1 > 255)
                return EG_TOO_LONG;
            s->state[q] = lost ? EG_WIN : EG_LOSS;
            s->dist[q] = (uint8_t)(d + 1);
            if (d + 1 > s->longest)
                s->longest = d + 1;
        }
    }
    return EG_OK;
}

static int solve_levels(Solver *s, uint64_t n)
{
    Pos *before = malloc(sizeof(Pos) * EG_MAX * 13); /* a king reaches at most 13 squares */
    if (!before)
        return EG_NOMEM;
    int rc = EG_OK;
    for (int d = 0; d <= s->longest && rc == EG_OK; d++)
        for (uint64_t i = 0; i < n && rc == EG_OK; i++)
            if ((s->state[i] & 3) && s->dist[i] == d)
                rc = propagate(s, i, d, before);
    free(before);
    return rc;
}

int eg_solve(const Material *m, const Tables *t, uint8_t *values, uint8_t *dist,
             Material *missing)
{
    uint64_t n = 2 * eg_half(m);
    Solver s = {m, t, calloc(n, 1), calloc(n, 1), dist, malloc(sizeof(MoveList)), 1};
    int rc = s.state && s.left && s.list ? EG_OK : EG_NOMEM;
    memset(dist, 0, n);
    for (uint64_t i = 0; i < n && rc == EG_OK; i++)
        rc = seed(&s, i, missing);
    if (rc == EG_OK)
        rc = solve_levels(&s, n);
    for (uint64_t i = 0; i < n && rc == EG_OK; i++) {
        int v = s.state[i] & 3 ? s.state[i] & 3 : EG_DRAW;
        values[i >> 2] |= (uint8_t)(v << ((i & 3) << 1));
    }
    free(s.state);
    free(s.left);
    free(s.list);
    return rc;
}

/* -- the consistency pass ---------------------------------------------------------------- */

/* Position p's value and distance as its successors give them: *d gets the distance. */
static int expected(const Material *m, const Tables *t, const uint8_t *values,
                    const uint8_t *dist, const Pos *p, MoveList *l, int *d, Material *missing)
{
    gen_legal(p, l);
    int win = 256, loss = 0, draw = 0;
    for (int k = 0; k < l->n; k++) {
        Pos q = play(p, &l->moves[k]);
        int v, dq = 0;
        if (l->moves[k].captured || l->moves[k].crowned) {
            if ((v = converted(t, &q, missing)) < 0)
                return -1;
        } else {
            uint64_t qi = eg_index(m, &q);
            v = packed(values, qi);
            dq = dist[qi];
        }
        if (v == EG_LOSS && dq + 1 < win)
            win = dq + 1;
        else if (v == EG_WIN && dq + 1 > loss)
            loss = dq + 1;
        draw |= v == EG_DRAW || v == EG_UNKNOWN;
    }
    *d = win < 256 ? win : draw ? 0 : loss;
    return win < 256 ? EG_WIN : draw ? EG_DRAW : EG_LOSS;
}

int64_t eg_verify(const Material *m, const Tables *t, const uint8_t *values, const uint8_t *dist,
                  int64_t *first, Material *missing)
{
    uint64_t n = 2 * eg_half(m);
    MoveList *l = malloc(sizeof(MoveList));
    if (!l)
        return EG_NOMEM;
    int64_t faults = 0;
    *first = -1;
    for (uint64_t i = 0; i < n; i++) {
        Pos p;
        int d;
        eg_unrank(m, i, &p);
        int v = expected(m, t, values, dist, &p, l, &d, missing);
        if (v < 0) {
            faults = EG_MISSING;
            break;
        }
        if (v != packed(values, i) || d != dist[i]) {
            if (!faults++)
                *first = (int64_t)i;
        }
    }
    free(l);
    return faults;
}
