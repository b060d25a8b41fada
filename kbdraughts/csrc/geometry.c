/* The board's geometry as tables, built once from files and ranks as squares.py builds it. */
#include "core.h"

int RAY_LEN[NSQ][4];
uint8_t RAY[NSQ][4][8];
int SQ_FILE[NSQ], SQ_RANK[NSQ];
int IS_SQUARE[NSQ];
Bitboard BB_RANK[8];
Bitboard BB_CROWN[2];

/* up-left, up-right, down-right, down-left: squares.py's _STEPS and DIRECTIONS */
static const int STEP_F[4] = {-1, 1, 1, -1}, STEP_R[4] = {1, 1, -1, -1};

static int square_at(int f, int r) { return (9 * r + f) / 2; }

void geometry_init(void)
{
    for (int r = 0; r < 8; r++) {
        BB_RANK[r] = 0;
        for (int f = 0; f < 8; f++) {
            if ((f + r) % 2)
                continue;
            int s = square_at(f, r);
            SQ_FILE[s] = f;
            SQ_RANK[s] = r;
            IS_SQUARE[s] = 1;
            BB_RANK[r] |= 1ULL << s;
        }
    }
    BB_CROWN[0] = BB_RANK[7];
    BB_CROWN[1] = BB_RANK[0];
    for (int s = 0; s < NSQ; s++) {
        if (!IS_SQUARE[s])
            continue;
        for (int d = 0; d < 4; d++) {
            int f = SQ_FILE[s], r = SQ_RANK[s], n = 0;
            for (;;) {
                f += STEP_F[d];
                r += STEP_R[d];
                if (f < 0 || f > 7 || r < 0 || r > 7)
                    break;
                RAY[s][d][n++] = (uint8_t)square_at(f, r);
            }
            RAY_LEN[s][d] = n;
        }
    }
}
