// "How to play" (#/rules/PRESET): one game's rules in the reader's language, as the server plays
// them with every house rule at its default — the table, the cards' order and points and the
// declarations' values (drawn from GET /api/rules, so the engine's own numbers), the dealing and
// bidding, the play, the declarations and the scoring — then the house rules a host may set.
// The paragraphs are i18n-rules.js's; each sums up the docs/rules.md ids listed beside it here.
import { get } from "./api.js";
import { append, clear, h } from "./dom.js";
import { houseRuleHelp, houseRuleName, t } from "./i18n.js";
import { presetTabs } from "./ratings.js";
import { failureText } from "./ui.js";

const BULGARIAN_PLAY = ["rl_play_lead", "rl_play_follow"]; // C-7, BG-8
const BULGARIAN_DECLARATIONS = ["rl_decl_how", "rl_decl_best", "rl_belote_bg"]; // BG-12..BG-20
const BULGARIAN_SCORING = ["rl_score_total", "rl_score_made", "rl_score_contra", "rl_score_mp", "rl_score_valat", "rl_score_end"]; // BG-21..BG-27

// Each game's paragraphs, section by section (a [key, values] pair where a paragraph has a number).
const GAMES = {
  bulgarian: {
    cards: ["rl_cards_bg"], // C-3, C-4, BG-10, BG-11, BG-21
    deal: ["rl_deal_bulgarian", "rl_bid_bg", ["rl_bid_end_many", { n: 3 }]], // BG-3..BG-7
    play: [...BULGARIAN_PLAY, "rl_play_partner", "rl_play_other"], // BG-9..BG-11
    declarations: BULGARIAN_DECLARATIONS,
    scoring: BULGARIAN_SCORING,
  },
  bulgarian3: {
    sides: true, // BGN-3
    cards: ["rl_cards_bg", "rl_cards_24"], // BG3-1, BG3-2
    deal: ["rl_deal_bulgarian3", "rl_bid_bg", ["rl_bid_end_many", { n: 2 }]], // BG3-3, BG3-5, BG3-6
    play: [...BULGARIAN_PLAY, "rl_play_alone", "rl_play_other"], // BG3-8, BGN-4
    declarations: BULGARIAN_DECLARATIONS, // BG3-10, BG3-11
    scoring: ["rl_score_total", "rl_score_made_bg3", "rl_score_contra_bg3", "rl_score_mp", "rl_score_valat", "rl_score_end"], // BG3-12..BG3-22
  },
  bulgarian2: {
    sides: true,
    cards: ["rl_cards_bg", "rl_cards_24"], // BG2-1
    deal: ["rl_deal_bulgarian2", "rl_bid_bg", "rl_bid_end_one"], // BG2-2..BG2-5
    play: [...BULGARIAN_PLAY, "rl_play_alone", "rl_play_other"], // BG2-7
    declarations: BULGARIAN_DECLARATIONS, // BG2-8
    scoring: BULGARIAN_SCORING, // BG2-9..BG2-12
  },
  open_belot: {
    sides: true,
    cards: ["rl_cards_bg"], // OB-1
    deal: ["rl_deal_open_belot", "rl_bid_bg", "rl_bid_end_one"], // OB-2..OB-8
    play: ["rl_play_lead", "rl_play_ob", "rl_play_follow", "rl_play_alone", "rl_play_other"], // OB-9..OB-12
    declarations: ["rl_decl_how", "rl_decl_ob", "rl_decl_best", "rl_belote_bg"], // OB-13..OB-16
    scoring: BULGARIAN_SCORING, // OB-17, OB-18
  },
  french: {
    cards: ["rl_cards_fr"], // C-3, C-4, FR-9
    deal: ["rl_deal_french", "rl_bid_fr"], // FR-2..FR-4
    play: [...BULGARIAN_PLAY, "rl_play_partner"], // FR-5, FR-6
    declarations: ["rl_decl_fr"], // FR-7, FR-8
    scoring: ["rl_score_fr_total", "rl_score_fr_made", "rl_score_fr_end"], // FR-9..FR-13
  },
};

const rankName = (rank) => t(`rank_${rank}`);

/** A two-column table: what (its column headed `what`), and its points. */
function pointsTable(what, rows) {
  return h(
    "table",
    { class: "history-table rules-points" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: what }), h("th", { scope: "col", class: "num", text: t("rl_points") }))),
    h("tbody", {}, rows.map(([name, points]) => h("tr", {}, h("th", { scope: "row", text: name }), h("td", { class: "num", text: String(points) })))),
  );
}

function paragraphs(keys, values) {
  return keys.map((key) => {
    const [name, own] = Array.isArray(key) ? key : [key, {}];
    return h("p", { dataset: { key: name }, text: t(name, { ...values, ...own }) });
  });
}

function section(id, title, ...children) {
  return h("section", { class: "rules-section", id: `rules-${id}` }, h("h3", { text: t(title) }), ...children);
}

function draw(box, rules, preset) {
  const game = GAMES[preset];
  const table = rules.tables[preset];
  const cards = rules.cards;
  const values = { last: cards.last_trick, belote: cards.belote, valat: cards.valat_mp, target: table.target };
  const inDeck = ({ rank }) => table.ranks.includes(rank);
  const ranks = (suit) => suit.filter(inDeck).map((c) => [rankName(c.rank), c.points]);
  const declarations = [
    ...cards.sequences.map((s) => [t(`kind_${s.kind}`), s.points]),
    ...cards.carres.filter(inDeck).map((c) => [t("rl_carre_of", { rank: rankName(c.rank) }), c.points]),
    [t("belote_line"), cards.belote],
  ];
  const house = rules.house_rules.filter((rule) => rule.presets.includes(preset));
  append(box, [
    h("h2", { text: t("rl_title") }),
    presetTabs(rules.presets, preset, "#/rules/"),
    h("p", { class: "rules-intro", text: t("rl_intro", { preset: t(`preset_${preset}`) }) }),
    game.sides ? h("p", { text: t("rl_sides_small") }) : null,
    section("cards", "rl_cards", h("div", { class: "rules-tables" }, pointsTable(t("rl_trumps"), ranks(cards.trump)), pointsTable(t("rl_plain"), ranks(cards.plain))), ...paragraphs(game.cards, values)),
    section("deal", "rl_deal", ...paragraphs(game.deal, values)),
    section("play", "rl_play", ...paragraphs(game.play, values)),
    section("declarations", "rl_decl", h("div", { class: "rules-tables" }, pointsTable(t("rl_kind"), declarations)), ...paragraphs(game.declarations, values)),
    section("scoring", "rl_score", ...paragraphs(game.scoring, values)),
    house.length
      ? section(
          "house",
          "rl_house",
          h("p", { text: t("rl_house_intro") }),
          h("dl", { class: "rules-house" }, house.map((rule) => h("div", { dataset: { rule: rule.name } }, h("dt", { text: houseRuleName(rule) }), h("dd", { text: houseRuleHelp(rule) })))),
        )
      : null,
  ]);
}

export function showRules(app, preset) {
  const box = h("section", { class: "panel wide rules", id: "rules", dataset: { preset } }, h("p", { class: "muted", text: t("loading") }));
  app.append(box);
  get("/api/rules")
    .then((rules) => {
      clear(box);
      if (!GAMES[preset] || !rules.presets.includes(preset)) {
        box.append(h("p", { class: "muted", text: failureText({ code: "bad_rules" }) }), presetTabs(rules.presets, null, "#/rules/"));
        return;
      }
      draw(box, rules, preset);
    })
    .catch((error) => clear(box).append(h("p", { class: "muted", text: failureText(error) })));
  return {};
}
