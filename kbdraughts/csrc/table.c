/* The transposition table of ai/tree.py (table.h): two halves that age as tree.py's two dicts
 * do (a full one becomes the old one, still read), each an open-addressed map keyed by the
 * whole position, and their memory. It knows nothing of the search above it. */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#include "table.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

static uint64_t mix(uint64_t h)
{
    h ^= h >> 31;
    h *= 0x7fb5d329728ea185ULL;
    h ^= h >> 27;
    h *= 0x81dadef4bc2dd44dULL;
    return h ^ (h >> 33);
}

#define LOW28 ((1ULL << 28) - 1)
#define KEY_B ((1ULL << 46) - 1) /* b's bits that belong to the key, with used */
#define USED (1ULL << 45)

/* The key's two words as a slot holds them, used bit set. */
static void key_of(const Pos *p, uint64_t *a, uint64_t *b)
{
    *a = p->white | (p->kings & LOW28) << 36;
    *b = p->black | (p->kings >> 28) << 36 | (uint64_t)p->side << 44 | USED;
}

static inline size_t home(const TableHalf *t, uint64_t a, uint64_t b)
{
    return (size_t)mix(a * 0x9E3779B97F4A7C15ULL ^ mix(b + 0x632BE59BD9B4E019ULL)) & t->mask;
}

static Slot *slot(const TableHalf *t, uint64_t a, uint64_t b)
{
    size_t i = home(t, a, b);
    for (;;) {
        Slot *e = &t->slots[i];
        if (!(e->b & USED) || (e->a == a && (e->b & KEY_B) == b))
            return e;
        i = (i + 1) & t->mask;
    }
}

static void unpack(const Slot *e, Entry *out)
{
    out->score = e->score;
    out->flag = (int)(e->b >> 46 & 3);
    out->has_move = (int)(e->b >> 48 & 1);
    out->mcrowned = (int)(e->b >> 49 & 1);
    out->mcap = e->c & ((1ULL << 36) - 1);
    out->depth = (int16_t)(uint16_t)(e->c >> 36);
    out->mstart = (int)(e->c >> 52 & 63);
    out->mend = (int)(e->c >> 58 & 63);
}

/* A position's slots asked of memory ahead of table_probe, in both halves at once: nearly
 * every probe misses the caches (a third of the search's time went to waiting for the first
 * slot), and the node's own work before the probe, and the other half's miss, overlap it. */
void table_prefetch(const Table *t, const Pos *p)
{
    uint64_t a, b;
    key_of(p, &a, &b);
    __builtin_prefetch(&t->cur.slots[home(&t->cur, a, b)]);
    if (t->old.count)
        __builtin_prefetch(&t->old.slots[home(&t->old, a, b)]);
}

int table_probe(const Table *t, const Pos *p, Entry *out)
{
    uint64_t a, b;
    key_of(p, &a, &b);
    const Slot *e = slot(&t->cur, a, b);
    if (!(e->b & USED)) {
        if (!t->old.count)
            return 0;
        e = slot(&t->old, a, b);
        if (!(e->b & USED))
            return 0;
    }
    unpack(e, out);
    return 1;
}

void table_store(Table *t, const Pos *p, int depth, double score, int flag, const Move *m)
{
    if (t->cur.count >= t->size) { /* the full half becomes the old one */
        TableHalf h = t->old;
        t->old = t->cur;
        t->cur = h;
        memset(t->cur.slots, 0, (t->cur.mask + 1) * sizeof(Slot));
        t->cur.count = 0;
    }
    uint64_t a, b;
    key_of(p, &a, &b);
    Slot *e = slot(&t->cur, a, b);
    if (!(e->b & USED)) {
        e->a = a;
        t->cur.count++;
    }
    e->b = b | (uint64_t)flag << 46 | (uint64_t)(m != NULL) << 48
         | (uint64_t)(m && m->crowned) << 49;
    e->c = (m ? m->captured | (uint64_t)m->start << 52 | (uint64_t)m->end << 58 : 0)
         | (uint64_t)(uint16_t)(int16_t)depth << 36;
    e->score = score;
}

/* Zeroed memory for a half of the table. On Linux, mapped and in 2 MB pages where the kernel
 * allows it: a table is probed at random, and in 4 kB pages its TLB misses and faults (two a
 * page: the zero page, then a copy on the first write) cost a third of the nodes a second
 * (bench/search.py, CPU time: 4.75 M nodes/s against 3.04 M). The pages are touched here, when
 * the searcher is made: faulted in by the search, a 2 MB page each of its first probes, they
 * stalled a fresh search on a loaded machine past a 100 ms budget. */
static void *slots_alloc(size_t bytes, int *mapped)
{
    *mapped = 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= ((size_t)2 << 20)) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            madvise(p, bytes, MADV_HUGEPAGE); /* advice only: 4 kB pages if refused */
            memset(p, 0, bytes);               /* zero already: this faults the pages in */
            *mapped = 1;
            return p;
        }
    }
#endif
    return calloc(bytes, 1);
}

static void half_free(TableHalf *h)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (h->mapped) {
        if (h->slots)
            munmap(h->slots, (h->mask + 1) * sizeof(Slot));
        h->slots = NULL;
        return;
    }
#endif
    free(h->slots);
    h->slots = NULL;
}

static int half_alloc(TableHalf *h, size_t size)
{
    size_t cap = 1024;
    while (cap < size + size / 2 + 1) /* at most two thirds full */
        cap <<= 1;
    h->slots = slots_alloc(cap * sizeof(Slot), &h->mapped);
    h->mask = cap - 1;
    h->count = 0;
    return h->slots != NULL;
}

void table_free(Table *t)
{
    half_free(&t->cur);
    half_free(&t->old);
}

int table_alloc(Table *t, size_t size)
{
    t->size = size;
    return half_alloc(&t->cur, size) && half_alloc(&t->old, size);
}
