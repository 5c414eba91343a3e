// Ratings: the leaderboard of a game (#/ratings/PRESET) and a player's profile (#/p/ID) with the
// rating history drawn as a chart, ratings per game, matches and win rate, and their counts at
// the table (contracts bid and defended, contras, valats, belotes, declarations).
import { get } from "./api.js";
import { clear, h } from "./dom.js";
import { profileFriend } from "./friends.js";
import { getPlayer } from "./identity.js";
import { labelled, lang, t } from "./i18n.js";
import { failureText, pageTokenRefused } from "./ui.js";
import { seatsOfRules, sideOf } from "./sides.js";

const SVG = "http://www.w3.org/2000/svg";
// A game's line: the stylesheets' colours, lighter in the dark ones (css/dark.css).
const COLORS = [1, 2, 3, 4, 5].map((k) => `var(--chart-${k})`);

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    // Colours through the CSSOM, as dom.js's h() does: the page's policy refuses style attributes.
    if (key === "style") for (const [name, v] of Object.entries(value)) el.style.setProperty(name, v);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) if (child) el.append(child);
  return el;
}

function fmt(x) {
  return (Math.round(x * 10) / 10).toFixed(1);
}

function percent(rate) {
  return rate === null || rate === undefined ? "—" : `${Math.round(rate * 100)} %`;
}

function playerLink(row) {
  const label = row.username && row.username !== row.name ? `${row.name} (${row.username})` : row.name;
  return h("a", { href: `#/p/${encodeURIComponent(row.player)}`, text: label });
}

/** One link per game, to its page under `base` (a leaderboard, or its rules: rules.js). */
export function presetTabs(presets, current, base = "#/ratings/") {
  return h(
    "nav",
    { class: "preset-tabs", "aria-label": t("preset") },
    presets.map((p) =>
      h("a", {
        class: p === current ? "button primary" : "button",
        href: `${base}${encodeURIComponent(p)}`,
        "aria-current": p === current ? "page" : null,
        dataset: { preset: p },
        text: t(`preset_${p}`),
      }),
    ),
  );
}

export function showLeaderboard(app, preset) {
  const box = h("section", { class: "panel wide", id: "leaderboard", dataset: { preset } }, h("p", { class: "muted", text: t("loading") }));
  app.append(box);
  const player = getPlayer();
  const games = get("/api/rules");
  Promise.all([games, get(`/api/ratings/${encodeURIComponent(preset)}`)])
    .then(([rules, rows]) => {
      clear(box);
      box.append(h("h2", { text: t("leaderboard_of", { preset: t(`preset_${preset}`) }) }), presetTabs(rules.presets, preset));
      if (!rows.length) {
        box.append(h("p", { class: "muted", text: t("no_ratings") }));
        return;
      }
      const me = getPlayer();
      const line = (row) =>
        h(
          "tr",
          { dataset: { player: row.player }, class: me && me.id === row.player ? "me" : null },
          h("td", { text: String(row.rank) }),
          h("td", {}, playerLink(row)),
          h("td", { class: "num", text: fmt(row.rating) }),
          h("td", { class: "num", text: String(row.matches) }),
          h("td", { class: "num", text: percent(row.matches ? row.wins / row.matches : null) }),
        );
      const body = h("tbody", {}, rows.map(line));
      box.append(
        h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "history-table leaderboard-table" },
            h("thead", {}, h("tr", {}, h("th", { text: t("rank") }), h("th", { text: t("player") }), [t("rating"), t("matches"), t("win_rate")].map((x) => h("th", { class: "num", text: x })))),
            body,
          ),
        ),
        h("p", { class: "note", text: t("rating_explain") }),
      );
      // An account further down than the board lists finds its own line below it, after a gap.
      if (me && me.username && !rows.some((row) => row.player === me.id)) {
        get(`/api/players/${encodeURIComponent(me.id)}/profile`)
          .then((profile) => {
            const mine = profile.ratings.find((r) => r.preset === preset && r.rank);
            if (!mine || !body.isConnected) return;
            const gap = h("tr", { class: "gap", "aria-hidden": "true" }, h("td", { colspan: "5", text: "⋮" }));
            body.append(gap, line({ ...mine, player: me.id, name: profile.name, username: profile.username }));
          })
          .catch(() => {}); // the board stands without it
      }
    })
    .catch((error) => {
      if (pageTokenRefused(player, error)) return;
      if (error.code !== "bad_rules") {
        clear(box).append(h("p", { class: "muted", text: failureText(error) }));
        return;
      }
      // No game of that name (422 bad_rules): said so, with the games there are.
      clear(box).append(h("h2", { text: t("leaderboard") }), h("p", { class: "muted", id: "no-such-game", text: failureText({ code: "bad_rules", text: t("no_such_game") }) }));
      games.then((rules) => box.isConnected && box.append(presetTabs(rules.presets, null)), () => {});
    });
  return {};
}

/** The rating after each rated match, one line per game, as an SVG that scales to its box
 * (drawn for the box's width, so that its text keeps its size on a phone). */
function chart(history, boxWidth) {
  const width = Math.round(Math.max(300, Math.min(900, boxWidth || 640)));
  const height = 220;
  const pad = { left: 44, right: 12, top: 12, bottom: 24 };
  const values = [0, ...history.map((c) => c.after), ...history.map((c) => c.before)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 2) [lo, hi] = [lo - 1, hi + 1];
  // Slot 0 is where the first rated game started from; slot i + 1 is after the i-th match.
  const n = history.length;
  const x = (slot) => pad.left + (slot / n) * (width - pad.left - pad.right);
  const y = (v) => pad.top + (1 - (v - lo) / (hi - lo)) * (height - pad.top - pad.bottom);
  const presets = [...new Set(history.map((c) => c.preset))];
  const ticks = [lo, (lo + hi) / 2, hi];
  const svg = s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", id: "rating-chart", role: "img", "aria-label": t("rating_history") },
    ticks.map((v) => [
      s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, document.createTextNode(fmt(v))),
    ]),
    presets.map((preset, k) => {
      const points = history.map((c, i) => [i + 1, c]).filter(([, c]) => c.preset === preset);
      const color = COLORS[k % COLORS.length];
      const [firstSlot, first] = points[0];
      const start = `M${x(firstSlot - 1).toFixed(1)},${y(first.before).toFixed(1)}`;
      const path = [start, ...points.map(([i, c]) => `L${x(i).toFixed(1)},${y(c.after).toFixed(1)}`)].join(" ");
      return [
        s("path", { d: path, fill: "none", style: { stroke: color }, "stroke-width": 2.5, class: "line", "data-preset": preset }),
        points.map(([i, c]) =>
          s(
            "circle",
            { cx: x(i), cy: y(c.after), r: 4, style: { fill: c.won ? color : "var(--chart-bg)", stroke: color }, "stroke-width": 2, class: "point" },
            s("title", {}, document.createTextNode(`${labelled(t(`preset_${preset}`))} ${fmt(c.before)} → ${fmt(c.after)} (${c.won ? t("won") : t("lost")})`)),
          ),
        ),
      ];
    }),
  );
  const legend = h(
    "ul",
    { class: "chart-legend" },
    presets.map((preset, k) => h("li", {}, h("span", { class: "swatch", style: { background: COLORS[k % COLORS.length] } }), t(`preset_${preset}`))),
  );
  return h("figure", { class: "chart" }, svg, legend);
}

/** On another's profile, the finished matches the reader played with them: how many, and how
 * many the reader's side won as their partner and as their opponent ("—": never so). */
function withYou({ matches, partners, opponents }) {
  const won = (kind) => (kind.matches ? t("won_of", { won: kind.wins, played: kind.matches }) : "—");
  const stat = (id, label, value) => h("div", {}, h("dt", { text: label }), h("dd", { id, text: value }));
  return h(
    "section",
    { class: "with-you", id: "with-you" },
    h("h3", { text: t("with_you_title") }),
    h(
      "dl",
      { class: "stats" },
      stat("with-you-matches", t("with_you_matches"), String(matches)),
      stat("with-you-partners", t("with_you_partners"), won(partners)),
      stat("with-you-opponents", t("with_you_opponents"), won(opponents)),
    ),
  );
}

// The rows of "At the table" (the profile's `play`): each counter, and the one it is a share of,
// shown beside it as a percent ("… made" of the contracts bid).
const PLAY_ROWS = [
  ["deals"],
  ["bids"],
  ["made", "bids"],
  ["inside", "bids"],
  ["hanging", "bids"],
  ["defended"],
  ["beaten", "defended"],
  ["contras"],
  ["contras_won", "contras"],
  ["capots"],
  ["capots_lost"],
  ["belotes"],
  ["declarations"],
  ["declaration_points"],
];

/** A player's counts over every deal they finished, one column per game they played. */
function playStats(play) {
  const presets = Object.keys(play);
  const cell = (counts, [name, of]) => {
    const n = counts[name].toLocaleString(lang());
    return of && counts[of] ? t("stat_share", { n, share: percent(counts[name] / counts[of]) }) : n;
  };
  return h(
    "section",
    { class: "play-stats", id: "play-stats" },
    h("h3", { text: t("play_stats_title") }),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "history-table play-table" },
        h("thead", {}, h("tr", {}, h("td"), presets.map((p) => h("th", { class: "num", scope: "col", text: t(`preset_${p}`) })))),
        h(
          "tbody",
          {},
          PLAY_ROWS.map((row) =>
            h(
              "tr",
              { dataset: { stat: row[0] } },
              h("th", { scope: "row", class: row[1] ? "share" : null, text: t(`stat_${row[0]}`) }),
              presets.map((p) => h("td", { class: "num", dataset: { preset: p }, text: cell(play[p], row) })),
            ),
          ),
        ),
      ),
    ),
    h("p", { class: "note", text: t("play_stats_explain") }),
  );
}

export function showProfile(app, playerId) {
  const box = h("section", { class: "panel wide", id: "profile", dataset: { player: playerId } }, h("p", { class: "muted", text: t("loading") }));
  app.append(box);
  const player = getPlayer();
  Promise.all([get(`/api/players/${encodeURIComponent(playerId)}/profile`), get(`/api/players/${encodeURIComponent(playerId)}/matches`)])
    .then(([profile, matches]) => {
      clear(box);
      const title = profile.username && profile.username !== profile.name ? `${profile.name} (${profile.username})` : profile.name;
      box.append(
        h("h2", { id: "profile-name", text: title }),
        h(
          "dl",
          { class: "stats" },
          h("div", {}, h("dt", { text: t("matches") }), h("dd", { id: "stat-matches", text: String(profile.matches) })),
          h("div", {}, h("dt", { text: t("wins") }), h("dd", { id: "stat-wins", text: String(profile.wins) })),
          h("div", {}, h("dt", { text: t("win_rate") }), h("dd", { id: "stat-win-rate", text: percent(profile.win_rate) })),
        ),
      );
      // Another's profile: the way to ask them to be friends (friends.js).
      if (player && player.id !== playerId) box.querySelector("#profile-name").after(profileFriend({ id: playerId, name: profile.name }, profile.friendship));
      if (profile.with_you && profile.with_you.matches) box.append(withYou(profile.with_you));
      if (profile.ratings.length) {
        box.append(
          h(
            "div",
            { class: "table-scroll" },
            h(
              "table",
              { class: "history-table ratings-table" },
              h("thead", {}, h("tr", {}, h("th", { text: t("preset") }), [t("rating"), t("standing"), t("matches"), t("wins")].map((x) => h("th", { class: "num", text: x })))),
              h(
                "tbody",
                {},
                profile.ratings.map((r) =>
                  h(
                    "tr",
                    { dataset: { preset: r.preset, mu: String(r.mu), sigma: String(r.sigma) } },
                    h("td", {}, h("a", { href: `#/ratings/${encodeURIComponent(r.preset)}`, title: t("leaderboard"), text: t(`preset_${r.preset}`) })),
                    h("td", { class: "num rating-value", text: fmt(r.rating) }),
                    // Where the board places them, which lists only its first 100 (a guest's
                    // old rating is not ranked: "—").
                    h("td", { class: "num rating-rank", text: r.rank ? t("rank_of", { rank: r.rank, ranked: r.ranked }) : "—" }),
                    h("td", { class: "num", text: String(r.matches) }),
                    h("td", { class: "num", text: String(r.wins) }),
                  ),
                ),
              ),
            ),
          ),
        );
      }
      if (Object.keys(profile.play).length) box.append(playStats(profile.play));
      box.append(h("h3", { text: t("rating_history") }), profile.history.length ? chart(profile.history, box.clientWidth - 32) : h("p", { class: "muted", text: t("no_rating_history") }));
      box.append(
        h("h3", { text: t("recent_matches") }),
        matches.length
          ? h(
              "ul",
              { class: "rooms profile-matches" },
              matches.slice(0, 20).map((m) => {
                const side = m.your_side ?? sideOf(seatsOfRules(m.rules), m.your_seat); // a team, or the player
                const verdict = !m.finished ? t("unfinished") : m.winner === side ? t("won") : t("lost");
                const when = new Date(m.started_at).toLocaleDateString();
                return h(
                  "li",
                  { class: "room-row", dataset: { match: m.id } },
                  h("div", { class: "room-main" }, h("strong", { text: t(`preset_${m.rules.preset}`) }), h("span", { class: "muted", text: ` · ${when} · ${verdict}` })),
                  h("a", { class: "button", href: `#/m/${encodeURIComponent(m.id)}`, text: t("view") }),
                );
              }),
            )
          : h("p", { class: "muted", text: t("no_history") }),
        h("p", { class: "note", text: t("rating_explain") }),
      );
    })
    .catch((error) => {
      if (pageTokenRefused(player, error)) return;
      clear(box).append(h("p", { class: "muted", text: failureText(error, "unknown_player") }));
    });
  return {};
}
