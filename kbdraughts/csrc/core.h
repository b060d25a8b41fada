/* The native core of kbdraughts: the same rules, evaluation and search as the pure-Python
 * modules (board.py, eval/evaluation.py, ai/tree.py, ai/search.py), which stay the reference.
 *
 * A square is a bit of the padded 36-bit board of kbdraughts/squares.py: bits 4, 13, 22 and 31
 * are ghosts, so each diagonal step is one shift (+4 up-left, +5 up-right, -4 down-right,
 * -5 down-left). Nothing here reads text or allocates in the hot loop; every input from Python
 * is checked first (convert.c). */
#ifndef KBD_CORE_H
#define KBD_CORE_H

#include <stdint.h>

typedef uint64_t Bitboard;

#define NSQ 36
#define BB_BOARD 0xF7FBFDFEFULL /* the 32 dark squares: every bit of 0..35 but 4, 13, 22, 31 */
#define MAX_SIDE 12            /* a side's pieces at most (fen.py's rule; to_pos refuses more) */
#define MAX_PATH 16            /* landings of one capture (at most MAX_SIDE pieces to take) */
#define MAX_MOVES 512          /* moves of one position, captures included, with room */
#define MAX_PLY 256            /* plies of a search's line: its stacks, the killers */

typedef struct {
    Bitboard white, black, kings;
    int side; /* 0 White, 1 Black to move */
} Pos;

typedef struct {
    Bitboard captured;
    uint8_t start, end, crowned, npath;
    uint8_t path[MAX_PATH];
} Move;

typedef struct {
    Move moves[MAX_MOVES];
    int n;
    int overflow; /* more moves than MAX_MOVES: the list is cut (never seen in a legal game) */
} MoveList;

/* geometry.c */
extern int RAY_LEN[NSQ][4];
extern uint8_t RAY[NSQ][4][8];
extern int SQ_FILE[NSQ], SQ_RANK[NSQ];
extern Bitboard BB_RANK[8];
extern Bitboard BB_CROWN[2];
extern int IS_SQUARE[NSQ];
void geometry_init(void);

static inline int lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline int msb(Bitboard b) { return 63 - __builtin_clzll(b); }
static inline int popcount(Bitboard b) { return __builtin_popcountll(b); }

/* movegen.c: the one move generator of the native side, in board.py's order exactly */
void gen_captures(const Pos *p, MoveList *out);
void gen_quiet(const Pos *p, MoveList *out);
void gen_legal(const Pos *p, MoveList *out);
int count_moves(const Pos *p);
uint64_t perft(const Pos *p, int depth, MoveList *lists);
Pos play(const Pos *p, const Move *m);
int men_capture(const Pos *p);
int gives_capture(const Pos *p);

/* referee.c: referee.py's resolve; lists holds plies + REFEREE_CAPTURES move lists: past the
 * plies each capture takes a piece, so MAX_SIDE pieces a side end the line in time */
#define REFEREE_CAPTURES (2 * MAX_SIDE + 1)
int resolve(const Pos *p, int us, int plies, MoveList *lists, int64_t *left);

/* eval.c: the position's features (eval/evaluation.py) and the weighted evaluation. Their
 * enums, counts and masks are generated from the schema (eval/features.py). */
#include "features.h"
void other_features(const Pos *p, int out[N_OTHERS]);
void men_sums(const Pos *p, int out[N_MEN_SUMS]);

/* Every weight is a whole number of hundredths (EVAL_SCALE: the files write at most two
 * decimals, eval/terms.py), so the evaluation is an exact integer sum: any order of the
 * additions gives the pure module's number, which sums the same integers, and a score is that
 * sum divided by EVAL_SCALE once. */
#define EVAL_SCALE 100
typedef struct {
    int32_t cnst, on_phase[N_PHASES]; /* the phases' weights: the same for both sides */
    int32_t white[4][512], black[4][512];
    int32_t weights[N_OTHERS];
} EvalRow;

/* A pattern term: per view (White's as written, Black's turned) and per square state (empty,
 * white man, white king, black man, black king), the squares where that state breaks it. */
typedef Bitboard PatternMasks[2][5];

/* A region of the shapes file: its squares per view and its table of 3**k weights. A view's
 * index (regions.region_index: ours 1, theirs 2 a square, in base 3) is linear in the pieces:
 * each piece on a square adds a number to each view, so the search keeps the indices of every
 * view as it plays a move (regions.h), two or three squares' numbers added, and the evaluation
 * only looks the weights up. The index counts kings as men; a view with a king on its squares
 * counts nothing (its `on` mask says so). */
#define MAX_REGIONS 256
#define MAX_VIEWS (2 * MAX_REGIONS) /* a region's views: indices 2 slot (White's), 2 slot + 1 */
#define VIEW_LANES 8                /* views added at once (regions.h): 16 bytes */
typedef struct {
    int k;
    int sq[2][8];
    int32_t *table;                         /* owned by the evaluator; NULL when narrow */
    int16_t *narrow; /* the table in 16 bits, when every region's fits (Evaluator.narrow) */
    Bitboard on[2];                         /* the view's squares: a king there, no index */
    int slot; /* its views' pair: regions on the same squares (a phase's table each) share it */
} EvalRegion;

typedef struct {
    int material_only;        /* 1: material alone (search:D, the rule check) */
    int nbits;                /* features a `when` names: 2**nbits rows */
    int bit_feature[MAX_EVAL_BITS]; /* each in OTHERS, then MEN_SUMS (N_OTHERS + i) */
    int men_bits;             /* a `when` names a men sum: they are computed too */
    EvalRow *rows;            /* owned by the caller */
    int npat;                 /* pattern terms */
    PatternMasks *patterns;   /* npat of them, owned by the caller */
    int32_t *pattern_weights; /* per row, npat weights (0 where a pattern does not apply) */
    int nreg;                 /* regions of the shapes file */
    EvalRegion *regions;
    int narrow;               /* the regions' tables in 16 bits: half the cache lines */
    unsigned char *region_on; /* per row, nreg flags: the region applies */
    int nviews;               /* 2 slots rounded up to VIEW_LANES: the indices' stride */
    uint16_t *piece;          /* [colour][square][nviews]: what a piece there adds */
} Evaluator;

/* The masks of eval/evaluation.py, handed over by Python at import (module.c): the geometry
 * of the features is written once, there; their layout (EvalMasks) is the schema's. */
extern EvalMasks MASKS;

double evaluate(const Evaluator *e, const Pos *p);
/* The views' indices of p (nviews of them), from its pieces; evaluate with them given. */
void region_indices(const Evaluator *e, const Pos *p, uint16_t *out);
double evaluate_indexed(const Evaluator *e, const Pos *p, const uint16_t *views);

#endif
