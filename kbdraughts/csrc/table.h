/* The transposition table of ai/tree.py (table.c): its own types and functions, below the
 * search that uses it. It stores and returns scores as given: the search turns a mate's
 * distance to and from its node (search.h's from_node). */
#ifndef KBD_TABLE_H
#define KBD_TABLE_H

#include <stddef.h>
#include "core.h"

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
} TableHalf;

/* The table: two halves that age as tree.py's two dicts do (a full one, at size entries,
 * becomes the old one, still read). */
typedef struct {
    TableHalf cur, old;
    size_t size;
} Table;

int table_alloc(Table *t, size_t size); /* 0: out of memory (table_free frees what was got) */
void table_free(Table *t);
void table_prefetch(const Table *t, const Pos *p);
int table_probe(const Table *t, const Pos *p, Entry *out);
void table_store(Table *t, const Pos *p, int depth, double score, int flag, const Move *m);

#endif
