// The table's questions before a step that cannot be taken back (leaving the table or the
// match, conceding, removing a player): one shape for all, so that each behaves alike (room.js's
// onKey makes any of them modal, as it does the host's settings: Escape is its first button, Tab
// stays inside it).
import { h } from "./dom.js";

/** A modal that asks before `go`. `id` names it and its parts (`{id}-confirm`, `{id}-title`,
 * `{id}-stay`, `{id}-go`); the button that keeps things as they are comes first. */
export function confirmDialog(id, { title, text, stay, go, danger = false, dataset, close, confirm }) {
  return h(
    "div",
    { class: "modal-backdrop", id: `${id}-confirm`, dataset },
    h(
      "div",
      { class: "modal", role: "alertdialog", "aria-modal": "true", "aria-labelledby": `${id}-title` },
      h("h3", { id: `${id}-title`, text: title }),
      h("p", { text }),
      h(
        "div",
        { class: "modal-buttons" },
        h("button", { type: "button", id: `${id}-stay`, class: "primary", text: stay, onclick: close }),
        h("button", { type: "button", id: `${id}-go`, class: danger ? "danger" : null, text: go, onclick: confirm }),
      ),
    ),
  );
}
