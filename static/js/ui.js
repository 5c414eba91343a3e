// Shared bits of the page: toasts for messages and errors, the connection banner, navigation.
import { h } from "./dom.js";
import { forgetPlayer, getPlayer } from "./identity.js";
import { errorText, lang, t } from "./i18n.js";

/** At most this many toasts at once: the oldest goes first. */
const MAX_TOASTS = 3;

/** Pixels between the toasts and what is around them. */
const TOAST_GAP = 8;

/** The narrowest the top bar's free middle may be to hold the toasts. */
const TOAST_BAR_WIDTH = 300;

/** Where the toasts go, worked out again for each (the page may have scrolled, the bar
 * wrapped, the banner come): in the top bar's free middle, between the nav and the player's
 * name, when the bar is one row on the screen with room enough (a desktop); else just under
 * the bar and the connection banner while they are in view, else at the screen's top. Over
 * the bar's ends they hid the player's name, the colours' button and the language picker; under the bar on a
 * desktop, the invite link's "Copy" as the host had just made the room. */
function placeToasts(box) {
  const bar = document.querySelector(".topbar").getBoundingClientRect();
  const banner = document.getElementById("banner");
  const nav = document.querySelector(".nav").getBoundingClientRect();
  const who = document.getElementById("who").getBoundingClientRect();
  const lang = document.querySelector(".langpick").getBoundingClientRect();
  const colours = document.getElementById("theme").getBoundingClientRect(); // before the language
  const end = who.width ? who.left : colours.left;
  const oneRow = lang.top < nav.bottom && nav.top < lang.bottom; // a phone's bar puts the nav on rows of its own
  const middle = { left: nav.right + 2 * TOAST_GAP, right: end - 2 * TOAST_GAP };
  const inBar = bar.top >= 0 && banner.hidden && oneRow && middle.right - middle.left >= TOAST_BAR_WIDTH;
  box.classList.toggle("in-bar", inBar);
  if (inBar) {
    Object.assign(box.style, { top: `${bar.top + TOAST_GAP}px`, left: `${middle.left}px`, right: `${window.innerWidth - middle.right}px` });
    return;
  }
  const above = [document.querySelector(".topbar"), banner].filter((el) => !el.hidden);
  const bottom = Math.max(0, ...above.map((el) => el.getBoundingClientRect().bottom));
  Object.assign(box.style, { top: `${bottom + TOAST_GAP}px`, left: "", right: "" });
}

/** A message at the top of the screen (style.css: never over the hand, the bidding box or a
 * form's button, which are low on the page; `placeToasts`), gone after `timeout` ms (an
 * error's 6 s, news' 3 s: "Name saved" covered a phone's nav for 6 s). The same words said
 * again (a click repeated on a refused button) replace the toast that says them, with a new
 * timeout, rather than pile up. */
export function toast(text, { kind = "info", detail = null, code = null, timeout = kind === "error" ? 6000 : 3000 } = {}) {
  const box = document.getElementById("toasts");
  placeToasts(box);
  const words = `${text}\n${detail || ""}`;
  for (const shown of box.querySelectorAll(".toast")) if (shown.dataset.words === words) shown.remove();
  const item = h(
    "div",
    { class: `toast ${kind}`, dataset: code ? { code, words } : { words } },
    h("span", { class: "toast-text", text }),
    detail ? h("span", { class: "toast-detail", text: detail }) : null,
    h("button", { class: "toast-close", type: "button", "aria-label": t("close"), text: "×", onclick: () => item.remove() }),
  );
  box.append(item);
  while (box.children.length > MAX_TOASTS) box.firstChild.remove();
  if (timeout) setTimeout(() => item.remove(), timeout);
  return item;
}

/** Show a server (or network) error in the player's language: the text for its code (or the
 * caller's more precise `text`), and as detail the rule it enforces. The server's own message is
 * English engine prose: it is shown only to English readers, only without a rule, and never
 * for `bad_request` (the validator's words: "path.player_id: String should match pattern …"). */
export function showError(error) {
  const code = (error && error.code) || "server_error";
  const text = (error && error.text) || errorText(code);
  let detail = null;
  if (error && error.rule) detail = t("rule_n", { rule: error.rule });
  else if (lang() === "en" && code !== "bad_request" && error && error.message && error.message !== text) detail = error.message;
  return toast(text, { kind: "error", detail, code });
}

/** A page's data could not be had: the words the page shows in its place say what happened —
 * the server's refusal by its code, "cannot be reached" for a request that never got an
 * answer — never a guess (and no toast repeats them). An id in the address the server finds
 * malformed (422 `bad_request`: no id looks like it) is the unknown id it is: said as
 * `missing` ("unknown_player", "unknown_match" …). */
export function failureText(error, missing = null) {
  const shown = missing && error && error.code === "bad_request" ? { code: missing } : error;
  return (shown && shown.text) || errorText((shown && shown.code) || "server_error");
}

/** The server refused the token `player` was using (bad_token): forget it and say why — a guest
 * chooses a name again; an account holder was signed out (a log-out, another device, a new
 * password, close 4401) and logs in again. Not if another tab has stored a new identity since:
 * that one is kept (returns false), and the caller goes on with it. */
export function tokenRefused(player, error) {
  const now = getPlayer();
  if (now && now.token !== player.token) return false;
  forgetPlayer(player.username ? null : player.name); // a guest's name form offers it again
  window.dispatchEvent(new Event("belote:identity"));
  if (player.username) toast(t("signed_out", { username: player.username }), { kind: "error", code: "signed_out" });
  else showError({ code: error.code }); // not the server's "create a player first": that is for API clients
  return true;
}

/** A page's REST call was refused with bad_token (the device was signed out, or the server
 * forgot the guest): handled as everywhere (`tokenRefused`). An account holder is taken to the
 * login form; otherwise the page is drawn again, as a visitor or with the identity another tab
 * stored. Returns false for any other error (the caller shows it). */
export function pageTokenRefused(player, error) {
  if (!player || !error || error.code !== "bad_token") return false;
  if (tokenRefused(player, error) && player.username) go("#/account");
  else go(location.hash);
  return true;
}

/** A toast asking for something the player has since done goes away (e.g. "choose a name"). */
export function dropToasts(code) {
  for (const item of document.querySelectorAll(`#toasts .toast[data-code="${code}"]`)) item.remove();
}

/** A phone or tablet without a mouse or keyboard in use: no keyboard hints there. */
export function touchOnly() {
  return window.matchMedia("(hover: none) and (pointer: coarse)").matches;
}

/** Words for screen readers, read out when they change: the page's one polite live region
 * (index.html `#announce`, always there — a region made with its words is often not read). */
export function announce(text) {
  const el = document.getElementById("announce");
  if (el) el.textContent = text || "";
}

export function banner(text) {
  const el = document.getElementById("banner");
  if (!text) {
    el.hidden = true;
    el.textContent = "";
  } else {
    el.hidden = false;
    el.textContent = text;
  }
}

export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

export function roomLink(code) {
  return `${location.origin}/r/${encodeURIComponent(code)}`;
}

/** Copy a link; where the page may not use the clipboard (served without HTTPS), the old way
 * from a field of its own; and where that fails too, the link is shown to copy by hand. */
export async function copyLink(text) {
  let done = true;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const field = h("textarea", { class: "sr-only", "aria-hidden": "true" });
    field.value = text;
    document.body.append(field);
    field.select();
    done = Boolean(document.execCommand && document.execCommand("copy"));
    field.remove();
  }
  toast(done ? t("copied") : t("copy_by_hand", { link: text }), { timeout: done ? 2000 : 0 });
}

/** The buttons that pass a link on: "Copy" (`#<prefix>copy-link`) and, where the device can
 * hand it to another app (a phone's share sheet: a message, a chat), "Share"
 * (`#<prefix>share-link`) with `text` saying what it is. The sheet closed unused is no failure;
 * any other failure copies the link instead. */
export function linkButtons(link, text, prefix = "") {
  return [
    h("button", { type: "button", id: `${prefix}copy-link`, text: t("copy"), onclick: () => copyLink(link) }),
    navigator.share
      ? h("button", {
          type: "button",
          id: `${prefix}share-link`,
          text: t("share"),
          onclick: () =>
            navigator.share({ text, url: link }).catch((error) => {
              if (error?.name !== "AbortError") copyLink(link);
            }),
        })
      : null,
  ];
}

/** A row's items with "·" between them (style.css, `.dots`): the separator shows only between
 * two items of one line, never at the end of a line nor at the start of the next. An item is a
 * node or a text; `dotItem(x, { name: true })` keeps a name on one line (cut with "…", whole in
 * its title), `{ plain: true }` goes without a separator before it (a badge after a title). */
export function dots(cls, items) {
  const boxed = items.filter((item) => item !== null && item !== undefined && item !== false);
  return h("div", { class: `dots ${cls}` }, h("span", { class: "dots-in" }, boxed.map((item) => (item instanceof Element && item.classList.contains("dot-item") ? item : dotItem(item)))));
}

export function dotItem(content, { name = false, plain = false } = {}) {
  return h(
    "span",
    { class: `dot-item${name ? " name" : ""}`, title: name ? String(content) : null },
    plain ? null : h("span", { class: "sep", "aria-hidden": "true", text: "·" }),
    content,
  );
}

export function seatName(room, seat) {
  const record = room && room.seats ? room.seats[seat] : null;
  if (!record) return t("seat_n", { n: seat + 1 });
  if (record.player) return record.player.name || t("deleted_player"); // an erased account
  if (record.bot) return `${t("bot")} ${seat + 1}`;
  return t("empty_seat");
}

/** Where a guest meets what needs an account — rated play (the server answers
 * `account_required`: guests cost nothing to make, so one person could farm a rating with
 * their own), a table kept for signed-in players (`accounts_only`) —, the note `words` says
 * so, and where to make one. Null for an account. */
export function accountNote(words = "rated_needs_account") {
  if (getPlayer()?.username) return null;
  return h("p", { class: "note account-note" }, t(words), " ", h("a", { href: "#/account", text: t("make_account") }));
}
