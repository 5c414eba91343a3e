// Leaving a match and conceding it (docs/protocol.md, `leave` and `concede`): the table's two
// buttons, the dialog that asks before either, and the scoresheet of a conceded match.
import { confirmDialog } from "./dialog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const side = (seat) => seat % 2; // the side that concedes together: the seat's team

/** The buttons (and the state of an offer to concede) for a seated player during a match.
 * `ask(kind)` opens the dialog; `command(type, data)` sends; `name(seat)` labels a seat. */
export function exitControls({ room, seat, ask, command, name }) {
  if (room.status !== "playing" || seat === null || seat === undefined) return null;
  const offers = room.concede || [];
  const mine = offers.includes(seat);
  const partner = offers.find((s) => s !== seat && side(s) === side(seat));
  const parts = [];
  if (mine) {
    parts.push(
      h("p", { class: "concede-note", id: "concede-note", role: "status", text: t("concede_offered") }),
      h("button", { type: "button", id: "concede-withdraw", text: t("concede_withdraw"), onclick: () => command("concede", { on: false }) }),
    );
  } else {
    if (partner !== undefined) parts.push(h("p", { class: "concede-note", id: "concede-note", role: "status", text: t("concede_partner", { name: name(partner) }) }));
    parts.push(h("button", { type: "button", id: "concede", class: partner !== undefined ? "primary" : "", text: t("concede"), onclick: () => ask("concede") }));
  }
  parts.push(h("button", { type: "button", id: "leave-match", text: t("leave_match"), onclick: () => ask("leave") }));
  return h("div", { class: "exit-controls", id: "exit-controls" }, parts);
}

/** Asks before leaving (`kind` "leave") or conceding ("concede"); `confirm()` does it. */
export function exitDialog(kind, { close, confirm }) {
  if (kind === null) return null;
  const leave = kind === "leave";
  return confirmDialog("exit", {
    title: t(leave ? "leave_match_title" : "concede_title"),
    text: t(leave ? "leave_match_text" : "concede_text"),
    stay: t("stay"),
    go: t(leave ? "leave_match" : "concede"),
    danger: true,
    dataset: { kind },
    close,
    confirm,
  });
}

/** The live scoresheet of a room whose match was conceded: over, won by the other side. (The
 * engine's sheet cannot know; the room says which team conceded.) */
export function withConcession(sheet, room) {
  if (!room || room.conceded === null || room.conceded === undefined) return sheet;
  const base = sheet || { lines: [], scores: [0, 0], hanging: 0, target: room.target }; // before any deal ended
  return { ...base, finished: true, winner: 1 - room.conceded, conceded: room.conceded };
}

/** The verdict line of a conceded match, for a player of team `us` (null: a visitor). */
export function concededText(conceded, us, teamNames) {
  if (us === null || us === undefined) return t("conceded_team", { team: teamNames[conceded] });
  return conceded === us ? t("conceded_us") : t("conceded_them");
}
