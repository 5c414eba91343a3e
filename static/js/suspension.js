// The operator's suspension, told to the player it concerns (docs/protocol.md §1): why, until
// when, and what they may still do. The lobby and the account page show it; the refusals
// themselves (`suspended`) are toasts like any other error.
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

/** The notice for `suspension` (`{reason, until}`, as `GET /api/players/me` gives it), or null
 * when there is none. */
export function suspensionNotice(suspension) {
  if (!suspension) return null;
  const until = suspension.until
    ? t("suspended_until", { date: new Date(suspension.until).toLocaleString(lang(), { dateStyle: "long", timeStyle: "short" }) })
    : t("suspended_until_lifted");
  return h(
    "section",
    { class: "panel suspended", id: "suspended", role: "status" },
    h("h2", { text: t("suspended_title") }),
    h("p", { class: "suspended-reason", text: t("suspended_reason", { reason: suspension.reason }) }),
    h("p", { text: until }),
    h("p", { class: "muted", text: t("suspended_explain") }),
  );
}
