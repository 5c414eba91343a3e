// A friend's invitation reaches the player wherever they are on the site (docs/protocol.md §1,
// "Friends"): the lobby's Friends panel lists them, and on every other page they are shown above
// it, like the announcement, each with "Go to the table" and "×" (put away); so is a friend's
// ask to play quick play as partners ("Play together", §8.3). Asked for
// (`GET /api/players/me/invitations`) when the page changes, every few seconds and when the tab
// is shown again (poll.js); an invitation to the table the page shows is left out. So is the
// table where the reader's match of a tournament is on ("Your match in Friday cup is on"), on
// every page, the lobby included, but that table's own and its tournament's (which has its own
// "Go to your table"). And so is each
// tournament waiting for the reader to check in ("Friday cup starts at 20:00: check in to
// play", with "Check in"), but on that tournament's page, which has its own button. Either also
// calls the reader in the tab's title and icon (signal.js), on every page but that table, and a
// new one sounds the turn's chime when sound is on. And so is an entrant's ask to play together
// in a tournament taking entries ("Ann asks you to play together in Friday cup", with "Accept"),
// but on that tournament's page, which shows it beside their name.
import { api, get, post } from "./api.js";
import { h, replace } from "./dom.js";
import { invitationItem, playWithItem, playWithShown } from "./friends.js";
import { getPlayer } from "./identity.js";
import { lang, t } from "./i18n.js";
import { showError, toast } from "./ui.js";
import { tabSignal } from "./signal.js";
import { playSound } from "./sound.js";
import { every } from "./poll.js";

const EVERY_MS = 15 * 1000;
let place = { lobby: true }; // where the reader is: { lobby: true }, { room: code }, { tournament: id } or {}
let invitations = []; // as last read
let playWith = []; // friends' asks to play quick play as partners, as last read
let tables = []; // the tables where the reader's tournament matches are on, as last read
let checkIns = []; // the tournaments waiting for the reader to check in, as last read
let partnerAsks = []; // entrants asking the reader to play together in a tournament, as last read
let asked = 0; // the newest read wins: a slow answer for a page left is dropped
let drawn = null; // what the bar shows, as drawn last
let called = null; // the tournament tables and check-ins read already (null: none read yet)

function draw(answered = false) {
  const box = document.getElementById("invitations");
  if (!box) return;
  const shown = place.lobby ? [] : invitations.filter((inv) => inv.room !== place.room);
  const asks = place.lobby ? [] : playWithShown(playWith);
  const mine = tables.filter((x) => x.room !== place.room && x.tournament.id !== place.tournament);
  const due = checkIns.filter((x) => x.tournament.id !== place.tournament);
  const partners = partnerAsks.filter((x) => x.tournament.id !== place.tournament);
  if (answered) box.dataset.read = String(Date.now()); // drawn from the server's answer (for tests)
  // The tab calls from that tournament's own page too: the reader may wait there, in another tab.
  callTheReader(tables.filter((x) => x.room !== place.room), checkIns, answered);
  box.hidden = !shown.length && !asks.length && !mine.length && !due.length && !partners.length;
  // Drawn again only if something changed: a reader's focus on "Go to the table" stays put.
  const key = JSON.stringify([lang(), shown, asks, mine, due, partners]);
  if (key === drawn) return;
  drawn = key;
  const items = [...mine.map(tournamentTableItem), ...due.map(checkInItem), ...partners.map(partnerAskItem), ...asks.map((ask) => playWithItem(ask, read)), ...shown.map((inv) => invitationItem(inv, read))];
  replace(box, ...(items.length ? [h("ul", { class: "friend-list", "aria-label": t("friend_invitations") }, ...items)] : []));
}

async function read() {
  const turn = ++asked;
  if (!getPlayer()) {
    invitations = [];
    playWith = [];
    tables = [];
    checkIns = [];
    partnerAsks = [];
  } else {
    try {
      const answer = await get("/api/players/me/invitations");
      if (turn !== asked) return;
      invitations = answer.invitations;
      playWith = answer.play_with;
      tables = answer.tournament_tables;
      checkIns = answer.tournament_check_ins;
      partnerAsks = answer.tournament_partner_asks;
    } catch {
      return; // offline, or the token refused (the page says so): the last ones read stay
    }
  }
  draw(true);
}

/** A tournament calls the reader (their match is on, or they may check in): the tab says so
 * (signal.js), and a call the server had not made before sounds the turn's chime when sound is
 * on, for a reader who waits for the next round on another tab or page; a bot would play their
 * match for them. Not the calls of the page's first answer, nor one the reader left (their own
 * table's, as they go to another page). */
function callTheReader(on, due, answered) {
  tabSignal("tournament", on.length ? "tn_signal_match" : due.length ? "tn_signal_check_in" : null);
  if (!answered) return;
  const now = new Set([...tables.map((x) => `table:${x.room}`), ...checkIns.map((x) => `check-in:${x.tournament.id}`)]);
  if (called && [...now].some((call) => !called.has(call))) playSound("turn");
  called = now;
}

/** A table where the reader's tournament match is on, with the way there. */
function tournamentTableItem(table) {
  return h(
    "li",
    { class: "invitation tournament-table", dataset: { room: table.room } },
    h("span", { class: "friend-name", text: t("tn_match_on", { name: table.tournament.name, game: t(`preset_${table.preset}`) }) }),
    h("span", { class: "friend-actions" }, h("a", { class: "button primary", href: `#/r/${encodeURIComponent(table.room)}`, text: t("tn_go") })),
  );
}

/** A tournament's line in the bar: its words a link to the tournament, and one button that
 * takes the step from here (`send`), says it is done (`done`) and reads the bar again. */
function tournamentStepItem(kind, dataset, words, button, send, done) {
  const href = `#/tournaments/${encodeURIComponent(dataset.tournament)}`;
  const step = h("button", { type: "button", class: "primary", ...button });
  step.addEventListener("click", async () => {
    step.disabled = true;
    try {
      await send();
      toast(done);
    } catch (error) {
      showError(error);
    }
    step.disabled = false;
    read();
  });
  return h(
    "li",
    { class: `invitation ${kind}`, dataset },
    h("span", { class: "friend-name" }, h("a", { href, text: words })),
    h("span", { class: "friend-actions" }, step),
  );
}

/** A tournament waiting for the reader to check in, with "Check in" (here) and its page. */
function checkInItem(due) {
  const id = due.tournament.id;
  const time = new Date(due.starts_at).toLocaleTimeString(lang(), { timeStyle: "short" });
  const words = t("tn_check_in_remind", { name: due.tournament.name, time, game: t(`preset_${due.preset}`) });
  const send = () => post(`/api/tournaments/${encodeURIComponent(id)}/check-in`);
  return tournamentStepItem("tournament-check-in", { tournament: id }, words, { text: t("tn_check_in_button") }, send, t("tn_checked_in_toast"));
}

/** An entrant asking the reader to play together in a tournament, with "Accept" (here) and the
 * tournament's page, where the reader may ask someone else instead. */
function partnerAskItem(ask) {
  const id = ask.tournament.id;
  const name = ask.by.name;
  const words = t("tn_partner_remind", { who: name, name: ask.tournament.name });
  const button = { text: t("tn_partner_accept"), "aria-label": t("tn_partner_accept_label", { name }) };
  const send = () => api("PUT", `/api/tournaments/${encodeURIComponent(id)}/partner`, { partner: ask.by.id });
  return tournamentStepItem("tournament-partner-ask", { tournament: id, player: ask.by.id }, words, button, send, t("tn_partner_accepted_toast", { name }));
}

/** The page changed: `where` is `{ lobby: true }`, `{ room: code }`, `{ tournament: id }` or
 * `{}` (another page). */
export function invitationsAt(where) {
  place = where;
  draw(); // at once with what is known, then as the server says
  read();
}

/** Start asking (every few seconds); `relang()` redraws in the reader's language. */
export function watchInvitations() {
  every(read, EVERY_MS);
}

export const relangInvitations = () => draw();

/** Ask again now (the reader's identity changed). */
export const readInvitations = read;
