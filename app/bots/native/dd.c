/* The double-dummy solver of app/bots/solver.py, in C: the same search on the same bitmasks.
 *
 * Built by `make compiled` into _dd.so next to this file and loaded with ctypes by
 * app/bots/native/__init__.py; without it the pure solver runs. The rules are not written here:
 * Python passes them as tables (struct Rules) read from the engine: card strengths, points, the
 * cards beating each card, the trumps, each seat's side, who may play freely while whom is master,
 * and legality as a priority list of masks per (suit led, best card, free) probed from
 * app.rules.playable itself (the first mask the hand meets is its legal cards).
 *
 * What the pure module's docstring says of the search holds here line for line: alpha-beta over
 * single cards, a transposition table at trick starts holding bounds, MTD(f) null windows for each
 * root card, equivalent cards tried once or twice, the same move order, the last trick counted,
 * a count of nodes as the budget. One difference: the table here is a fixed array that a new
 * position may overwrite (the pure one is a dict that keeps everything); an entry is only a cache
 * of proven bounds, so values are the same, node counts may differ a little.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INF 30000
#define MAXP 6
#define LAST_TRICK 10

typedef struct {
    int32_t seats;
    int32_t teams[4];
    int32_t free_[4][4];          /* [turn][winner]: may turn play any card while winner is master */
    int32_t strength[32];
    int32_t points[32];
    uint32_t beaters[32];
    uint32_t ruffs;
    uint32_t trump_suits;         /* bit 8 * s set when suit s is trumps */
    int32_t order[2][8];          /* ranks weakest first: plain suit, trump suit */
    int32_t rpoints[2][8];        /* points by rank: plain suit, trump suit */
    uint32_t legal[4][32][2][MAXP]; /* led, best, free: masks in priority order, 0 ends */
} Rules;

typedef struct {
    uint64_t k[3];
} Key;

typedef struct {
    Key key;
    uint32_t gen, hgen;
    int16_t low, high;
    int8_t hint;
} Entry;

typedef struct {
    const Rules *r;
    Entry *tt;
    uint32_t mask;
    uint32_t gen, hgen;
    int64_t nodes, limit;
    int stop;
    int canonical, allow_canonical;
    uint8_t perm[2][256];  /* [trump][ranks]: the same ranks as bits in strength order */
    uint8_t seq[2][256];   /* [trump][ranks]: an id of the points of these ranks in strength order */
    uint8_t pext[256][256]; /* [live][held], both in strength order: held's bits among live's */
    int lead_key[32], cheap_win[32], weight[32], points_desc[32];
    uint8_t reps[2][256][256][9]; /* [trump][live][mine]: count, then ranks */
    uint8_t reps_done[2][256][256];
    int32_t order[2][8], rpoints[2][8];
    jmp_buf out;
} Ctx;

int dd_rules_size(void) { return (int)sizeof(Rules); }

void *dd_new(int log2_entries) {
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    c->mask = (1u << log2_entries) - 1;
    c->tt = calloc((size_t)c->mask + 1, sizeof(Entry));
    if (!c->tt) { free(c); return NULL; }
    c->gen = c->hgen = 1;
    c->allow_canonical = 1;
    return c;
}

/* Whether full-depth searches may key their table on the shape of the position (below). */
void dd_canonical(void *p, int on) { ((Ctx *)p)->allow_canonical = on; }

void dd_free(void *p) {
    Ctx *c = p;
    if (c) { free(c->tt); free(c); }
}

static const uint8_t *reps_of(Ctx *c, int trump, int live, int mine) {
    uint8_t *out = c->reps[trump][live][mine];
    if (c->reps_done[trump][live][mine]) return out;
    const int32_t *order = c->order[trump], *pts = c->rpoints[trump];
    int run[8], n = 0, k = 0;
    for (int i = 0; i <= 8; i++) {
        int rank = i < 8 ? order[i] : -1;
        if (rank >= 0 && !(live >> rank & 1)) continue;
        if (rank >= 0 && (mine >> rank & 1)) { run[n++] = rank; continue; }
        if (!n) continue;
        int lo = run[0], hi = run[n - 1];
        for (int j = 1; j < n; j++) if (pts[run[j]] < pts[lo]) lo = run[j];       /* first minimum */
        for (int j = n - 2; j >= 0; j--) if (pts[run[j]] > pts[hi]) hi = run[j];  /* last maximum */
        out[1 + k++] = (uint8_t)lo;
        if (hi != lo) out[1 + k++] = (uint8_t)hi;
        n = 0;
    }
    out[0] = (uint8_t)k;
    c->reps_done[trump][live][mine] = 1;
    return out;
}

/* The legal cards worth trying (equivalent cards once or twice), suits in ascending order. */
static int candidates(Ctx *c, uint32_t legal, uint32_t live, int *cards) {
    int n = 0;
    for (int s = 0; s < 4; s++) {
        int base = s * 8, mine = legal >> base & 0xFF;
        if (!mine) continue;
        const uint8_t *r = reps_of(c, c->r->trump_suits >> base & 1, live >> base & 0xFF, mine);
        for (int i = 0; i < r[0]; i++) cards[n++] = base + r[1 + i];
    }
    return n;
}

static void sort_by(int *cards, int n, const int *key) { /* stable insertion sort */
    for (int i = 1; i < n; i++) {
        int x = cards[i], j = i - 1;
        while (j >= 0 && key[cards[j]] > key[x]) { cards[j + 1] = cards[j]; j--; }
        cards[j + 1] = x;
    }
}

static uint32_t legal_of(const Rules *r, uint32_t hand, const int *trick, int nt, int leader,
                         int best, int best_pos) {
    if (!nt) return hand;
    int seats = r->seats;
    int fr = r->free_[(leader + nt) % seats][(leader + best_pos) % seats];
    const uint32_t *m = r->legal[trick[0] >> 3][best][fr];
    for (int i = 0; i < MAXP && m[i]; i++) {
        uint32_t x = hand & m[i];
        if (x) return x;
    }
    return hand;
}

static int msum(const int *per_card, uint32_t mask) {
    int s = 0;
    while (mask) { int b = __builtin_ctz(mask); s += per_card[b]; mask &= mask - 1; }
    return s;
}

static int estimate(Ctx *c, const uint32_t *hands) {
    const Rules *r = c->r;
    int w[2] = {0, 0};
    uint32_t all = 0;
    for (int s = 0; s < r->seats; s++) { w[r->teams[s]] += msum(c->weight, hands[s]); all |= hands[s]; }
    int total = w[0] + w[1], left = msum(r->points, all) + LAST_TRICK;
    return total ? left * w[0] / total : left / 2;
}

static int last_trick(Ctx *c, const uint32_t *hands, int leader) {
    const Rules *r = c->r;
    int seats = r->seats;
    c->nodes += seats;
    int lead = 31 - __builtin_clz(hands[leader]), best = lead, best_pos = 0;
    int taken = LAST_TRICK + r->points[lead];
    for (int pos = 1; pos < seats; pos++) {
        int card = 31 - __builtin_clz(hands[(leader + pos) % seats]);
        taken += r->points[card];
        if (((card >> 3) == (lead >> 3) || (r->ruffs >> card & 1)) && r->strength[card] > r->strength[best]) {
            best = card; best_pos = pos;
        }
    }
    return r->teams[(leader + best_pos) % seats] ? 0 : taken;
}

static int place(Ctx *c, uint32_t *hands, int *trick, int nt, int card, int leader, int best,
                 int best_pos, int done, uint32_t live, int alpha, int beta);

/* The table's key of a trick start. Exact: the hands and the leader. Canonical (searches to the
 * end of the deal only): for each suit, the points of its cards still in play in strength order
 * (an id), and which of them each seat holds, and the leader. Two positions with the same canonical key are
 * the same game with the cards renamed (every comparison the rules make is of strength between
 * live cards of one suit, of suit, or of trump; every score is points), so they have the same
 * value; a cut-short search scores its leaves with `estimate`, which reads absolute strengths,
 * so it keeps the exact key. */
static Key key_of(Ctx *c, const uint32_t *hands, int leader) {
    Key key = {{0, 0, 0}};
    int seats = c->r->seats;
    if (!c->canonical) {
        key.k[0] = (uint64_t)hands[0] | (uint64_t)hands[1] << 32;
        key.k[1] = (uint64_t)hands[2] | (uint64_t)hands[3] << 32;
        key.k[2] = (uint64_t)leader;
        return key;
    }
    uint64_t u[4];
    for (int s = 0; s < 4; s++) {
        int t = c->r->trump_suits >> (s * 8) & 1;
        uint32_t held[4] = {0, 0, 0, 0}, live = 0;
        for (int o = 0; o < seats; o++) { held[o] = hands[o] >> (s * 8) & 0xFF; live |= held[o]; }
        const uint8_t *perm = c->perm[t];
        int sl = perm[live];
        uint64_t x = c->seq[t][live];
        for (int o = 0; o < seats; o++) x |= (uint64_t)c->pext[sl][perm[held[o]]] << (8 + 8 * o);
        u[s] = x; /* 40 bits: the suit's points in strength order, then each seat's share */
    }
    key.k[0] = u[0] | u[1] << 40;
    key.k[1] = u[1] >> 24 | u[2] << 16;
    key.k[2] = u[2] >> 48 | u[3] << 16 | (uint64_t)(leader + 1) << 61;
    return key;
}

/* The canonical key's tables, from the ranks' order and points in a plain and a trump suit. */
static void canonical_tables(Ctx *c) {
    for (int t = 0; t < 2; t++) {
        uint32_t seen[256];
        int ids = 0;
        for (int byte = 0; byte < 256; byte++) {
            int out = 0;
            uint32_t sequence = 0;
            for (int i = 0; i < 8; i++) {
                int rank = c->order[t][i];
                if (byte >> rank & 1) {
                    out |= 1 << i;
                    int p = 0;
                    while (p < 8 && c->rpoints[t][c->order[t][p]] != c->rpoints[t][rank]) p++;
                    sequence = sequence * 9 + 1 + (uint32_t)p; /* the points as the first rank with them */
                }
            }
            c->perm[t][byte] = (uint8_t)out;
            int id = 0;
            while (id < ids && seen[id] != sequence) id++;
            if (id == ids) seen[ids++] = sequence;
            c->seq[t][byte] = (uint8_t)id;
        }
    }
    for (int live = 0; live < 256; live++) {
        for (int held = 0; held < 256; held++) {
            int out = 0, k = 0;
            for (int b = 0; b < 8; b++) {
                if (!(live >> b & 1)) continue;
                if (held >> b & 1) out |= 1 << k;
                k++;
            }
            c->pext[live][held] = (uint8_t)out;
        }
    }
}

static Entry *slot(Ctx *c, const Key *key) {
    uint64_t h = key->k[0] * 0x9E3779B97F4A7C15ull;
    h ^= (key->k[1] + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= key->k[2] * 0x165667B19E3779F9ull;
    h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
    return &c->tt[h & c->mask];
}

static int same_key(const Entry *e, const Key *key) {
    return e->key.k[0] == key->k[0] && e->key.k[1] == key->k[1] && e->key.k[2] == key->k[2];
}

static int search(Ctx *c, uint32_t *hands, int *trick, int nt, int leader, int best, int best_pos,
                  int done, uint32_t live, int alpha, int beta) {
    const Rules *r = c->r;
    int seats = r->seats, seat = (leader + nt) % seats;
    uint32_t hand = hands[seat];
    int cards[32], n;
    Entry *e = NULL;
    Key key;
    int hit = 0;
    if (!nt) {
        if (!hand) return 0;
        if (done >= c->stop) return estimate(c, hands);
        if (__builtin_popcount(hand) == 1) return last_trick(c, hands, leader);
        key = key_of(c, hands, leader);
        e = slot(c, &key);
        hit = same_key(e, &key);
        if (hit && e->gen == c->gen) {
            int low = e->low, high = e->high;
            if (low >= beta) return low;
            if (high <= alpha) return high;
            if (low == high) return low;
            if (low > alpha) alpha = low;
            if (high < beta) beta = high;
        }
        live = 0;
        for (int s = 0; s < seats; s++) live |= hands[s];
        n = candidates(c, hand, live, cards);
        sort_by(cards, n, c->lead_key);
        if (hit && e->hgen == c->hgen && e->hint >= 0) {
            for (int i = 0; i < n; i++) if (cards[i] == e->hint) {
                for (int j = i; j > 0; j--) cards[j] = cards[j - 1];
                cards[0] = e->hint;
                break;
            }
        }
    } else {
        n = candidates(c, legal_of(r, hand, trick, nt, leader, best, best_pos), live, cards);
        if (n > 1) {
            if (r->teams[(leader + best_pos) % seats] == r->teams[seat]) {
                sort_by(cards, n, c->points_desc);
            } else {
                uint32_t beats = r->beaters[best] | ((r->ruffs >> best & 1) ? 0 : r->ruffs);
                int win[32], lose[32], nw = 0, nl = 0;
                for (int i = 0; i < n; i++) {
                    if (beats >> cards[i] & 1) win[nw++] = cards[i]; else lose[nl++] = cards[i];
                }
                sort_by(lose, nl, r->points);
                if (nt == seats - 1) {
                    sort_by(win, nw, c->points_desc);
                } else {
                    sort_by(win, nw, c->cheap_win);
                }
                memcpy(cards, win, sizeof(int) * nw);
                memcpy(cards + nw, lose, sizeof(int) * nl);
            }
        }
    }
    int a0 = alpha, b0 = beta, maximize = r->teams[seat] == 0;
    int result = maximize ? -INF : INF, chosen = -1;
    for (int i = 0; i < n; i++) {
        int card = cards[i];
        hands[seat] = hand ^ (1u << card);
        int value = place(c, hands, trick, nt, card, leader, best, best_pos, done, live, alpha, beta);
        hands[seat] = hand;
        if (maximize) {
            if (value > result) { result = value; chosen = card; if (value > alpha) alpha = value; }
        } else if (value < result) { result = value; chosen = card; if (value < beta) beta = value; }
        if (alpha >= beta) break;
    }
    if (!nt) {
        int low = -INF, high = INF;
        e = slot(c, &key); /* the search below may have replaced it */
        if (same_key(e, &key) && e->gen == c->gen) {
            low = e->low; high = e->high;
        }
        if (result <= a0) { if (result < high) high = result; }
        else if (result >= b0) { if (result > low) low = result; }
        else low = high = result;
        e->key = key;
        e->gen = c->gen; e->low = (int16_t)low; e->high = (int16_t)high;
        e->hgen = c->hgen; e->hint = (int8_t)chosen;
    }
    return result;
}

static int place(Ctx *c, uint32_t *hands, int *trick, int nt, int card, int leader, int best,
                 int best_pos, int done, uint32_t live, int alpha, int beta) {
    const Rules *r = c->r;
    if (++c->nodes > c->limit) longjmp(c->out, 1);
    if (!nt || ((((card >> 3) == (trick[0] >> 3)) || (r->ruffs >> card & 1)) &&
                r->strength[card] > r->strength[best])) {
        best = card; best_pos = nt;
    }
    trick[nt] = card;
    int seats = r->seats;
    if (nt + 1 < seats) return search(c, hands, trick, nt + 1, leader, best, best_pos, done, live, alpha, beta);
    int winner = (leader + best_pos) % seats, taken = 0, any = 0, next[4];
    for (int i = 0; i < seats; i++) { taken += r->points[trick[i]]; any |= hands[i] != 0; }
    if (!any) taken += LAST_TRICK;
    if (r->teams[winner] != 0) return search(c, hands, next, 0, winner, -1, -1, done + 1, live, alpha, beta);
    return taken + search(c, hands, next, 0, winner, -1, -1, done + 1, live, alpha - taken, beta - taken);
}

static void root(Ctx *c, const uint32_t *hands_in, const int32_t *trick_in, int nt, int leader,
                 int best, int best_pos, int done, const int32_t *legal, int nlegal,
                 const int32_t *guess, int32_t *values) {
    const Rules *r = c->r;
    uint32_t hands[4] = {0, 0, 0, 0}, live = 0, all = 0;
    int trick[4] = {0, 0, 0, 0};
    for (int s = 0; s < r->seats; s++) { hands[s] = hands_in[s]; live |= hands[s]; }
    for (int i = 0; i < nt; i++) { trick[i] = trick_in[i]; all |= 1u << trick[i]; }
    all |= live;
    live = all;
    int total = msum(r->points, all) + LAST_TRICK;
    int seat = (leader + nt) % r->seats, team = r->teams[seat];
    int previous = 0;
    for (int i = 0; i < nlegal; i++) {
        int card = legal[i];
        hands[seat] ^= 1u << card;
        int g = guess[i] == INT32_MIN ? previous : guess[i];
        int low = -INF, high = INF;
        while (low < high) {
            int beta = g == low ? g + 1 : g;
            int t[4];
            memcpy(t, trick, sizeof t);
            g = place(c, hands, t, nt, card, leader, best, best_pos, done, live, beta - 1, beta);
            if (g < beta) high = g; else low = g;
        }
        hands[seat] ^= 1u << card;
        previous = g;
        values[i] = team == 0 ? g : total - g;
    }
}

/* Each legal card's value (to trick `stop`) for the mover's side, as solver.Solver._root.
 * guess[i] is the previous depth's value of legal[i], or INT32_MIN for none. `*nodes` is the
 * nodes spent so far, updated; the search stops when it exceeds `limit` (returns 1, values
 * unset). `fresh` starts a new solve: the move hints of earlier ones are forgotten. */
int dd_root(void *p, const Rules *r, const uint32_t *hands_in, const int32_t *trick_in, int nt,
            int leader, int best, int best_pos, int done, int stop, const int32_t *legal,
            int nlegal, const int32_t *guess, int64_t limit, int64_t *nodes, int fresh,
            int32_t *values) {
    Ctx *c = p;
    if (memcmp(c->order, r->order, sizeof c->order) || memcmp(c->rpoints, r->rpoints, sizeof c->rpoints)) {
        memcpy(c->order, r->order, sizeof c->order);
        memcpy(c->rpoints, r->rpoints, sizeof c->rpoints);
        memset(c->reps_done, 0, sizeof c->reps_done);
        canonical_tables(c);
    }
    c->r = r;
    for (int i = 0; i < 32; i++) {
        c->lead_key[i] = -2 * r->strength[i] - r->points[i];
        c->cheap_win[i] = r->strength[i] + 2 * r->points[i];
        c->weight[i] = 1 + r->strength[i] + r->points[i];
        c->points_desc[i] = -r->points[i];
    }
    if (++c->gen == 0) { memset(c->tt, 0, sizeof(Entry) * ((size_t)c->mask + 1)); c->gen = 1; c->hgen = 1; }
    if (fresh && ++c->hgen == 0) { memset(c->tt, 0, sizeof(Entry) * ((size_t)c->mask + 1)); c->gen = c->hgen = 1; }
    int cards = nt;
    for (int s = 0; s < r->seats; s++) cards += __builtin_popcount(hands_in[s]);
    c->canonical = c->allow_canonical && stop >= done + cards / r->seats;
    c->stop = stop;
    c->nodes = *nodes;
    c->limit = limit;
    if (setjmp(c->out)) { *nodes = c->nodes; return 1; }
    root(c, hands_in, trick_in, nt, leader, best, best_pos, done, legal, nlegal, guess, values);
    *nodes = c->nodes;
    return 0;
}
