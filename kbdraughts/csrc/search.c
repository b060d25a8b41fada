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

/* The clock, the node budget and the halt flag, every CHECK_MASK + 1 nodes; nonzero when the
 * search stops. The budget is read where the clock is, so a search by nodes stops at the same
 * node whatever the machine's load (tree.py's _tick). */
static int tick(Search *s)
{
    s->nodes++;
    if (s->nodes & CHECK_MASK)
        return 0;
    double t = now_seconds();
    if (t > s->deadline || (s->node_limit && s->nodes >= s->node_limit)
        || __atomic_load_n(&s->halt, __ATOMIC_RELAXED))
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
    return evaluate_indexed(s->ev, pos, views_at(s, ply));
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
    step(s, pos, m, ply);
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

/* The i-th move's score at depth d: a leaf without kings or a capture pending scored inline
 * (its score does not depend on the window: no null window, no second search, no call), the
 * first move in the whole window, a later one by later(). */
static double child_score(Search *s, const Pos *child, int i, int d, int depth, double alpha,
                          double beta, int ply, int ck, int cs, int reducible, int gives)
{
    if (d <= 0 && !child->kings && !(gives >= 0 ? gives : men_capture(child))) {
        double v = -leaf(s, child, ply + 1);
        return tick(s) ? 0 : v;
    }
    if (i == 0)
        return -negamax(s, child, d, -beta, -alpha, ply + 1, ck, cs);
    return later(s, child, i, d, depth, alpha, beta, ply, ck, cs, reducible, gives);
}

/* How deep a node's moves go (tree.py's _moves): a ply less, or none for a forced move (the
 * extensions on) and for a man's step to the rank before the crown; whether late quiet moves
 * may be reduced. */
typedef struct {
    int quiet, new_depth, reduce;
    Bitboard pre_crown;
} Plan;

static Plan plan(const Search *s, const Pos *pos, const MoveList *l, int depth, int ply)
{
    Plan p;
    p.quiet = !l->moves[0].captured;
    int extend = s->extensions && depth > 0 && ply + depth < s->bound;
    p.new_depth = extend && s->forced_extension && l->n == 1 ? depth : depth - 1;
    p.reduce = p.quiet && s->reductions && depth >= LMR_DEPTH;
    p.pre_crown = p.quiet && extend ? BB_RANK[pos->side ? 1 : 6] : 0;
    return p;
}

/* tree.py's _moves: the moves in order, each searched or pruned; the best score and move. */
static double moves_loop(Search *s, const Pos *pos, const MoveList *l, const Entry *tt,
                         int depth, double alpha, double beta, int ply, int ko, int sb,
                         int has_futile, double futile, const Move **best_move)
{
    Bitboard kings = pos->kings;
    Plan p = plan(s, pos, l, depth, ply);
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
        int d = p.pre_crown >> m->end & 1 && !(kings >> m->start & 1) ? depth : p.new_depth;
        s->pv_len[ply + 1] = 0;
        step(s, pos, m, ply);
        double v = child_score(s, &child, i, d, depth, alpha, beta, ply, ck, cs,
                               p.reduce && !m->crowned, gives);
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            *best_move = m;
            if (v > alpha) {
                alpha = v;
                pv_update(s, ply, m);
                if (alpha >= beta) {
                    if (p.quiet)
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

/* A node settled before its moves: 1 and its score when it recurs or a draw rule ends it (only
 * a position with kings can), or the endgame tables know it. */
static int settled(const Search *s, const Pos *pos, int ko, int sb, double *v)
{
    if (pos->kings && (in_path(s, pos)
                       || ((ko >= RULE_PLIES || sb >= RULE_PLIES) && rule_draw(pos, ko, sb)))) {
        *v = s->draw[pos->side];
        return 1;
    }
    return s->leaves.pieces && popcount(pos->white | pos->black) <= s->leaves.pieces
           && leaf_score(s, pos, ko, sb, v);
}

/* Past the horizon (depth <= 0) only captures are searched, generated into l here: 1 and the
 * leaf's score when there is none, or when the line is MAX_QUIESCENCE plies past it. */
static int quiescent_leaf(Search *s, const Pos *pos, MoveList *l, int depth, int ply, double *v)
{
    l->n = 0;
    if (pos->kings || men_capture(pos)) {
        if (depth > -MAX_QUIESCENCE) /* the slots fetched while the captures are made */
            table_prefetch(&s->tt, pos);
        gen_captures(pos, l);
    }
    if (!l->n || depth <= -MAX_QUIESCENCE) {
        *v = leaf(s, pos, ply);
        return 1;
    }
    return 0;
}

/* The table's entry settles the node: its bound, deep enough, cuts the window, or its move,
 * searched before any move is generated (tree.py's _table_move), reaches beta. 1 and the
 * score then (0 when the search stopped). */
static int table_cut(Search *s, const Pos *pos, const Entry *tt, int depth, double alpha,
                     double beta, int ply, int ko, int sb, double *v)
{
    if (tt->depth >= depth) {
        double t = tt->score;
        if (t >= MATE_ZONE || t <= -MATE_ZONE)
            t = from_node(t, -ply);
        if (tt->flag == EXACT || (tt->flag == LOWER ? t >= beta : t <= alpha)) {
            *v = t;
            return 1;
        }
    }
    if (depth >= 2 && tt->has_move) {
        Move m = {tt->mcap, tt->mstart, tt->mend, tt->mcrowned, 0, {0}};
        double t = table_move(s, pos, &m, depth, alpha, beta, ply, ko, sb);
        if (s->stopped || t >= beta) {
            *v = s->stopped ? 0 : t;
            return 1;
        }
    }
    return 0;
}

/* Futility at the frontier: one ply from the horizon, a quiet node whose evaluation and the
 * margin cannot reach alpha; 1 and that bound, taken as the score of each quiet move that
 * crowns nothing and gives no capture (tree.py's ``futile``). */
static int futility(const Search *s, const Pos *pos, const MoveList *l, int depth, int ply,
                    double alpha, double *futile)
{
    if (depth == 1 && s->reductions && !l->moves[0].captured) {
        double st = evaluate_indexed(s->ev, pos, views_at(s, ply));
        if (st + FUTILITY <= alpha) {
            *futile = st + FUTILITY;
            return 1;
        }
    }
    return 0;
}

static double negamax(Search *s, const Pos *pos, int depth, double alpha, double beta, int ply,
                      int ko, int sb)
{
    s->pv_len[ply] = 0;
    if (depth > 0)
        table_prefetch(&s->tt, pos);
    if (tick(s))
        return 0;
    double v;
    if (settled(s, pos, ko, sb, &v))
        return v;
    if (ply >= MAX_PLY - 1)
        return leaf(s, pos, ply); /* beyond any line tree.py reaches */
    MoveList *l = &s->lists[ply];
    if (depth <= 0 && quiescent_leaf(s, pos, l, depth, ply, &v))
        return v;
    Entry tt_copy; /* a copy: the table may move under the search below */
    const Entry *tt = table_probe(&s->tt, pos, &tt_copy) ? &tt_copy : NULL;
    if (tt && table_cut(s, pos, tt, depth, alpha, beta, ply, ko, sb, &v))
        return v;
    if (tt && !tt->has_move)
        tt = NULL;
    if (depth > 0) { /* past the horizon, quiescent_leaf generated the captures */
        gen_captures(pos, l);
        if (!l->n)
            gen_quiet(pos, l);
    }
    if (!l->n)
        return -WIN + ply; /* no move: lost; sooner is worse */
    double futile = 0;
    int has_futile = futility(s, pos, l, depth, ply, alpha, &futile);
    const Move *bm;
    double best;
    if (pos->kings) {
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
    if (s->ev->nviews) /* the root's children are few: their indices from their pieces */
        region_indices(s->ev, pos, views_at(s, ply));
    return negamax(s, pos, depth, alpha, beta, ply, ko, sb);
}
