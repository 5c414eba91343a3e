// A room's settings as form controls: the house rules of a preset, the target, the turn timer,
// the pause after a deal, who may find the room and who may sit, the level of its bots. The lobby's "create"
// form and the host's "Settings" dialog at the table (room.js) show the same controls, read the
// same way, so that a room is set up alike before and after it exists; a new tournament's form
// (tournaments.js) shows the house rules and the target for its tables.
import { h, replace } from "./dom.js";
import { houseRuleHelp, houseRuleName, houseRuleValue, t } from "./i18n.js";
import { getPlayer } from "./identity.js";

const TURN_CHOICES = [0, 15, 30, 60, 120];
const PAUSE_CHOICES = [0, 5, 10, 20, 30, 60];
// Not `random` (the API's level for tests): no player wants bots that play at random.
const BOT_LEVELS = ["basic", "strong", "expert"];

/** A select of seconds (0: off) holding `value` even where it is not one of `choices` (a room
 * made through the API may have any timer). */
function secondsSelect(id, name, choices, value) {
  const all = choices.includes(value) ? choices : [...choices, value].sort((a, b) => a - b);
  const select = h(
    "select",
    { id, name },
    all.map((n) => h("option", { value: String(n), text: n ? t("seconds", { n }) : t("timer_off") })),
  );
  select.value = String(value);
  return select;
}

/**
 * The controls of `rules` (`GET /api/rules`), set to `initial` (a ROOM's fields, or the
 * lobby's defaults). `prefix` keeps ids apart where two forms could meet. Returns the controls
 * to place, `fillHouseRules(preset, values)` (the house rules of a preset, at `values` or
 * their defaults) and `read()`: the settings as the API takes them.
 */
export function settingsControls(rules, initial, prefix = "") {
  const houseBox = h("div", { class: "house-rules" });
  const target = h("input", { id: `${prefix}target`, name: "target", type: "number", min: "1", max: "100000", inputmode: "numeric" });
  if (initial.target) target.value = String(initial.target);
  const turn = secondsSelect(`${prefix}turn`, "turn", TURN_CHOICES, initial.turn_seconds);
  const pause = secondsSelect(`${prefix}deal-pause`, "deal_pause", PAUSE_CHOICES, initial.deal_pause_seconds);
  const levels = BOT_LEVELS.includes(initial.bot_level) ? BOT_LEVELS : [...BOT_LEVELS, initial.bot_level];
  const botLevel = h(
    "select",
    { id: `${prefix}bot-level`, name: "bot_level" },
    levels.map((level) => h("option", { value: level, text: t(`bot_${level}`) })),
  );
  botLevel.value = initial.bot_level;
  // The expert level needs a word more than its name: what it adds, and where it does not.
  const botLevelHelp = h("p", { class: "explain", id: `${prefix}bot-level-help` });
  const explainLevel = () => {
    botLevelHelp.textContent = botLevel.value === "expert" ? t("bot_expert_help") : "";
    botLevelHelp.hidden = botLevel.value !== "expert";
  };
  botLevel.addEventListener("change", explainLevel);
  explainLevel();
  const visibilityName = `${prefix}visibility`;
  const radio = (value) =>
    h("label", {}, h("input", { type: "radio", name: visibilityName, value, checked: initial.public === (value === "public") }), " ", t(value));
  const visibility = h("fieldset", { class: "inline" }, h("legend", { text: t("visibility") }), radio("private"), radio("public"));
  // A guest may not keep a table for accounts (the server answers `accounts_only`): they sit
  // at it themselves and could not sit again once up.
  const accountsOnlyBox = h("input", {
    type: "checkbox",
    id: `${prefix}accounts-only`,
    name: "accounts_only",
    checked: Boolean(initial.accounts_only),
    disabled: !getPlayer()?.username && !initial.accounts_only,
  });
  const accountsOnly = h("label", { class: "check" }, accountsOnlyBox, " ", t("accounts_only_room"));

  let preset = null;
  function fillHouseRules(p, values = {}) {
    preset = p;
    const table = rules.tables ? rules.tables[p] : null;
    target.placeholder = t("target_default", { n: table ? table.target : p === "french" ? 1000 : 151 });
    replace(
      houseBox,
      rules.house_rules
        .filter((rule) => rule.presets.includes(p))
        .map((rule) => {
          const id = `${prefix}hr-${rule.name}`;
          const value = rule.name in values ? values[rule.name] : rule.default;
          let control;
          if (typeof rule.default === "boolean") {
            control = h("input", { type: "checkbox", id, name: rule.name, checked: value });
          } else {
            control = h("select", { id, name: rule.name }, rule.choices.map((c) => h("option", { value: String(c), text: houseRuleValue(c) })));
            control.value = String(value);
          }
          return h(
            "div",
            { class: `house-rule ${typeof rule.default === "boolean" ? "" : "choice"}` },
            control,
            h("label", { for: id }, h("span", { class: "rule-name", text: houseRuleName(rule) }), h("span", { class: "rule-id", text: ` (${rule.rule})` })),
            h("p", { class: "explain", text: houseRuleHelp(rule) }),
          );
        }),
    );
  }

  /** The settings as the API takes them; a house rule at its default is left out. */
  function read() {
    const house = {};
    for (const rule of rules.house_rules.filter((r) => r.presets.includes(preset))) {
      const el = houseBox.querySelector(`#${prefix}hr-${rule.name}`);
      const value = typeof rule.default === "boolean" ? el.checked : el.value;
      if (value !== rule.default) house[rule.name] = value;
    }
    return {
      house_rules: house,
      target: target.value ? Number(target.value) : null,
      public: visibility.querySelector("input:checked").value === "public",
      turn_seconds: Number(turn.value),
      deal_pause_seconds: Number(pause.value),
      bot_level: botLevel.value,
      accounts_only: accountsOnlyBox.checked,
    };
  }

  /** A rated room keeps a turn timer (the server says `rated_needs_clock` otherwise): "No
   * timer" is not offered while `on`. */
  function requireClock(on) {
    turn.querySelector('option[value="0"]').disabled = on;
    if (on && turn.value === "0") turn.value = "30";
  }

  const field = (id, label, ...controls) => h("div", { class: "field" }, h("label", { for: `${prefix}${id}`, text: t(label) }), ...controls);
  /** The game: its house rules and the match's target (a tournament's tables take these). */
  const ruleFields = () => [
    h("details", { class: "field" }, h("summary", { text: t("house_rules") }), houseBox),
    field("target", "target", target),
  ];
  /** The game and its pace, each control under its label. */
  const gameFields = () => [...ruleFields(), field("turn", "turn_timer", turn), field("deal-pause", "deal_pause", pause)];
  const botField = () => field("bot-level", "bot_level", botLevel, botLevelHelp);

  return { visibility, accountsOnly, ruleFields, gameFields, botField, fillHouseRules, requireClock, read };
}
