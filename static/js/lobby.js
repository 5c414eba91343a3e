// The lobby: your name, the public rooms, creating a room, joining by invite link or code.
import { ApiError, get, patch, post } from "./api.js";
import { clear, h, replace } from "./dom.js";
import { forgottenGuestName, getPlayer, setPlayer } from "./identity.js";
import { houseRulesText, t } from "./i18n.js";
import { accountNote, dotItem, dots, dropToasts, go, seatName, showError, toast, tokenRefused } from "./ui.js";
import { quickPlayPanel } from "./quickplay.js";
import { every } from "./poll.js";
import { settingsControls } from "./settings-form.js";
import { friendsPanel } from "./friends.js";
import { answeredNotice } from "./reports.js";
import { suspensionNotice } from "./suspension.js";

/** Create the guest (first time) or rename it. Resolves to the player, or null on failure. */
export async function saveName(name) {
  const player = getPlayer();
  try {
    if (player) {
      const renamed = await patch("/api/players/me", { name });
      setPlayer({ ...player, name: renamed.name });
    } else {
      const created = await post("/api/players", { name });
      setPlayer({ id: created.id, name: created.name, token: created.token });
    }
  } catch (error) {
    if (error instanceof ApiError && error.code === "bad_token" && player) {
      // An account holder was signed out: told to log in again, not made a new guest unasked.
      if (player.username) {
        tokenRefused(player, error);
        return null;
      }
      // The server forgot us (new database): start again as a new guest.
      localStorage.removeItem("belote.player");
      return saveName(name);
    }
    // A rename is told at every table of the player's, so renames are limited (three, then
    // one every 20 s): say so, not the generic "too fast".
    showError(error instanceof ApiError && error.code === "rate_limited" && player ? { code: error.code, text: t("rename_too_soon") } : error);
    return null;
  }
  window.dispatchEvent(new Event("belote:identity"));
  return getPlayer();
}

export function nameForm(onSaved) {
  const player = getPlayer();
  const again = forgottenGuestName(); // the server forgot this guest: the name, to save again
  const input = h("input", {
    id: "name-input",
    name: "name",
    maxlength: "32",
    required: true,
    autocomplete: "nickname",
    value: player ? player.name : again || "",
    "aria-describedby": again ? "name-again" : null,
  });
  const form = h(
    "form",
    { class: "name-form", id: "name-form" },
    h("label", { for: "name-input", text: t("your_name") }),
    input,
    h("button", { type: "submit", class: "primary", text: t("save") }),
    again ? h("p", { class: "note", id: "name-again", style: { "grid-column": "1 / -1", margin: "0" }, text: t("name_again") }) : null,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    const saved = await saveName(name);
    if (saved) {
      form.querySelector("#name-again")?.remove();
      dropToasts("bad_token"); // "choose a name again": done
      toast(t("name_saved"));
      if (onSaved) onSaved(saved);
    }
  });
  return form;
}

/** "Rated": the room's matches move ratings; not while a bot holds a seat, since a match with a
 * bot is never rated (app/rooms/rating.py, `rated_sides`). Nothing for an unrated room. */
export function ratedBadge(room) {
  if (!room.rated) return null;
  const bot = room.seats.some((s) => s.bot);
  return h("span", { class: `badge rated ${bot ? "off" : ""}`, title: t("rated_explain"), text: t(bot ? "rated_not_with_bot" : "rated") });
}

/** A room row's seats: each name on one line ("Bot 4" never "Bot" / "4"), "·" between two. */
function seatList(room) {
  return dots("room-seats", room.seats.map((s) => dotItem(seatName(room, s.seat), { name: true })));
}

/** A room in a list: its game and `facts` on one line, who sits where, and `link` to it. */
function roomRow(room, facts, link) {
  return h(
    "li",
    { class: "room-row", dataset: { code: room.code } },
    h("div", { class: "room-main" }, dots("room-line", [h("strong", { text: t(`preset_${room.rules.preset}`) }), ...facts]), seatList(room)),
    link,
  );
}

/** A public room: rated or not, for signed-in players only or not, its target, its clock and
 * house rules (what a stranger wants to know before sitting down), how it stands; join it or
 * watch it. */
function publicRow(room) {
  const house = houseRulesText(room.rules);
  return roomRow(
    room,
    [
      room.rated ? dotItem(ratedBadge(room), { plain: true }) : null,
      room.accounts_only ? h("span", { class: "muted", text: t("accounts_only_fact") }) : null,
      room.watchers ? h("span", { class: "muted", title: t("watching_explain"), text: t("watching_n", { n: room.watchers }) }) : null,
      h("span", { class: "muted", text: `${t("target")} ${room.target}` }),
      h("span", { class: "muted", text: room.turn_seconds ? t("seconds", { n: room.turn_seconds }) : t("timer_off") }),
      house ? h("span", { class: "muted house", text: house }) : null,
      h("span", { class: "muted", text: t(`status_${room.status}`) }),
    ],
    h("a", { class: "button", href: `#/r/${encodeURIComponent(room.code)}`, text: room.status === "waiting" ? t("join") : t("watch") }),
  );
}

const PAGE = 50; // rooms a request asks for (GET /api/rooms pages: docs/protocol.md §2)
const PRESET_KEY = "belote.lobby_preset"; // the game the list shows, remembered on this device

/** The public rooms: waiting first, of one game if the player chose one (remembered), a page at
 * a time with "Show more"; `refresh()` reads again the pages shown (every few seconds). */
function publicRooms() {
  const list = h("ul", { class: "rooms", id: "public-rooms" }, h("li", { class: "muted", text: t("loading") }));
  const more = h("button", { type: "button", id: "more-rooms", hidden: true });
  const filter = h("select", { id: "public-preset", "aria-label": t("preset"), hidden: true });
  let preset = localStorage.getItem(PRESET_KEY) || "";
  let pages = 1;
  let asked = 0; // the latest answer wins: a slow one must not draw over a newer choice

  async function refresh() {
    const ask = ++asked;
    const query = (page) => `/api/rooms?offset=${page * PAGE}&limit=${PAGE}${preset ? `&preset=${encodeURIComponent(preset)}` : ""}`;
    try {
      const answers = await Promise.all(Array.from({ length: pages }, (_, page) => get(query(page))));
      if (ask !== asked) return;
      const rooms = answers.flatMap((a) => a.rooms);
      const total = answers[answers.length - 1].total;
      replace(list, rooms.length ? rooms.map(publicRow) : h("li", { class: "muted", text: t(preset ? "no_public_rooms_game" : "no_public_rooms") }));
      more.hidden = total <= rooms.length;
      more.textContent = t("show_more", { n: total - rooms.length });
    } catch (error) {
      if (ask !== asked) return;
      replace(list, h("li", { class: "muted", text: t("err_network") }));
      showError(error);
    }
  }
  more.addEventListener("click", () => {
    pages += 1;
    refresh();
  });
  filter.addEventListener("change", () => {
    preset = filter.value;
    if (preset) localStorage.setItem(PRESET_KEY, preset);
    else localStorage.removeItem(PRESET_KEY);
    pages = 1;
    refresh();
  });
  /** The games to choose from (`GET /api/rules` → presets): the filter shows once they come. */
  function setPresets(presets) {
    if (preset && !presets.includes(preset)) {
      preset = ""; // a game this server no longer has: all games
      localStorage.removeItem(PRESET_KEY);
      refresh();
    }
    replace(filter, h("option", { value: "", text: t("all_games") }), presets.map((p) => h("option", { value: p, text: t(`preset_${p}`) })));
    filter.value = preset;
    filter.hidden = false;
  }
  const panel = h(
    "section",
    { class: "panel public-rooms" },
    h("div", { class: "panel-head" }, h("h2", { text: t("public_rooms") }), filter, h("button", { type: "button", text: t("refresh"), onclick: refresh })),
    list,
    more,
  );
  return { panel, refresh, setPresets };
}

function createForm(rules, refused) {
  const preset = h(
    "select",
    { id: "preset", name: "preset" },
    rules.presets.map((p) => h("option", { value: p, text: t(`preset_${p}`) })),
  );
  const presetHelp = h("p", { class: "explain", id: "preset-help" });
  const seatsOf = (p) => (rules.tables && rules.tables[p] ? rules.tables[p].seats : 4);
  const settings = settingsControls(rules, { target: null, turn_seconds: 30, deal_pause_seconds: 10, bot_level: "basic", public: false, accounts_only: false });
  const bots = h("fieldset", { class: "inline", id: "bot-seats" });

  function fillPreset() {
    const p = preset.value;
    settings.fillHouseRules(p);
    // The game in a line, and a way to its whole rules (rules.js).
    replace(presetHelp, t(`preset_${p}_help`), " ", h("a", { id: "preset-rules", href: `#/rules/${encodeURIComponent(p)}`, text: t("rl_how_to_play") }));
    // The host sits in seat 1; the preset's other seats may get a bot now.
    const seats = Array.from({ length: seatsOf(p) - 1 }, (_, i) => i + 1);
    replace(
      bots,
      h("legend", { text: t("bots_in_seats") }),
      seats.map((seat) =>
        h("label", {}, h("input", { type: "checkbox", name: "bot", value: String(seat), id: `bot-${seat}` }), " ", t("seat_n", { n: seat + 1 })),
      ),
    );
  }
  preset.addEventListener("change", fillPreset);
  fillPreset();

  const rated = h("input", { type: "checkbox", id: "rated", name: "rated", disabled: !getPlayer()?.username });
  rated.addEventListener("change", () => settings.requireClock(rated.checked));
  const form = h(
    "form",
    { class: "create-form", id: "create-form" },
    // Two groups, side by side where the lobby is wide (style.css): the game and its pace; who
    // sits at the table.
    h(
      "div",
      { class: "create-group" },
      h("div", { class: "field" }, h("label", { for: "preset", text: t("preset") }), preset, presetHelp),
      settings.gameFields(),
    ),
    h(
      "div",
      { class: "create-group" },
      settings.visibility,
      settings.accountsOnly,
      bots,
      settings.botField(),
      h("label", { class: "check" }, rated, " ", t("rated_room")),
      accountNote("account_settings_note"),
    ),
    h("button", { type: "submit", class: "primary", id: "create-room", text: t("create") }),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const player = getPlayer();
    if (!player) {
      toast(t("name_needed"), { kind: "error", code: "name_needed" });
      document.getElementById("name-input")?.focus();
      return;
    }
    const { house_rules, target: chosen, ...rest } = settings.read();
    const body = {
      rules: { preset: preset.value, house_rules },
      ...rest,
      bots: [...form.querySelectorAll('input[name="bot"]:checked')].map((el) => Number(el.value)),
      rated: rated.checked,
    };
    if (chosen !== null) body.target = chosen;
    try {
      const created = await post("/api/rooms", body);
      go(`#/r/${encodeURIComponent(created.room.code)}`);
    } catch (error) {
      if (!refused(player, error)) showError(error);
    }
  });
  return form;
}

function joinForm() {
  const input = h("input", { id: "join-code", name: "code", placeholder: "https://…/r/…", autocomplete: "off" });
  const form = h(
    "form",
    { class: "join-form" },
    h("label", { for: "join-code", text: t("join_by_code") }),
    input,
    h("button", { type: "submit", text: t("join") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const raw = input.value.trim();
    const m = raw.match(/\/r\/([\w-]+)\/?$/) || raw.match(/^([\w-]+)$/);
    if (m) {
      go(`#/r/${encodeURIComponent(m[1])}`);
      return;
    }
    // Nothing to go to: said, not ignored (the box stays as typed, to be corrected).
    toast(t(raw ? "join_bad_code" : "join_no_code"), { kind: "error", code: "join_code" });
    input.focus();
  });
  return form;
}

/** One of the player's own open tables (`GET /api/players/me/rooms`): the game, how it stands,
 * the player's seat, who sits where, and the way back to it (the lobby and the account page). */
export function myRoomRow(room) {
  return roomRow(
    room,
    [h("span", { class: "muted", text: t(`status_${room.status}`) }), h("span", { class: "muted", text: t("your_seat_n", { n: room.your_seat + 1 }) })],
    h("a", { class: "button primary return", href: `#/r/${encodeURIComponent(room.code)}`, text: t("return_to_table") }),
  );
}

/** The player's own open tables (waiting or playing), each with the way back to it. */
async function loadMyRooms(box, refused) {
  const player = getPlayer();
  if (!player) {
    box.hidden = true;
    return;
  }
  try {
    const rooms = await get("/api/players/me/rooms");
    box.hidden = !rooms.length;
    replace(
      box,
      h("h2", { text: t("my_rooms") }),
      h(
        "ul",
        { class: "rooms", id: "my-rooms-list" },
        rooms.map(myRoomRow),
      ),
    );
  } catch (error) {
    box.hidden = true;
    if (!refused(player, error)) showError(error);
  }
}

export function showLobby(app) {
  let left = false;
  const mine = h("section", { class: "panel my-rooms", id: "my-rooms", hidden: true });
  const nameBox = h("section", { class: "panel" });
  const drawName = () => replace(nameBox, nameForm(() => loadMyRooms(mine, refused)), joinForm());
  /** A call of the lobby was refused with `bad_token` (the server forgot the guest — a new
   * database — or the account holder's device was signed out): handled as everywhere
   * (`tokenRefused`: forgotten, and told why). A guest's name form then asks for the name again
   * (filled in, with the focus), the rest of the lobby as it was; an account holder's lobby is
   * drawn again as a visitor's, and so is the lobby of the identity another tab stored meanwhile.
   * Returns false for any other error (the caller shows it). */
  function refused(player, error) {
    if (!player || !error || error.code !== "bad_token") return false;
    // Without the server's "create a player first" (its words for API clients): the name form
    // says what to do.
    const gone = tokenRefused(player, { code: error.code });
    if (left) return true;
    if (gone && !player.username) {
      mine.hidden = true;
      drawName();
      document.getElementById("name-input").focus();
    } else go(location.hash);
    return true;
  }
  const friends = getPlayer() ? friendsPanel((error) => refused(getPlayer(), error)) : null;
  const rooms = publicRooms();
  const createBox = h("section", { class: "panel create-box" }, h("h2", { text: t("create_room") }), h("p", { class: "muted", text: t("loading") }));
  app.append(
    h(
      "div",
      { class: "lobby" },
      mine,
      friends ? friends.panel : null,
      nameBox,
      rooms.panel,
      createBox,
    ),
  );
  drawName();
  rooms.refresh();
  loadMyRooms(mine, refused);
  const player = getPlayer();
  if (player) {
    // Only the player reads their suspension; a refused token is the other calls' to handle.
    get("/api/players/me")
      .then((me) => {
        if (left) return;
        const lobby = app.querySelector(".lobby");
        lobby.dataset.me = "read"; // the notices below are drawn (for tests)
        const answered = answeredNotice(me.answered_reports);
        if (answered) lobby.prepend(answered);
        if (me.suspension) lobby.prepend(suspensionNotice(me.suspension));
      })
      .catch(() => {});
  }
  let quick = null;
  get("/api/rules")
    .then((rules) => {
      if (left) return;
      quick = quickPlayPanel(rules.presets, refused);
      rooms.panel.before(quick.panel);
      rooms.setPresets(rules.presets);
      clear(createBox);
      createBox.append(h("h2", { text: t("create_room") }), createForm(rules, refused));
    })
    .catch(showError);
  const stopRooms = every(rooms.refresh, 5000);
  if (friends) friends.refresh();
  const stopFriends = friends ? every(friends.refresh, 10000) : null;
  return {
    leave: () => {
      left = true;
      stopRooms();
      if (friends) {
        stopFriends();
        friends.leave();
      }
      if (quick) quick.leave();
    },
  };
}
