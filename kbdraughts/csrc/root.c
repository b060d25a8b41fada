/* The root of ai/search.py in C (root.h): iterative deepening over the root's moves,
 * aspiration, contempt, the clock's deadline; and the searcher's memory, made and freed. The
 * tree below the root is search.c's, which never calls back up here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "root.h"

/* -- the root: ai/search.py ---------------------------------------------------------------- */

/* _root: the root's moves in ``idx`` order, PVS; on a stop, *partial says whether the best
 * so far beat alpha (the caller may play it). */
static double root(Search *s, const Pos *pos, const Move *moves, const int *idx, int n,
                   int depth, double alpha, double beta, int ko, int sb, int *best_i,
                   int *partial)
{
    double best = -INF, a = alpha;
    *best_i = idx[0];
    *partial = 0;
    for (int i = 0; i < n; i++) {
        const Move *m = &moves[idx[i]];
        Pos child = play(pos, m);
        s->pv_len[1] = 0;
        int ck = m->captured || !(pos->kings >> m->start & 1) ? 0 : ko + 1;
        int cs = m->captured || m->crowned ? 0 : sb + 1;
        double v;
        if (i == 0) {
            v = -search_node(s, &child, depth - 1, -beta, -a, 1, ck, cs);
        } else {
            v = -search_node(s, &child, depth - 1, -a - 1, -a, 1, ck, cs);
            if (!s->stopped && a < v && v < beta)
                v = -search_node(s, &child, depth - 1, -beta, -a, 1, ck, cs);
        }
        if (s->stopped) {
            *partial = best > alpha;
            return best;
        }
        if (v > best) {
            best = v;
            *best_i = idx[i];
            if (v > a) {
                a = v;
                pv_update(s, 0, m);
                s->root_pv_len = s->pv_len[0];
                memcpy(s->root_pv, s->pv[0], sizeof(Move) * (size_t)s->root_pv_len);
                if (a >= beta)
                    break;
            }
        }
    }
    if (alpha < best && best < beta) /* at ply 0 a score is its own node's: from_node is none */
        table_store(&s->tt, pos, depth, best, EXACT, &moves[*best_i]);
    return best;
}

static double aspirate(Search *s, const Pos *pos, const Move *moves, const int *idx, int n,
                       int depth, int has_guess, double guess, int ko, int sb, int *best_i,
                       int *partial)
{
    s->bound = depth + EXT_MAX;
    if (has_guess && fabs(guess) < MATE_ZONE) {
        double lo = guess - WINDOW, hi = guess + WINDOW;
        double v = root(s, pos, moves, idx, n, depth, lo, hi, ko, sb, best_i, partial);
        if (s->stopped || (lo < v && v < hi))
            return v;
    }
    return root(s, pos, moves, idx, n, depth, -INF, INF, ko, sb, best_i, partial);
}

/* Search.search's deepening from the root (whose moves come in root_order's order, the
 * game's recurring positions already in the path); the root's draw score from contempt. It
 * stops at the budget's deadline (seconds, < 0: none) or once ``nodes`` are spent (0: no
 * limit), the last iteration cut short at a tick. */
RootResult search_root(Search *s, const Pos *pos, const Move *moves, int n, int max_depth,
                       double budget, uint64_t nodes, int ko, int sb, int contempt)
{
    double start = now_seconds();
    s->deadline = budget >= 0 ? start + budget : INFINITY;
    s->node_limit = nodes;
    s->next_poll = start + POLL_SECONDS;
    s->nodes = 0;
    s->mean_depth = 0;
    s->stopped = 0;
    s->root_pv_len = 0;
    order_new_search(&s->ordering);
    RootResult best = {0, evaluate(s->ev, pos), 0, 1};
    int c = 0;
    if (contempt)
        c = best.score >= CONTEMPT_FROM ? -CONTEMPT : best.score <= -CONTEMPT_FROM ? CONTEMPT : 0;
    s->draw[pos->side] = c;
    s->draw[1 - pos->side] = -c;
    int *idx = malloc(sizeof(int) * (size_t)n);
    if (!idx) {
        best.complete = 0;
        return best;
    }
    for (int i = 0; i < n; i++)
        idx[i] = i;
    for (int depth = 1; depth <= max_depth; depth++) {
        int bi, partial;
        s->leaf_count = s->leaf_plies = 0;
        double v = aspirate(s, pos, moves, idx, n, depth, depth > 1, best.score, ko, sb, &bi,
                            &partial);
        if (s->stopped) {
            if (partial) {
                best.index = bi;
                best.score = v;
            }
            best.complete = 0;
            break;
        }
        best.index = bi;
        best.score = v;
        best.depth = depth;
        s->mean_depth = s->leaf_count ? (double)s->leaf_plies / (double)s->leaf_count : depth;
        int at = 0; /* the best move goes first for the next iteration */
        while (idx[at] != bi)
            at++;
        memmove(idx + 1, idx, sizeof(int) * (size_t)at);
        idx[0] = bi;
        if (fabs(v) >= MATE_ZONE)
            break;
        if (!(now_seconds() < s->deadline))
            break;
    }
    free(idx);
    return best;
}

/* -- the searcher's memory: searcher.c makes and frees it ---------------------------------- */

int search_alloc(Search *s, size_t tt_size, int path_cap)
{
    memset(s, 0, sizeof *s);
    s->path_cap = path_cap + MAX_PLY + 1;
    s->path = malloc(sizeof(Pos) * (size_t)s->path_cap);
    s->lists = malloc(sizeof(MoveList) * MAX_PLY);
    s->order = malloc(sizeof(int[MAX_MOVES]) * MAX_PLY);
    s->pv = malloc(sizeof(Move[MAX_PLY]) * MAX_PLY);
    s->views = malloc(sizeof(uint16_t[MAX_VIEWS]) * MAX_PLY); /* at the evaluator's stride */
    s->deadline = INFINITY;
    if (!s->path || !s->lists || !s->order || !s->pv || !s->views || !table_alloc(&s->tt, tt_size)) {
        search_free(s);
        return 0;
    }
    order_new_search(&s->ordering); /* no killers; the history, zero, stays zero */
    return 1;
}

void search_free(Search *s)
{
    free(s->path);
    free(s->lists);
    free(s->order);
    free(s->pv);
    free(s->views);
    s->pv = NULL;
    s->views = NULL;
    table_free(&s->tt);
    s->path = NULL;
    s->lists = NULL;
    s->order = NULL;
}
