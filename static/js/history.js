// History: your matches, a match's scoresheet and deals, and a step-by-step replay of a deal
// (bids, every trick, every hand; tables of 4, 3 and 2) with its record downloadable as JSON.
import { get } from "./api.js";
import { append, clear, h, replace } from "./dom.js";
import { getPlayer } from "./identity.js";
import { labelled, t } from "./i18n.js";
import { cardBack, cardFace, cardText, layoutHand, stackTag } from "./cards.js";
import { breakdownTable, contractBadge, contractLabel, scoresheetTable } from "./scoresheet.js";
import { canVerify, verifyMatch } from "./shuffle.js";
import { dealerBadge } from "./plates.js";
import { failureText, pageTokenRefused, showError } from "./ui.js";
import { packetsBefore, positionOf, positions, range, seatsOfRules, sideOf, sideOrder, sidesOf, teamsPlay } from "./sides.js";

function seatLabel(seats, seat) {
  const s = seats.find((x) => x.seat === seat);
  if (!s) return t("seat_n", { n: seat + 1 });
  if (s.bot) return `${t("bot")} ${seat + 1}`;
  return s.name || (s.player ? t("deleted_player") : t("seat_n", { n: seat + 1 })); // no name: an erased account
}

/** "Us" / "Them" for a player of the match; "Team 1" / "Team 2" for a visitor (`us` null).
 * At three or two each player is a side: his name ("You" for the viewer). */
function teamLabels(seats, us, withNames = true, n = 4) {
  if (!teamsPlay(n)) return range(n).map((seat) => (seat === us ? (withNames ? `${t("side_you")} (${seatLabel(seats, seat)})` : t("side_you")) : seatLabel(seats, seat)));
  const out = [];
  for (const team of [0, 1]) {
    const who = `${seatLabel(seats, team)} & ${seatLabel(seats, team + 2)}`;
    const label = us === null ? t("team_n", { n: team + 1 }) : team === us ? t("team_us") : t("team_them");
    out[team] = withNames ? `${label} (${who})` : label;
  }
  return out;
}

/** The viewer's seat in the match, or null for a visitor who did not play it. */
function mySeat(match) {
  const player = getPlayer();
  if (match.your_seat !== undefined && match.your_seat !== null) return match.your_seat;
  const mine = player ? match.seats.find((s) => s.player === player.id) : null;
  return mine ? mine.seat : null;
}

/** A replay step button: its sign before (or after, `after`) its word, the word also its label. */
function stepButton(id, sign, word, onclick, after = false) {
  const words = h("span", { class: "word", text: word });
  return h("button", { type: "button", id, "aria-label": word, title: word, onclick }, after ? [words, ` ${sign}`] : [`${sign} `, words]);
}

function downloadButton(label, path, filename, id) {
  return h("button", {
    type: "button",
    id,
    text: label,
    onclick: async () => {
      const player = getPlayer();
      try {
        const record = await get(path);
        const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
        const url = URL.createObjectURL(blob);
        const a = h("a", { href: url, download: filename });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10000);
      } catch (error) {
        if (!pageTokenRefused(player, error)) showError(error);
      }
    },
  });
}

const HISTORY_PAGE = 50; // matches a page: the first shown, then each "Older matches"

/** A row of the History table: when, the game, the players, the score and verdict, the way to
 * the match (and back to its table while it is played). */
function historyRow(m) {
  // The side the player scored for comes from the match's sides (a team, or himself).
  const n = seatsOfRules(m.rules);
  const us = m.your_side ?? sideOf(n, m.your_seat);
  const sheet = m.scoresheet || { scores: sidesOf(n).map(() => 0) };
  const won = !m.finished ? t("unfinished") : m.winner === us ? t("won") : t("lost");
  const verdict = typeof m.conceded === "number" ? `${won} · ${t("conceded_mark")}` : won;
  const score = sideOrder(n, us).map((side) => sheet.scores[side]).join(" – ");
  return h(
    "tr",
    { dataset: { match: m.id } },
    h("td", { text: new Date(m.started_at).toLocaleString() }),
    h("td", { text: t(`preset_${m.rules.preset}`) }),
    h("td", { text: m.seats.map((s) => seatLabel(m.seats, s.seat)).join(", ") }),
    h("td", { text: `${score} (${verdict})` }),
    h(
      "td",
      { class: "actions" },
      h(
        "div",
        { class: "action-buttons" },
        h("a", { class: "button", href: `#/m/${encodeURIComponent(m.id)}`, text: t("view") }),
        // A match still being played: the way back to its table.
        !m.finished && m.room ? h("a", { class: "button primary return", href: `#/r/${encodeURIComponent(m.room)}`, text: t("return_to_table") }) : null,
      ),
    ),
  );
}

export function showHistory(app) {
  const box = h("section", { class: "panel wide", id: "history" }, h("h2", { text: t("history") }), h("p", { class: "muted", text: t("loading") }));
  app.append(box);
  const player = getPlayer();
  if (!player) {
    replace(box, h("h2", { text: t("history") }), h("p", { text: t("history_needs_name") }), h("a", { class: "button", href: "#/", text: t("nav_lobby") }));
    return {};
  }
  const base = `/api/players/${encodeURIComponent(player.id)}/matches?limit=${HISTORY_PAGE}`;
  // One game's matches or all (`?preset=`); the games come from GET /api/rules, the list shows
  // without them (the choice then hidden).
  const game = h("select", { id: "history-game", "aria-label": t("preset"), hidden: true }, h("option", { value: "", text: t("all_games") }));
  get("/api/rules")
    .then((rules) => {
      game.append(...rules.presets.map((p) => h("option", { value: p, text: t(`preset_${p}`) })));
      game.hidden = false;
    })
    .catch(() => {});
  const url = () => `${base}${game.value ? `&preset=${encodeURIComponent(game.value)}` : ""}`;
  // The pages after the first follow the last match shown (a key: a match begun meanwhile
  // neither repeats a row nor hides one); a short page is the last.
  const more = h("button", { type: "button", id: "history-more", text: t("older_matches") });
  const list = h("div", { id: "history-list" });
  let rows = null;
  let asked = 0; // the newest question wins: a slow answer for a game no longer chosen is dropped
  function add(matches) {
    rows.append(...matches.map(historyRow));
    more.hidden = matches.length < HISTORY_PAGE;
    if (matches.length) more.dataset.before = matches.at(-1).id;
  }
  function draw(matches) {
    if (!matches.length) {
      replace(list, h("p", { id: "no-history", text: t(game.value ? "no_history_game" : "no_history") }));
      return;
    }
    rows = h("tbody", {});
    replace(
      list,
      h(
        "table",
        { class: "history-table matches-table" },
        h("thead", {}, h("tr", {}, [t("started"), t("preset"), t("players"), t("score")].map((x) => h("th", { text: x })), h("th", {}, h("span", { class: "sr-only", text: t("actions_col") })))),
        rows,
      ),
      h("p", { class: "history-more" }, more),
    );
    add(matches);
  }
  async function ask(then, query) {
    const mine = ++asked;
    try {
      const matches = await get(query);
      if (mine === asked) then(matches);
    } catch (error) {
      if (mine === asked && !pageTokenRefused(player, error)) showError(error);
    }
  }
  more.addEventListener("click", async () => {
    more.disabled = true;
    await ask(add, `${url()}&before=${encodeURIComponent(more.dataset.before)}`);
    more.disabled = false;
  });
  game.addEventListener("change", () => ask(draw, url()));
  get(url())
    .then((matches) => {
      clear(box);
      box.append(
        h("h2", { text: t("history") }),
        h(
          "p",
          { class: "history-links" },
          h("a", { class: "button", id: "my-profile", href: `#/p/${encodeURIComponent(player.id)}`, text: t("your_profile") }),
          " ",
          h("a", { class: "button", id: "leaderboards", href: "#/ratings/bulgarian", text: t("leaderboard") }),
          " ",
          game,
        ),
        list,
      );
      draw(matches);
    })
    .catch((error) => {
      if (pageTokenRefused(player, error)) return;
      replace(box, h("h2", { text: t("history") }), h("p", { class: "muted", text: failureText(error) }));
    });
  return {};
}

/** Each finished deal's shuffle, checked here from the match record (docs/protocol.md §3). */
async function checkShuffles(matchId, list) {
  if (!canVerify()) return; // WebCrypto's digest exists only on https (or this machine)
  const verdicts = await verifyMatch(await get(`/api/matches/${encodeURIComponent(matchId)}/record`));
  for (const [number, verdict] of verdicts) {
    const slot = list.querySelector(`.shuffle-check[data-deal="${number}"]`);
    if (!slot) continue;
    slot.dataset.verdict = verdict;
    slot.className = `badge shuffle-check ${verdict}`;
    slot.textContent = t(`shuffle_${verdict}`);
    slot.title = t("shuffle_check_title");
  }
}

export function showMatch(app, matchId) {
  const box = h("section", { class: "panel wide", id: "match" }, h("p", { class: "muted", text: t("loading") }));
  app.append(box);
  const player = getPlayer();
  get(`/api/matches/${encodeURIComponent(matchId)}`)
    .then((match) => {
      const seat = mySeat(match);
      const n = seatsOfRules(match.rules);
      const us = seat === null ? null : sideOf(n, seat);
      const names = teamLabels(match.seats, us, true, n);
      clear(box);
      const deals = h(
        "ol",
        { class: "deal-list" },
        match.deals.map((d) =>
          h(
            "li",
            {},
            h("span", { text: `${t("deal_n", { n: d.number })} · ` }),
            // A deal left unfinished by a match that is over (conceded) was never played out.
            d.result && !d.result.void ? contractBadge(d.result.contract, d.result.multiplier) : h("span", { text: t(d.finished ? "void_deal" : match.finished ? "not_played_out" : "unfinished") }),
            " ",
            d.finished ? h("a", { class: "button", href: `#/m/${encodeURIComponent(matchId)}/d/${d.number}`, text: t("replay") }) : null,
            d.finished ? [" ", h("span", { class: "shuffle-check", dataset: { deal: String(d.number) } })] : null,
          ),
        ),
      );
      box.append(
        h("h2", { text: `${t(`preset_${match.rules.preset}`)} — ${t("target")} ${match.target}` }),
        match.scoresheet ? scoresheetTable(match.scoresheet, sideOrder(n, us), names, !teamsPlay(n)) : "",
        h("p", {}, downloadButton(t("download_match"), `/api/matches/${encodeURIComponent(matchId)}/record`, `match-${matchId}.json`, "download-match")),
        h("h3", { text: t("deals") }),
        deals,
      );
      if (match.deals.some((d) => d.finished)) checkShuffles(matchId, deals).catch(showError);
    })
    .catch((error) => {
      if (pageTokenRefused(player, error)) return;
      replace(box, h("p", { class: "muted", text: failureText(error, "unknown_match") }));
    });
  return {};
}

/** Cards each seat held: what it played (in Open Belot, its table cards too), or for a void
 * deal what it was dealt before the bidding (C-9). */
function initialHands(record) {
  const hands = range(seatsOfRules(record.rules)).map(() => []);
  for (const a of record.actions) if (a.play) hands[a.seat].push(a.play);
  if (hands.some((x) => x.length)) return hands;
  return dealtFive(record);
}

/** The cards each seat holds while the bidding goes on (the first packets of C-9, BG2-2,
 * CRO-1; Open Belot's table stacks are dealt after them and are not in a hand). */
function dealtFive(record) {
  const n = seatsOfRules(record.rules);
  const hands = range(n).map(() => []);
  let i = 0;
  for (const size of packetsBefore(record.rules)) {
    for (let k = 1; k <= n; k++) {
      const seat = (record.dealer + k) % n;
      hands[seat].push(...record.deck.slice(i, i + size));
      i += size;
    }
  }
  return hands;
}

/** Open Belot: each player's four table stacks as dealt, `{up, down}` (OB-3..OB-6: five cards to
 * each hand, then a face-down card to each stack of each player, then a face-up one); null in
 * the other presets. */
function tableStacks(record) {
  if (record.rules.preset !== "open_belot") return null;
  const stacks = [0, 1].map(() => [0, 1, 2, 3].map(() => ({ up: null, down: null })));
  let i = 10;
  for (const slot of ["down", "up"]) {
    for (let k = 0; k < 4; k++) {
      for (let j = 1; j <= 2; j++) stacks[(record.dealer + j) % 2][k][slot] = record.deck[i++];
    }
  }
  return stacks;
}

/** A player's stacks at a step of the replay, given the cards played so far: the face-up card
 * until played, then the card it covered, face up (the replay shows every card once dealt). */
function stacksAt(stacks, played) {
  return h(
    "div",
    { class: "stacks" },
    stacks.map((stack) => {
      const up = played.has(stack.up) ? (played.has(stack.down) ? null : stack.down) : stack.up;
      const covered = !played.has(stack.up);
      return h(
        "div",
        { class: `stack ${up ? "" : "no-up"} ${covered ? "has-down" : ""}` },
        covered ? cardBack("stack-down") : null,
        up ? cardFace(up, { extraClass: "stack-up" }) : null,
      );
    }),
  );
}

export function showReplay(app, matchId, number) {
  const box = h("section", { class: "panel wide replay", id: "replay" }, h("p", { class: "muted", text: t("loading") }));
  app.append(box);
  let step = 0;
  let data = null;
  let autoplay = null; // the interval stepping through the deal, while it plays by itself

  function stopAutoplay() {
    clearInterval(autoplay);
    autoplay = null;
  }

  function toggleAutoplay() {
    if (autoplay) stopAutoplay();
    else {
      if (step >= data.record.actions.length) step = 0;
      autoplay = setInterval(() => {
        if (step >= data.record.actions.length) stopAutoplay();
        else step += 1;
        draw();
      }, 900);
    }
    draw();
  }

  /** Steps a player may jump to: the bidding, then the end of each trick. */
  function jumpTargets(record) {
    const targets = [{ label: t("jump_bidding"), step: 0 }];
    let plays = 0;
    const n = seatsOfRules(record.rules);
    record.actions.forEach((a, i) => {
      if (a.play && ++plays % n === 0) targets.push({ label: t("jump_trick", { n: plays / n }), step: i + 1 });
    });
    return targets;
  }

  function onKey(event) {
    if (!data) return;
    if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "ArrowLeft") go(step - 1);
    else return;
    event.preventDefault();
  }

  function go(next) {
    stopAutoplay();
    step = Math.max(0, Math.min(data.record.actions.length, next));
    draw();
  }

  function draw() {
    const { record, result, match } = data;
    const seats = match.seats;
    const viewer = mySeat(match);
    const n = seatsOfRules(record.rules);
    const us = viewer === null ? null : sideOf(n, viewer);
    const base = viewer ?? 0;
    const pos = (seat) => positionOf(n, base, seat);
    const done = record.actions.slice(0, step);
    // Until the first card is played only five cards are dealt (the rest come after the bidding).
    const bidding = !done.some((a) => a.play);
    const stacks = tableStacks(record);
    const onTable = new Set(stacks ? stacks.flat().flatMap((s) => [s.up, s.down]) : []);
    const played = new Set(done.filter((a) => a.play).map((a) => a.play));
    // Open Belot's table cards are drawn as the stacks, not in the hand.
    const hands = (bidding ? dealtFive(record) : initialHands(record)).map((cards) => cards.filter((c) => !onTable.has(c)));
    const bids = [];
    let trick = [];
    let lastTrick = null;
    let tricksDone = 0;
    const announced = [];
    for (const a of done) {
      if (a.bid) bids.push(a);
      if (a.play) {
        hands[a.seat] = hands[a.seat].filter((c) => c !== a.play);
        if (trick.length === n) trick = [];
        trick.push(a);
        if (a.declare) for (const d of a.declare) announced.push({ seat: a.seat, cards: d });
        if (a.belote) announced.push({ seat: a.seat, belote: true });
        if (trick.length === n) {
          lastTrick = result && result.tricks ? result.tricks[tricksDone] : null;
          tricksDone += 1;
        }
      }
    }
    const winner = trick.length === n && lastTrick ? lastTrick.winner : null;
    const finished = step === record.actions.length;
    const TAKEN = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
    let contract = null;
    let multiplier = 1;
    for (const b of bids) {
      if (b.bid === "contra") multiplier = 2;
      else if (b.bid === "recontra") multiplier = 4;
      else if (b.bid === "surcontra") multiplier = 8;
      else if (b.bid !== "pass") {
        contract = b.bid === "take" ? TAKEN[record.deck[20][1]] : b.bid;
        multiplier = 1;
      }
    }

    const seatsView = range(n).map((seat) =>
      h(
        "div",
        { class: `seat pos-${pos(seat)} team-${sideOf(n, seat) === (us ?? 0) ? "us" : "them"}` },
        h("div", { class: "seat-head" }, h("span", { class: "seat-name", text: seatLabel(seats, seat) }), record.dealer === seat ? dealerBadge() : null),
        h("div", { class: "open-hand" }, layoutHand(hands[seat]).map((c) => cardFace(c, { extraClass: "small" }))),
        stacks ? stacksAt(stacks[seat], played) : null,
        h(
          "div",
          { class: "seat-extras" },
          announced
            .filter((x) => x.seat === seat)
            .map((x) => h("span", { class: "bubble decl" }, x.belote ? t("belote_line") : [t(`kind_${x.cards.length === 4 && x.cards.every((c) => c[0] === x.cards[0][0]) ? "carre" : { 3: "tierce", 4: "quarte", 8: "quinte_tierce" }[x.cards.length] || "quinte"}`), " ", x.cards.map((c) => cardText(c))])),
        ),
      ),
    );
    // Open Belot: which stack a card on the table came from (its face-up card or the one under).
    const fromStack = new Map();
    if (stacks) stacks.forEach((own) => own.forEach((stack, k) => [stack.up, stack.down].forEach((c) => fromStack.set(c, k))));
    const slots = {};
    for (const a of trick) {
      const face = cardFace(a.play, { extraClass: a.seat === winner ? "winner" : "" });
      slots[pos(a.seat)] = fromStack.has(a.play) ? [face, stackTag(fromStack.get(a.play))] : face;
    }
    const center =
      trick.length || !bids.length || step > bids.length
        ? h("div", { class: `trick seats-${n}` }, positions(n).map((p) => h("div", { class: `slot ${p}` }, slots[p] || null)), winner !== null ? h("div", { class: "trick-caption", text: t("won_by", { name: seatLabel(seats, winner) }) }) : null)
        : h("div", { class: "bidding" }, h("ol", { class: "bid-log" }, bids.map((b) => h("li", { text: `${labelled(seatLabel(seats, b.seat))} ${contractLabel(b.bid)}` }))));

    const jump = h(
      "select",
      { id: "replay-jump", "aria-label": t("jump_to") },
      jumpTargets(record).map((target) => h("option", { value: String(target.step), text: target.label })),
    );
    const here = jumpTargets(record).filter((target) => target.step <= step).pop();
    jump.value = String(here ? here.step : 0);
    jump.addEventListener("change", () => go(Number(jump.value)));
    clear(box);
    // dom.js's append, not the DOM's: a null child is nothing, not the text "null".
    append(box, [
      h(
        "div",
        { class: "replay-head" },
        h("h2", { text: t("replay_of", { n: number }) }),
        h("a", { class: "button", href: `#/m/${encodeURIComponent(matchId)}`, text: t("scoresheet") }),
      ),
      // The steps in one row: on a phone the buttons keep their signs only, their words
      // going to their label (a screen reader's and a long press's).
      h(
        "div",
        { class: "replay-controls" },
        h(
          "div",
          { class: "steps" },
          stepButton("replay-first", "«", t("first"), () => go(0)),
          stepButton("replay-prev", "◀", t("prev"), () => go(step - 1)),
          h("span", { class: "step", id: "replay-step", text: t("step", { i: step, n: record.actions.length }) }),
          stepButton("replay-next", "▶", t("next"), () => go(step + 1), true),
          stepButton("replay-last", "»", t("last"), () => go(record.actions.length), true),
        ),
        h("button", { type: "button", id: "replay-auto", "aria-pressed": String(Boolean(autoplay)), text: autoplay ? `❚❚ ${t("autoplay_stop")}` : `► ${t("autoplay")}`, onclick: toggleAutoplay }),
        h("label", { class: "jump" }, h("span", { text: `${t("jump_to")} ` }), jump),
      ),
      h(
        "div",
        { class: "contract-line" },
        h("span", { class: "label", text: `${labelled(t("contract"))} ` }),
        contract ? contractBadge(contract, multiplier) : h("span", { text: t("no_contract") }),
        h("span", { class: "muted", text: ` · ${labelled(t("bids_history"))} ${bids.map((b) => `${seatLabel(seats, b.seat)} ${contractLabel(b.bid)}`).join(", ") || "—"}` }),
      ),
      h("div", { class: "table replay-table" }, h("div", { class: `felt seats-${n}` }, seatsView, h("div", { class: "center" }, center))),
      finished
        ? h(
            "section",
            { class: "all-hands", id: "all-hands" },
            h("h3", { text: t("all_hands") }),
            range(n).map((seat) =>
              h(
                "div",
                { class: "hand-line", dataset: { seat: String(seat) } },
                h("span", { class: "who", text: seatLabel(seats, seat) }),
                layoutHand(initialHands(record)[seat]).map((c) => cardFace(c, { extraClass: "small" })),
              ),
            ),
          )
        : null,
      finished && result ? breakdownTable(result, sideOrder(n, us), teamLabels(seats, us, false, n), (seat) => seatLabel(seats, seat)) : null,
      h("p", { class: "replay-foot" }, downloadButton(t("download_json"), `/api/matches/${encodeURIComponent(matchId)}/deals/${number}/record`, `deal-${matchId}-${number}.json`, "download-deal")),
    ]);
  }

  const player = getPlayer();
  const matchAsked = get(`/api/matches/${encodeURIComponent(matchId)}`);
  Promise.all([matchAsked, get(`/api/matches/${encodeURIComponent(matchId)}/deals/${number}/record`)])
    .then(([match, record]) => {
      const deal = match.deals.find((d) => d.number === number);
      data = { match, record, result: deal ? deal.result : null };
      draw();
      document.addEventListener("keydown", onKey);
    })
    // Whichever answer came first, the match's own refusal is the one to say: an unknown match
    // is not "no such deal" (both requests fail then, in either order).
    .catch((error) => matchAsked.then(() => [error, "unknown_deal"], (refused) => [refused, "unknown_match"]))
    .then((failed) => {
      if (!failed) return;
      const [error, missing] = failed;
      if (pageTokenRefused(player, error)) return;
      replace(box, h("p", { class: "muted", text: failureText(error, missing) }));
    });
  return {
    leave() {
      stopAutoplay();
      document.removeEventListener("keydown", onKey);
    },
    relang() {
      if (data) draw();
    },
  };
}
