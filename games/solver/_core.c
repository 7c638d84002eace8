/* Canfield solver core (RULES R5-R21): exhaustive depth-first search with a transposition
 * table, for the `app`, `cardgames` and `classic` rule sets, draw 1 and 3.
 *
 * Python side: games/solver/__init__.py builds the position from a games.engine Game and
 * replays every winning line through the engine. Two entry points:
 *   solve(position, reduce, narrow, seconds, max_nodes, max_bytes) -> (status, actions, nodes)
 *     narrow: 0 the whole search; else a search for wins only, its lines legal lines (it
 *     proves nothing unwinnable): NARROW_TAILS a partial tail moves only to free a card that
 *     a foundation takes next, plus NARROW_TAKEBACKS no take-back (R10)
 *   successors(position) -> [(action, position), ...]   (every legal action but undo/resign)
 * position = (any_tail, foundation_to_tableau, empty_takes_any, auto_finish, draw, start_rank,
 *             found[4] by suit, reserve cards bottom..top, talon cards in draw order
 *             (waste bottom..top then stock next-drawn first), waste count, 4 columns)
 * action = (kind, src, dst, count): kind 0 move, 1 draw, 2 recycle; piles are the engine's
 * numbers (1 waste, 2 reserve, 3..6 tableau:1..4, 7..10 foundation by suit index).
 *
 * Reductions (reduce=1), each argued in docs/solver.md "Reductions, and why each loses no win":
 *   R1 column order is ignored in the transposition key (R14 refills whichever column empties);
 *   R2 of several empty columns only the first is tried as a target;
 *   R3 a whole column never moves into an empty one (same position up to column order);
 *   R4 draws and recycles are not searched: a move "from the waste" may take any card that
 *      draws/recycles can bring to the waste's top, and the key ignores the waste count inside
 *      the draw cycle;
 *   R5 a take-back (R10) of card c must be followed at once by a move that puts a card on c,
 *      or by another take-back (any winning line can be rewritten so);
 *   R6 without take-backs (classic): a reserve top or column end that a foundation takes, and
 *      on which no card can ever be placed again, goes up as the only move searched.
 * Statuses: 0 won, 1 unwinnable (search exhausted), 2 time, 3 nodes, 4 memory.
 *
 * Facts the code relies on: every column is a valid sequence (cards only ever go onto a card
 * they fit, R12, or into an empty column, R14/R15), so any tail of it may move (R13); and the
 * talon keeps its order (only waste moves take cards out of it), so the set of its cards
 * determines it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum { STOCK = 0, WASTE = 1, RESERVE = 2, T0 = 3, F0 = 7 };
enum { K_MOVE = 0, K_DRAW = 1, K_RECYCLE = 2 };
enum { S_WON = 0, S_UNWINNABLE = 1, S_TIME = 2, S_NODES = 3, S_MEMORY = 4 };
#define NONE 0xff

typedef struct {
    uint64_t h1[4], h2[4]; /* each column's Zobrist hash (128 bits), kept up to date */
    uint64_t tset;         /* the talon's cards, as a set (bit = card) */
    uint8_t col[4][52];
    uint8_t len[4];
    uint8_t talon[52]; /* draw order: waste bottom..top, then the stock, next drawn first */
    uint8_t tl, wp;    /* talon length; waste count (cards talon[0..wp-1]) */
    uint8_t rc;        /* reserve count: the reserve is rules->reserve[0..rc-1] */
    uint8_t found[4];  /* cards on each suit's foundation */
    uint8_t tb_col;    /* R5: the column a take-back just went to, or NONE */
} State;

typedef struct {
    uint8_t kind, src, dst, count, q; /* q: waste count before a waste move (R4) */
} Move;

typedef struct {
    int any_tail, f2t, empty_any, auto_finish, draw, start;
    uint8_t reserve[52];
    int reduce;
    int narrow; /* 0, or NARROW_TAILS and maybe NARROW_TAKEBACKS (see the top) */
} Rules;
enum { NARROW_TAILS = 1, NARROW_TAKEBACKS = 2 };

/* Tables filled once by init_tables(): rank (0 = A), colour, FITS[c][d] = c goes on d (R12,
 * K on A included), and the random numbers of the Zobrist column hashes. */
static uint8_t RANK[52], RED[52], FITS[52][52];
static uint64_t Z1[52][52], Z2[52][52]; /* [index in the column][card] */

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void init_tables(void) {
    for (int c = 0; c < 52; c++) {
        RANK[c] = (uint8_t)(c % 13);
        RED[c] = (uint8_t)((c / 13) % 2 == 0); /* suits H S D C: H and D red */
    }
    for (int c = 0; c < 52; c++)
        for (int d = 0; d < 52; d++)
            FITS[c][d] = RED[c] != RED[d] && (RANK[d] - RANK[c] + 13) % 13 == 1;
    uint64_t x = 12;
    for (int k = 0; k < 52; k++)
        for (int c = 0; c < 52; c++) {
            Z1[k][c] = splitmix(&x);
            Z2[k][c] = splitmix(&x);
        }
}

static inline int suit_of(int card) { return card / 13; }
static inline int found_next(const Rules *r, const State *s, int suit) {
    return s->found[suit] < 13 ? suit * 13 + (r->start + s->found[suit]) % 13 : -1;
}
static inline int found_top(const Rules *r, const State *s, int suit) {
    return s->found[suit] ? suit * 13 + (r->start + s->found[suit] - 1) % 13 : -1;
}
static inline int is_won(const State *s) {
    return s->found[0] == 13 && s->found[1] == 13 && s->found[2] == 13 && s->found[3] == 13;
}
static inline int last(const State *s, int i) { return s->col[i][s->len[i] - 1]; }

/* The waste count after one draw or recycle from waste count `wp`, or -1 if neither. */
static inline int step(const Rules *r, const State *s, int wp) {
    if (wp < s->tl) return wp + r->draw < s->tl ? wp + r->draw : s->tl;
    return s->tl ? 0 : -1;
}

/* -- applying ------------------------------------------------------------------------------ */

static inline void push(State *s, int i, int card) {
    int k = s->len[i]++;
    s->col[i][k] = (uint8_t)card;
    s->h1[i] ^= Z1[k][card];
    s->h2[i] ^= Z2[k][card];
}

static inline int pop(State *s, int i) {
    int k = --s->len[i], card = s->col[i][k];
    s->h1[i] ^= Z1[k][card];
    s->h2[i] ^= Z2[k][card];
    return card;
}

static void auto_finish(const Rules *r, State *s) {
    /* `cardgames`: once stock, waste and reserve are empty, play the columns up if they all go */
    uint8_t found[4], len[4];
    memcpy(found, s->found, 4);
    memcpy(len, s->len, 4);
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 4; i++)
            while (len[i]) {
                int card = s->col[i][len[i] - 1], suit = suit_of(card);
                if (found[suit] >= 13 || card != suit * 13 + (r->start + found[suit]) % 13) break;
                found[suit]++;
                len[i]--;
                progress = 1;
            }
    }
    if (len[0] || len[1] || len[2] || len[3]) return;
    for (int i = 0; i < 4; i++)
        while (s->len[i]) pop(s, i);
    memset(s->found, 13, 4);
}

/* What undo() needs besides the move: the waste count and R5 column before it, and whether
 * R14 refilled the column the move emptied. An auto-finish (`cardgames`) is never undone: it
 * changes the position only when it wins, and the search stops there. */
typedef struct {
    Move m;
    uint8_t wp, tb_col, refilled;
} Undo;

static void do_move(const Rules *r, State *s, const Move *m, Undo *u) {
    u->m = *m;
    u->wp = s->wp;
    u->tb_col = s->tb_col;
    u->refilled = 0;
    s->tb_col = NONE;
    if (m->kind == K_DRAW) {
        s->wp = (uint8_t)step(r, s, s->wp);
        return;
    }
    if (m->kind == K_RECYCLE) {
        s->wp = 0;
        return;
    }
    int n = m->count, dst = m->dst;
    if (m->src >= T0 && m->src < F0) {
        int i = m->src - T0;
        if (dst >= F0) {
            s->found[suit_of(pop(s, i))]++;
        } else { /* the n cards keep their order: copy them, then take them off */
            int j = dst - T0, from_k = s->len[i] - n;
            for (int k = 0; k < n; k++) push(s, j, s->col[i][from_k + k]);
            for (int k = 0; k < n; k++) pop(s, i);
        }
        if (!s->len[i] && s->rc) { /* R14 */
            push(s, i, r->reserve[--s->rc]);
            u->refilled = 1;
        }
    } else {
        int card;
        if (m->src == WASTE) { /* R4: the draws and recycles that bring it up are implied */
            int at = m->q - 1;
            card = s->talon[at];
            memmove(s->talon + at, s->talon + at + 1, (size_t)(s->tl - at - 1));
            s->tl--;
            s->wp = (uint8_t)at;
            s->tset &= ~(1ULL << card);
        } else if (m->src == RESERVE) {
            card = r->reserve[--s->rc];
        } else {
            card = found_top(r, s, m->src - F0);
            s->found[m->src - F0]--;
        }
        if (dst >= F0)
            s->found[suit_of(card)]++;
        else
            push(s, dst - T0, card);
    }
    if (r->auto_finish && !s->tl && !s->rc) auto_finish(r, s);
}

static void undo(const Rules *r, State *s, const Undo *u) {
    const Move *m = &u->m;
    int n = m->count, dst = m->dst;
    s->tb_col = u->tb_col;
    if (m->kind != K_MOVE) {
        s->wp = u->wp;
        return;
    }
    if (m->src >= T0 && m->src < F0) {
        int i = m->src - T0;
        if (u->refilled) {
            pop(s, i);
            s->rc++;
        }
        if (dst >= F0) {
            push(s, i, found_top(r, s, dst - F0));
            s->found[dst - F0]--;
        } else {
            int j = dst - T0, from_k = s->len[j] - n;
            for (int k = 0; k < n; k++) push(s, i, s->col[j][from_k + k]);
            for (int k = 0; k < n; k++) pop(s, j);
        }
    } else {
        int card;
        if (dst >= F0) {
            card = found_top(r, s, dst - F0);
            s->found[dst - F0]--;
        } else {
            card = pop(s, dst - T0);
        }
        if (m->src == WASTE) {
            int at = m->q - 1;
            memmove(s->talon + at + 1, s->talon + at, (size_t)(s->tl - at));
            s->talon[at] = (uint8_t)card;
            s->tl++;
            s->wp = u->wp;
            s->tset |= 1ULL << card;
        } else if (m->src == RESERVE) {
            s->rc++;
        } else {
            s->found[m->src - F0]++;
        }
    }
}

static void apply(const Rules *r, const State *from, const Move *m, State *s) {
    Undo u;
    *s = *from;
    do_move(r, s, m, &u);
}

/* -- generating ---------------------------------------------------------------------------- */

/* R6 (only without take-backs): nothing can ever be placed on `c` again, since both cards
 * that fit on it (one rank lower, the other colour) are on foundations, which they never leave. */
static int safe_up(const Rules *r, const State *s, int c) {
    int below = (c % 13 + 12) % 13, at = (below - r->start + 13) % 13;
    for (int suit = (suit_of(c) + 1) % 2; suit < 4; suit += 2)
        if (s->found[suit] <= at) return 0;
    return 1;
}

/* The column moves of one card (reserve, waste or foundation top) from `src`. */
static int to_columns(const Rules *r, const State *s, int src, int card, int q, Move *out) {
    int k = 0, first_empty_done = 0;
    for (int j = 0; j < 4; j++) {
        if (s->len[j]) {
            if (!FITS[card][last(s, j)]) continue;
        } else {
            if (s->rc) continue;                          /* R14 */
            if (!r->empty_any && src != WASTE) continue; /* classic R15 */
            if (r->reduce) {
                if (first_empty_done) continue; /* R2 */
                first_empty_done = 1;
            }
        }
        out[k++] = (Move){K_MOVE, (uint8_t)src, (uint8_t)(T0 + j), 1, (uint8_t)q};
    }
    return k;
}

/* The moves of tails of column i onto other columns. A column is a valid sequence (see the
 * top), so the head of its n-card tail has rank (last card's rank + n - 1) mod 13 and the
 * last card's colour when n is odd: onto a non-empty column only n = n0, n0 + 13, ... can fit,
 * and FITS settles the colour. */
static int tails(const Rules *r, const State *s, int i, Move *out) {
    int k = 0, len = s->len[i], t = last(s, i), first_empty_done = 0;
    const uint8_t *c = s->col[i];
    for (int j = 0; j < 4; j++) {
        if (j == i) continue;
        if (s->len[j]) {
            int e = last(s, j);
            int n0 = r->any_tail ? (RANK[e] - 1 - RANK[t] + 26) % 13 + 1 : len;
            for (int n = n0; n <= len; n += 13) {
                if (!FITS[c[len - n]][e]) continue;
                if ((r->narrow & NARROW_TAILS) && n < len &&
                    found_next(r, s, suit_of(c[len - n - 1])) != c[len - n - 1])
                    continue;
                out[k++] = (Move){K_MOVE, (uint8_t)(T0 + i), (uint8_t)(T0 + j), (uint8_t)n, 0};
            }
        } else if (!s->rc && r->empty_any) { /* R15; classic: only the waste's top goes there */
            if (r->reduce) {
                if (first_empty_done) continue; /* R2 */
                first_empty_done = 1;
            }
            int most = r->reduce ? len - 1 : len; /* R3 */
            for (int n = r->any_tail ? 1 : len; n <= most; n++) {
                if ((r->narrow & NARROW_TAILS) && n < len &&
                    found_next(r, s, suit_of(c[len - n - 1])) != c[len - n - 1])
                    continue;
                out[k++] = (Move){K_MOVE, (uint8_t)(T0 + i), (uint8_t)(T0 + j), (uint8_t)n, 0};
            }
        }
    }
    return k;
}

/* Every move from `s` (at most 4*3*4 + 4*51 + 5*4 + 52*5 + 4*4 fit in MAX_MOVES), in search
 * order: moves to a foundation, then from the reserve, the columns, the waste, the
 * foundations. */
#define MAX_MOVES 640
static int generate(const Rules *r, const State *s, Move *out) {
    int k = 0;
    uint8_t qs[53];
    int nq = 0;
    if (r->reduce) { /* R4: every waste count draws and recycles reach, in drawing order */
        uint64_t seen = 0;
        for (int wp = s->wp; wp >= 0 && !(seen >> wp & 1); wp = step(r, s, wp)) {
            seen |= 1ULL << wp;
            if (wp) qs[nq++] = (uint8_t)wp;
        }
    } else if (s->wp) {
        qs[nq++] = s->wp;
    }
    if (r->reduce && !r->f2t) { /* R6: a safe foundation move is the only one searched */
        for (int i = -1; i < 4; i++) {
            int c = i < 0 ? (s->rc ? r->reserve[s->rc - 1] : -1) : (s->len[i] ? last(s, i) : -1);
            if (c >= 0 && found_next(r, s, suit_of(c)) == c && safe_up(r, s, c)) {
                out[0] = (Move){K_MOVE, (uint8_t)(i < 0 ? RESERVE : T0 + i),
                                (uint8_t)(F0 + suit_of(c)), 1, 0};
                return 1;
            }
        }
    }
    /* to the foundations */
    if (s->rc) {
        int c = r->reserve[s->rc - 1];
        if (found_next(r, s, suit_of(c)) == c)
            out[k++] = (Move){K_MOVE, RESERVE, (uint8_t)(F0 + suit_of(c)), 1, 0};
    }
    for (int i = 0; i < 4; i++)
        if (s->len[i]) {
            int c = last(s, i);
            if (found_next(r, s, suit_of(c)) == c)
                out[k++] = (Move){K_MOVE, (uint8_t)(T0 + i), (uint8_t)(F0 + suit_of(c)), 1, 0};
        }
    for (int a = 0; a < nq; a++) {
        int c = s->talon[qs[a] - 1];
        if (found_next(r, s, suit_of(c)) == c)
            out[k++] = (Move){K_MOVE, WASTE, (uint8_t)(F0 + suit_of(c)), 1, qs[a]};
    }
    /* to the columns */
    if (s->rc) k += to_columns(r, s, RESERVE, r->reserve[s->rc - 1], 0, out + k);
    for (int i = 0; i < 4; i++)
        if (s->len[i]) k += tails(r, s, i, out + k);
    for (int a = 0; a < nq; a++) k += to_columns(r, s, WASTE, s->talon[qs[a] - 1], qs[a], out + k);
    if (r->f2t && !(r->narrow & NARROW_TAKEBACKS))
        for (int suit = 0; suit < 4; suit++)
            if (s->found[suit]) k += to_columns(r, s, F0 + suit, found_top(r, s, suit), 0, out + k);
    if (!r->reduce) {
        if (s->wp < s->tl)
            out[k++] = (Move){K_DRAW, STOCK, WASTE, 0, 0};
        else if (s->tl)
            out[k++] = (Move){K_RECYCLE, WASTE, STOCK, 0, 0};
    } else if (s->tb_col != NONE && !(r->auto_finish && !s->tl && !s->rc)) {
        /* R5: only a move onto the card taken back, or another take-back. (In `cardgames`
           with stock, waste and reserve empty, any move may auto-finish: all are kept.) */
        int kept = 0;
        for (int a = 0; a < k; a++)
            if (out[a].dst == T0 + s->tb_col || out[a].src >= F0) out[kept++] = out[a];
        k = kept;
    }
    return k;
}

/* -- transposition table ------------------------------------------------------------------- */

typedef struct {
    uint64_t a, b;
} Key;

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A 104-bit fingerprint of the position: a, and the top 40 bits of b (bit 24 of b is always
 * 1, so b != 0 marks a used slot; the table keeps a depth in its low 24 bits). The columns
 * enter through a sum of a mix of each column's hash, which does not depend on their order
 * (R1); without reductions each column's number is mixed in too. The talon is its set of cards
 * (see the top); R4: the waste count is 0 anywhere on the draw cycle (draw 1: everywhere; draw
 * 3: 0, 3, 6, ... and the whole talon). After a take-back (R5) the card taken back is part of
 * the key: only some moves are searched there. */
#define DEPTH_BITS 24
#define DEPTH_MASK ((1ULL << DEPTH_BITS) - 1)
static Key key_of(const Rules *r, const State *s) {
    uint64_t A = 0, B = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t h1 = s->h1[i], h2 = s->h2[i];
        if (!r->reduce) h1 += 0x2545F4914F6CDD1DULL * (uint64_t)(i + 1);
        A += mix(h1 ^ mix(h2));
        B += mix(h2 ^ mix(h1 + 0x5851F42D4C957F2DULL));
    }
    int wp = s->wp;
    if (r->reduce && (r->draw == 1 || wp % r->draw == 0 || wp == s->tl)) wp = 0;
    uint64_t small = (uint64_t)s->found[0] | (uint64_t)s->found[1] << 4 |
                     (uint64_t)s->found[2] << 8 | (uint64_t)s->found[3] << 12 |
                     (uint64_t)s->rc << 16 | (uint64_t)wp << 20 |
                     (uint64_t)(s->tb_col == NONE ? 0 : last(s, s->tb_col) + 1) << 28;
    uint64_t b = mix(B + mix(s->tset + 0x14057B7EF767814FULL) + mix(small ^ 0xDA942042E4DD58B5ULL));
    Key k = {mix(A ^ mix(s->tset ^ mix(small))), (b & ~DEPTH_MASK) | 1ULL << DEPTH_BITS};
    return k;
}

static inline int same(Key x, Key y) { return x.a == y.a && (x.b ^ y.b) >> DEPTH_BITS == 0; }

/* The positions searched or being searched, each with the depth of the path it was stored at:
 * open addressing with linear probing, a power-of-two number of slots. It grows (a new array,
 * the entries moved, the old one freed) at 3/4 full while the old and new arrays and the path
 * fit in the memory allowed; past that it fills up to 7/8, and then a new entry takes the
 * place of one in its probe run that is not on the path (docs/solver.md: dropping entries
 * never gives a wrong verdict, it only costs searching a position again; a position on the
 * path must stay, else the search could go round a cycle). */
typedef struct {
    Key *slots;
    size_t cap, used;
    uint64_t dropped;
} Table;

static Key *slots_new(size_t cap) {
    size_t bytes = cap * sizeof(Key);
    if (bytes < (4 << 20)) return calloc(cap, sizeof(Key));
    void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(map, bytes, MADV_HUGEPAGE); /* read all over: on huge pages, fewer TLB misses */
#endif
    return map;
}

static void slots_free(Key *slots, size_t cap) {
    if (cap * sizeof(Key) < (4 << 20))
        free(slots);
    else if (slots)
        munmap(slots, cap * sizeof(Key));
}

static inline int table_has(const Table *t, Key k) {
    size_t m = t->cap - 1;
    for (size_t h = k.a & m; t->slots[h].b; h = (h + 1) & m)
        if (same(t->slots[h], k)) return 1;
    return 0;
}

/* Whether entry `e` is a position on the path (`path[d]`: the first word of the key at depth
 * d; `depth` deep now). A depth too large to be kept counts as on the path. */
static inline int on_path(Key e, const uint64_t *path, size_t step, size_t depth) {
    uint64_t d = e.b & DEPTH_MASK;
    return d == DEPTH_MASK ||
           (d <= depth && *(const uint64_t *)((const char *)path + d * step) == e.a);
}

/* Stores `k` (not in the table) at the end of the path, `depth` deep (`path`, `step`: see
 * on_path). `other`: the bytes of memory used besides the table. 0, or -1 if the memory is
 * used up (every entry of the probe run is on the path). */
static int table_put(Table *t, Key k, size_t max_bytes, size_t other, const uint64_t *path,
                     size_t step, size_t depth) {
    uint64_t d = depth < DEPTH_MASK ? depth : DEPTH_MASK;
    k.b = (k.b & ~DEPTH_MASK) | d;
    if ((t->used + 1) * 4 > t->cap * 3 && 3 * t->cap * sizeof(Key) + other <= max_bytes) {
        size_t cap = t->cap * 2;
        Key *slots = slots_new(cap);
        if (slots) {
            for (size_t i = 0; i < t->cap; i++)
                if (t->slots[i].b) {
                    size_t h = t->slots[i].a & (cap - 1);
                    while (slots[h].b) h = (h + 1) & (cap - 1);
                    slots[h] = t->slots[i];
                }
            slots_free(t->slots, t->cap);
            t->slots = slots;
            t->cap = cap;
        }
    }
    size_t m = t->cap - 1, h = k.a & m, victim = SIZE_MAX;
    while (t->slots[h].b) h = (h + 1) & m;
    if ((t->used + 1) * 8 > t->cap * 7) {
        uint64_t worth = 0; /* first an entry deeper than the path (searched in full), the deepest */
        for (size_t i = k.a & m; i != h; i = (i + 1) & m) {
            Key e = t->slots[i];
            uint64_t at = e.b & DEPTH_MASK, v = ((uint64_t)(at > depth) << DEPTH_BITS | at) + 1;
            if (v > worth && !on_path(e, path, step, depth)) {
                worth = v;
                victim = i;
            }
        }
    }
    if (victim != SIZE_MAX) {
        t->slots[victim] = k;
        t->dropped++;
        return 0;
    }
    if (t->used + 2 > t->cap) return -1;
    t->slots[h] = k; /* the empty slot that ends the run */
    t->used++;
    return 0;
}

/* -- search -------------------------------------------------------------------------------- */

/* The path is kept as frames of 24 bytes (no positions): the move searched from there, what
 * undoes it, and where the node's moves are. One position is changed and changed back in
 * place. The moves of the nodes nearest the end of the path are kept in a pool of bounded
 * size; those of the nodes above (depth < `kept`) are generated again when the search comes
 * back to them (the position is the same, and so are its moves). */
typedef struct {
    uint64_t key;         /* the first word of this node's key (as stored: see table_put) */
    int32_t first;        /* this node's moves in the pool, when depth >= kept */
    uint16_t count, next; /* its moves, and the next one to search */
    Undo u;               /* the move being searched from here */
} Frame;

typedef struct {
    int status;
    uint64_t nodes;
    Move *line; /* when won: line[0..depth-1] wins from the root */
    int depth;
} Result;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define POOL_MOVES (1 << 18) /* at least 2 * MAX_MOVES */

static void search(const Rules *r, const State *root, double seconds, uint64_t max_nodes,
                   size_t max_bytes, Result *res) {
    size_t frames_cap = 1024, pool_bytes = POOL_MOVES * sizeof(Move);
    Table t = {slots_new(1 << 12), 1 << 12, 0, 0};
    Frame *frames = malloc(frames_cap * sizeof(Frame));
    Move *pool = malloc(pool_bytes);
    double deadline = now() + seconds;
    State s = *root;
    s.tb_col = NONE;
    res->nodes = 0;
    res->line = NULL;
    res->depth = 0;
    res->status = S_MEMORY;
    /* The memory: the table, the frames and the pool. */
#define PATH_BYTES (pool_bytes + frames_cap * sizeof(Frame))
    if (!t.slots || !frames || !pool || t.cap * sizeof(Key) + PATH_BYTES > max_bytes) goto done;
    if (is_won(&s)) {
        res->status = S_WON;
        goto done;
    }
    int depth = 0, used = 0, kept = 0;
    Key k0 = key_of(r, &s);
    frames[0].key = k0.a;
    table_put(&t, k0, max_bytes, PATH_BYTES, &frames[0].key, sizeof(Frame), 0);
    frames[0].first = 0;
    frames[0].count = (uint16_t)generate(r, &s, pool);
    frames[0].next = 0;
    used = frames[0].count;
    for (;;) {
        Frame *f = &frames[depth];
        if (f->next == f->count) {
            if (depth == 0) {
                res->status = S_UNWINNABLE;
                break;
            }
            used = f->first;
            depth--;
            undo(r, &s, &frames[depth].u);
            if (depth < kept) { /* its moves again, at the start of the pool (now empty) */
                kept = depth;
                frames[depth].first = 0;
                used = generate(r, &s, pool);
            }
            continue;
        }
        Move m = pool[f->first + f->next++];
        if (++res->nodes % 1024 == 0 && now() > deadline) {
            res->status = S_TIME;
            break;
        }
        if (max_nodes && res->nodes > max_nodes) {
            res->status = S_NODES;
            break;
        }
        do_move(r, &s, &m, &f->u);
        if (is_won(&s)) {
            res->status = S_WON;
            res->depth = depth + 1;
            break;
        }
        /* Seen: searched already, or on the path. After a take-back only some moves are
           searched (R5): a position searched in full covers it; else it is stored with the
           card taken back in its key. */
        int takeback = r->reduce && m.src >= F0;
        Key k = key_of(r, &s);
        int seen = table_has(&t, k);
        if (takeback && !seen) {
            s.tb_col = (uint8_t)(m.dst - T0);
            k = key_of(r, &s);
            seen = table_has(&t, k);
        }
        if (seen) {
            undo(r, &s, &f->u);
            continue;
        }
        if ((size_t)depth + 2 > frames_cap) {
            size_t cap = frames_cap * 2;
            Frame *nf = t.cap * sizeof(Key) + pool_bytes + cap * sizeof(Frame) <= max_bytes
                            ? realloc(frames, cap * sizeof(Frame))
                            : NULL;
            if (!nf) {
                res->status = S_MEMORY;
                break;
            }
            frames = nf;
            frames_cap = cap;
        }
        if ((size_t)used + MAX_MOVES > POOL_MOVES) { /* keep the moves of the last nodes only */
            int from = depth;
            while (from > kept && used - frames[from - 1].first <= POOL_MOVES / 2) from--;
            int shift = frames[from].first;
            memmove(pool, pool + shift, (size_t)(used - shift) * sizeof(Move));
            for (int d = from; d <= depth; d++) frames[d].first -= shift;
            used -= shift;
            kept = from;
        }
        frames[depth + 1].key = k.a;
        if (table_put(&t, k, max_bytes, PATH_BYTES, &frames[0].key, sizeof(Frame),
                      (size_t)depth + 1) < 0) {
            res->status = S_MEMORY;
            break;
        }
        depth++;
        f = &frames[depth];
        f->first = used;
        f->count = (uint16_t)generate(r, &s, pool + used);
        f->next = 0;
        used += f->count;
    }
    if (res->status == S_WON && res->depth) {
        res->line = malloc((size_t)res->depth * sizeof(Move));
        if (res->line)
            for (int d = 0; d < res->depth; d++) res->line[d] = frames[d].u.m;
        else
            res->status = S_MEMORY;
    }
#undef PATH_BYTES
done:
    slots_free(t.slots, t.cap);
    free(pool);
    free(frames);
}

/* -- shortening a line --------------------------------------------------------------------- */

static Key plain_key(const Rules *r, const State *s) {
    State plain = *s;
    plain.tb_col = NONE;
    return key_of(r, &plain);
}

/* Depth-first lines wander. From each position of the line, take the move that reaches the
 * latest position of the line (up to column order and the draw cycle): the result is a line
 * of positions in the same order, each reached from the one before. Writes the new line over
 * res->line; leaves it as it is if memory runs short. */
static void shorten(const Rules *r, const State *root, Result *res) {
    int n = res->depth; /* positions 0..n-1 before line[0..n-1], then the won one */
    size_t cap = 1;
    while (cap < 2 * (size_t)(n + 1)) cap <<= 1;
    Key *keys = calloc(cap, sizeof(Key));
    int *at = malloc(cap * sizeof(int));
    Move *moves = malloc(MAX_MOVES * sizeof(Move));
    Move *line = malloc((size_t)(n + 1) * sizeof(Move));
    if (!keys || !at || !moves || !line) goto done;
    State cur = *root, next;
    for (int i = 0; i < n; i++) {
        Key k = plain_key(r, &cur);
        size_t h = k.a & (cap - 1);
        while (keys[h].b && !(keys[h].a == k.a && keys[h].b == k.b)) h = (h + 1) & (cap - 1);
        keys[h] = k;
        at[h] = i; /* positions on a line are distinct: the latest index is this one */
        apply(r, &cur, &res->line[i], &next);
        cur = next;
    }
    cur = *root;
    int i = 0, d = 0;
    while (i < n) {
        cur.tb_col = NONE;
        int count = generate(r, &cur, moves), best = -1, best_j = i;
        for (int k = 0; k < count && best_j < n; k++) {
            apply(r, &cur, &moves[k], &next);
            if (is_won(&next)) {
                best = k;
                best_j = n;
                break;
            }
            Key key = plain_key(r, &next);
            size_t h = key.a & (cap - 1);
            while (keys[h].b && !(keys[h].a == key.a && keys[h].b == key.b)) h = (h + 1) & (cap - 1);
            if (keys[h].b && at[h] > best_j) {
                best = k;
                best_j = at[h];
            }
        }
        if (best < 0) goto done; /* cannot happen: the line's own move goes one further */
        line[d++] = moves[best];
        apply(r, &cur, &moves[best], &next);
        cur = next;
        i = best_j;
    }
    free(res->line);
    res->line = line;
    res->depth = d;
    line = NULL;
done:
    free(keys);
    free(at);
    free(moves);
    free(line);
}

/* -- Python -------------------------------------------------------------------------------- */

static int card_list(PyObject *seq, uint8_t *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v > 51) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is not a card", what, v);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* Reads a position tuple (see the top of this file); checks it holds the 52 cards once. */
static int parse_position(PyObject *pos, Rules *r, State *s) {
    PyObject *found, *reserve, *talon, *tableau;
    int wp;
    memset(r, 0, sizeof *r);
    memset(s, 0, sizeof *s);
    if (!PyArg_ParseTuple(pos, "ppppiiOOOiO", &r->any_tail, &r->f2t, &r->empty_any,
                          &r->auto_finish, &r->draw, &r->start, &found, &reserve, &talon, &wp,
                          &tableau))
        return -1;
    if ((r->draw != 1 && r->draw != 3) || r->start < 0 || r->start > 12) {
        PyErr_SetString(PyExc_ValueError, "draw must be 1 or 3 and start rank 0..12");
        return -1;
    }
    uint8_t counts[4];
    if (card_list(found, counts, 4, "found") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "found: four counts");
        return -1;
    }
    int n;
    if ((n = card_list(reserve, r->reserve, 52, "reserve")) < 0) return -1;
    s->rc = (uint8_t)n;
    if ((n = card_list(talon, s->talon, 52, "talon")) < 0) return -1;
    s->tl = (uint8_t)n;
    if (wp < 0 || wp > s->tl) {
        PyErr_SetString(PyExc_ValueError, "waste count out of range");
        return -1;
    }
    s->wp = (uint8_t)wp;
    PyObject *cols = PySequence_Fast(tableau, "tableau");
    if (!cols) return -1;
    if (PySequence_Fast_GET_SIZE(cols) != 4) {
        Py_DECREF(cols);
        PyErr_SetString(PyExc_ValueError, "tableau: four columns");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        if ((n = card_list(PySequence_Fast_GET_ITEM(cols, i), s->col[i], 52, "column")) < 0) {
            Py_DECREF(cols);
            return -1;
        }
        s->len[i] = (uint8_t)n;
    }
    Py_DECREF(cols);
    uint64_t seen = 0;
    int total = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (counts[suit] > 13) {
            PyErr_SetString(PyExc_ValueError, "found: counts are 0..13");
            return -1;
        }
        s->found[suit] = counts[suit];
        for (int k = 0; k < counts[suit]; k++) seen |= 1ULL << (suit * 13 + (r->start + k) % 13);
        total += counts[suit];
    }
    const uint8_t *piles[6] = {r->reserve, s->talon, s->col[0], s->col[1], s->col[2], s->col[3]};
    int lens[6] = {s->rc, s->tl, s->len[0], s->len[1], s->len[2], s->len[3]};
    for (int p = 0; p < 6; p++)
        for (int k = 0; k < lens[p]; k++) {
            seen |= 1ULL << piles[p][k];
            total++;
        }
    if (total != 52 || seen != (1ULL << 52) - 1) {
        PyErr_SetString(PyExc_ValueError, "the position must hold each of the 52 cards once");
        return -1;
    }
    for (int i = 0; i < 4; i++) { /* the generator relies on it (see the top) */
        uint8_t cards[52];
        int n = s->len[i];
        memcpy(cards, s->col[i], (size_t)n);
        s->len[i] = 0;
        for (int k = 0; k < n; k++) {
            if (k && !FITS[cards[k]][cards[k - 1]]) {
                PyErr_SetString(PyExc_ValueError, "a column must be a valid sequence (R12)");
                return -1;
            }
            push(s, i, cards[k]);
        }
    }
    for (int k = 0; k < s->tl; k++) s->tset |= 1ULL << s->talon[k];
    s->tb_col = NONE;
    return 0;
}

static PyObject *position_of(const Rules *r, const State *s) {
    PyObject *found = Py_BuildValue("(iiii)", s->found[0], s->found[1], s->found[2], s->found[3]);
    PyObject *reserve = PyTuple_New(s->rc), *talon = PyTuple_New(s->tl), *cols = PyTuple_New(4);
    for (int k = 0; k < s->rc; k++) PyTuple_SET_ITEM(reserve, k, PyLong_FromLong(r->reserve[k]));
    for (int k = 0; k < s->tl; k++) PyTuple_SET_ITEM(talon, k, PyLong_FromLong(s->talon[k]));
    for (int i = 0; i < 4; i++) {
        PyObject *col = PyTuple_New(s->len[i]);
        for (int k = 0; k < s->len[i]; k++) PyTuple_SET_ITEM(col, k, PyLong_FromLong(s->col[i][k]));
        PyTuple_SET_ITEM(cols, i, col);
    }
    return Py_BuildValue("(iiiiiiNNNiN)", r->any_tail, r->f2t, r->empty_any, r->auto_finish,
                         r->draw, r->start, found, reserve, talon, s->wp, cols);
}

static PyObject *action_of(const Move *m) {
    return Py_BuildValue("(iiii)", m->kind, m->src, m->dst, m->count);
}

static PyObject *core_successors(PyObject *self, PyObject *args) {
    PyObject *pos;
    Rules r;
    State s, child;
    if (!PyArg_ParseTuple(args, "O", &pos) || parse_position(pos, &r, &s) < 0) return NULL;
    Move moves[MAX_MOVES];
    s.tb_col = NONE;
    int n = generate(&r, &s, moves);
    PyObject *out = PyList_New(n);
    for (int k = 0; k < n; k++) {
        apply(&r, &s, &moves[k], &child);
        PyList_SET_ITEM(out, k, Py_BuildValue("(NN)", action_of(&moves[k]), position_of(&r, &child)));
    }
    return out;
}

static PyObject *core_solve(PyObject *self, PyObject *args) {
    PyObject *pos;
    Rules r;
    State s;
    int reduce, narrow;
    double seconds;
    unsigned long long max_nodes, max_bytes;
    if (!PyArg_ParseTuple(args, "OpidKK", &pos, &reduce, &narrow, &seconds, &max_nodes,
                          &max_bytes) ||
        parse_position(pos, &r, &s) < 0)
        return NULL;
    if (narrow < 0 || narrow > (NARROW_TAILS | NARROW_TAKEBACKS)) {
        PyErr_SetString(PyExc_ValueError, "narrow must be 0..3");
        return NULL;
    }
    r.reduce = reduce;
    r.narrow = narrow;
    Result res;
    Py_BEGIN_ALLOW_THREADS
    search(&r, &s, seconds, max_nodes, (size_t)max_bytes, &res);
    if (res.status == S_WON && res.depth) shorten(&r, &s, &res);
    Py_END_ALLOW_THREADS
    PyObject *line = PyList_New(0);
    State at = s, next;
    for (int d = 0; d < res.depth; d++) {
        const Move *m = &res.line[d];
        if (r.reduce && m->kind == K_MOVE && m->src == WASTE) /* R4: the draws it stands for */
            for (int wp = at.wp; wp != m->q; wp = step(&r, &at, wp)) {
                Move d_or_r = {wp < at.tl ? K_DRAW : K_RECYCLE, wp < at.tl ? STOCK : WASTE,
                               wp < at.tl ? WASTE : STOCK, 0, 0};
                PyObject *a = action_of(&d_or_r);
                PyList_Append(line, a);
                Py_DECREF(a);
            }
        PyObject *a = action_of(m);
        PyList_Append(line, a);
        Py_DECREF(a);
        apply(&r, &at, m, &next);
        at = next;
    }
    free(res.line);
    return Py_BuildValue("(iNK)", res.status, line, (unsigned long long)res.nodes);
}

static PyMethodDef methods[] = {
    {"solve", core_solve, METH_VARARGS,
     "solve(position, reduce, narrow, seconds, max_nodes, max_bytes) -> (status, actions, nodes)"},
    {"successors", core_successors, METH_VARARGS,
     "successors(position) -> [(action, position)] without reductions (for tests)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "games.solver._core",
                                    "Canfield solver core", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    init_tables();
    return PyModule_Create(&module);
}
