// Reporting a player to the site's operator (docs/protocol.md §1, `POST /api/players/{id}/reports`):
// why (one of four reasons) and, if the reporter likes, in their own words. The operator alone
// reads it, with the player's last chat lines at this table; the player is not told. A modal
// like the others: dialog.js's keyboard (Escape cancels, Tab stays inside).
import { post } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { showError, toast } from "./ui.js";

const REASONS = ["chat", "name", "play", "other"];
const TEXT_MAX = 500;

/** Ask why `person` (`{id, name}`) is reported at the table `code`, then send it. */
export function openReport(person, code) {
  document.getElementById("report-confirm")?.remove();
  const before = document.activeElement;
  const close = () => {
    backdrop.remove();
    if (before && before.isConnected) before.focus();
  };
  const choices = REASONS.map((reason, i) =>
    h("label", { class: "pref" }, h("input", { type: "radio", name: "report-reason", id: `report-${reason}`, value: reason, checked: i === 0 }), " ", t(`report_${reason}`)),
  );
  const words = h("textarea", { id: "report-text", maxlength: String(TEXT_MAX), rows: "3" });
  const send = h("button", { type: "button", id: "report-go", text: t("report_send") });
  send.addEventListener("click", async () => {
    const reason = backdrop.querySelector("input[name='report-reason']:checked").value;
    send.disabled = true;
    try {
      await post(`/api/players/${encodeURIComponent(person.id)}/reports`, { reason, room: code, text: words.value.trim() || null });
      close();
      toast(t("report_sent", { name: person.name }));
    } catch (error) {
      send.disabled = false;
      showError(error);
    }
  });
  const backdrop = h(
    "div",
    { class: "modal-backdrop", id: "report-confirm" },
    h(
      "div",
      { class: "modal report", role: "dialog", "aria-modal": "true", "aria-labelledby": "report-title" },
      h("h3", { id: "report-title", text: t("report_title", { name: person.name }) }),
      h("p", { class: "muted", text: t("report_explain", { name: person.name }) }),
      h("fieldset", { class: "report-reasons" }, h("legend", { text: t("report_why") }), choices),
      h("label", { for: "report-text", class: "report-words", text: t("report_words") }),
      words,
      h("div", { class: "modal-buttons" }, h("button", { type: "button", id: "report-stay", class: "primary", text: t("cancel"), onclick: close }), send),
    ),
  );
  document.body.append(backdrop);
  backdrop.querySelector("input:checked").focus();
}
