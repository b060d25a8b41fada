/* The move generator, board.py's exactly: the same moves in the same order (the search's
 * move ordering is stable, so equal trees need equal lists). A capture is one move per
 * distinct (start, end, taken set); taken pieces block until the move ends (Turkish strike);
 * a man crowned mid-capture goes on as a king when it can. */
#include "core.h"

static inline int has(Bitboard b, int s) { return (int)(b >> s & 1); }

/* Where the empty squares along ``ray`` end: the index of its first occupied square (n when
 * the first ``n`` are all empty). */
static inline int skip_empty(const uint8_t *ray, int n, Bitboard empty)
{
    int i = 0;
    while (i < n && has(empty, ray[i]))
        i++;
    return i;
}

/* Whether a king on sq can take something: board.py's _king_can_capture. */
static int king_can_capture(int sq, Bitboard opp, Bitboard empty)
{
    for (int d = 0; d < 4; d++) {
        int n = RAY_LEN[sq][d] - 1;
        if (n < 1)
            continue;
        const uint8_t *ray = RAY[sq][d];
        int i = skip_empty(ray, n, empty);
        if (i < n && has(opp, ray[i]) && has(empty, ray[i + 1]))
            return 1;
    }
    return 0;
}

typedef struct {
    MoveList *out;
    int first;      /* this piece's first move in out: duplicates are looked for from here */
    int start;
    uint8_t path[MAX_PATH];
} Walk;

static void add(Walk *w, int end, Bitboard taken, int npath, int crowned)
{
    MoveList *out = w->out;
    for (int k = w->first; k < out->n; k++)
        if (out->moves[k].end == end && out->moves[k].captured == taken)
            return; /* the same move by another path */
    if (out->n >= MAX_MOVES) {
        out->overflow = 1;
        return;
    }
    Move *m = &out->moves[out->n++];
    m->captured = taken;
    m->start = (uint8_t)w->start;
    m->end = (uint8_t)end;
    m->crowned = (uint8_t)crowned;
    m->npath = (uint8_t)npath;
    for (int k = 0; k < npath; k++)
        m->path[k] = w->path[k];
}

static void king_captures(Walk *w, int sq, Bitboard opp, Bitboard empty, Bitboard taken,
                          int npath, int crowned)
{
    if (npath >= MAX_PATH)
        return; /* cannot happen: a capture takes 12 pieces at most */
    for (int d = 0; d < 4; d++) {
        int n = RAY_LEN[sq][d];
        if (n < 2)
            continue;
        const uint8_t *ray = RAY[sq][d];
        int i = skip_empty(ray, n, empty);
        if (i >= n - 1 || !has(opp, ray[i]))
            continue;
        int over = ray[i];
        int first_landing = i + 1;
        int nland = skip_empty(ray + first_landing, n - first_landing, empty);
        if (!nland)
            continue;
        Bitboard opp2 = opp & ~(1ULL << over), taken2 = taken | 1ULL << over;
        int going_on = 0;
        for (int k = first_landing; k < first_landing + nland; k++)
            if (king_can_capture(ray[k], opp2, empty)) {
                going_on = 1;
                w->path[npath] = ray[k];
                king_captures(w, ray[k], opp2, empty, taken2, npath + 1, crowned);
            }
        if (!going_on)
            for (int k = first_landing; k < first_landing + nland; k++) {
                w->path[npath] = ray[k];
                add(w, ray[k], taken2, npath + 1, crowned);
            }
    }
}

/* Extends a man's capture from sq; whether it could take anything there. */
static int man_captures(Walk *w, int sq, Bitboard opp, Bitboard empty, Bitboard taken,
                        int npath, Bitboard crown)
{
    int found = 0;
    if (npath >= MAX_PATH)
        return 0;
    for (int d = 0; d < 4; d++) {
        if (RAY_LEN[sq][d] < 2)
            continue;
        int over = RAY[sq][d][0], land = RAY[sq][d][1];
        if (!has(opp, over) || !has(empty, land))
            continue;
        found = 1;
        Bitboard opp2 = opp & ~(1ULL << over), taken2 = taken | 1ULL << over;
        int crowned;
        w->path[npath] = (uint8_t)land;
        if (has(crown, land)) { /* crowned mid-capture: goes on as a king */
            if (king_can_capture(land, opp2, empty)) {
                king_captures(w, land, opp2, empty, taken2, npath + 1, 1);
                continue;
            }
            crowned = 1;
        } else if (man_captures(w, land, opp2, empty, taken2, npath + 1, crown)) {
            continue;
        } else {
            crowned = 0;
        }
        w->path[npath] = (uint8_t)land; /* the deeper walk wrote over it */
        add(w, land, taken2, npath + 1, crowned);
    }
    return found;
}

static Bitboard capturing_men(Bitboard men, Bitboard opp, Bitboard empty)
{
    return men & ((opp >> 4 & empty >> 8) | (opp >> 5 & empty >> 10)
                  | (opp << 4 & empty << 8) | (opp << 5 & empty << 10));
}

void gen_captures(const Pos *p, MoveList *out)
{
    Bitboard own = p->side ? p->black : p->white, opp = p->side ? p->white : p->black;
    Bitboard empty = BB_BOARD & ~(p->white | p->black);
    Bitboard capturers = capturing_men(own & ~p->kings, opp, empty);
    Bitboard own_kings = own & p->kings;
    Walk w;
    w.out = out;
    out->n = 0;
    out->overflow = 0;
    while (capturers) {
        Bitboard low = capturers & -capturers;
        capturers ^= low;
        w.start = lsb(low);
        w.first = out->n;
        man_captures(&w, w.start, opp, empty | low, 0, 0, BB_CROWN[p->side]);
    }
    while (own_kings) {
        Bitboard low = own_kings & -own_kings;
        own_kings ^= low;
        int s = lsb(low);
        if (king_can_capture(s, opp, empty | low)) {
            w.start = s;
            w.first = out->n;
            king_captures(&w, s, opp, empty | low, 0, 0, 0);
        }
    }
}

static void push_quiet(MoveList *out, int from, int to, int crowned)
{
    if (out->n >= MAX_MOVES) {
        out->overflow = 1;
        return;
    }
    Move *m = &out->moves[out->n++];
    m->captured = 0;
    m->start = (uint8_t)from;
    m->end = (uint8_t)to;
    m->crowned = (uint8_t)crowned;
    m->npath = 1;
    m->path[0] = (uint8_t)to;
}

void gen_quiet(const Pos *p, MoveList *out)
{
    Bitboard empty = BB_BOARD & ~(p->white | p->black);
    Bitboard own = p->side ? p->black : p->white, men = own & ~p->kings;
    Bitboard crown = BB_CROWN[p->side];
    out->n = 0;
    out->overflow = 0;
    for (int shift = 4; shift <= 5; shift++) {
        Bitboard targets = (p->side ? men >> shift : men << shift) & empty;
        int back = p->side ? shift : -shift;
        while (targets) {
            Bitboard low = targets & -targets;
            targets ^= low;
            int to = lsb(low);
            push_quiet(out, to + back, to, (crown & low) != 0);
        }
    }
    Bitboard kings = own & p->kings;
    while (kings) {
        int s = lsb(kings);
        kings &= kings - 1;
        for (int d = 0; d < 4; d++)
            for (int i = 0; i < RAY_LEN[s][d] && has(empty, RAY[s][d][i]); i++)
                push_quiet(out, s, RAY[s][d][i], 0);
    }
}

void gen_legal(const Pos *p, MoveList *out)
{
    gen_captures(p, out);
    if (!out->n)
        gen_quiet(p, out);
}

static int count_quiet(const Pos *p)
{
    Bitboard empty = BB_BOARD & ~(p->white | p->black);
    Bitboard own = p->side ? p->black : p->white, men = own & ~p->kings;
    int n = p->side ? popcount(men >> 4 & empty) + popcount(men >> 5 & empty)
                    : popcount(men << 4 & empty) + popcount(men << 5 & empty);
    Bitboard kings = own & p->kings;
    while (kings) {
        int s = lsb(kings);
        kings &= kings - 1;
        for (int d = 0; d < 4; d++)
            n += skip_empty(RAY[s][d], RAY_LEN[s][d], empty); /* the squares a king slides to */
    }
    return n;
}

int count_moves(const Pos *p)
{
    MoveList caps;
    gen_captures(p, &caps);
    return caps.n ? caps.n : count_quiet(p);
}

Pos play(const Pos *p, const Move *m)
{
    Bitboard sb = 1ULL << m->start, eb = 1ULL << m->end, cap = m->captured;
    Bitboard kings = p->kings & ~cap;
    if (kings & sb)
        kings = (kings & ~sb) | eb;
    else if (m->crowned)
        kings |= eb;
    Pos q;
    q.kings = kings;
    if (p->side) {
        q.white = p->white & ~cap;
        q.black = (p->black & ~sb) | eb;
        q.side = 0;
    } else {
        q.white = (p->white & ~sb) | eb;
        q.black = p->black & ~cap;
        q.side = 1;
    }
    return q;
}

static uint64_t perft_from(const Pos *p, int depth, MoveList *lists)
{
    if (depth == 1)
        return (uint64_t)count_moves(p);
    MoveList *list = &lists[depth];
    gen_legal(p, list);
    uint64_t total = 0;
    for (int i = 0; i < list->n; i++) {
        Pos q = play(p, &list->moves[i]);
        total += perft_from(&q, depth - 1, lists);
    }
    return total;
}

/* The leaves of the legal-move tree ``depth`` plies deep; ``lists`` holds depth + 1 move lists
 * (on the heap: a deep perft would not fit them on the stack). */
uint64_t perft(const Pos *p, int depth, MoveList *lists)
{
    return depth <= 0 ? 1 : perft_from(p, depth, lists);
}

int men_capture(const Pos *p)
{
    Bitboard own = p->side ? p->black : p->white, opp = p->side ? p->white : p->black;
    Bitboard empty = BB_BOARD & ~(p->white | p->black);
    return capturing_men(own & ~p->kings, opp, empty) != 0;
}

int gives_capture(const Pos *p)
{
    if (men_capture(p))
        return 1;
    Bitboard own = p->side ? p->black : p->white, opp = p->side ? p->white : p->black;
    Bitboard kings = own & p->kings, empty = BB_BOARD & ~(p->white | p->black);
    while (kings) {
        int s = lsb(kings);
        kings &= kings - 1;
        if (king_can_capture(s, opp, empty | 1ULL << s))
            return 1;
    }
    return 0;
}
