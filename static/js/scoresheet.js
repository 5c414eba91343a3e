// The scoresheet as kept on paper (one column per side: us / them at four, each player at three
// or two; one line per deal, dashes, hanging points, totals) and the itemised score of one deal,
// exactly as the server's breakdown gives it.
import { h } from "./dom.js";
import { labelled, t } from "./i18n.js";
import { cardText, SUIT_OF_NAME, SUIT_SYMBOL } from "./cards.js";

export function contractLabel(contract, multiplier = 1) {
  if (!contract) return t("no_contract");
  const suit = SUIT_OF_NAME[contract];
  const name = t(`bid_${contract}`);
  const text = suit ? `${SUIT_SYMBOL[suit]} ${name}` : name;
  return multiplier > 1 ? `${text} ${t("x_mult", { n: multiplier })}` : text;
}

export function contractBadge(contract, multiplier = 1) {
  const suit = SUIT_OF_NAME[contract];
  const red = suit === "H" || suit === "D";
  return h("span", { class: `contract ${red ? "red" : ""} ${suit ? `suit-${suit}` : ""}`, text: contractLabel(contract, multiplier) });
}

const mpText = (value) => (value === null || value === undefined ? t("dash") : String(value));

/** `order`: the sides in the order of the columns (the viewer's first); `teamNames[side]`;
 * `players`: the sides are players (three or two at the table), not teams. */
export function scoresheetTable(sheet, order, teamNames, players = false) {
  const legend = players ? t("taker_legend_player") : t("taker_legend");
  const rows = sheet.lines.map((line, i) => {
    const notes = [];
    if (line.void) notes.push(h("span", { class: "note", text: t("void_deal") }));
    else notes.push(contractBadge(line.contract, line.multiplier));
    if (line.valat_team !== null && line.valat_team !== undefined) notes.push(h("span", { class: "note valat", text: t("valat_mark") }));
    if (line.hanging_out) notes.push(h("span", { class: "note hanging", text: t("hanging_mark", { n: line.hanging_out }) }));
    const cell = (team) => {
      const value = line.mp[team];
      const taker = !line.void && line.contracting_team === team;
      return h("td", { class: `num ${value === null ? "dash" : ""} ${taker ? "taker" : ""}`.trim(), title: taker ? legend : null, text: mpText(value) });
    };
    // Notes are words side by side: a space between them ("♥ Hearts valat", not "Heartsvalat").
    const spaced = notes.flatMap((note, j) => (j ? [" ", note] : [note]));
    return h("tr", { class: line.void ? "void" : "" }, h("td", { class: "n", text: String(i + 1) }), order.map(cell), h("td", { class: "notes" }, spaced));
  });
  const winner = sheet.finished && sheet.winner !== null && sheet.winner !== undefined ? sheet.winner : null;
  const underlined = sheet.lines.some((line) => !line.void && line.contracting_team !== null && line.contracting_team !== undefined);
  return h(
    "table",
    { class: "scoresheet", dataset: { finished: String(Boolean(sheet.finished)), columns: String(order.length) } },
    underlined ? h("caption", { class: "legend", text: legend }) : null,
    h(
      "thead",
      {},
      h("tr", {}, h("th", { text: t("deal_col") }), order.map((side) => h("th", { class: "side-col", text: teamNames[side] })), h("th", { class: "notes" }, h("span", { class: "sr-only", text: t("contract") }))),
    ),
    h("tbody", {}, rows),
    h(
      "tfoot",
      {},
      h(
        "tr",
        { class: "totals" },
        h("th", { text: t("totals") }),
        order.map((side) => h("td", { class: `num ${winner === side ? "winner" : ""}`, text: String(sheet.scores[side]) })),
        h("td", { class: "notes" }, sheet.hanging ? h("span", { class: "note hanging", text: t("hanging_mark", { n: sheet.hanging }) }) : null, h("span", { class: "note", text: `/ ${sheet.target}` })),
      ),
      winner !== null
        ? h(
            "tr",
            { class: "winner-row" },
            h(
              "td",
              { colspan: String(order.length + 2), class: "winner" },
              t("winner_is", { team: teamNames[winner] }),
              typeof sheet.conceded === "number" ? h("span", { class: "note conceded", id: "sheet-conceded", text: ` (${t("conceded_team", { team: teamNames[sheet.conceded] })})` }) : null,
            ),
          )
        : null,
    ),
  );
}

const pick = (values, order) => order.map((side) => values[side]);

/** The itemised result of a deal (the deal view's `result`, or a history deal's), one column
 * per side in `order`. */
export function breakdownTable(result, order, teamNames, seatName) {
  if (result.void) {
    const b = result.breakdown || {};
    return h(
      "div",
      { class: "breakdown" },
      h("p", { text: t("void_result") }),
      b.hanging_out ? h("p", { text: `${labelled(t("hanging_out"))} ${b.hanging_out}` }) : null,
    );
  }
  const b = result.breakdown;
  const teams = pick(b.teams, order);
  const row = (label, cells, cls = "") =>
    h("tr", { class: cls }, h("th", { scope: "row", text: label }), cells.map((c) => h("td", { class: "num" }, c)));
  const rows = [];
  rows.push(
    row(t("contract"), order.map((side) => (side === result.contracting_team ? contractBadge(result.contract, result.multiplier) : "")), "contract-row"),
  );
  rows.push(row(t("card_points"), teams.map((team) => String(team.card_points))));
  rows.push(row(t("last_trick_bonus"), teams.map((team) => String(team.last_trick))));
  if (teams.some((team) => team.doubled)) rows.push(row(t("doubled"), teams.map((team) => (team.doubled ? "×2" : ""))));
  if (teams.some((team) => team.capot)) rows.push(row(t("capot"), teams.map((team) => (team.capot ? "✓" : ""))));
  const decl = (team) =>
    team.declarations.map((d) =>
      h(
        "div",
        { class: "decl" },
        h("span", { text: `${labelled(seatName(d.seat))} ${t(`kind_${d.kind}`)} ` }),
        d.cards.map((c) => cardText(c)),
        h("span", { text: ` ${d.points}` }),
      ),
    );
  if (teams.some((team) => team.declarations.length)) rows.push(row(t("declarations"), teams.map(decl)));
  const bel = (team) => team.belote.map((x) => h("div", { text: `${labelled(seatName(x.seat))} ${x.points}` }));
  if (teams.some((team) => team.belote.length)) rows.push(row(t("belote_line"), teams.map(bel)));
  rows.push(row(t("total"), teams.map((team) => String(team.total)), "total-row"));
  rows.push(row(t("tricks"), teams.map((team) => String(team.tricks))));

  const facts = [];
  const fact = (label, value) => facts.push(h("div", { class: "fact" }, h("dt", { text: label }), h("dd", {}, value)));
  fact(t("outcome"), t(`outcome_${b.outcome}`));
  fact(t("multiplier"), t("x_mult", { n: b.multiplier }));
  if (b.valat) fact(t("valat"), `${teamNames[b.valat.team]} +${b.valat.match_points}`);
  const r = b.rounding || {};
  const parts = [];
  const fmt = (arr) => (arr.length === teams.length ? pick(arr, order) : arr).map(mpText).join(" : ");
  if (r.totals) parts.push(fmt(r.totals));
  if (r.sum !== undefined) parts.push(t("rounding_sum", { sum: r.sum }));
  if (r.match_points) parts.push(fmt(r.match_points));
  if (r.points) parts.push(fmt(r.points));
  if (r.rounded_to_tens) parts.push(fmt(r.rounded_to_tens));
  if (parts.length) fact(t("rounding"), parts.join(" → "));
  if (b.hanging_in && b.hanging_in.points) {
    fact(t("hanging_in"), `${b.hanging_in.points} ${t("to_team", { team: teamNames[b.hanging_in.awarded_to] })}`);
  }
  if (b.hanging_out) fact(t("hanging_out"), String(b.hanging_out));
  if (b.kirtik && b.kirtik.length) fact(t("kirtik"), b.kirtik.map((k) => `${teamNames[k.team]} ${k.match_points}`).join(", "));
  fact(t("match_points"), fmt(result.mp));

  return h(
    "div",
    { class: "breakdown" },
    h(
      "table",
      { class: "breakdown-table" },
      // Each header named, the row headers' too, for a screen reader (its text hidden).
      h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "sr-only", text: t("score") })), order.map((side) => h("th", { text: teamNames[side] })))),
      h("tbody", {}, rows),
    ),
    h("dl", { class: "facts" }, facts),
  );
}
