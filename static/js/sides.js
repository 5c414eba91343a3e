// Tables of 2, 3 and 4: who scores together and where each seat sits on the screen.
// Four seats play as two teams (seat % 2, C-6); at three and two each player is a side of his
// own (BGN-3), as the server's rules say (docs/protocol.md, "Seats and sides").

const LAYOUTS = {
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
};

export const range = (n) => Array.from({ length: n }, (_, i) => i);

/** The preset's seats, from what a frame says: the room's seats, or a deal's hands. */
export function seatCount(source) {
  if (source && source.seats) return source.seats.length;
  if (source && source.hand_sizes) return source.hand_sizes.length;
  return 4;
}

export const teamsPlay = (n) => n === 4;

/** The side (scoresheet column) a seat scores for. */
export const sideOf = (n, seat) => (teamsPlay(n) ? seat % 2 : seat);

/** The seats of each side. */
export const sidesOf = (n) => (teamsPlay(n) ? [[0, 2], [1, 3]] : range(n).map((s) => [s]));

/** Where a seat is drawn, seen from `base` (the viewer's seat, 0 for a spectator). */
export const positions = (n) => LAYOUTS[n] || LAYOUTS[4];
export const positionOf = (n, base, seat) => positions(n)[(seat - base + n) % n];

/** The sides in the order of the columns: the viewer's first, then the others in seat order. */
export function sideOrder(n, mine) {
  const all = range(sidesOf(n).length);
  return mine === null || mine === undefined ? all : [mine, ...all.filter((s) => s !== mine)];
}

/** The seats of each preset, for what names only its rules (a record, a history entry). */
const PRESET_SEATS = { bulgarian: 4, french: 4, bulgarian3: 3, bulgarian2: 2, open_belot: 2 };
export const seatsOfRules = (rules) => PRESET_SEATS[rules && rules.preset] || 4;

/** The packets each hand gets before the bidding (C-9, BG2-2, CRO-1), for the replay. */
export function packetsBefore(rules) {
  const house = (rules && rules.house_rules) || {};
  if (house.croatian_deal) return [3, 3];
  if (rules.preset === "bulgarian2") return [3, 3];
  if (rules.preset === "french" && house.deal_packets === "2-3") return [2, 3];
  return [3, 2];
}
