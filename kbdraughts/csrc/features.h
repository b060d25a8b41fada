/* Generated from kbdraughts/eval/features.py, the evaluation's schema: do not edit;
 * `python -m kbdraughts.eval.features --header` writes it, in the schema's order. */
#ifndef KBD_FEATURES_H
#define KBD_FEATURES_H

#define N_FEATURES 19

/* MEN_SUMS: sums over men of a value per square (man_values), ours less theirs */
enum {
    M_CENTRE_MEN, /* men on the sixteen central squares c3-f6 */
    M_BACK_MEN, /* men still on our back rank */
    M_MAN_RANKS, /* the tempo: the ranks our men stand on above our back rank */
    M_BACK_GUARD, /* the back-rank guard: men on c1 and e1 (Black: f8, d8) */
    M_GOLDEN, /* men on the golden squares c5 and f4 */
    M_MEN, /* men (their material is counted apart) */
    N_MEN_SUMS
};

/* OTHERS: computed by other_NAME(const Board *) in eval.c, White's less Black's */
enum {
    O_KINGS, /* kings (their material is counted apart) */
    O_ENDGAME, /* 8 pieces or fewer on the board */
    O_RUNAWAY, /* men sure to crown, the opponent without kings */
    O_BLOCKED_MEN, /* men held by the opponent: no step forward, an enemy ahead */
    O_OUTPOSTS, /* men on the 4th or 5th rank held from behind */
    O_KING_MOBILITY, /* the empty squares our kings reach in one move */
    O_MAIN_ROAD, /* a king on the main road a1-h8 when we have fewer pieces */
    O_FLANK_IMBALANCE, /* how uneven our men are between the flanks */
    O_OPENING, /* 20 pieces or more on the board */
    O_HANGING, /* men the opponent could take now */
    O_OPPOSITION, /* who has the opposition in an ending of men alone (1 or -1) */
    O_PASSED_MEN, /* men on our 4th rank or beyond with nothing in front of them */
    O_DOUBLE_CORNER, /* a king in a double corner when we have fewer pieces */
    N_OTHERS
};
#define KBD_OTHERS(X) \
    X(O_KINGS, kings) \
    X(O_ENDGAME, endgame) \
    X(O_RUNAWAY, runaway) \
    X(O_BLOCKED_MEN, blocked_men) \
    X(O_OUTPOSTS, outposts) \
    X(O_KING_MOBILITY, king_mobility) \
    X(O_MAIN_ROAD, main_road) \
    X(O_FLANK_IMBALANCE, flank_imbalance) \
    X(O_OPENING, opening) \
    X(O_HANGING, hanging) \
    X(O_OPPOSITION, opposition) \
    X(O_PASSED_MEN, passed_men) \
    X(O_DOUBLE_CORNER, double_corner)

/* The most features the `when`s may name for the native evaluator: 2**this rows */
#define MAX_EVAL_BITS 8

/* PHASES: the same for both sides, weighed apart (never turned for Black) */
#define N_PHASES 1
#define KBD_PHASES(X) \
    X(O_ENDGAME)

/* The masks eval/evaluation.py hands over by name (set_masks): SHAPE(name) */
#define KBD_MASKS(ONE, PAIR, PER_SQUARE, MAN_VALUES) \
    ONE(main_road) \
    ONE(outposts) \
    ONE(left) \
    ONE(off) \
    ONE(double_corner) \
    ONE(system) \
    PAIR(run_from) \
    PER_SQUARE(run_path) \
    PER_SQUARE(run_danger) \
    MAN_VALUES(man_values)
#define N_MASKS 10
typedef struct {
    Bitboard main_road; /* the long diagonal a1-h8 */
    Bitboard outposts; /* the 4th and 5th ranks */
    Bitboard left; /* files a-d, one flank */
    Bitboard off; /* the bits outside the board: an edge supports */
    Bitboard double_corner; /* a7, b8, g1, h2 */
    Bitboard system; /* White's system for the opposition: files a, c, e, g */
    Bitboard run_from[2]; /* the ranks a man may run from: its 4th to 7th */
    Bitboard run_path[2][NSQ]; /* a man's forward cone up to the crown */
    Bitboard run_danger[2][NSQ]; /* where an enemy piece could meet a running man */
    int man_values[2][NSQ][N_MEN_SUMS]; /* the values of MEN_SUMS one man there adds */
} EvalMasks;

#endif
