// Quick phrases (docs/protocol.md §4, `app/rooms/phrases.py`): chat lines picked from a short
// list instead of typed, sent by name; every reader sees them in their own language, so players
// who share none can still greet and thank each other, and a phone answers with one tap.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

/** The phrases' names, in the order offered: the server's list (a test keeps them equal). */
export const PHRASES = ["hello", "gl", "nice", "wp", "thanks", "sorry", "oops", "gg", "bye"];

/** What a chat line says in the reader's language: a phrase's words, else its text. */
export function lineText(line) {
  return line.phrase && PHRASES.includes(line.phrase) ? t(`phrase_${line.phrase}`) : line.text;
}

/** Fill `box` (a <details>) with the phrases as buttons, each handed to `say(name)`. */
export function phraseButtons(box, say) {
  const open = box.open;
  replace(
    box,
    h("summary", { text: t("phrases") }),
    h(
      "div",
      { class: "phrase-list" },
      PHRASES.map((name) => h("button", { type: "button", class: "phrase", dataset: { phrase: name }, text: t(`phrase_${name}`), onclick: () => say(name) })),
    ),
  );
  box.open = open;
}
