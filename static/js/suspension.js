// The operator's suspension, told to the player it concerns (docs/protocol.md §1): why, until
// when, what they may still do, and their appeal (appeal.js): the button to make it, or where
// it stands. The lobby and the account page show it; the refusals themselves (`suspended`) are
// toasts like any other error.
import { openAppeal } from "./appeal.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

const when = (iso) => new Date(iso).toLocaleString(lang(), { dateStyle: "long", timeStyle: "short" });

/** The appeal's part of the notice: a button while none was made, else where it stands. */
function appealPart(suspension, replace) {
  const appeal = suspension.appeal;
  if (!appeal) {
    const button = h("button", { type: "button", id: "appeal-open", text: t("appeal_open") });
    button.addEventListener("click", () => openAppeal((made) => replace({ ...suspension, appeal: made })));
    return h("p", { class: "appeal" }, button);
  }
  const text = appeal.read_at ? t("appeal_kept", { date: when(appeal.read_at) }) : t("appeal_waiting", { date: when(appeal.at) });
  return h("p", { class: "appeal", id: "appeal-status", text });
}

/** The notice for `suspension` (`{reason, until, appeal}`, as `GET /api/players/me` gives it), or null
 * when there is none. */
export function suspensionNotice(suspension) {
  if (!suspension) return null;
  const until = suspension.until ? t("suspended_until", { date: when(suspension.until) }) : t("suspended_until_lifted");
  const notice = h(
    "section",
    { class: "panel suspended", id: "suspended", role: "status" },
    h("h2", { text: t("suspended_title") }),
    h("p", { class: "suspended-reason", text: t("suspended_reason", { reason: suspension.reason }) }),
    h("p", { text: until }),
    h("p", { class: "muted", text: t("suspended_explain") }),
  );
  notice.append(appealPart(suspension, (next) => notice.replaceWith(suspensionNotice(next))));
  return notice;
}
