// The questions before a step that cannot be taken back (leaving the table or the match,
// conceding, removing a player, deleting an account): one shape for all, so that each behaves
// alike, and one keyboard for every open dialog (`modalKey`, the host's settings included:
// Escape is its first button, Tab stays inside it).
import { h } from "./dom.js";
import { showError } from "./ui.js";

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

/** The last question before a step that cannot be taken back (erasing an account, calling a
 * tournament off): resolves to true to go on. Escape, or the first button, keeps things as they
 * are, and Tab stays in the question (`modalKey`); it takes the focus, so that Enter does not go
 * on by accident. */
export function askFirst(id, { title, text, stay, go }) {
  return new Promise((resolve) => {
    const answer = (yes) => {
      document.removeEventListener("keydown", modalKey);
      dialog.remove();
      resolve(yes);
    };
    const dialog = confirmDialog(id, { title, text, stay, go, danger: true, close: () => answer(false), confirm: () => answer(true) });
    document.addEventListener("keydown", modalKey);
    document.body.append(dialog);
    dialog.querySelector(`#${id}-stay`).focus();
  });
}

/** A modal that asks for words and sends them (reporting a player, appealing a suspension):
 * `fields` are its form's elements, `send()` is awaited when the player confirms — the dialog
 * closes when it resolves (unless to `false`: nothing was sent), and when it throws says why
 * and stays open, its button usable again. Escape or the first button cancels; the focus goes
 * back where it was. `id` names it and its parts as `confirmDialog` does. Returns the
 * dialog's element. */
export function sendDialog(id, { title, explain, fields, go, cancel, send }) {
  document.getElementById(`${id}-confirm`)?.remove();
  const before = document.activeElement;
  // The keyboard of `modalKey`, unless the page's own handler gave it already (the room's).
  const keys = (event) => event.defaultPrevented || modalKey(event);
  const close = () => {
    document.removeEventListener("keydown", keys);
    backdrop.remove();
    if (before && before.isConnected) before.focus();
  };
  const button = h("button", { type: "button", id: `${id}-go`, text: go });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if ((await send()) !== false) close();
    } catch (error) {
      showError(error); // the dialog stays for another try
    } finally {
      button.disabled = false;
    }
  });
  const backdrop = h(
    "div",
    { class: "modal-backdrop", id: `${id}-confirm` },
    h(
      "div",
      { class: "modal report", role: "dialog", "aria-modal": "true", "aria-labelledby": `${id}-title` },
      h("h3", { id: `${id}-title`, text: title }),
      h("p", { class: "muted", text: explain }),
      fields,
      h("div", { class: "modal-buttons" }, h("button", { type: "button", id: `${id}-stay`, class: "primary", text: cancel, onclick: close }), button),
    ),
  );
  document.addEventListener("keydown", keys);
  document.body.append(backdrop);
  return backdrop;
}

function focusables(dialog) {
  return [...dialog.querySelectorAll("button, input, select, textarea, summary")].filter(
    // checkVisibility: a closed <details>' content still has boxes, and takes no focus.
    (el) => !el.disabled && el.checkVisibility() && !(el.type === "radio" && !el.checked),
  );
}

/** While a dialog is open it is modal: Escape presses its first button (what keeps things as
 * they are) and Tab goes round its own buttons and fields. True if `event` was that. */
export function modalKey(event) {
  const dialog = document.querySelector(".modal-backdrop .modal");
  if (!dialog || (event.key !== "Escape" && event.key !== "Tab")) return false;
  event.preventDefault();
  if (event.key === "Escape") dialog.querySelector("button").click();
  else {
    const items = focusables(dialog);
    const at = items.indexOf(document.activeElement);
    items[at < 0 ? 0 : (at + (event.shiftKey ? -1 : 1) + items.length) % items.length].focus();
  }
  return true;
}
