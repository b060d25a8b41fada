/* The root of ai/search.py (root.c): iterative deepening over the root's moves, and the
 * searcher's memory; searcher.c's door to the search. */
#ifndef KBD_ROOT_H
#define KBD_ROOT_H

#include "search.h"

typedef struct {
    int index;              /* of the best root move */
    double score;
    int depth, complete;
} RootResult;

int search_alloc(Search *s, size_t tt_size, int path_cap);
void search_free(Search *s);
RootResult search_root(Search *s, const Pos *pos, const Move *root, int nroot, int max_depth,
                       double budget, uint64_t nodes, int ko, int sb, int contempt);

#endif
