// A friend's invitation reaches the player wherever they are on the site (docs/protocol.md §1,
// "Friends"): the lobby's Friends panel lists them, and on every other page they are shown above
// it, like the announcement, each with "Go to the table" and "×" (put away); so is a friend's
// ask to play quick play as partners ("Play together", §8.3). Asked for
// (`GET /api/players/me/invitations`) when the page changes and every few seconds; an invitation
// to the table the page shows is left out.
import { get } from "./api.js";
import { h, replace } from "./dom.js";
import { invitationItem, playWithItem, playWithShown } from "./friends.js";
import { getPlayer } from "./identity.js";
import { lang, t } from "./i18n.js";

const EVERY_MS = 15 * 1000;
let place = { lobby: true }; // where the reader is: { lobby: true }, { room: code } or {}
let invitations = []; // as last read
let playWith = []; // friends' asks to play quick play as partners, as last read
let asked = 0; // the newest read wins: a slow answer for a page left is dropped
let drawn = null; // what the bar shows, as drawn last

function draw(answered = false) {
  const box = document.getElementById("invitations");
  if (!box) return;
  const shown = place.lobby ? [] : invitations.filter((inv) => inv.room !== place.room);
  const asks = place.lobby ? [] : playWithShown(playWith);
  if (answered) box.dataset.read = String(Date.now()); // drawn from the server's answer (for tests)
  box.hidden = !shown.length && !asks.length;
  // Drawn again only if something changed: a reader's focus on "Go to the table" stays put.
  const key = JSON.stringify([lang(), shown, asks]);
  if (key === drawn) return;
  drawn = key;
  const items = [...asks.map((ask) => playWithItem(ask, read)), ...shown.map((inv) => invitationItem(inv, read))];
  replace(box, ...(items.length ? [h("ul", { class: "friend-list", "aria-label": t("friend_invitations") }, ...items)] : []));
}

async function read() {
  const turn = ++asked;
  if (place.lobby || !getPlayer()) {
    invitations = [];
    playWith = [];
  } else {
    try {
      const answer = await get("/api/players/me/invitations");
      if (turn !== asked) return;
      invitations = answer.invitations;
      playWith = answer.play_with;
    } catch {
      return; // offline, or the token refused (the page says so): the last ones read stay
    }
  }
  draw(true);
}

/** The page changed: `where` is `{ lobby: true }`, `{ room: code }` or `{}` (another page). */
export function invitationsAt(where) {
  place = where;
  draw(); // at once with what is known, then as the server says
  read();
}

/** Start asking (every few seconds); `relang()` redraws in the reader's language. */
export function watchInvitations() {
  setInterval(read, EVERY_MS);
}

export const relangInvitations = () => draw();

/** Ask again now (the reader's identity changed). */
export const readInvitations = read;
