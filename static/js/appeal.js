// A suspended player's appeal to the site's operator (docs/protocol.md §1, `POST
// /api/players/me/appeal`): once per suspension, in their own words. The operator reads it and
// lifts the suspension or keeps it; the suspension's notice (suspension.js) then says which.
// A modal like the others: dialog.js's keyboard (Escape cancels, Tab stays inside).
import { post } from "./api.js";
import { sendDialog } from "./dialog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { toast } from "./ui.js";

const TEXT_MAX = 1000;

/** Ask for the appeal's words, send them, and hand the appeal the server kept to `sent`. */
export function openAppeal(sent) {
  const words = h("textarea", { id: "appeal-text", maxlength: String(TEXT_MAX), rows: "5", required: true });
  sendDialog("appeal", {
    title: t("appeal_title"),
    explain: t("appeal_explain"),
    fields: [h("label", { for: "appeal-text", class: "report-words", text: t("appeal_words") }), words],
    go: t("appeal_send"),
    cancel: t("cancel"),
    send: async () => {
      const text = words.value.trim();
      if (!text) {
        words.focus();
        toast(t("appeal_empty"));
        return false; // nothing to send: the dialog stays
      }
      const appeal = await post("/api/players/me/appeal", { text });
      toast(t("appeal_sent"));
      sent(appeal);
    },
  });
  words.focus();
}
