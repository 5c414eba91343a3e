// The shuffle players can check (docs/protocol.md §3): fresh entropy to send for the next deal,
// and the check of a record's deals with WebCrypto SHA-256 — the same procedure as
// app/rooms/shuffle.py, so the History page needs to trust nobody's word for "verified".
const DOMAIN = new TextEncoder().encode("belote-shuffle/1");
const SUITS = "CDHS";
const RANKS = "789TJQKA";
const FULL_DECK = [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit));
const HEX_256 = /^[0-9a-f]{64}$/;
const MIN_CUT = 3; // BG-2 / FR-1: at least 3 cards in each part

export const VERIFIED = "verified";
export const MISMATCH = "mismatch";
export const UNCOMMITTED = "uncommitted";

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (hex) => Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
const cardIndex = (card) => SUITS.indexOf(card[1]) * 8 + RANKS.indexOf(card[0]);

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** 32 random bytes as hex: this player's share of the next deal's shuffle. */
export function newEntropy() {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** Whether this page can check shuffles (WebCrypto's digest needs a secure context). */
export function canVerify() {
  return Boolean(globalThis.crypto && crypto.subtle);
}

/** Integers below n from the bits of SHA-256(key ‖ counter), most significant bit first. */
class HashStream {
  constructor(key) {
    this.key = key;
    this.counter = 0;
    this.bytes = new Uint8Array(0);
    this.bit = 0;
  }

  async below(n) {
    const width = Math.max(1, (n - 1).toString(2).length);
    for (;;) {
      while (this.bytes.length * 8 - this.bit < width) {
        const counter = new Uint8Array(8);
        new DataView(counter.buffer).setBigUint64(0, BigInt(this.counter++));
        this.bytes = concat(this.bytes, await sha256(concat(this.key, counter)));
      }
      let value = 0;
      for (let k = 0; k < width; k++, this.bit++) value = value * 2 + ((this.bytes[this.bit >> 3] >> (7 - (this.bit & 7))) & 1);
      if (value < n) return value;
    }
  }
}

/** BG-2 gather_not_shuffle: the previous deal's cards as played; after a void deal (a Bulgarian
 *  rule: packets of 3 then 2) each hand from dealer+1 in card order, then the cards never dealt. */
function gatheredDeck(previous) {
  const played = previous.actions.filter((a) => a.play).map((a) => a.play);
  if (played.length) return played;
  const hands = [[], [], [], []];
  let i = 0;
  for (const size of [3, 2]) {
    for (let k = 1; k <= 4; k++) {
      hands[(previous.dealer + k) % 4].push(...previous.deck.slice(i, i + size));
      i += size;
    }
  }
  const out = [];
  for (let k = 1; k <= 4; k++) out.push(...hands[(previous.dealer + k) % 4].sort((a, b) => cardIndex(a) - cardIndex(b)));
  return [...out, ...previous.deck.filter((c) => !out.includes(c))];
}

async function drawDeck(seed, contributions, gathered) {
  const parts = [DOMAIN, fromHex(seed)];
  for (const c of contributions) parts.push(Uint8Array.of(c.seat), fromHex(c.entropy));
  const stream = new HashStream(await sha256(concat(...parts)));
  const cards = gathered ? [...gathered] : [...FULL_DECK];
  if (!gathered) {
    for (let i = cards.length - 1; i > 0; i--) {
      const j = await stream.below(i + 1);
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
  }
  const cut = MIN_CUT + (await stream.below(cards.length - 2 * MIN_CUT + 1));
  return { cut, deck: [...cards.slice(cut), ...cards.slice(0, cut)] };
}

/** The verdict on one deal record; `previous` is the deal before it in its match (or null). */
export async function verifyDeal(record, previous) {
  if (record.commitment === null || record.commitment === undefined) return UNCOMMITTED;
  const contributions = record.contributions || [];
  const wellFormed =
    HEX_256.test(record.seed || "") &&
    contributions.every((c, i) => Number.isInteger(c.seat) && c.seat >= 0 && c.seat <= 255 && HEX_256.test(c.entropy || "") && (i === 0 || c.seat > contributions[i - 1].seat));
  if (!wellFormed || toHex(await sha256(fromHex(record.seed))) !== record.commitment) return MISMATCH;
  const gather = Boolean(record.rules && record.rules.house_rules && record.rules.house_rules.gather_not_shuffle);
  const expected = await drawDeck(record.seed, contributions, gather && previous ? gatheredDeck(previous) : null);
  const same = expected.cut === record.cut && expected.deck.length === record.deck.length && expected.deck.every((c, i) => c === record.deck[i]);
  return same ? VERIFIED : MISMATCH;
}

/** Each deal of a match record: Map(number → verdict). */
export async function verifyMatch(record) {
  const verdicts = new Map();
  for (const [i, deal] of record.deals.entries()) {
    verdicts.set(deal.number ?? i + 1, await verifyDeal(deal, i > 0 ? record.deals[i - 1] : null));
  }
  return verdicts;
}
