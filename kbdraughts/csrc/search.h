/* The search below the root, ai/tree.py node for node (search.c): its state and constants.
 * The dependencies run one way: root.c (the root, root.h) -> search.c -> ordering.c (ordering.h)
 * -> table.c (table.h); search.c and root.c read clock.c (clock.h). */
#ifndef KBD_SEARCH_H
#define KBD_SEARCH_H

#include <stddef.h>
#include <string.h>
#include "core.h"
#include "egdb.h"
#include "ordering.h"
#include "regions.h"
#include "table.h"

#define WIN 100000.0
#define MATE_ZONE (WIN - 1000)
#define INF (WIN + 1)
#define TABLE_WIN 50000.0 /* values.py: a won ending by the tables, less its distance */
/* The constants of ai/tree.py, ai/search.py, ai/draw_rules.py and game.py: a test compares
 * each with its Python twin (module.c exports them as CONSTANTS). */
#define CHECK_MASK 63
#define MAX_QUIESCENCE 16
#define FUTILITY 60
#define LMR_FROM 3
#define LMR_DEPTH 3
#define LMR_LATER 6
#define EXT_MAX 1
#define WINDOW 35
#define CONTEMPT 15
#define CONTEMPT_FROM 20
#define KING_MOVES_ONLY_PLIES 30
#define LONE_KING_MOVES 15
#define RULE_PLIES 29
#define ENDING_PLIES_4_5 60
#define ENDING_PLIES_6_7 120
#define POLL_SECONDS 0.02

/* The endgame tables read at the nodes (egdb/leaves.py): packed values and distances by
 * material, NULL where absent; pieces = 0 reads none. The Python searcher owns the bytes. */
typedef struct {
    Tables values, dist;
    int pieces;
} Leaves;

typedef struct Search {
    const Evaluator *ev;
    Table tt;
    int reductions, extensions, forced_extension;
    Ordering ordering;
    uint64_t nodes;
    uint64_t leaf_count, leaf_plies; /* the positions the evaluation scored, and their plies */
    double mean_depth;      /* leaf_plies / leaf_count of the last whole iteration */
    double deadline;        /* monotonic seconds; inf without a budget */
    uint64_t node_limit;    /* stop once this many nodes are spent; 0: no limit */
    int halt;               /* set from another thread (atomically): stop at the next tick */
    int stopped;
    int (*poll)(void *);    /* called every few milliseconds; nonzero stops the search */
    void *poll_arg;
    double next_poll;
    Pos *path;              /* the game's positions that can recur, then the line's */
    int npath, path_cap;
    double draw[2];
    int bound;
    MoveList *lists;        /* one per ply */
    Move (*pv)[MAX_PLY];    /* the principal line found below each ply (triangular) */
    int pv_len[MAX_PLY];
    Move root_pv[MAX_PLY];  /* the last finished (or improved) root line */
    int root_pv_len;
    int (*order)[MAX_MOVES];
    uint16_t *views;        /* per ply, the regions' indices of its position (regions.h) */
    Leaves leaves;
} Search;

/* tree.py's _from_node: a score found ply plies below the root, as counted from its own
 * position (from_node(v, -ply) turns it back), as the table keeps it. Inline: the tree needs it
 * at every node. */
static inline double from_node(double score, int ply)
{
    if (score >= MATE_ZONE)
        return score + ply;
    if (score <= -MATE_ZONE)
        return score - ply;
    return score;
}

/* The regions' indices of the position at ply; its child's, stepped by the move m (the
 * search keeps them as it plays, regions.h). */
static inline uint16_t *views_at(const Search *s, int ply)
{
    return s->views + (size_t)ply * (size_t)s->ev->nviews;
}

static inline void step(Search *s, const Pos *pos, const Move *m, int ply)
{
    region_step(s->ev, views_at(s, ply), views_at(s, ply + 1), pos, m);
}

/* search.c: the tree */
double search_node(Search *s, const Pos *pos, int depth, double alpha, double beta, int ply,
                   int ko, int sb);

/* The principal line: m, then the line below it. Bookkeeping only: it changes nothing in the
 * tree (the Python search reads its line back from the table instead; a cut-off by the table
 * leaves a line short). Inline: the tree keeps it at each better move, and root.c too. */
static inline void pv_update(Search *s, int ply, const Move *m)
{
    s->pv[ply][0] = *m;
    int n = ply + 1 < MAX_PLY ? s->pv_len[ply + 1] : 0;
    if (n > MAX_PLY - 1)
        n = MAX_PLY - 1;
    memcpy(&s->pv[ply][1], s->pv[ply + 1], sizeof(Move) * (size_t)n);
    s->pv_len[ply] = n + 1;
}

#endif
