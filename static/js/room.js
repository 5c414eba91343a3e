// A room: the waiting table (seats, bots, invite link, start), the game table (hands, trick,
// bidding, declarations, turn clock), the end of each deal, the scoresheet, chat and rematch.
// Everything shown comes from the server's frames; legality comes only from `deal.legal`.
import { get } from "./api.js";
import { RoomConnection } from "./conn.js";
import { clear, h, replace } from "./dom.js";
import { forgottenGuestName, getPlayer } from "./identity.js";
import { errorText, houseRulesText, labelled, lang, t } from "./i18n.js";
import { cardBack, cardFace, cardLabel, cardName, cardText, layoutHand, sortForShow, stackTag, SUIT_OF_NAME, SUIT_SYMBOL } from "./cards.js";
import { nameForm, ratedBadge } from "./lobby.js";
import { pref, prefsControls } from "./prefs.js";
import { avatar, dealerBadge, nameParts, playerScores, seatState, teamScores } from "./plates.js";
import { createMotion } from "./motion.js";
import { playSound } from "./sound.js";
import { turnSignal } from "./signal.js";
import { screenAwake } from "./awake.js";
import { concededText, exitControls, exitDialog, withConcession } from "./exit.js";
import { confirmDialog, modalKey } from "./dialog.js";
import { settingsChangedWords, settingsDialog } from "./room-settings.js";
import { inviteFriends } from "./friends.js";
import { isMuted, muteControl } from "./mute.js";
import { openReport } from "./report.js";
import { lineText, phraseButtons } from "./phrases.js";
import { breakdownTable, contractBadge, contractLabel, scoresheetTable } from "./scoresheet.js";
import { accountNote, announce, banner, copyLink, dotItem, dots, dropToasts, go, linkButtons, roomLink, seatName, showError, toast, tokenRefused, touchOnly } from "./ui.js";
import { positionOf, positions, range, seatCount, sideOf, sideOrder, sidesOf, teamsPlay } from "./sides.js";

const CARRE_POINTS = { J: 200, 9: 150 };

function declarationValue(cards) {
  if (cards.length === 4 && cards.every((c) => c[0] === cards[0][0])) return CARRE_POINTS[cards[0][0]] || 100;
  return { 3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 120 }[cards.length] || 0;
}

function declarationKind(cards) {
  if (cards.length === 4 && cards.every((c) => c[0] === cards[0][0])) return "carre";
  return { 3: "tierce", 4: "quarte", 8: "quinte_tierce" }[cards.length] || "quinte";
}

const declareKey = (declare) => JSON.stringify((declare || []).map((d) => [...d].sort()).sort());

/** A seat's last bid on its plate (style.css: a phone's narrow side seat puts its words on
 * lines of their own rather than cut it). */
export function bidBubble(bid) {
  return h("span", { class: "bubble", text: contractLabel(bid) });
}

export function showRoom(app, code) {
  const player = getPlayer();
  if (!player) {
    // A friend who followed an invite link before ever choosing a name: say what they were
    // invited to (the code is the capability that lets them read the room) while they do.
    const about = h("p", { class: "invite-about", id: "invite-about" });
    const then = h("p", { class: "muted", id: "invite-then", text: t("invite_name") });
    app.append(
      h(
        "section",
        { class: "panel narrow" },
        h("h2", { text: t("invite_title") }),
        about,
        then,
        nameForm(() => go(`#/r/${encodeURIComponent(code)}`)),
      ),
    );
    if (forgottenGuestName()) document.getElementById("name-input").focus(); // as the lobby does
    get(`/api/rooms/${encodeURIComponent(code)}`).then(
      ({ room }) => {
        const host = room.seats.find((s) => s.player && s.player.id === room.host);
        const taken = room.seats.filter((s) => s.player || s.bot).length;
        const words = { game: t(`preset_${room.rules.preset}`), host: host ? host.player.name : "", taken, seats: room.seats.length };
        about.textContent = t(room.watch_only ? "watch_about" : host ? "invite_about_host" : "invite_about", words);
        if (room.watch_only) then.textContent = t("watch_name"); // no seat to take by this link
      },
      (error) => {
        about.textContent = error.code === "unknown_room" ? t("room_gone") : errorText(error.code || "network");
      },
    );
    return { leave() {} };
  }

  const S = {
    room: null,
    you: { seat: null, player_id: player.id },
    deal: null,
    turn: null,
    number: null,
    scoresheet: null,
    chat: [],
    lastResult: null, // the last deal_end frame's data
    showResult: false,
    showLastTrick: false,
    declare: null, // chosen declaration option key (null: the best one)
    belote: true,
    rebelote: true,
    busy: false,
    pendingCard: null, // the card (or bid) sent and not yet answered: shown as pending
    armedCard: null, // "Confirm each card": the card chosen by a first tap, played by a second
    nextAsked: false, // this player pressed "Next deal" during the pause
    playedForYou: [], // what the server played for this player since they last looked: {number, seq, what}
    leaveTo: null, // a link the player followed during the match: asked to confirm
    exitAsk: null, // "leave" or "concede": the player pressed it, the dialog asks first
    seatAsk: null, // {kind, seat, id}: the host pressed "Remove" or "Make host" on that person's seat
    armedBid: null, // keyboard: the bid chosen with a first Enter, sent with a second
    keyboard: false,
    status: "connecting",
    clockOffset: 0, // server clock − this device's clock, from the last snapshot (ms)
    justTurned: new Set(), // Open Belot: "seat:stack" of the face-down cards the last frame turned
    suspended: false, // the site's operator suspended this player: they watch (suspension.js)
    tournament: null, // {id, name}: the tournament this room is a table of (tournaments.js)
  };

  /** Open Belot (OB-11): the stacks whose face-down card the frame from `before` to `after`
   * turned face up, to show the turn. */
  function turnedCards(before, after) {
    const out = new Set();
    if (!before || !after || !before.stacks || !after.stacks) return out;
    after.stacks.forEach((own, seat) =>
      own.forEach((stack, k) => {
        const was = before.stacks[seat] && before.stacks[seat][k];
        if (was && was.down && !stack.down && stack.up) out.add(`${seat}:${k}`);
      }),
    );
    return out;
  }

  // ---- the page skeleton (chat stays mounted so a typed message survives re-renders) ----
  const top = h("div", { class: "room-top", id: "room-top" });
  const table = h("section", { class: "table", id: "table", "aria-label": t("app_title") });
  const info = h("section", { class: "panel info", id: "info" });
  const sheetBox = h("section", { class: "panel sheet", id: "sheet" });
  const chatList = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
  const chatInput = h("input", { id: "chat-input", maxlength: "300", autocomplete: "off" });
  const chatForm = h("form", { class: "chat-form", id: "chat-form" }, chatInput, h("button", { type: "submit", id: "chat-send" }));
  const chatTitle = h("h3");
  const muteSlot = h("div", { class: "chat-mute-slot" });
  let muteKey = null; // the people (and language) the mute box was drawn for
  let settingsBox = null; // the host's open settings dialog: kept apart from the re-rendered table
  const chatNote = h("p", { class: "muted chat-note", id: "chat-note", hidden: true });
  const phraseBox = h("details", { class: "chat-phrases", id: "chat-phrases" });
  let phraseLang = null; // the language the phrase buttons were drawn in
  // A tournament's table links back to its bracket (asked once: a room is one's table for good).
  get(`/api/tournaments/table/${encodeURIComponent(code)}`).then(({ tournament }) => {
    S.tournament = tournament;
    if (tournament && S.room) renderTop();
  }, () => {});
  const chatBox = h("section", { class: "panel chat", id: "chat" }, h("div", { class: "chat-head" }, chatTitle, muteSlot), chatList, chatForm, phraseBox, chatNote);
  const removedBox = h("section", { class: "panel removed", id: "removed", hidden: true });
  const side = h("aside", { class: "side" }, info, sheetBox, removedBox, chatBox);
  const root = h("div", { class: "room", id: "room", dataset: { code } }, top, h("div", { class: "room-body" }, table, side));
  app.append(root);
  const motion = createMotion(root); // cosmetic: drawn state first, animations after (motion.js)
  const awake = screenAwake(); // the screen stays on while the player plays a match (awake.js)

  /** Send a chat line (`{text}` typed, or `{phrase}`); true once the room took it. */
  async function say(line) {
    try {
      await conn.send("chat", line);
      return true;
    } catch (error) {
      showError(error);
      if (error.code === "suspended") suspendedNow(); // during a match: the box goes
      return false;
    }
  }

  chatForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (text && (await say({ text }))) chatInput.value = "";
  });

  // ---- who sits where ------------------------------------------------------------------
  const me = () => S.you.seat;
  const base = () => (me() === null || me() === undefined ? 0 : me());
  // The preset fixes the seats (4, 3 or 2): the room's seats say how many.
  const seats = () => seatCount(S.room);
  const position = (seat) => positionOf(seats(), base(), seat);
  // The seat the viewer played the match shown from: their seat while it is played; once it is
  // over, the seat they played it in (they may have moved since, or sat down after it: null, a
  // watcher's view). Its verdict, scores and "us" are judged from there, not from the new seat.
  const played = () => {
    const was = S.room && S.room.status === "finished" ? S.room.match_seats : null;
    if (!was) return me();
    const seat = was.findIndex((s) => s.player && s.player.id === player.id);
    return seat < 0 ? null : seat;
  };
  const usTeam = () => sideOf(seats(), played() ?? 0);
  const columns = () => sideOrder(seats(), played() === null ? null : usTeam());
  // Who played the match shown (ROOM's `match_seats`): the sides' names are theirs, whoever sits
  // there once it is over (one stood up, or was removed: not "Host & Empty seat").
  const name = (seat) => seatName(S.room.match_seats ? { seats: S.room.match_seats } : S.room, seat);
  // At four: the two teams (us / them); at three or two each player is a side of his own.
  const teamNames = () => {
    if (!teamsPlay(seats())) return range(seats()).map((seat) => (seat === played() ? `${t("side_you")} (${name(seat)})` : name(seat)));
    const names = [0, 1].map((team) => `${name(team)} & ${name(team + 2)}`);
    return shortTeamNames().map((label, team) => `${label} (${names[team]})`);
  };
  const shortTeamNames = () => {
    if (!teamsPlay(seats())) return range(seats()).map((seat) => (seat === played() ? t("side_you") : name(seat)));
    const us = usTeam();
    const out = [];
    out[us] = played() === null ? t("team_n", { n: us + 1 }) : t("team_us");
    out[1 - us] = played() === null ? t("team_n", { n: 2 - us }) : t("team_them");
    return out;
  };
  // Whoever came by the watch code (`watch_only`) only watches, the host too.
  const isHost = () => S.room && !S.room.watch_only && S.room.host === player.id;
  // "Invite a friend" (friends.js): one element for the page's life, so redraws keep it open.
  const friendInvite = player ? inviteFriends(code) : null;
  // While the host is away, any seated player may start and seat bots (the server agrees).
  const actsAsHost = () => isHost() || (S.room && !S.room.host_here && me() !== null);
  // The host removed this player from the table: they watch, and are offered no seat.
  const removedMe = () => Boolean(player && S.room && (S.room.removed || []).some((r) => r.id === player.id));
  // A deal still being played (its last frame, phase "finished", stays in S.deal until the next).
  const dealLive = () => Boolean(S.deal && S.deal.phase !== "finished");
  // The player's last card, which leaves no choice: the server plays it (TURN's `forced`), so
  // it is not offered, and a click cannot race the server's play.
  const lastCardPlays = () => Boolean(S.turn && S.turn.forced && me() !== null && S.turn.seat === me());
  const myTurn = () => S.deal && me() !== null && S.deal.turn === me() && S.deal.legal.length > 0 && !lastCardPlays();
  // The countdown of the turn clock (empty: none shown), not the moment a last card plays.
  const clockDeadline = () => (S.turn && S.turn.deadline && !S.turn.forced ? String(S.turn.deadline) : "");

  // ---- commands ------------------------------------------------------------------------
  async function command(type, data) {
    try {
      return await conn.send(type, data);
    } catch (error) {
      showError(error);
      if (error.code === "suspended") suspendedNow();
      return null;
    }
  }

  /** The player is suspended (told so by `GET /api/players/me`, or by a refusal since): the
   * table offers no seat and no chat box, and says why in their place. */
  function suspendedNow() {
    if (S.suspended) return;
    S.suspended = true;
    render();
  }

  async function act(action) {
    if (S.busy) return;
    if (!conn.usable) {
      // Never a silent click: say that nothing was sent (the table comes back by itself).
      showError({ code: "not_connected" });
      return;
    }
    S.busy = true;
    S.pendingCard = action.play || action.bid || null;
    render();
    const { seat, ...body } = action;
    try {
      await conn.send("act", body);
    } catch (error) {
      showError(explainRefusal(error, action));
    } finally {
      S.busy = false;
      S.pendingCard = null;
      render();
    }
  }

  /** Why a card was refused, in the player's words: the server names the rule (BG-8, FR-6 …),
   * the legal cards and the trick on the table say which obligation it was. */
  function explainRefusal(error, action) {
    if (!error || error.code !== "illegal_card" || !S.deal || !action.play) return error;
    const card = action.play;
    const deal = S.deal;
    const legal = deal.legal.filter((a) => a.play).map((a) => a.play);
    let why = null;
    if (!deal.hand || !deal.hand.includes(card)) why = "why_not_in_hand";
    else if (deal.trick.length && legal.length) {
      const led = deal.trick[0].card[1];
      const trump = SUIT_OF_NAME[deal.contract] || null;
      const allLed = legal.every((c) => c[1] === led);
      const allTrump = trump !== null && legal.every((c) => c[1] === trump);
      if (allLed) why = card[1] === led ? "why_must_raise" : "why_follow_suit";
      else if (allTrump) why = card[1] === trump ? "why_must_overtrump" : "why_must_trump";
    }
    return { ...error, text: why ? t(why) : null };
  }

  function declareOptions() {
    if (!S.deal) return [];
    const seen = new Map();
    for (const a of S.deal.legal) {
      if (!a.play) continue;
      const key = declareKey(a.declare);
      if (!seen.has(key)) seen.set(key, a.declare || []);
    }
    if (seen.size <= 1) return [];
    return [...seen.entries()].map(([key, declare]) => ({
      key,
      declare,
      value: declare.reduce((sum, d) => sum + declarationValue(d), 0),
    }));
  }

  function chosenDeclareKey(options) {
    if (!options.length) return declareKey([]);
    if (S.declare !== null && options.some((o) => o.key === S.declare)) return S.declare;
    return options.reduce((best, o) => (o.value > best.value ? o : best)).key;
  }

  function playCard(card) {
    if (!S.deal || lastCardPlays()) return; // the server plays it: a click would only race it
    const variants = S.deal.legal.filter((a) => a.play === card);
    if (!variants.length) {
      // Not highlighted: let the server say why (not your turn, must follow suit, …).
      act({ play: card });
      return;
    }
    // "Confirm each card" (prefs.js): a first tap or click only chooses the card, so that a
    // slip of the finger on a phone's crowded hand plays nothing. The keyboard's Enter, which
    // comes after choosing with the arrows, plays at once.
    if (pref("confirmPlay") && !S.keyboard && S.armedCard !== card) {
      S.armedCard = card;
      render();
      return;
    }
    S.armedCard = null;
    const key = chosenDeclareKey(declareOptions());
    let pool = variants.filter((a) => declareKey(a.declare) === key);
    if (!pool.length) pool = variants;
    const pick = (list, field, wanted) => {
      const match = list.filter((a) => Boolean(a[field]) === wanted);
      return match.length ? match : list;
    };
    pool = pick(pool, "belote", S.belote);
    pool = pick(pool, "rebelote", S.rebelote);
    act(pool[0]);
  }

  // ---- frames --------------------------------------------------------------------------
  function onFrame(frame) {
    const d = frame.d || {};
    switch (frame.t) {
      case "snapshot":
        S.room = d.room;
        S.you = d.you || { seat: null, player_id: player.id };
        S.scoresheet = withConcession(d.scoresheet, d.room);
        S.number = d.number;
        S.deal = d.deal;
        S.turn = d.turn;
        // In the pause after a deal: its result, as those at the table saw it come.
        if (d.last_deal && !d.deal) {
          S.lastResult = { ...d.last_deal, scoresheet: d.scoresheet };
          S.showResult = true;
        }
        S.chat = d.chat || [];
        if (d.deal && d.deal.played_for_you) S.playedForYou = unseen(d.deal.played_for_you.map((a) => ({ number: d.number, seq: a.seq, what: actionLabel(a) })));
        // Deadlines are on the server's clock: remember how far this device's clock is off.
        S.clockOffset = typeof d.now === "number" ? d.now - Date.now() : 0;
        renderChat();
        contribute(d.shuffle, true);
        break;
      case "room":
        // A new match (a rematch): the last one's scoresheet, result and "played for you"
        // are not this one's (a snapshot starts afresh the same way).
        if (S.room && d.match_id !== S.room.match_id) {
          S.scoresheet = null;
          S.lastResult = null;
          S.showResult = false;
          S.playedForYou = [];
        }
        if (S.room) {
          announceArrivals(S.room, d);
          announceRenames(S.room, d);
          announceSettings(S.room, d);
          if (d.host === player.id && S.room.host !== player.id) toast(t("you_host"));
          const wasOut = removedMe();
          if (wasOut && player && !(d.removed || []).some((r) => r.id === player.id)) toast(t("let_back_in_you"));
        }
        // A match conceded in the middle of a deal: that deal is over unplayed (its cards stay
        // secret, as the server's snapshot has it): no hand, no turn, no bids left on the table.
        if (d.status === "finished" && S.deal && S.deal.phase !== "finished") {
          S.deal = null;
          S.turn = null;
        }
        S.room = d;
        S.scoresheet = withConcession(S.scoresheet, d);
        if (d.status !== "playing") S.exitAsk = null;
        break;
      case "deal":
        contribute(d.shuffle, false);
        S.number = d.number;
        S.deal = d.deal;
        S.turn = d.turn;
        // The last result moves aside (the side panel) so the new deal is never hidden behind
        // it; a player who pressed "Next deal" has seen it.
        if (S.nextAsked) S.showResult = false;
        S.nextAsked = false;
        S.armedBid = null;
        S.armedCard = null;
        S.declare = null;
        S.belote = true;
        S.rebelote = true;
        S.showLastTrick = false;
        break;
      case "action":
        if (S.deal && d.deal && d.deal.bids.length === S.deal.bids.length) playSound("card");
        if (d.auto && d.seat === me() && S.room && !S.room.seats[d.seat].bot) notePlayedForYou(S.deal, d.deal);
        S.justTurned = turnedCards(S.deal, d.deal);
        S.deal = d.deal;
        S.turn = d.turn;
        S.armedBid = null;
        S.armedCard = null;
        break;
      case "deal_end":
        if (me() !== null) playSound(dealWon(d.result) ? "won" : "lost");
        S.lastResult = d;
        S.scoresheet = d.scoresheet;
        S.showResult = true;
        S.nextAsked = false;
        break;
      case "chat":
        S.chat.push(d);
        appendChat(d);
        return;
      default:
        return;
    }
    render();
  }

  // Each new commitment of the server's next seed gets this player's entropy, unasked. A
  // snapshot sends it again (a server restart forgets what it was holding for that deal).
  let contributedTo = null;
  function contribute(shuffle, again) {
    const next = shuffle && shuffle.next_commitment;
    if (!next || S.you.seat === null || S.you.seat === undefined) return;
    if (next === contributedTo && !again) return;
    contributedTo = next;
    conn.contribute(next);
  }

  /** The server acted for this player (the clock ran out, or a stand-in bot): keep what it did
   * until the player has seen it. */
  function notePlayedForYou(before, after) {
    let what = null;
    if (before && after && after.bids.length > before.bids.length) what = contractLabel(after.bids[after.bids.length - 1].bid);
    else if (before && after) {
      // The card that left the player's cards (the hand, or Open Belot's face-up stacks).
      const mine = (deal) => [...(deal.hand || []), ...(deal.stacks ? deal.stacks[me()].map((s) => s.up).filter(Boolean) : [])];
      const gone = mine(before).filter((c) => !mine(after).includes(c));
      if (gone.length >= 1) what = cardLabel(gone[0]);
    }
    S.playedForYou.push({ number: S.number, seq: actionCount(after) - 1, what: what || "?" });
  }

  /** How many actions a deal has seen (bids and cards): the next action's `seq`. */
  const actionCount = (deal) => (deal ? deal.bids.length + deal.tricks.reduce((n, tr) => n + tr.cards.length, 0) + deal.trick.length : 0);
  const actionLabel = (a) => (a.bid ? contractLabel(a.bid) : cardLabel(a.play));

  // "Played for you" dismissed is remembered for the tab (a reload's snapshot lists the deal's
  // notices again, VIEW.played_for_you): the deal and the last action the player closed.
  const SEEN_KEY = `belote.played_for_you_seen.${code}`;
  function unseen(items) {
    let seen = null;
    try {
      seen = JSON.parse(sessionStorage.getItem(SEEN_KEY) || "null");
    } catch {
      seen = null;
    }
    return seen ? items.filter((x) => x.number !== seen.number || x.seq > seen.seq) : items;
  }
  function dismissPlayedForYou() {
    const last = S.playedForYou[S.playedForYou.length - 1];
    if (last) sessionStorage.setItem(SEEN_KEY, JSON.stringify({ number: last.number, seq: last.seq }));
    S.playedForYou = [];
  }

  function onStatus(status) {
    S.status = status;
    if (status === "offline") banner(t("offline"));
    else if (status === "reconnecting") banner(t("reconnecting"));
    else if (status === "connecting") banner(t("connecting"));
    else if (status === "gone") {
      // No room has this code: the page says so once, instead of an empty table, side panels
      // with nothing in them, and a toast repeating it.
      banner(null);
      dropToasts("unknown_room");
      replace(
        root,
        h(
          "section",
          { class: "panel narrow gone", id: "gone" },
          h("h2", { text: t("room_gone") }),
          h("p", { class: "muted", text: t("room_gone_help") }),
          h("a", { class: "button primary", href: "#/", text: t("back_to_lobby") }),
        ),
      );
    } else {
      banner(null);
      if (status === "reconnected") toast(t("reconnected"), { timeout: 2500 });
    }
    root.dataset.connection = status;
    if (S.room) render(); // the hand shows whether a click can be sent
  }

  function onHelloFailed(error) {
    // The room was being put away as we arrived: the server closes (1012) and we reconnect.
    if (error && error.code === "room_closed") return;
    if (!error || error.code !== "bad_token") {
      showError(error);
      return;
    }
    // The token stopped working (signed out: close 4401, then this hello) or the server does
    // not know this guest (e.g. a fresh database). A guest chooses a name again here; an
    // account holder logs in again. Another tab may have signed in meanwhile: the table comes
    // back as that identity.
    conn.close();
    if (tokenRefused(player, error) && player.username) go("#/account");
    else go(`#/r/${encodeURIComponent(code)}`);
  }

  const conn = new RoomConnection(code, player.token, {
    frame: onFrame,
    status: onStatus,
    error: showError,
    helloFailed: onHelloFailed,
  });
  window.__belote = { conn, state: S }; // for tests and debugging from the console
  get("/api/players/me")
    .then((me) => me.suspension && suspendedNow())
    .catch(() => {}); // a refused token is the socket's to handle

  // ---- rendering -----------------------------------------------------------------------
  function render() {
    if (!S.room) return;
    if (settingsBox && (S.room.status === "playing" || !isHost())) closeSettings(false); // too late
    const active = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset : {};
    const focused = active.card || active.bid || null;
    const shot = motion.capture();
    renderTop();
    renderTable();
    tabToHand();
    renderInfo();
    renderSheet();
    renderRemoved();
    chatTitle.textContent = t("chat");
    renderMute();
    chatInput.placeholder = t("chat_placeholder");
    chatForm.querySelector("button").textContent = t("send");
    // Spectators read the players' chat but do not write in it (the server refuses them too).
    chatForm.hidden = me() === null || S.suspended;
    phraseBox.hidden = chatForm.hidden;
    if (phraseLang !== lang()) {
      phraseLang = lang();
      phraseButtons(phraseBox, (phrase) => say({ phrase }));
    }
    chatNote.hidden = !chatForm.hidden;
    chatNote.textContent = t(me() !== null ? "suspended_chat" : "spectator_chat");
    root.dataset.status = S.room.status;
    root.dataset.phase = S.deal ? S.deal.phase : "none";
    root.dataset.myTurn = String(Boolean(myTurn()));
    root.dataset.version = String(conn.version);
    tickClocks();
    guardBack();
    awake.set(S.room.status === "playing" && me() !== null); // a watcher's screen does as it likes
    showTheTable();
    restoreFocus(focused);
    motion.play(shot, { deal: S.deal, number: S.number });
    turnCues();
  }

  // ---- a phone on its side: the table in view ------------------------------------------------
  // On a screen that short the top bar and the room's lines push the table below the fold,
  // though the table itself fits the screen (style.css): once per match, when it begins or the
  // player comes to it, the page scrolls so that the whole table shows. Never again during the
  // match, so that a player reading the chat or the scoresheet is not pulled back.
  const shortScreen = window.matchMedia("(orientation: landscape) and (max-height: 500px)");
  let shownForMatch = null;
  function showTheTable() {
    if (S.room.status !== "playing" || me() === null || !shortScreen.matches) return;
    if (shownForMatch === S.room.match_id) return;
    shownForMatch = S.room.match_id;
    table.scrollIntoView({ block: "end" });
  }

  // ---- sound and the tab's signal (sound.js, signal.js) -----------------------------------
  let wasMyTurn = false;
  let wasLastCard = false;
  function turnCues() {
    const mine = Boolean(myTurn());
    const lastCard = lastCardPlays();
    if (mine && !wasMyTurn) playSound("turn");
    if (lastCard && !wasLastCard) announce(t("last_card_plays")); // why nothing is asked
    // Once that card is out the line goes too: it was true only until then.
    else if (mine !== wasMyTurn || (wasLastCard && !lastCard)) announce(mine ? t("your_turn") : "");
    wasMyTurn = mine;
    wasLastCard = lastCard;
    turnSignal(mine);
  }
  /** Whether this player's side took more of the deal than every other (a dash counts 0). */
  function dealWon(result) {
    const mp = (result && result.mp) || [];
    const us = usTeam();
    const others = mp.filter((_, side) => side !== us).map((v) => v || 0);
    return (mp[us] || 0) > Math.max(0, ...others);
  }

  function renderTop() {
    const room = S.room;
    const house = houseRulesText(room.rules);
    replace(
      top,
      // The page's heading under the site's h1, for a screen reader (the game is shown in the
      // facts below): the table's parts (the deal, the scoresheet, the chat) are h3s under it.
      h("h2", { class: "sr-only", id: "room-heading", text: t("room_heading", { game: t(`preset_${room.rules.preset}`) }) }),
      h(
        "div",
        { class: "room-settings-line" },
        dots("room-facts", [
          // The game, and its rules in a tab of their own: leaving the table's page would leave
          // the seat (rules.js).
          h(
            "a",
            { id: "room-rules", href: `#/rules/${encodeURIComponent(room.rules.preset)}`, target: "_blank", rel: "noopener", title: t("rl_how_to_play") },
            h("strong", { text: t(`preset_${room.rules.preset}`) }),
          ),
          S.tournament ? h("a", { id: "room-tournament", href: `#/tournaments/${encodeURIComponent(S.tournament.id)}`, text: t("tn_table_of", { name: S.tournament.name }) }) : null,
          `${t("target")} ${room.target}`,
          room.turn_seconds ? t("seconds", { n: room.turn_seconds }) : t("timer_off"),
          room.public ? t("public") : t("private"),
          room.rated ? dotItem(ratedBadge(room), { plain: true }) : null,
          room.accounts_only ? t("accounts_only_fact") : null,
          // Who watches is theirs to know; how many is the table's (a private link passed on).
          room.watchers ? h("span", { class: "watchers", title: t("watching_explain"), text: t("watching_n", { n: room.watchers }) }) : null,
          house ? h("span", { class: "muted", text: house }) : null,
        ]),
        // Between matches the host may change them (room-settings.js), beside what they are.
        isHost() && room.status !== "playing" ? h("button", { type: "button", id: "room-settings", text: t("settings_button"), onclick: openSettings }) : null,
      ),
      prefsControls(undefined, room.status === "playing"),
      linkBox(room),
    );
  }

  /** The room's link to pass on: the invite link, or the link to watch (protocol §3), which
   * lets nobody sit — to one who came by it (`watch_only`: they hold no other), and at a private
   * table during a match, when nobody can sit anyway (between matches it is a button beside the
   * invite link). */
  function linkBox(room) {
    const watching = room.watch_only || (!room.public && room.status === "playing");
    const link = roomLink(watching ? room.watch_code : room.code);
    const label = t(watching ? "watch_link" : "invite_link");
    // As wide as its link (style.css lets the buttons go under it rather than cut the code off).
    const linkInput = h("input", { id: "invite-link", readonly: true, value: link, size: link.length + 2, "aria-label": label });
    return h(
      "div",
      { class: "invite" },
      h("label", { for: "invite-link", text: label }),
      linkInput,
      linkButtons(link, t(watching ? "share_watch" : "share_invite", { game: t(`preset_${room.rules.preset}`) })),
      room.public || watching
        ? null
        : h("button", { type: "button", id: "copy-watch-link", title: t("watch_link_explain"), text: t("copy_watch_link"), onclick: () => copyLink(roomLink(room.watch_code)) }),
      // The table's players (and its host) may invite friends: they hold its code.
      friendInvite && (isHost() || me() !== null) ? friendInvite : null,
    );
  }

  /** A guest is not offered a seat that asks for an account (a rated room, one kept for
   * signed-in players): the table says so instead, with where to make one. Seats are offered
   * again once they have signed up. */
  function seatsNeedAccount() {
    return (S.room.rated || S.room.accounts_only) && !getPlayer()?.username;
  }

  /** Where a suspended player would have been offered a seat: why not, and where to read more. */
  function suspendedNote() {
    return h("p", { class: "note", id: "suspended-note", role: "status" }, t("suspended_note"), " ", h("a", { href: "#/account", text: t("suspended_more") }));
  }

  function seatBox(seat) {
    const room = S.room;
    const record = room.seats[seat];
    const deal = S.deal;
    const badges = [];
    if (seat === me()) badges.push(h("span", { class: "badge you", role: "img", title: t("side_you"), "aria-label": t("side_you"), text: "★" }));
    if (record.player && record.player.id === room.host) badges.push(h("span", { class: "badge", text: t("host") }));
    if (record.player && !record.connected) badges.push(h("span", { class: "badge warn", text: t("away") }));
    if (record.standin) badges.push(h("span", { class: "badge warn", text: t("standin") }));
    if (deal && deal.dealer === seat) badges.push(dealerBadge());

    const controls = [];
    // Before the first match and between two (another partner for the rematch, a newcomer).
    if (room.status !== "playing") {
      const empty = !record.player && !record.bot;
      if (empty && player && !room.watch_only && !removedMe() && !seatsNeedAccount() && !S.suspended) controls.push(h("button", { type: "button", class: "sit", dataset: { seat: String(seat) }, text: t("sit_here"), onclick: () => command("sit", { seat }) }));
      if (empty && actsAsHost()) controls.push(h("button", { type: "button", class: "add-bot", text: t("add_bot"), onclick: () => command("bot", { seat, on: true }) }));
      if (record.bot && actsAsHost()) controls.push(h("button", { type: "button", class: "remove-bot", text: t("remove_bot"), onclick: () => command("bot", { seat, on: false }) }));
      if (seat === me()) controls.push(h("button", { type: "button", class: "leave", text: t("leave_seat"), onclick: () => command("leave", {}) }));
    }
    // Between matches (before the first, or before a rematch) the host may remove a person, or
    // hand the room over to them.
    if (room.status !== "playing" && record.player && record.player.id !== room.host && isHost()) {
      const who = seatName(room, seat);
      controls.push(h("button", { type: "button", class: "make-host", "aria-label": t("make_host_label", { name: who }), text: t("make_host"), onclick: () => askAbout("host", seat) }));
      controls.push(h("button", { type: "button", class: "remove-player", "aria-label": t("remove_player_label", { name: who }), text: t("remove_player"), onclick: () => askAbout("remove", seat) }));
    }

    const extras = [];
    if (deal) {
      // The seat's last word in the bidding, while bidding goes on.
      if (deal.phase === "bidding") {
        const bids = deal.bids.filter((b) => b.seat === seat);
        if (bids.length) extras.push(bidBubble(bids[bids.length - 1].bid));
      }
      for (const decl of deal.declarations.filter((x) => x.seat === seat)) {
        extras.push(
          h(
            "span",
            { class: "bubble decl" },
            t(`kind_${decl.kind}`),
            decl.cards ? [" ", sortForShow(decl.cards).map((c) => cardText(c))] : null,
            decl.points ? ` ${decl.points}` : null,
          ),
        );
      }
      for (const bel of deal.belotes.filter((x) => x.seat === seat)) {
        extras.push(h("span", { class: "bubble belote", text: `${t("belote_line")} ${SUIT_SYMBOL[SUIT_OF_NAME[bel.suit]] || ""}` }));
      }
    }
    const turn = S.turn && S.turn.seat === seat && deal && deal.phase !== "finished";
    const backs =
      deal && seat !== me() && deal.phase !== "finished"
        ? h("div", { class: "backs", role: "img", "aria-label": t("cards_in_hand", { n: deal.hand_sizes[seat] }) }, Array.from({ length: deal.hand_sizes[seat] }, () => cardBack("mini")), h("span", { class: "count", text: String(deal.hand_sizes[seat]) }))
        : null;
    return h(
      "div",
      {
        class: `seat pos-${position(seat)} team-${sideOf(seats(), seat) === usTeam() ? "us" : "them"} ${turn ? "turn" : ""}`,
        dataset: { seat: String(seat), state: seatState(record) },
      },
      h(
        "div",
        { class: "seat-head" },
        avatar(seatName(room, seat), seatState(record)),
        record.player || record.bot
          ? h("span", { class: "seat-name", title: seatName(room, seat) }, nameParts(seatName(room, seat)))
          : h("span", { class: "seat-name", text: t("empty_seat") }),
        badges,
        turn ? h("span", { class: "clock", dataset: { deadline: clockDeadline() } }) : null,
      ),
      backs,
      seat !== me() ? stacksView(seat) : null,
      extras.length
        ? h("div", { class: "seat-extras" }, extras)
        : // A phone keeps the top seat's bubble row through a deal (unseen while empty; style.css):
          // the felt's height, and the hand under it, stay put when a bubble shows there.
          position(seat) === "top" && dealLive()
          ? h("div", { class: "seat-extras kept", "aria-hidden": "true" }, h("span", { class: "bubble" }))
          : null,
      controls.length ? h("div", { class: "seat-controls" }, controls) : null,
    );
  }

  /** Open Belot: a player's table stacks, each a face-up card (if any) over a face-down one
   * (a card back: nobody sees it, OB-7). The viewer's own face-up cards are played by a
   * click when legal, like the cards of his hand (OB-9). */
  function stacksView(seat) {
    const deal = S.deal;
    if (!deal || !deal.stacks || !deal.stacks[seat] || deal.phase === "finished") return null;
    const mine = seat === me();
    const playing = mine && deal.phase === "playing" && myTurn();
    const legalCards = new Set(deal.legal.filter((a) => a.play).map((a) => a.play));
    return h(
      "div",
      { class: `stacks ${mine ? "mine" : ""}`, id: mine ? "my-stacks" : null, dataset: { seat: String(seat) }, "aria-label": t("table_stacks") },
      deal.stacks[seat].map((stack, k) => {
        const turned = S.justTurned.has(`${seat}:${k}`);
        let face = null;
        if (stack.up) {
          const state = !playing ? "idle" : legalCards.has(stack.up) ? "playable" : "dimmed";
          face = cardFace(stack.up, {
            button: mine,
            extraClass: `stack-up ${mine ? state : ""} ${turned ? "turned-now" : ""} ${S.pendingCard === stack.up ? "pending" : ""} ${mine && S.armedCard === stack.up ? "armed" : ""}`,
            attrs: mine ? { onclick: () => playCard(stack.up), tabindex: "-1" } : {},
          });
        }
        return h(
          "div",
          { class: `stack ${stack.up ? "" : "no-up"} ${stack.down ? "has-down" : ""}`, dataset: { stack: String(k), down: String(stack.down) } },
          stack.down ? cardBack("stack-down") : null,
          face,
        );
      }),
    );
  }

  function trickView() {
    const deal = S.deal;
    const slots = {};
    let caption = null;
    let faded = false;
    let winner = null;
    let cards = deal.trick;
    const last = deal.tricks.length ? deal.tricks[deal.tricks.length - 1] : null;
    if (last && (S.showLastTrick || (!deal.trick.length && deal.phase === "playing") || deal.phase === "finished")) {
      cards = last.cards.map((card, i) => ({ seat: (last.leader + i) % seats(), card }));
      faded = !S.showLastTrick && deal.phase === "playing";
      winner = last.winner;
      caption = `${t("last_trick")} — ${t("won_by", { name: name(last.winner) })}`;
    }
    const from = deal.played_from || {};
    for (const { seat, card } of cards) {
      const face = cardFace(card, { extraClass: `${seat === winner ? "winner" : ""}`, attrs: { "data-seat": String(seat) } });
      slots[position(seat)] = card in from ? [face, stackTag(from[card])] : face;
    }
    return h(
      "div",
      { class: `trick seats-${seats()} ${faded ? "faded" : ""}`, id: "trick", dataset: { count: String(cards.length), last: String(Boolean(caption)) } },
      positions(seats()).map((pos) => h("div", { class: `slot ${pos}` }, slots[pos] || null)),
      caption ? h("div", { class: "trick-caption", text: caption }) : null,
    );
  }

  function biddingView() {
    const deal = S.deal;
    const parts = [];
    if (deal.turned) parts.push(h("div", { class: "turned" }, h("span", { class: "muted", text: t("turned_card") }), cardFace(deal.turned)));
    if (myTurn()) {
      parts.push(
        h(
          "div",
          { class: "bid-panel", id: "bid-panel", role: "group", "aria-label": t("choose_bid") },
          h("div", { class: "bid-title", text: t("choose_bid") }),
          h(
            "div",
            { class: "bid-buttons" },
            deal.legal.map((a) =>
              h("button", {
                type: "button",
                class: `bid ${a.bid === "pass" ? "pass" : ""} ${SUIT_OF_NAME[a.bid] === "H" || SUIT_OF_NAME[a.bid] === "D" ? "red" : ""} ${SUIT_OF_NAME[a.bid] ? `suit-${SUIT_OF_NAME[a.bid]}` : ""} ${S.armedBid === a.bid ? "armed" : ""} ${S.pendingCard === a.bid ? "pending" : ""}`,
                dataset: { bid: a.bid },
                text: contractLabel(a.bid),
                "aria-busy": S.pendingCard === a.bid ? "true" : null,
                onclick: () => act(a),
              }),
            ),
          ),
          S.armedBid ? h("p", { class: "bid-confirm", id: "bid-confirm", text: t("bid_confirm", { bid: contractLabel(S.armedBid) }) }) : null,
        ),
      );
    } else if (deal.turn !== null) {
      parts.push(h("div", { class: "waiting-note", text: t("waiting_for", { name: name(deal.turn) }) }));
    }
    return h("div", { class: "bidding" }, parts);
  }

  function declarePanel() {
    if (!myTurn() || S.deal.phase !== "playing") return null;
    const options = declareOptions();
    const hasBelote = S.deal.legal.some((a) => a.belote);
    const hasRebelote = S.deal.legal.some((a) => a.rebelote);
    if (!options.length && !hasBelote && !hasRebelote) return null;
    const chosen = chosenDeclareKey(options);
    const parts = [];
    if (options.length) {
      parts.push(h("div", { class: "declare-title", text: t("announce_with_card") }));
      for (const [i, option] of options.entries()) {
        const id = `declare-${i}`;
        const input = h("input", { type: "radio", name: "declare", id, checked: option.key === chosen });
        input.addEventListener("change", () => {
          S.declare = option.key;
        });
        const label = option.declare.length
          ? option.declare.map((d, j) => [j ? " + " : "", `${t(`kind_${declarationKind(d)}`)} `, sortForShow(d).map((c) => cardText(c))])
          : t("declare_none");
        parts.push(h("label", { class: "declare-option", for: id }, input, " ", label));
      }
    }
    const box = (id, label, field) => {
      const input = h("input", { type: "checkbox", id, checked: S[field] });
      input.addEventListener("change", () => {
        S[field] = input.checked;
      });
      return h("label", { class: "declare-option", for: id }, input, " ", label);
    };
    if (hasBelote) parts.push(box("announce-belote", t("announce_belote"), "belote"));
    if (hasRebelote) parts.push(box("announce-rebelote", t("announce_rebelote"), "rebelote"));
    return h("div", { class: "declare-panel", id: "declare-panel" }, parts);
  }

  function handView() {
    const deal = S.deal;
    if (!deal || !deal.hand || !deal.hand.length) return null; // none left: its room is kept, or not
    const playing = deal.phase === "playing" && myTurn();
    const legalCards = new Set(deal.legal.filter((a) => a.play).map((a) => a.play));
    const cards = layoutHand(deal.hand);
    return h(
      "div",
      { class: `hand ${playing ? "my-turn" : ""} ${conn.usable ? "" : "offline"}`, id: "hand", role: "group", "aria-label": t("keyboard_help"), style: { "--n": cards.length } },
      cards.map((card) => {
        const state = !playing ? "idle" : legalCards.has(card) ? "playable" : "dimmed";
        return cardFace(card, {
          button: true,
          extraClass: `${state} ${S.pendingCard === card ? "pending" : ""} ${S.armedCard === card ? "armed" : ""}`,
          attrs: {
            onclick: () => playCard(card),
            "aria-label": state === "dimmed" ? `${cardName(card)} — ${t("not_playable")}` : null,
            tabindex: "-1",
          },
        });
      }),
    );
  }

  function centerView() {
    const room = S.room;
    const deal = S.deal;
    if (S.showResult && S.lastResult && !dealLive()) return resultView();
    if (room.status === "finished") return matchOverView();
    if (!deal) {
      const parts = [];
      if (room.status === "waiting") {
        if (removedMe()) parts.push(h("p", { class: "note", id: "removed-note", role: "status", text: t("removed_you") }));
        else if (me() === null && S.suspended) parts.push(suspendedNote());
        else if (me() === null)
          parts.push(seatsNeedAccount() ? accountNote(room.rated ? "rated_needs_account" : "accounts_only_note") : h("p", { class: "note", text: t("spectating") }));
        if (actsAsHost()) {
          if (!isHost()) parts.push(h("p", { class: "note", text: t("host_away") }));
          // A rated room's match counts only with people in every seat: its empty seats are
          // not filled with bots unless the host asks (the note says what that costs).
          const fill = h("input", { type: "checkbox", id: "fill-bots", checked: !room.rated });
          parts.push(
            h("label", { for: "fill-bots", class: "fill" }, fill, " ", t("fill_with_bots")),
            room.rated ? h("p", { class: "note fill-note", text: t("fill_unrates") }) : null,
            h("button", {
              type: "button",
              class: "primary",
              id: "start",
              text: t("start"),
              onclick: () => command("start", { fill_with_bots: fill.checked }),
            }),
          );
        } else {
          parts.push(h("p", { class: "note", text: t("waiting_for_host") }));
        }
      } else {
        parts.push(h("p", { class: "note", text: t("loading") }));
      }
      return h("div", { class: "center-box" }, parts);
    }
    if (deal.phase === "bidding") return biddingView();
    return trickView();
  }

  /** The pause after a deal: its result, until when it is shown, and "Next deal" (every person
   * at the table pressing it ends the pause; the server decides). */
  function nextDealControls() {
    const pause = S.room.next_deal;
    if (!pause || dealLive() || S.lastResult.finished) return null;
    const humans = S.room.seats.filter((s) => s.player && s.connected && !s.standin).length;
    const asked = S.nextAsked || (me() !== null && pause.ready.includes(me()));
    return h(
      "div",
      { class: "next-deal" },
      h("span", { class: "next-deal-in", id: "next-deal-in" }, h("span", { class: "clock countdown", dataset: { deadline: String(pause.at), format: "next_deal_in" } })),
      me() !== null
        ? h("button", {
            type: "button",
            class: "primary",
            id: "next-deal",
            disabled: asked,
            text: t("next_deal"),
            onclick: async () => {
              S.nextAsked = true;
              render();
              if ((await command("next_deal", {})) === null) {
                S.nextAsked = false;
                render();
              }
            },
          })
        : null,
      pause.ready.length ? h("span", { class: "muted", id: "next-deal-ready", text: t("next_deal_waiting", { n: pause.ready.length, m: humans }) }) : null,
    );
  }

  function resultView(inSide = false) {
    const d = S.lastResult;
    const pausing = !inSide && S.room.next_deal && !dealLive() && !d.finished;
    return h(
      "div",
      { class: `result-panel ${inSide ? "in-side" : ""}`, id: "result-panel", role: inSide ? "region" : "dialog", "aria-label": t("deal_result", { n: d.number }) },
      h("h3", { text: t("deal_result", { n: d.number }) }),
      breakdownTable(d.result, columns(), shortTeamNames(), name),
      pausing ? nextDealControls() : null,
      pausing && me() !== null
        ? null
        : h("button", {
            type: "button",
            class: inSide ? "" : "primary",
            id: "result-close",
            text: t("close"),
            onclick: () => {
              S.showResult = false;
              render();
            },
          }),
    );
  }

  function matchOverView() {
    const room = S.room;
    const sheet = S.scoresheet;
    const parts = [h("h3", { text: t("match_over") })];
    if (typeof room.conceded === "number") parts.push(h("p", { class: "conceded", id: "conceded", text: concededText(room.conceded, played() === null ? null : usTeam(), teamNames()) }));
    if (sheet && sheet.winner !== null && sheet.winner !== undefined) {
      parts.push(
        h("p", {
          class: "verdict",
          id: "verdict",
          text: played() === null ? t("winner_is", { team: teamNames()[sheet.winner] }) : sheet.winner === usTeam() ? t("you_won") : t("you_lost"),
        }),
      );
    }
    if (S.tournament) {
      // A tournament's table plays one match: the way on is the bracket, not a rematch.
      parts.push(h("a", { class: "button primary", id: "back-to-tournament", href: `#/tournaments/${encodeURIComponent(S.tournament.id)}`, text: t("tn_back") }));
    } else if (me() !== null) {
      // Only the players still here must ask (the server's rule): count them.
      const humans = room.seats.filter((s) => s.player && s.connected).length;
      parts.push(h("button", { type: "button", class: "primary", id: "rematch", text: t("rematch"), onclick: () => command("rematch", {}) }));
      if (room.rematch.length) parts.push(h("p", { class: "muted", text: t("rematch_votes", { n: room.rematch.length, m: humans }) }));
    }
    // The stored match is read by whoever may read it (docs/protocol.md §3): anyone for a
    // public room's or a tournament table's (public once decided), else only its players — a
    // watcher of a private table has the live scoresheet beside the table, not this link.
    const readable = room.public || S.tournament || played() !== null;
    if (room.match_id && readable) parts.push(h("a", { class: "button", id: "match-scoresheet", href: `#/m/${encodeURIComponent(room.match_id)}`, text: t("scoresheet") }));
    parts.push(h("a", { class: "button", href: "#/", text: t("back_to_lobby") }));
    return h("div", { class: "center-box match-over", id: "match-over" }, parts);
  }

  /** The contract and the score in the table's corners: visible on a phone without scrolling. */
  function feltStatus() {
    const deal = S.deal;
    const parts = [];
    if (deal && deal.contract) {
      parts.push(
        h(
          "div",
          { class: "felt-status", id: "felt-contract" },
          contractBadge(deal.contract, deal.multiplier),
          deal.bidder !== null ? h("span", { text: name(deal.bidder) }) : null,
        ),
      );
    }
    if (S.scoresheet || (S.room.status !== "waiting" && S.deal)) {
      const scores = S.scoresheet ? S.scoresheet.scores : sidesOf(seats()).map(() => 0);
      const labels = shortTeamNames();
      if (seats() === 4) {
        parts.push(h("div", { class: "felt-score", id: "felt-score" }, teamScores(labels, scores, usTeam(), teamNames())));
      } else {
        parts.push(h("div", { class: "felt-score", id: "felt-score" }, playerScores(labels, scores, columns(), teamNames())));
      }
    }
    return parts;
  }

  function playedForYouNote() {
    if (!S.playedForYou.length) return null;
    return h(
      "div",
      { class: "played-for-you", id: "played-for-you", role: "status" },
      h("strong", { text: t("played_for_you", { what: S.playedForYou.map((x) => x.what).join(", ") }) }),
      h("span", { class: "muted", text: ` ${t("played_for_you_note")}` }),
      h("button", {
        type: "button",
        class: "toast-close",
        id: "played-for-you-close",
        "aria-label": t("close"),
        text: "×",
        onclick: () => {
          dismissPlayedForYou();
          render();
        },
      }),
    );
  }

  function renderTable() {
    const deal = S.deal;
    const keys = deal && deal.hand && myTurn() && !touchOnly() ? (deal.phase === "playing" ? t("keyboard_help") : t("keyboard_help_bid")) : null;
    const armed = S.armedCard && myTurn() ? t("card_confirm", { card: cardName(S.armedCard) }) : null;
    const hint = armed || keys;
    // While the player sits in a deal, "Your turn", the keyboard hint and the hand keep their
    // room when it is another's turn (hidden, not gone): the cards stay where they are as the
    // turn goes round (they went down 30-50 px, under the finger, on each of the player's
    // turns). Not under a deal's result, which has the table to itself (a phone's would run
    // past the screen's foot).
    const seated = me() !== null && S.room.status === "playing" && !(S.showResult && S.lastResult && !dealLive());
    const keep = (shown, kept) => shown || (seated ? kept : null);
    replace(
      table,
      playedForYouNote(),
      h(
        "div",
        { class: `felt seats-${seats()}`, dataset: { seats: String(seats()) } },
        feltStatus(),
        range(seats()).map(seatBox),
        h("div", { class: "center" }, centerView()),
      ),
      h(
        "div",
        { class: `mine ${deal && deal.stacks && me() !== null ? "with-stacks" : ""}` },
        // Above the hand, outside anything that can be opened over the table.
        keep(
          myTurn()
            ? h("div", { class: "your-turn", id: "your-turn", text: t("your_turn") })
            : lastCardPlays()
              ? h("div", { class: "your-turn", id: "last-card", text: t("last_card_plays") })
              : null,
          h("div", { class: "your-turn kept", "aria-hidden": "true", text: t("your_turn") }),
        ),
        declarePanel(),
        me() !== null ? stacksView(me()) : null,
        keep(handView(), h("div", { class: "hand kept", "aria-hidden": "true" })),
        keep(
          hint ? h("p", { class: `hint ${armed ? "card-confirm" : ""}`, id: armed ? "card-confirm" : "keyboard-hint", role: armed ? "status" : null, text: hint }) : null,
          touchOnly() ? null : h("p", { class: "hint kept", "aria-hidden": "true", text: t("keyboard_help") }),
        ),
      ),
      leaveDialog(),
      exitDialog(S.exitAsk, { close: closeExit, confirm: confirmExit }),
      seatDialog(),
    );
    if (me() === null && S.room.status !== "waiting") {
      // One removed after a match is told so over the table (before one, in its middle).
      const note = removedMe() ? { id: "removed-note", role: "status", text: t("removed_you") } : { text: t("spectating").split(".")[0] + "." };
      table.prepend(h("p", { class: "note spectator", ...note }));
    }
  }

  function renderInfo() {
    const deal = S.deal;
    const parts = [];
    if (deal) {
      // Not without its deal: one conceded unplayed has no more to say than its number.
      if (S.number) parts.push(h("div", { class: "deal-number", text: t("deal_n", { n: S.number }) }));
      parts.push(
        h(
          "div",
          { class: "contract-line", id: "contract" },
          h("span", { class: "label", text: `${labelled(t("contract"))} ` }),
          deal.contract ? contractBadge(deal.contract, deal.multiplier) : h("span", { text: t("no_contract") }),
          deal.contract && deal.bidder !== null ? h("span", { class: "muted", text: ` — ${t("held_by", { name: name(deal.bidder) })}` }) : null,
        ),
      );
      if (S.turn && deal.phase !== "finished") {
        parts.push(
          h(
            "div",
            { class: `turn-line ${S.turn.seat === me() ? "mine" : ""}`, id: "turn-line" },
            S.turn.seat !== me() ? t("turn_of", { name: name(S.turn.seat) }) : lastCardPlays() ? t("last_card_plays") : t("your_turn"),
            " ",
            h("span", { class: "clock", dataset: { deadline: clockDeadline() } }),
          ),
        );
      }
      const won = sidesOf(seats()).map(() => 0);
      for (const trick of deal.tricks) won[sideOf(seats(), trick.winner)] += 1;
      if (deal.phase !== "bidding") {
        if (teamsPlay(seats())) {
          parts.push(h("div", { class: "tricks-line", text: t("tricks_won", { us: won[usTeam()], them: won[1 - usTeam()] }) }));
        } else {
          // A player's count never breaks from his name, nor a "·" ends a line (ui.js, dots).
          const labels = shortTeamNames();
          const sides = columns().map((side) => `${labels[side]} ${won[side]}`);
          sides[0] = `${labelled(t("tricks"))} ${sides[0]}`;
          parts.push(dots("tricks-line", sides.map((text) => dotItem(text, { name: true }))));
        }
      }
      if (deal.phase === "playing" && deal.tricks.length) {
        parts.push(
          h("button", {
            type: "button",
            id: "last-trick",
            "aria-pressed": String(S.showLastTrick),
            text: S.showLastTrick ? t("hide_last_trick") : t("last_trick"),
            onclick: () => {
              S.showLastTrick = !S.showLastTrick;
              render();
            },
          }),
        );
      }
      parts.push(
        h("h3", { text: t("bids_history") }),
        deal.bids.length
          ? h("ol", { class: "bid-log", id: "bid-log" }, deal.bids.map((b) => h("li", {}, h("span", { class: "who", text: `${labelled(name(b.seat))} ` }), h("span", { text: contractLabel(b.bid) }))))
          : h("p", { class: "muted", text: t("no_bids") }),
      );
    }
    if (S.lastResult && S.showResult && dealLive()) parts.push(resultView(true));
    else if (S.lastResult && !S.showResult) {
      parts.push(
        h("button", {
          type: "button",
          id: "show-result",
          text: t("deal_result", { n: S.lastResult.number }),
          onclick: () => {
            S.showResult = true;
            render();
          },
        }),
      );
    }
    parts.push(exitControls({ room: S.room, seat: me(), ask: askExit, command, name }));
    replace(info, parts.filter(Boolean));
    info.hidden = !parts.some(Boolean); // no empty box in the waiting room
  }

  function renderSheet() {
    clear(sheetBox);
    sheetBox.append(h("h3", { text: t("scoresheet") }));
    const sheet =
      S.scoresheet ||
      (S.room.status === "waiting" ? null : { lines: [], scores: sidesOf(seats()).map(() => 0), hanging: 0, target: S.room.target, finished: false, winner: null });
    if (sheet) sheetBox.append(scoresheetTable(sheet, columns(), shortTeamNames(), !teamsPlay(seats())));
    sheetBox.hidden = !sheet; // nothing to show before the first match
  }

  /** The host's list of those they removed, between matches (when seats can be taken), each
   * with "Let back in": a removal was for the room's life, a hasty one past mending. */
  function renderRemoved() {
    const removed = S.room.removed || [];
    removedBox.hidden = !(isHost() && S.room.status !== "playing" && removed.length);
    if (removedBox.hidden) return clear(removedBox);
    replace(removedBox, [
      h("h3", { text: t("removed_title") }),
      h(
        "ul",
        { class: "removed-list" },
        removed.map((r) => {
          const who = r.name || t("deleted_player");
          return h(
            "li",
            { dataset: { player: r.id } },
            h("span", { class: "removed-name", text: who }),
            h("button", {
              type: "button",
              class: "readmit",
              text: t("let_back_in"),
              "aria-label": t("let_back_in_named", { name: who }),
              onclick: async () => {
                if (await command("readmit", { player: r.id })) toast(t("let_back_in_done", { name: who }));
              },
            }),
          );
        }),
      ),
    ]);
  }

  function chatLine(line) {
    return h(
      "li",
      { class: "chat-line" },
      h("span", { class: "chat-name", text: `${labelled(line.name)} ` }),
      h("span", { class: line.phrase ? "chat-text chat-phrase" : "chat-text", text: lineText(line) }),
    );
  }

  function renderChat() {
    replace(chatList, S.chat.filter((line) => !isMuted(line.player)).map(chatLine));
    chatList.scrollTop = chatList.scrollHeight;
  }

  function appendChat(line) {
    if (isMuted(line.player)) return;
    chatList.append(chatLine(line));
    while (chatList.children.length > 100) chatList.firstChild.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  /** Those at a table waiting for a match (the first, or a rematch), and its host, hear of each
   * person who sits down (a host who shared the link and went to another tab hears the friend
   * come), with the "turn" sound if sound is on. */
  function announceArrivals(before, after) {
    if (after.status === "playing" || (me() === null && !isHost())) return;
    const here = new Set(before.seats.filter((s) => s.player).map((s) => s.player.id));
    for (const record of after.seats) {
      if (!record.player || here.has(record.player.id) || record.player.id === player.id) continue;
      toast(t("sat_down", { name: seatName(after, record.seat) }));
      playSound("turn");
    }
  }

  /** A player at the table renamed themselves (the server renames their seat): the others
   * read who is who now. */
  function announceRenames(before, after) {
    for (const record of after.seats) {
      const was = before.seats[record.seat];
      if (!record.player || !record.player.name || record.player.id === player?.id) continue;
      if (!was.player || was.player.id !== record.player.id || !was.player.name || was.player.name === record.player.name) continue;
      toast(t("renamed", { old: was.player.name, name: record.player.name }));
    }
  }

  /** The host changed the settings: the others read what changed (the host was told "Settings
   * saved"). */
  function announceSettings(before, after) {
    const words = settingsChangedWords(before, after);
    if (words.length && after.host !== player.id) toast(t("settings_changed", { what: words.join(", ") }));
  }

  /** The mute box lists the other people of the table and of its chat (one who left keeps
   * their lines); drawn again only when they change, so a box being ticked keeps its focus. */
  function renderMute() {
    const people = new Map();
    for (const record of S.room.seats) if (record.player) people.set(record.player.id, seatName(S.room, record.seat));
    for (const line of S.chat) if (!people.has(line.player)) people.set(line.player, line.name);
    if (player) people.delete(player.id);
    const list = [...people].map(([id, name]) => ({ id, name }));
    const key = JSON.stringify([t("mute_report"), list]);
    if (key === muteKey) return;
    muteKey = key;
    const wasOpen = Boolean(muteSlot.querySelector("details")?.open);
    replace(muteSlot, muteControl(list, { wasOpen, onChange: renderChat, onReport: (person) => openReport(person, code) }));
  }

  // ---- the turn clock --------------------------------------------------------------------
  function tickClocks() {
    const now = Date.now() + S.clockOffset; // the server's time, as well as we know it
    for (const el of root.querySelectorAll(".clock")) {
      const deadline = Number(el.dataset.deadline);
      const n = Math.max(0, Math.ceil((deadline - now) / 1000));
      el.textContent = deadline ? t(el.dataset.format || "time_left", { n }) : "";
      el.classList.toggle("low", Boolean(deadline) && deadline - now < 5000);
    }
  }
  const clockTimer = setInterval(tickClocks, 250);

  // ---- keyboard: ← → choose a card (or a bid), Enter plays it ---------------------------
  function focusables() {
    const bids = [...table.querySelectorAll("#bid-panel button")];
    if (bids.length) return bids;
    const playable = [...table.querySelectorAll("#my-stacks .card.playable, #hand .card.playable")];
    return playable.length ? playable : [...table.querySelectorAll("#hand .card")];
  }

  /** At the player's turn to play, the first playable card (a table stack's, else the hand's)
   * is in the Tab order, so Tab reaches the cards; ← → go on from there (the others stay out of
   * it, or Tab would walk the whole hand). */
  function tabToHand() {
    if (!myTurn() || !S.deal || S.deal.phase !== "playing") return;
    const first = table.querySelector("#my-stacks .card.playable, #hand .card.playable");
    if (first) first.tabIndex = 0;
  }

  function restoreFocus(card) {
    if (!S.keyboard) return;
    const items = focusables();
    if (!items.length) return;
    const same = card ? items.find((el) => el.dataset.card === card || el.dataset.bid === card) : null;
    (same || items[0]).focus();
  }

  /** What Tab visits in a dialog: its buttons, and the settings' fields (those shown and
   * enabled; of a set of radio buttons the chosen one, as the browser does). */
  function onKey(event) {
    // A dialog is modal (dialog.js; a re-render while a question is open, each frame of the
    // table, drops the focus to the page: Tab brings it back into the dialog).
    if (modalKey(event)) return;
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const bid = event.target && event.target.dataset ? event.target.dataset.bid : undefined;
    if ((event.key === "Enter" || event.key === " ") && bid !== undefined && S.armedBid !== bid) {
      // A bid by keyboard takes two presses: the first names it, the second sends it.
      event.preventDefault();
      S.keyboard = true;
      S.armedBid = bid;
      render();
      return;
    }
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight" && event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    const items = focusables();
    if (!items.length) return;
    event.preventDefault();
    S.keyboard = true;
    if (S.armedBid !== null) {
      S.armedBid = null;
      render();
    }
    const at = items.indexOf(document.activeElement);
    const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
    // Cards go round the hand; bids stop at the ends (Pass never turns into All Trumps).
    const wrap = !items[0].dataset.bid;
    let next = at < 0 ? (step > 0 ? 0 : items.length - 1) : at + step;
    if (wrap) next = (next + items.length) % items.length;
    else next = Math.max(0, Math.min(items.length - 1, next));
    items[next].focus();
  }
  const onPointer = () => {
    S.keyboard = false;
  };
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", onPointer);

  // ---- leaving during a match asks first ----------------------------------------------
  const inMatch = () => S.room && S.room.status === "playing" && me() !== null;
  function onLinkClick(event) {
    const link = event.target && event.target.closest ? event.target.closest("a[href^='#']") : null;
    if (!link || !inMatch() || S.leaveTo !== null) return;
    if (link.getAttribute("href") === location.hash) return;
    event.preventDefault();
    S.leaveTo = link.getAttribute("href");
    render();
    document.getElementById("leave-stay")?.focus();
  }
  document.addEventListener("click", onLinkClick, true);

  // The browser's back button asks too. While the player sits in a match, one more history
  // entry (the same address) stands before the room's; going back from it is a `popstate` on the
  // same page, answered with the dialog (a second entry is put back if the player stays).
  const BACK = "back"; // S.leaveTo when the back button asked: "Leave" then goes back
  // The extra entry is in place (after a reload the page may stand on the one it put there).
  let guarded = Boolean(history.state && history.state.beloteGuard === code);
  let letGo = false; // the player chose to leave: the next popstate is his
  function guardBack() {
    if (guarded || letGo || S.leaveTo === BACK || !inMatch()) return; // put back once he stays
    history.pushState({ beloteGuard: code }, "", location.href);
    guarded = true;
  }
  const roomHash = location.hash;
  function onPopState() {
    // Only a step back onto the room's own entry is the back button; a new address (a link,
    // `go()`) also fires popstate, and is the router's.
    if (!guarded || letGo || location.hash !== roomHash) return;
    guarded = false;
    if (!inMatch() || S.leaveTo !== null) {
      history.back(); // nothing to ask any more (the match ended): on to where back leads
      return;
    }
    S.leaveTo = BACK;
    render();
    document.getElementById("leave-stay")?.focus();
  }
  window.addEventListener("popstate", onPopState);
  function leaveBack() {
    letGo = true;
    history.back();
  }

  // ---- leaving the match, conceding it (exit.js) ---------------------------------------
  function askExit(kind) {
    S.exitAsk = kind;
    render();
    document.getElementById("exit-stay")?.focus();
  }
  function closeExit() {
    S.exitAsk = null;
    render();
  }
  async function confirmExit() {
    const kind = S.exitAsk;
    S.exitAsk = null;
    render();
    const done = await command(kind, kind === "concede" ? { on: true } : {});
    if (done !== null && kind === "leave") go("#/");
  }

  function leaveDialog() {
    if (S.leaveTo === null) return null;
    const close = () => {
      S.leaveTo = null;
      render();
    };
    return confirmDialog("leave", {
      title: t("leave_title"),
      text: t("leave_text"),
      stay: t("stay"),
      go: t("leave_confirm"),
      close,
      confirm: () => {
        const to = S.leaveTo;
        S.leaveTo = null;
        if (to === BACK) leaveBack();
        else go(to);
      },
    });
  }

  // ---- the host removes a player, or hands the room over (between matches) ---------------
  function askAbout(kind, seat) {
    S.seatAsk = { kind, seat, id: S.room.seats[seat].player.id };
    render();
    document.getElementById(`${kind}-stay`)?.focus();
  }
  function seatDialog() {
    const ask = S.seatAsk;
    if (ask === null) return null;
    // Asked about a person: should they stand up meanwhile, the question is gone, and never
    // turns to whoever sits there next.
    if (S.room.seats[ask.seat].player?.id !== ask.id) {
      S.seatAsk = null;
      return null;
    }
    const close = () => {
      S.seatAsk = null;
      render();
    };
    const name = seatName(S.room, ask.seat);
    const remove = ask.kind === "remove";
    return confirmDialog(ask.kind, {
      title: t(remove ? "remove_title" : "host_title", { name }),
      text: t(remove ? "remove_text" : "host_text"),
      stay: t("cancel"),
      go: t(remove ? "remove_player" : "make_host"),
      danger: remove,
      close,
      confirm: () => {
        close();
        command(ask.kind, { seat: ask.seat });
      },
    });
  }

  // ---- the host changes the settings (between matches) ------------------------------------
  let settingsRules = null; // the presets' rules the open dialog was built with
  async function openSettings() {
    if (settingsBox) return;
    let rules;
    try {
      rules = await get("/api/rules");
    } catch (error) {
      showError(error);
      return;
    }
    if (settingsBox || !isHost() || S.room.status === "playing") return;
    settingsRules = rules;
    showSettings(null);
    settingsBox.querySelector("summary, input, select").focus();
  }
  /** The dialog, set to the room, or to what the host had chosen in one now replaced (`chosen`,
   * its form's `read()`: another language's words for the same choices). */
  function showSettings(chosen) {
    settingsBox = settingsDialog(settingsRules, S.room, {
      chosen,
      save: async (changes) => {
        const done = (await command("settings", changes)) !== null;
        if (done) toast(t("settings_saved"), { timeout: 2000 });
        return done;
      },
      close: () => closeSettings(true),
    });
    root.append(settingsBox);
  }
  /** The language changed: the open dialog is built again in it, with the host's choices and
   * the focus on the same control (it kept the words it was opened with). */
  function relangSettings() {
    if (!settingsBox) return;
    const chosen = settingsBox.read();
    const focused = settingsBox.contains(document.activeElement) ? document.activeElement.id : null;
    const open = settingsBox.querySelector("details")?.open;
    settingsBox.remove();
    showSettings(chosen);
    if (open) settingsBox.querySelector("details").open = true;
    if (focused) document.getElementById(focused)?.focus();
  }
  function closeSettings(refocus) {
    settingsBox?.remove();
    settingsBox = null;
    if (refocus) document.getElementById("room-settings")?.focus();
  }

  /** The mutes came from the server (another device's, mute.js): hide and show lines anew. */
  function mutesSynced() {
    if (!S.room) return; // no snapshot yet: its first drawing reads the new mutes
    renderChat();
    muteKey = null;
    renderMute();
  }
  window.addEventListener("belote:mutes", mutesSynced);

  return {
    leave() {
      window.removeEventListener("belote:mutes", mutesSynced);
      conn.close();
      clearInterval(clockTimer);
      awake.stop();
      closeSettings(false);
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("click", onLinkClick, true);
      window.removeEventListener("popstate", onPopState);
      banner(null);
      turnSignal(false);
      announce("");
      if (window.__belote && window.__belote.conn === conn) delete window.__belote;
    },
    relang() {
      render();
      renderChat();
      relangSettings();
    },
  };
}
