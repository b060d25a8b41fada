/* The search below the root, ai/tree.py in C: negamax with PVS, late-move reductions,
 * futility at the frontier, exact capture quiescence, repetitions and the draw rules'
 * counters, the endgame tables at the nodes, the deadline and the halt flag at each tick. The
 * table is table.c, the killers and history ordering.c, the clock clock.c; the root and its
 * deepening (root.c) call this file, never the reverse. The comments of the Python modules say
 * why; this file follows them line for line, so that the two search the same tree. */
#include "clock.h"
#include "search.h"

/* -- the draw rules: ai/draw_rules.py -------------------------------------------------- */

static int rule_draw(const Pos *p, int ko, int sb)
{
    if (ko >= KING_MOVES_ONLY_PLIES)
        return 1;
    if (sb < RULE_PLIES)
        return 0;
    int wk = popcount(p->white & p->kings), bk = popcount(p->black & p->kings);
    int wm = popcount(p->white) - wk, bm = popcount(p->black) - bk;
    int strong = (bm == 0 && bk == 1 && wk >= 3) ? 0 : (wm == 0 && wk == 1 && bk >= 3) ? 1 : -1;
    if (strong >= 0) {
        int moves = strong == p->side ? sb / 2 : (sb + 1) / 2;
        if (moves >= LONE_KING_MOVES)
            return 1;
    }
    int n = wm + wk + bm + bk;
    int limit = (n == 4 || n == 5) ? ENDING_PLIES_4_5 : (n == 6 || n == 7) ? ENDING_PLIES_6_7 : 0;
    return limit && wk && bk && sb >= limit;
}

static int in_path(const Search *s, const Pos *p)
{
    for (int i = s->npath - 1; i >= 0; i--) {
        const Pos *q = &s->path[i];
        if (q->white == p->white && q->black == p->black && q->kings == p->kings
            && q->side == p->side)
            return 1;
    }
    return 0;
}

/* -- the tree: ai/tree.py ---------------------------------------------------------------- */

/* The clock and the halt flag, every CHECK_MASK + 1 nodes; nonzero when the search stops. */
static int tick(Search *s)
{
    s->nodes++;
    if (s->nodes & CHECK_MASK)
        return 0;
    double t = now_seconds();
    if (t > s->deadline || __atomic_load_n(&s->halt, __ATOMIC_RELAXED))
        s->stopped = 1;
    else if (s->poll && t >= s->next_poll) {
        s->next_poll = t + POLL_SECONDS;
        if (s->poll(s->poll_arg))
            s->stopped = 1;
    }
    return s->stopped;
}

/* The evaluation of a leaf at ``ply``, counted for the mean depth (Hub's ``mean-depth``). */
static inline double leaf(Search *s, const Pos *pos, int ply)
{
    s->leaf_count++;
    s->leaf_plies += (uint64_t)ply;
    return evaluate(s->ev, pos);
}

static double negamax(Search *s, const Pos *pos, int depth, double alpha, double beta, int ply,
                      int ko, int sb);

static void counters_after(const Pos *pos, const Move *m, int ko, int sb, int *ck, int *cs)
{
    *ck = m->captured || !(pos->kings >> m->start & 1) ? 0 : ko + 1;
    *cs = m->captured || m->crowned ? 0 : sb + 1;
}

static void path_push(Search *s, const Pos *p) { s->path[s->npath++] = *p; }

/* tree.py's _store: a won or lost score kept as counted from its own position, so that a later
 * search (from another root) reads its own distance. */
static void store(Search *s, const Pos *pos, int depth, double score, int flag, const Move *m,
                  int ply)
{
    table_store(&s->tt, pos, depth, from_node(score, ply), flag, m);
}

static double table_move(Search *s, const Pos *pos, const Move *m, int depth, double alpha,
                         double beta, int ply, int ko, int sb)
{
    int ck, cs;
    counters_after(pos, m, ko, sb, &ck, &cs);
    Pos child = play(pos, m);
    if (pos->kings)
        path_push(s, pos);
    double v = -negamax(s, &child, depth - 1, -beta, -alpha, ply + 1, ck, cs);
    if (pos->kings)
        s->npath--;
    if (s->stopped)
        return 0;
    if (v >= beta) {
        if (!m->captured)
            order_cutoff(&s->ordering, m, depth, ply);
        store(s, pos, depth, v, LOWER, m, ply);
    }
    return v;
}

/* The i-th move's score (i >= 1): tree.py's _later. */
static double later(Search *s, const Pos *child, int i, int d, int depth, double alpha,
                    double beta, int ply, int ck, int cs, int reducible, int gives)
{
    int r = 0;
    if (reducible && i >= LMR_FROM && d < depth) {
        if (gives < 0)
            gives = gives_capture(child);
        if (!gives)
            r = i >= LMR_LATER && d > 2 ? 2 : 1;
    }
    double v = -negamax(s, child, d - r, -alpha - 1, -alpha, ply + 1, ck, cs);
    if (s->stopped)
        return 0;
    if (r && v > alpha) {
        v = -negamax(s, child, d, -alpha - 1, -alpha, ply + 1, ck, cs);
        if (s->stopped)
            return 0;
    }
    if (alpha < v && v < beta)
        v = -negamax(s, child, d, -beta, -alpha, ply + 1, ck, cs);
    return v;
}

/* tree.py's _moves: the moves in order, each searched or pruned; the best score and move. */
static double moves_loop(Search *s, const Pos *pos, const MoveList *l, const Entry *tt,
                         int depth, double alpha, double beta, int ply, int ko, int sb,
                         int has_futile, double futile, const Move **best_move)
{
    Bitboard kings = pos->kings;
    int quiet = !l->moves[0].captured;
    int extend = s->extensions && depth > 0 && ply + depth < s->bound;
    int new_depth = extend && s->forced_extension && l->n == 1 ? depth : depth - 1;
    int reduce = quiet && s->reductions && depth >= LMR_DEPTH;
    Bitboard pre_crown = quiet && extend ? BB_RANK[pos->side ? 1 : 6] : 0;
    int *order = s->order[ply];
    double best = -INF;
    *best_move = NULL;
    if (l->n == 1)
        order[0] = 0;
    else
        order_moves(&s->ordering, l, tt, ply, order);
    for (int i = 0; i < l->n; i++) {
        const Move *m = &l->moves[order[i]];
        Pos child = play(pos, m);
        if (i + 1 < l->n) { /* the next child's slots fetched while this one is searched */
            Pos next = play(pos, &l->moves[order[i + 1]]);
            table_prefetch(&s->tt, &next);
        }
        int ck = 0, cs = 0;
        if (kings)
            counters_after(pos, m, ko, sb, &ck, &cs);
        int gives = -1; /* whether the child's side has a capture, once asked */
        if (has_futile && !m->crowned) {
            gives = gives_capture(&child);
            if (!gives) {
                if (futile > best)
                    best = futile;
                continue;
            }
        }
        int d = new_depth;
        if (pre_crown >> m->end & 1 && !(kings >> m->start & 1))
            d = depth;
        s->pv_len[ply + 1] = 0;
        double v;
        if (d <= 0 && !child.kings && !(gives >= 0 ? gives : men_capture(&child))) {
            v = -leaf(s, &child, ply + 1); /* a leaf without kings, scored inline */
            if (tick(s))
                return 0;
        } else if (i == 0) {
            v = -negamax(s, &child, d, -beta, -alpha, ply + 1, ck, cs);
        } else {
            v = later(s, &child, i, d, depth, alpha, beta, ply, ck, cs, reduce && !m->crowned,
                      gives);
        }
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            *best_move = m;
            if (v > alpha) {
                alpha = v;
                pv_update(s, ply, m);
                if (alpha >= beta) {
                    if (quiet)
                        order_cutoff(&s->ordering, m, depth, ply);
                    break;
                }
            }
        }
    }
    return best;
}

/* ai/endgame.py's table_outcome: the tables' value with the draw rules on top, +1 the side
 * to move wins, 0 a draw, -1 it loses; UNSURE when only the 15-move rule could bite and a
 * man's move may reset it. */
#define UNSURE 2
static int table_outcome(const Pos *pos, int ko, int sb, int value, int d)
{
    if (value == EG_DRAW || rule_draw(pos, ko, sb))
        return 0;
    int sign = value == EG_WIN ? 1 : -1;
    if (d == 0)
        return sign;
    Pos last = *pos; /* the last position before the conversion: the counters only grow */
    last.side ^= (d - 1) & 1;
    if (!rule_draw(&last, ko + d - 1, sb + d - 1))
        return sign;
    if (((pos->white | pos->black) & ~pos->kings) && !rule_draw(&last, 0, sb + d - 1))
        return UNSURE;
    return 0;
}

/* tree.py's read of the tables at a node: 1 and the score when they settle it. */
static int leaf_score(const Search *s, const Pos *pos, int ko, int sb, double *v)
{
    if (!pos->white || !pos->black || !eg_covers(pos))
        return 0;
    Material m = eg_material(pos); /* at most leaves.pieces (<= EG_MAX) pieces: in range */
    const uint8_t *values = s->leaves.values.values[m.wm][m.wk][m.bm][m.bk];
    if (!values)
        return 0;
    uint64_t i = eg_index(&m, pos);
    int d = s->leaves.dist.values[m.wm][m.wk][m.bm][m.bk][i];
    int outcome = table_outcome(pos, ko, sb, packed(values, i), d);
    if (outcome == UNSURE)
        return 0;
    *v = outcome ? outcome * (TABLE_WIN - d) : s->draw[pos->side];
    return 1;
}

static double negamax(Search *s, const Pos *pos, int depth, double alpha, double beta, int ply,
                      int ko, int sb)
{
    s->pv_len[ply] = 0;
    if (depth > 0)
        table_prefetch(&s->tt, pos);
    if (tick(s))
        return 0;
    Bitboard kings = pos->kings;
    if (kings && (in_path(s, pos)
                  || ((ko >= RULE_PLIES || sb >= RULE_PLIES) && rule_draw(pos, ko, sb))))
        return s->draw[pos->side];
    double known;
    if (s->leaves.pieces && popcount(pos->white | pos->black) <= s->leaves.pieces
        && leaf_score(s, pos, ko, sb, &known))
        return known;
    if (ply >= MAX_PLY - 1)
        return leaf(s, pos, ply); /* beyond any line tree.py reaches */
    MoveList *l = &s->lists[ply];
    int generated = 0;
    if (depth <= 0) {
        l->n = 0;
        if (kings || men_capture(pos))
            gen_captures(pos, l);
        if (!l->n)
            return leaf(s, pos, ply);
        if (depth <= -MAX_QUIESCENCE)
            return leaf(s, pos, ply);
        table_prefetch(&s->tt, pos);
        generated = 1;
    }
    Entry tt_copy; /* a copy: the table may move under the search below */
    const Entry *tt = table_probe(&s->tt, pos, &tt_copy) ? &tt_copy : NULL;
    if (tt) {
        if (tt->depth >= depth) {
            double v = tt->score;
            if (v >= MATE_ZONE || v <= -MATE_ZONE)
                v = from_node(v, -ply);
            if (tt->flag == EXACT || (tt->flag == LOWER ? v >= beta : v <= alpha))
                return v;
        }
        if (depth >= 2 && tt->has_move) {
            Move m = {tt->mcap, tt->mstart, tt->mend, tt->mcrowned, 0, {0}};
            double v = table_move(s, pos, &m, depth, alpha, beta, ply, ko, sb);
            if (s->stopped)
                return 0;
            if (v >= beta)
                return v;
        }
        if (!tt->has_move)
            tt = NULL;
    }
    if (!generated) {
        gen_captures(pos, l);
        if (!l->n)
            gen_quiet(pos, l);
    }
    if (!l->n)
        return -WIN + ply; /* no move: lost; sooner is worse */
    int has_futile = 0;
    double futile = 0;
    if (depth == 1 && s->reductions && !l->moves[0].captured) {
        double st = evaluate(s->ev, pos);
        if (st + FUTILITY <= alpha) {
            has_futile = 1;
            futile = st + FUTILITY;
        }
    }
    const Move *bm;
    double best;
    if (kings) {
        path_push(s, pos);
        best = moves_loop(s, pos, l, tt, depth, alpha, beta, ply, ko, sb, has_futile, futile,
                          &bm);
        s->npath--;
    } else {
        best = moves_loop(s, pos, l, tt, depth, alpha, beta, ply, 0, 0, has_futile, futile,
                          &bm);
    }
    if (s->stopped)
        return 0;
    int flag = best <= alpha ? UPPER : best >= beta ? LOWER : EXACT;
    store(s, pos, depth > 0 ? depth : 0, best, flag, bm, ply);
    return best;
}

/* The root's children (root.c): a door to negamax, which stays static so that its own
 * recursion is a direct call (a shared function's calls go through the PLT under -fPIC). */
double search_node(Search *s, const Pos *pos, int depth, double alpha, double beta, int ply,
                   int ko, int sb)
{
    return negamax(s, pos, depth, alpha, beta, ply, ko, sb);
}
