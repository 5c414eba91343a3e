// Shared bits of the page: toasts for messages and errors, the connection banner, navigation.
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";

export function toast(text, { kind = "info", detail = null, code = null, timeout = 6000 } = {}) {
  const box = document.getElementById("toasts");
  const item = h(
    "div",
    { class: `toast ${kind}`, dataset: code ? { code } : {} },
    h("span", { class: "toast-text", text }),
    detail ? h("span", { class: "toast-detail", text: detail }) : null,
    h("button", { class: "toast-close", type: "button", "aria-label": t("close"), text: "×", onclick: () => item.remove() }),
  );
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
  if (timeout) setTimeout(() => item.remove(), timeout);
  return item;
}

/** Show a server (or network) error: localized text from its code, the server's words as detail. */
export function showError(error) {
  const code = (error && error.code) || "server_error";
  const detail = error && error.message && error.message !== errorText(code) ? error.message : null;
  return toast(errorText(code), { kind: "error", detail, code });
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

export function seatName(room, seat) {
  const record = room && room.seats ? room.seats[seat] : null;
  if (!record) return t("seat_n", { n: seat + 1 });
  if (record.player) return record.player.name;
  if (record.bot) return `${t("bot")} ${seat + 1}`;
  return t("empty_seat");
}
