// Reporting a player to the site's operator (docs/protocol.md §1, `POST /api/players/{id}/reports`):
// why (one of four reasons) and, if the reporter likes, in their own words. The operator alone
// reads it, with the player's last chat lines at this table; the player is not told. A modal
// like the others: dialog.js's keyboard (Escape cancels, Tab stays inside).
import { post } from "./api.js";
import { sendDialog } from "./dialog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { toast } from "./ui.js";

const REASONS = ["chat", "name", "play", "other"];
const TEXT_MAX = 500;

/** Ask why `person` (`{id, name}`) is reported at the table `code`, then send it. */
export function openReport(person, code) {
  const choices = REASONS.map((reason, i) =>
    h("label", { class: "pref" }, h("input", { type: "radio", name: "report-reason", id: `report-${reason}`, value: reason, checked: i === 0 }), " ", t(`report_${reason}`)),
  );
  const words = h("textarea", { id: "report-text", maxlength: String(TEXT_MAX), rows: "3" });
  const dialog = sendDialog("report", {
    title: t("report_title", { name: person.name }),
    explain: t("report_explain", { name: person.name }),
    fields: [
      h("fieldset", { class: "report-reasons" }, h("legend", { text: t("report_why") }), choices),
      h("label", { for: "report-text", class: "report-words", text: t("report_words") }),
      words,
    ],
    go: t("report_send"),
    cancel: t("cancel"),
    send: async () => {
      const reason = dialog.querySelector("input[name='report-reason']:checked").value;
      await post(`/api/players/${encodeURIComponent(person.id)}/reports`, { reason, room: code, text: words.value.trim() || null });
      toast(t("report_sent", { name: person.name }));
    },
  });
  dialog.querySelector("input:checked").focus();
}
