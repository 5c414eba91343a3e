// A suspended player's appeal to the site's operator (docs/protocol.md §1, `POST
// /api/players/me/appeal`): once per suspension, in their own words. The operator reads it and
// lifts the suspension or keeps it; the suspension's notice (suspension.js) then says which.
// A modal like the others: dialog.js's keyboard (Escape cancels, Tab stays inside).
import { post } from "./api.js";
import { modalKey } from "./dialog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { showError, toast } from "./ui.js";

const TEXT_MAX = 1000;

/** Ask for the appeal's words, send them, and hand the appeal the server kept to `sent`. */
export function openAppeal(sent) {
  document.getElementById("appeal-confirm")?.remove();
  const before = document.activeElement;
  const close = () => {
    document.removeEventListener("keydown", modalKey);
    backdrop.remove();
    if (before && before.isConnected) before.focus();
  };
  const words = h("textarea", { id: "appeal-text", maxlength: String(TEXT_MAX), rows: "5", required: true });
  const send = h("button", { type: "button", id: "appeal-go", text: t("appeal_send") });
  send.addEventListener("click", async () => {
    const text = words.value.trim();
    if (!text) {
      words.focus();
      toast(t("appeal_empty"));
      return;
    }
    send.disabled = true;
    try {
      const appeal = await post("/api/players/me/appeal", { text });
      close();
      toast(t("appeal_sent"));
      sent(appeal);
    } catch (error) {
      send.disabled = false;
      showError(error);
    }
  });
  const backdrop = h(
    "div",
    { class: "modal-backdrop", id: "appeal-confirm" },
    h(
      "div",
      { class: "modal report", role: "dialog", "aria-modal": "true", "aria-labelledby": "appeal-title" },
      h("h3", { id: "appeal-title", text: t("appeal_title") }),
      h("p", { class: "muted", text: t("appeal_explain") }),
      h("label", { for: "appeal-text", class: "report-words", text: t("appeal_words") }),
      words,
      h("div", { class: "modal-buttons" }, h("button", { type: "button", id: "appeal-stay", class: "primary", text: t("cancel"), onclick: close }), send),
    ),
  );
  document.addEventListener("keydown", modalKey);
  document.body.append(backdrop);
  words.focus();
}
