/* The search: ai/tree.py and ai/search.py's root, node for node, in table.c, ordering.c,
 * search.c (the tree) and root.c. */
#ifndef KBD_SEARCH_H
#define KBD_SEARCH_H

#include <stddef.h>
#include <string.h>
#include "core.h"
#include "egdb.h"

#define MAX_PLY 256
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

enum { EXACT, LOWER, UPPER }; /* a stored score's bound */

/* What the table knows of a position, unpacked. */
typedef struct {
    Bitboard mcap;                /* the best move: what it takes */
    double score;
    int depth;
    int flag, has_move, mstart, mend, mcrowned;
} Entry;

/* A slot of the table, packed in 32 bytes so that two share a cache line (the table is
 * probed at random, and its misses were half the search's time): a 36-bit board each for
 * white and black, the kings' 36 bits split between them, then the side, the bound and the
 * move. */
typedef struct {
    uint64_t a;     /* white | kings' low 28 bits << 36 */
    uint64_t b;     /* black | kings' high 8 bits << 36 | side << 44 | used << 45 | flag << 46
                       | has_move << 48 | crowned << 49 */
    uint64_t c;     /* the move's captures | depth << 36 (16 bits) | start << 52 | end << 58 */
    double score;
} Slot;

/* One half of the table: an open-addressed map keyed by the whole position, as a dict is in
 * tree.py (nothing is lost to a collision: the same tree, node for node). */
typedef struct {
    Slot *slots;
    size_t mask, count;
    int mapped; /* by mmap (munmap frees it), else by calloc */
} Table;

typedef struct {
    Bitboard white, black, kings;
    int side;
} Key;

/* The endgame tables read at the nodes (egdb/leaves.py): packed values and distances by
 * material, NULL where absent; pieces = 0 reads none. The Python searcher owns the bytes. */
typedef struct {
    Tables values, dist;
    int pieces;
} Leaves;

typedef struct Search {
    const Evaluator *ev;
    Table cur, old;
    size_t tt_size;
    int reductions, extensions, forced_extension;
    int64_t history[64 * 64];
    int killers[MAX_PLY][2];
    uint64_t nodes;
    uint64_t leaf_count, leaf_plies; /* the positions the evaluation scored, and their plies */
    double mean_depth;      /* leaf_plies / leaf_count of the last whole iteration */
    double deadline;        /* monotonic seconds; inf without a budget */
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
    Leaves leaves;
} Search;

typedef struct {
    int index;              /* of the best root move */
    double score;
    int depth, complete;
} RootResult;

/* searcher.c's calls: root.c's, and search_new (ordering.c), table_probe (table.c) */
int search_alloc(Search *s, size_t tt_size, int path_cap);
void search_free(Search *s);
void search_new(Search *s);
double now_seconds(void);
RootResult search_root(Search *s, const Pos *pos, const Move *root, int nroot, int max_depth,
                       double budget, int ko, int sb, int contempt);

/* -- between the search's files ------------------------------------------------------------ */

/* table.c: the transposition table */
int table_alloc(Table *t, size_t tt_size);
void table_free(Table *t);
void table_prefetch(const Search *s, const Pos *p);
int table_probe(const Search *s, const Pos *p, Entry *out);
void table_store(Search *s, const Pos *p, int depth, double score, int flag, const Move *m,
                 int ply);

/* tree.py's _from_node: a score found ply plies below the root, as counted from its own
 * position (from_node(v, -ply) turns it back). Inline: both table.c and the tree need it at
 * every node. */
static inline double from_node(double score, int ply)
{
    if (score >= MATE_ZONE)
        return score + ply;
    if (score <= -MATE_ZONE)
        return score - ply;
    return score;
}

/* ordering.c: ai/ordering.py */
void order_moves(Search *s, const MoveList *l, const Entry *tt, int ply, int *out);

/* Ordering.cutoff: a quiet move refuted the opponent's last move at ply. Inline: the tree
 * calls it at every quiet cut-off. */
static inline void order_cutoff(Search *s, const Move *m, int depth, int ply)
{
    int i = m->start << 6 | m->end;
    s->history[i] += (int64_t)depth * depth;
    int *k = s->killers[ply];
    if (k[0] != i) {
        k[1] = k[0];
        k[0] = i;
    }
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
