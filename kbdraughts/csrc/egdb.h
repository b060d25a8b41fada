/* Endgame tables (kbdraughts/egdb/): the index of kbdraughts/egdb/index.py, generation by
 * retrograde analysis, and the consistency pass. Values are those of egdb/store.py. */
#ifndef KBD_EGDB_H
#define KBD_EGDB_H

#include "core.h"

#define EG_MAX 5 /* the most pieces a table holds (index.py's MAX_PIECES) */

enum { EG_UNKNOWN, EG_WIN, EG_LOSS, EG_DRAW };
enum { EG_OK = 0, EG_NOMEM = -1, EG_MISSING = -2, EG_TOO_LONG = -3 };

typedef struct {
    int wm, wk, bm, bk;
} Material;

/* The packed values (2 bits a position) of the tables a conversion leads to; NULL where not
 * given. Owned by the caller, read only. */
typedef struct {
    const uint8_t *values[EG_MAX + 1][EG_MAX + 1][EG_MAX + 1][EG_MAX + 1];
} Tables;

/* The value of position i in a table's packed values (2 bits a position, store.py's order). */
static inline int packed(const uint8_t *values, uint64_t i)
{
    return values[i >> 2] >> ((i & 3) << 1) & 3;
}

void eg_init(void);
uint64_t eg_half(const Material *m);
Material eg_material(const Pos *p);
int eg_covers(const Pos *p); /* no man on the rank where it would have been crowned */
uint64_t eg_index(const Material *m, const Pos *p);
void eg_unrank(const Material *m, uint64_t index, Pos *p);

/* Fill values (packed, (n + 3) / 4 bytes, zeroed) and dist (n bytes) for the 2 * eg_half(m)
 * positions of m. EG_MISSING sets *missing to the table a conversion needed. */
int eg_solve(const Material *m, const Tables *t, uint8_t *values, uint8_t *dist,
             Material *missing);

/* How many positions' value or distance does not follow from their successors'; *first is the
 * first such index (or -1). Negative: an EG_ error, as eg_solve. */
int64_t eg_verify(const Material *m, const Tables *t, const uint8_t *values, const uint8_t *dist,
                  int64_t *first, Material *missing);

#endif
