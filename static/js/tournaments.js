// Tournaments, knockout and Swiss (docs/protocol.md §9): #/tournaments lists them and makes
// one; #/tournaments/ID is one tournament — its entrants while it takes entries (enter,
// withdraw; its host starts it or calls it off), then its matches round by round (a Swiss
// one's standings above them), your table while you play, and its champion. The server opens
// each match's table and reads its result; this page asks how the tournament stands every few
// seconds while it is not over.
import { api, get, post } from "./api.js";
import { askFirst } from "./dialog.js";
import { append, clear, h } from "./dom.js";
import { getPlayer } from "./identity.js";
import { houseRulesText, lang, t } from "./i18n.js";
import { nameForm } from "./lobby.js";
import { whenShown } from "./poll.js";
import { isMuted } from "./mute.js";
import { settingsControls } from "./settings-form.js";
import { seatsOfRules, teamsPlay } from "./sides.js";
import { accountNote, dots, failureText, go, linkButtons, pageTokenRefused, showError, toast } from "./ui.js";

const SIZES = [4, 8, 16, 32];
const FORMATS = ["knockout", "swiss"];
const SWISS_ROUNDS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const CHECK_IN_MINUTES = [5, 10, 15, 30, 60]; // within the server's 5 to 60 (docs/protocol.md §9)
// How far ahead a start time may be (the server's bounds, docs/protocol.md §9).
const START_SOONEST_MS = 60_000;
const START_LATEST_MS = 30 * 24 * 3600_000;
const when = (iso) => new Date(iso).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
/** Whether a tournament's check-in is open by the reader's clock (the server has the last word). */
const checkInOpen = (tn) => tn.status === "registering" && tn.check_in_opens_at !== null && Date.parse(tn.check_in_opens_at) <= Date.now();
const POLL_MS = 3000;
const OVER = new Set(["finished", "cancelled"]);

/** A tournament is played by a game of two sides: not by the game for three. */
const tournamentGames = (presets) => presets.filter((p) => p !== "bulgarian3");

const unitName = (unit, pairs) => {
  const names = unit.map((e) => e.name || t("deleted_player"));
  if (pairs && names.length === 1) names.push(t("bot"));
  return names.join(" & ");
};

/** "Final", "Semi-finals", "Quarter-finals", else "Round N" (from 1). */
function roundName(round, rounds) {
  const left = rounds - round;
  if (left === 1) return t("tn_final");
  if (left === 2) return t("tn_semis");
  if (left === 3) return t("tn_quarters");
  return t("tn_round", { n: round + 1 });
}

const statusText = (status) => t(`tn_status_${status}`);

function nameNeeded() {
  toast(t("name_needed"), { kind: "error", code: "name_needed" });
}

export function showTournaments(app) {
  const list = h("div", { id: "tournament-list" }, h("p", { class: "muted", text: t("loading") }));
  const form = h("form", { class: "tn-form", id: "tournament-form" });
  const naming = getPlayer() ? null : nameForm(() => go(location.hash)); // a name makes one
  app.append(
    h(
      "section",
      { class: "panel wide", id: "tournaments" },
      h("h2", { text: t("tn_title") }),
      h("p", { class: "muted", text: t("tn_explain") }),
      list,
    ),
    h("section", { class: "panel", id: "tournament-new" }, h("h2", { text: t("tn_new") }), naming, form),
  );
  const player = getPlayer();
  get("/api/rules")
    .then((rules) => newForm(form, rules))
    .catch(() => {});
  get("/api/tournaments")
    .then(({ tournaments }) => {
      clear(list);
      if (!tournaments.length) {
        list.append(h("p", { class: "muted", id: "no-tournaments", text: t("tn_none") }));
        return;
      }
      const row = (tn) =>
        h(
          "tr",
          { dataset: { tournament: tn.id, status: tn.status } },
          h("td", {}, h("a", { href: `#/tournaments/${encodeURIComponent(tn.id)}`, text: tn.name })),
          h("td", { text: [t(`preset_${tn.preset}`), tn.format === "swiss" ? t("tn_format_swiss") : null, tn.rated ? t("tn_rated_fact") : null].filter(Boolean).join(" · ") }),
          h("td", { class: "num", text: `${tn.entrants.length}/${tn.size}` }),
          h("td", { text: statusText(tn.status) }),
        );
      list.append(
        h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "history-table tournament-table" },
            h("thead", {}, h("tr", {}, h("th", { text: t("tn_name") }), h("th", { text: t("preset") }), h("th", { class: "num", text: t("tn_entrants") }), h("th", { text: t("tn_state") }))),
            h("tbody", {}, tournaments.map(row)),
          ),
        ),
      );
    })
    .catch((error) => {
      if (!pageTokenRefused(player, error)) clear(list).append(h("p", { class: "muted", text: failureText(error) }));
    });
  return {};
}

/** The form that makes a tournament: its name, its format (a Swiss one's rounds), the game
 * every table plays (the preset, its house rules and target: the lobby's controls), the most
 * entrants. */
function newForm(form, rules) {
  const name = h("input", { id: "tn-name", name: "tn_name", maxlength: "32", required: true, autocomplete: "off" });
  const preset = h("select", { id: "tn-preset", name: "tn_preset" }, tournamentGames(rules.presets).map((p) => h("option", { value: p, text: t(`preset_${p}`) })));
  // Only the house rules and the target are placed: a table's clock and pace are the server's.
  const game = settingsControls(rules, { target: null, turn_seconds: 0, deal_pause_seconds: 0, bot_level: "basic", public: false }, "tn-");
  preset.addEventListener("change", () => game.fillHouseRules(preset.value));
  game.fillHouseRules(preset.value);
  const format = h("select", { id: "tn-format", name: "tn_format" }, FORMATS.map((f) => h("option", { value: f, text: t(`tn_format_${f}`) })));
  const formatHelp = h("p", { class: "explain", id: "tn-format-help" });
  const rounds = h("select", { id: "tn-rounds", name: "tn_rounds" }, SWISS_ROUNDS.map((n) => h("option", { value: String(n), text: String(n) })));
  rounds.value = "3";
  const roundsField = h("div", { class: "field" }, h("label", { for: "tn-rounds", text: t("tn_rounds") }), rounds);
  const showFormat = () => {
    formatHelp.textContent = t(`tn_format_${format.value}_help`);
    roundsField.hidden = format.value !== "swiss";
  };
  format.addEventListener("change", showFormat);
  showFormat();
  const size = h("select", { id: "tn-size", name: "tn_size" }, SIZES.map((n) => h("option", { value: String(n), text: String(n) })));
  size.value = "8";
  // Rated tournaments are for accounts, as rated rooms are: a guest reads why, and how.
  const rated = h("input", { type: "checkbox", id: "tn-rated", name: "tn_rated", disabled: !getPlayer()?.username, "aria-describedby": "tn-rated-help" });
  const starts = h("input", { id: "tn-starts", name: "tn_starts", type: "datetime-local", "aria-describedby": "tn-starts-help" });
  // A check-in is counted back from the start time: offered once there is one.
  const checkIn = h("select", { id: "tn-check-in", name: "tn_check_in", "aria-describedby": "tn-check-in-help" }, [
    h("option", { value: "", text: t("tn_check_in_none") }),
    ...CHECK_IN_MINUTES.map((n) => h("option", { value: String(n), text: t("tn_check_in_minutes", { n }) })),
  ]);
  const checkInField = h("div", { class: "field" }, h("label", { for: "tn-check-in", text: t("tn_check_in") }), checkIn, h("p", { class: "explain", id: "tn-check-in-help", text: t("tn_check_in_help") }));
  // The box shows the time in the browser's own format and language, whatever the page's:
  // the time chosen is said again beneath it in the page's words.
  const said = h("output", { id: "tn-starts-said", for: "tn-starts", class: "explain", "aria-live": "polite" });
  const showCheckIn = () => {
    checkInField.hidden = !starts.value;
    const chosen = starts.value ? new Date(starts.value) : null;
    said.textContent = chosen && !Number.isNaN(chosen.getTime()) ? t("tn_starts_said", { time: chosen.toLocaleString(lang(), { dateStyle: "full", timeStyle: "short" }) }) : "";
  };
  starts.addEventListener("input", showCheckIn);
  showCheckIn();
  const button = h("button", { type: "submit", class: "primary", id: "tn-create", text: t("tn_create") });
  append(form, [
    h("div", { class: "field" }, h("label", { for: "tn-name", text: t("tn_name") }), name),
    h("div", { class: "field" }, h("label", { for: "tn-format", text: t("tn_format") }), format, formatHelp),
    roundsField,
    h("div", { class: "field" }, h("label", { for: "tn-preset", text: t("preset") }), preset),
    game.ruleFields(),
    h("div", { class: "field" }, h("label", { for: "tn-size", text: t("tn_size") }), size),
    h("div", { class: "field" }, h("label", { class: "check" }, rated, " ", t("tn_rated")), h("p", { class: "explain", id: "tn-rated-help", text: t("tn_rated_help") }), accountNote()),
    h("div", { class: "field" }, h("label", { for: "tn-starts", text: t("tn_starts") }), starts, said, h("p", { class: "explain", id: "tn-starts-help", text: t("tn_starts_help") })),
    checkInField,
    h("p", { class: "note", text: t("tn_new_explain") }),
    button,
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!getPlayer()) return nameNeeded();
    // The box's time is the reader's own; the server takes a moment with its offset.
    const startsAt = starts.value ? new Date(starts.value) : null;
    const ahead = startsAt ? startsAt.getTime() - Date.now() : null;
    if (startsAt && !(ahead >= START_SOONEST_MS && ahead <= START_LATEST_MS)) {
      toast(t("tn_bad_start"), { kind: "error", code: "tn_bad_start" });
      starts.focus();
      return;
    }
    button.disabled = true;
    try {
      const { house_rules, target } = game.read();
      const body = { name: name.value, format: format.value, preset: preset.value, house_rules, size: Number(size.value) };
      if (format.value === "swiss") body.rounds = Number(rounds.value);
      if (rated.checked) body.rated = true;
      if (startsAt) body.starts_at = startsAt.toISOString();
      if (startsAt && checkIn.value) body.check_in_minutes = Number(checkIn.value);
      if (target !== null) body.target = target;
      const made = await post("/api/tournaments", body);
      go(`#/tournaments/${encodeURIComponent(made.id)}`);
    } catch (error) {
      button.disabled = false;
      if (error.code === "bad_request") error.text = t("tn_bad_name");
      showError(error);
    }
  });
}

export function showTournament(app, id) {
  const box = h("section", { class: "panel wide", id: "tournament" }, h("p", { class: "muted", text: t("loading") }));
  app.append(box);
  const path = `/api/tournaments/${encodeURIComponent(id)}`;
  const player = getPlayer();
  let timer = null;
  let shown = ""; // the last state drawn: a poll that changes nothing redraws nothing

  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  // Back in view (poll.js): the next poll now, not when the browser lets the slowed timer fire;
  // an entrant waiting here in another tab learns at once that their match is on.
  const unwatchShown = whenShown(() => {
    if (!timer) return; // a poll is under way, or the tournament is over
    stop();
    poll();
  });

  async function act(method, suffix, body = method === "POST" ? {} : undefined) {
    try {
      draw(await api(method, `${path}${suffix}`, body));
    } catch (error) {
      showError(error);
    }
  }

  function draw(tn) {
    // The check-in opens by the clock, and the asks shown follow this device's mutes, neither
    // a change in the tournament: drawn again when they change.
    const text = JSON.stringify([tn, checkInOpen(tn), tn.you ? tn.you.asked_by.filter(isMuted) : []]);
    if (text === shown) return;
    shown = text;
    const me = getPlayer();
    const pairs = teamsPlay(seatsOfRules({ preset: tn.preset }));
    box.dataset.status = tn.status;
    clear(box);
    box.append(
      h("h2", { id: "tn-title", text: tn.name }),
      dots("tn-facts", [
        tn.format === "swiss" ? `${t("tn_format_swiss")}, ${t("tn_rounds_n", { n: tn.rounds })}` : t("tn_format_knockout"),
        t(`preset_${tn.preset}`),
        tn.rated ? t("tn_rated_fact") : null,
        `${t("target")} ${tn.target}`,
        houseRulesText(tn) || null,
        statusText(tn.status),
        tn.status === "registering" && tn.starts_at ? t("tn_starts_at", { time: when(tn.starts_at) }) : null,
        tn.status === "registering" && tn.check_in_opens_at ? t("tn_check_in_from", { time: when(tn.check_in_opens_at) }) : null,
        t("tn_host", { name: tn.host.name || t("deleted_player") }),
      ]),
    );
    if (tn.status === "registering") registering(tn, me, pairs);
    else bracket(tn, me, pairs);
  }

  function registering(tn, me, pairs) {
    const entered = tn.you && tn.you.entered;
    const host = me && me.id === tn.host.id;
    const checking = tn.check_in_opens_at !== null;
    const open = checkInOpen(tn);
    const waiting = t(pairs ? "tn_waiting_pairs" : "tn_waiting", { n: tn.entrants.length, size: tn.size });
    const checkedIn = tn.entrants.filter((e) => e.checked_in).length;
    const entrant = (e) =>
      h(
        "li",
        { dataset: { player: e.id, checkedIn: String(e.checked_in) } },
        h("span", { class: "tn-name", text: e.name || t("deleted_player") }),
        e.checked_in ? h("span", { class: "tn-checked", title: t("tn_checked_in") }, h("span", { "aria-hidden": "true", text: " ✓" }), h("span", { class: "sr-only", text: ` (${t("tn_checked_in")})` })) : null,
        e.partner ? h("span", { class: "tn-pair", text: ` — ${t("tn_partner_with", { name: nameOf(e.partner) })}` }) : null,
        entered && pairs && e.id !== me.id ? partnerChoice(tn, e) : null,
        // The host may take another entrant out (asked first): for good, they may not come back.
        host && e.id !== me.id ? h("button", { type: "button", class: "link tn-remove", text: t("tn_remove"), "aria-label": t("tn_remove_label", { name: e.name || t("deleted_player") }), onclick: () => remove(e) }) : null,
      );
    const nameOf = (id) => {
      const found = tn.entrants.find((x) => x.id === id);
      return (found && found.name) || t("deleted_player");
    };
    append(box, [
      h("p", { class: "muted", id: "tn-waiting", text: checking && open ? `${waiting} ${t("tn_checked_in_n", { k: checkedIn })}` : waiting }),
      tn.starts_at && Date.parse(tn.starts_at) <= Date.now() ? h("p", { class: "note", id: "tn-starts-late", text: t(checking ? "tn_check_in_late" : "tn_starts_late") }) : null,
      h("ol", { class: "tn-entrants", id: "tn-entrants" }, tn.entrants.map(entrant)),
      entered && pairs ? h("p", { class: "explain", id: "tn-partner-help", text: t("tn_partner_help") }) : null,
    ]);
    if (entered && checking) {
      // Where the entrant stands: check-in to come, open (the button below), or done.
      const words = tn.you.checked_in ? "tn_you_checked_in" : open ? "tn_check_in_now" : "tn_check_in_opens";
      box.append(h("p", { class: tn.you.checked_in ? "note" : "note tn-check-in-note", id: "tn-check-in-state", role: "status", text: t(words, { time: when(tn.check_in_opens_at) }) }));
    }
    const buttons = h("div", { class: "tn-buttons" });
    if (tn.you && tn.you.removed) {
      box.append(h("p", { class: "note", id: "tn-removed", role: "status", text: t("tn_you_removed") }));
    } else if (!me) {
      // Someone who followed the shared address before ever choosing a name: a name first,
      // then "Enter" (the page is drawn again for them).
      box.append(h("p", { class: "note", text: t("tn_name_first") }), nameForm(() => go(location.hash)));
    } else if (!entered && tn.rated && !me.username) {
      box.append(accountNote()); // a guest may follow a rated tournament, not enter it
    } else if (!entered) {
      const full = tn.entrants.length >= tn.size;
      buttons.append(h("button", { type: "button", class: "primary", id: "tn-enter", text: t("tn_enter"), disabled: full, onclick: () => (getPlayer() ? act("POST", "/entry") : nameNeeded()) }));
    } else {
      if (open && !tn.you.checked_in) buttons.append(h("button", { type: "button", class: "primary", id: "tn-check-in-button", text: t("tn_check_in_button"), onclick: () => act("POST", "/check-in") }));
      buttons.append(h("button", { type: "button", id: "tn-withdraw", text: t("tn_withdraw"), onclick: () => act("DELETE", "/entry") }));
    }
    if (host) {
      buttons.append(
        h("button", { type: "button", class: "primary", id: "tn-start", text: t("tn_start"), onclick: () => act("POST", "/start") }),
        h("button", { type: "button", class: "danger", id: "tn-cancel", text: t("tn_cancel"), onclick: cancel }),
      );
    }
    box.append(
      buttons,
      h("p", { class: "note", text: t("tn_share") }),
      h("p", { class: "tn-link" }, h("code", { id: "tn-link", text: location.href })),
      h("div", { class: "tn-buttons" }, linkButtons(location.href, t("tn_share_text", { name: tn.name }), "tn-")),
    );
  }

  /** Beside another entrant of a game of partners: where the reader stands with them (asked,
   * asked by them, partners) and the one step that changes it. */
  function partnerChoice(tn, e) {
    const you = tn.you;
    const name = e.name || t("deleted_player");
    const choose = (partner) => act("PUT", "/partner", { partner });
    const button = (words, partner) =>
      h("button", { type: "button", class: "link tn-partner", dataset: { partner: words }, text: t(`tn_partner_${words}`), "aria-label": t(`tn_partner_${words}_label`, { name }), onclick: () => choose(partner) });
    if (e.partner === getPlayer().id) return button("part", null);
    if (e.partner) return null; // partners with someone else
    if (you.partner === e.id) return [h("span", { class: "tn-asked", text: ` — ${t("tn_partner_asked")}` }), button("take_back", null)];
    // An ask from one the reader muted is not shown, as in the bar (asking them back still
    // makes the pair: their ask stands).
    if (you.asked_by.includes(e.id) && !isMuted(e.id)) return [h("span", { class: "tn-asked", text: ` — ${t("tn_partner_asks_you")}` }), button("accept", e.id)];
    return button("ask", e.id);
  }

  async function remove(entrant) {
    const name = entrant.name || t("deleted_player");
    const words = { title: t("tn_remove_title", { name }), text: t("tn_remove_text"), stay: t("tn_remove_stay"), go: t("tn_remove") };
    if (await askFirst("tn-remove", words)) act("DELETE", `/entries/${encodeURIComponent(entrant.id)}`);
  }

  async function cancel() {
    const words = { title: t("tn_cancel_title"), text: t("tn_cancel_text"), stay: t("tn_cancel_stay"), go: t("tn_cancel") };
    if (await askFirst("tn-cancel", words)) act("POST", "/cancel");
  }

  function bracket(tn, me, pairs) {
    const name = (unit) => unitName(tn.units[unit] || [], pairs);
    if (tn.status === "finished" && tn.champion !== null) {
      box.append(h("p", { class: "tn-champion", id: "tn-champion", role: "status", text: t("tn_champion", { name: name(tn.champion) }) }));
    }
    if (tn.status === "cancelled") box.append(h("p", { class: "muted", text: t("tn_cancelled") }));
    if (tn.you && tn.you.table) {
      box.append(
        h(
          "p",
          { class: "tn-yours", id: "tn-yours" },
          t("tn_your_table"),
          " ",
          h("a", { class: "button primary", id: "tn-go", href: `#/r/${encodeURIComponent(tn.you.table)}`, text: t("tn_go") }),
        ),
      );
    } else if (tn.you && tn.you.unit !== null && tn.status === "playing") {
      // Nobody is out of a Swiss tournament: its next round comes when this one is over.
      const out = tn.format !== "swiss" && tn.tables.some((x) => x.winner !== null && x.winner !== tn.you.unit && [x.a, x.b].includes(tn.you.unit));
      const words = out ? "tn_you_out" : tn.format === "swiss" ? "tn_you_wait_swiss" : "tn_you_wait";
      box.append(h("p", { class: "muted", id: "tn-yours", text: t(words) }));
    }
    if (tn.format === "swiss" && tn.standings.length) box.append(standings(tn, name));
    const rounds = h("div", { class: "tn-bracket", id: "tn-bracket" });
    for (let round = 0; round < tn.rounds; round += 1) {
      const tables = tn.tables.filter((x) => x.round === round);
      const title = tn.format === "swiss" ? t("tn_round", { n: round + 1 }) : roundName(round, tn.rounds);
      const column = h("div", { class: "tn-round", dataset: { round: String(round) } }, h("h3", { text: title }));
      for (const table of tables) column.append(matchBox(tn, table, name, me));
      if (!tables.length) column.append(h("p", { class: "muted", text: t("tn_to_come") }));
      rounds.append(column);
    }
    box.append(rounds);
  }

  /** A Swiss tournament's standings: rank, who, wins, the opponents' wins, the points. */
  function standings(tn, name) {
    const mine = tn.you ? tn.you.unit : null;
    const row = (s, i) =>
      h(
        "tr",
        { class: s.unit === mine ? "tn-mine" : null, dataset: { unit: String(s.unit) } },
        h("td", { class: "num", text: String(i + 1) }),
        h("td", { class: "tn-unit", text: name(s.unit) }),
        h("td", { class: "num", text: String(s.wins) }),
        h("td", { class: "num", text: String(s.buchholz) }),
        h("td", { class: "num", text: `${s.points_for}–${s.points_against}` }),
      );
    return h(
      "div",
      { class: "tn-standings" },
      h("h3", { text: t("tn_standings") }),
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          { class: "history-table", id: "tn-standings" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { class: "num", text: "#" }),
              h("th", { text: t("tn_col_who") }),
              h("th", { class: "num", text: t("tn_col_wins") }),
              h("th", { class: "num" }, h("abbr", { title: t("tn_buchholz_help"), text: t("tn_col_buchholz") })),
              h("th", { class: "num" }, h("abbr", { title: t("tn_points_help"), text: t("tn_col_points") })),
            ),
          ),
          h("tbody", {}, tn.standings.map(row)),
        ),
      ),
    );
  }

  function matchBox(tn, table, name, me) {
    const mine = tn.you && tn.you.unit !== null && [table.a, table.b].includes(tn.you.unit);
    const side = (unit, score) =>
      h(
        "li",
        { class: table.winner === unit ? "won" : null },
        h("span", { class: "tn-unit", text: unit === null ? t("tn_bye") : name(unit) }),
        score === undefined ? null : h("span", { class: "tn-score", text: String(score) }),
      );
    const scores = table.scores || [];
    let state = null;
    if (table.playing) state = t("tn_playing");
    else if (table.b === null) state = t(tn.format === "swiss" ? "tn_bye_note_swiss" : "tn_bye_note");
    else if (table.conceded) state = t("conceded_team", { team: name(table.winner === table.a ? table.b : table.a) });
    return h(
      "div",
      { class: `tn-match${mine ? " tn-mine" : ""}`, dataset: { round: String(table.round), slot: String(table.slot) } },
      h("ul", {}, side(table.a, scores[0]), side(table.b, scores[1])),
      state ? h("p", { class: "tn-state", text: state }) : null,
      // A decided table's match is read by anyone (the bracket's result), without its room's code.
      table.match_id
        ? h("a", { class: "tn-scoresheet", href: `#/m/${encodeURIComponent(table.match_id)}`, text: t("tn_scoresheet"), "aria-label": t("tn_scoresheet_label", { a: name(table.a), b: name(table.b) }) })
        : null,
      // Anyone may watch a table being played, by its watch code (no seat, no chat by it).
      table.playing && table.watch && !mine
        ? h("a", { class: "tn-watch", href: `#/r/${encodeURIComponent(table.watch)}`, text: t("tn_watch"), "aria-label": t("tn_watch_label", { a: name(table.a), b: name(table.b) }) })
        : null,
    );
  }

  async function poll() {
    timer = null;
    try {
      const tn = await get(path);
      if (!box.isConnected) return;
      draw(tn);
      if (!OVER.has(tn.status)) timer = setTimeout(poll, POLL_MS);
    } catch (error) {
      if (!box.isConnected || pageTokenRefused(player, error)) return;
      if (!shown) clear(box).append(h("p", { class: "muted", id: "tn-missing", text: failureText(error) }));
      else if (error.code === "network") timer = setTimeout(poll, POLL_MS); // the next poll may reach it
    }
  }

  poll();
  return {
    leave: () => {
      stop();
      unwatchShown();
    },
  };
}
