// Friends (docs/protocol.md §1, "Friends"): asked and accepted, because a friend sees where the
// other plays. The lobby's "Friends" panel (`friendsPanel`) shows a friend's invitations to
// their table, the requests either way, and each friend with the tables they sit at (a public
// one to open; a private one only said); it asks the server again every few seconds. "Add
// friend" (`friendButton`) sits beside each person in the table's chat box, and a profile says
// where the reader stands with its player (`profileFriend`); "Invite a friend" (`inviteFriends`)
// at a table sends them its code. Each friend is said to be online, or when they were last on
// the site. An invitation's line (`invitationItem`) and a friend's ask to play quick play as
// partners (`playWithItem`) are shown here and above the other pages (invitations.js).
import { api, get, post } from "./api.js";
import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { go, showError, toast } from "./ui.js";

const path = (id) => `/api/players/me/friends/${encodeURIComponent(id)}`;

/** Ask `person` ({id, name}) to be friends (or accept their request), and say which: true
 * when they are friends now, false when asked, null when refused (and shown). */
export async function askFriend(person) {
  try {
    const answer = await api("PUT", path(person.id));
    toast(t(answer.friends ? "friend_now" : "friend_asked", { name: person.name }));
    window.dispatchEvent(new Event("belote:friends"));
    return answer.friends;
  } catch (error) {
    showError(error);
    return null;
  }
}

/** On another's profile, where the reader stands with `person` ({id, name}) as the profile
 * says (`friendship`): a friend, asked, asking the reader (Accept), or "Add friend"; an answer
 * to the button redraws it. */
export function profileFriend(person, friendship) {
  const box = h("p", { class: "profile-friend", id: "profile-friend", dataset: { friendship: friendship || "none" } });
  const draw = (state) => {
    box.dataset.friendship = state || "none";
    if (state === "friends") replace(box, h("span", { class: "friend-yours", text: t("friend_yours") }));
    else if (state === "asked") replace(box, h("span", { class: "muted", text: t("friend_asked_short") }));
    else {
      const label = state === "asking" ? t("friend_accept") : t("friend_add");
      const attrs = { class: state === "asking" ? "primary add-friend" : "link add-friend", dataset: { player: person.id }, "aria-label": t(state === "asking" ? "friend_accept_label" : "friend_add_label", { name: person.name }) };
      replace(box, act(label, attrs, async () => {
        const now = await askFriend(person);
        if (now !== null) draw(now ? "friends" : "asked");
      }));
    }
  };
  draw(friendship);
  return box;
}

/** "Add friend" for `person` ({id, name}), as a link-like button. */
export function friendButton(person) {
  const label = t("friend_add_label", { name: person.name });
  return act(t("friend_add"), { class: "link add-friend", dataset: { player: person.id }, "aria-label": label }, () => askFriend(person));
}

/** A button that runs `run` once per click (disabled meanwhile; a refusal is shown). */
function act(label, attrs, run) {
  const button = h("button", { type: "button", ...attrs, text: label });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await run();
    } catch (error) {
      showError(error);
    }
    button.disabled = false;
  });
  return button;
}

/** Where a friend plays: a public table to open, a private one only said. */
function tableLine(table) {
  const game = t(`preset_${table.preset}`);
  if (!table.code) return h("span", { class: "friend-table", text: t("friend_private_table", { game }) });
  const word = t(table.status === "playing" ? "friend_watch" : "friend_join", { game });
  return h("a", { class: "friend-table", href: `#/r/${encodeURIComponent(table.code)}`, text: word });
}

/** A friend's invitation to their table (`GET /api/players/me/invitations`): "Go to the table"
 * and "×", which puts it away and then calls `gone()`. The lobby's panel and the bar above the
 * other pages (invitations.js) show the same item. */
export function invitationItem(inv, gone) {
  return h(
    "li",
    { class: "invitation", dataset: { invitation: inv.id } },
    h("span", { class: "friend-name", text: t("friend_invites", { name: inv.inviter.name, game: t(`preset_${inv.preset}`) }) }),
    h(
      "span",
      { class: "friend-actions" },
      h("a", { class: "button primary", href: `#/r/${encodeURIComponent(inv.room)}`, text: t("friend_go") }),
      act("×", { class: "invitation-dismiss", "aria-label": t("friend_dismiss") }, async () => {
        await api("DELETE", `/api/players/me/invitations/${inv.id}`);
        await gone();
      }),
    ),
  );
}

const SET_ASIDE = "belote.playwith.hidden"; // asks put away on this device (this session)

/** A friend's ask to play quick play as partners (`play_with`): "Play together" joins the
 * queue with them (same game and rated-ness) and goes to the lobby, where "Play now" shows
 * the wait; "×" puts the ask away on this device until they ask again. */
export function playWithItem(ask, gone) {
  const key = `${ask.friend.id}@${ask.at}`;
  return h(
    "li",
    { class: "invitation play-with", dataset: { player: ask.friend.id } },
    h("span", { class: "friend-name", text: t("play_with_asks", { name: ask.friend.name, game: t(`preset_${ask.preset}`) }) + (ask.rated ? ` · ${t("rated")}` : "") }),
    h(
      "span",
      { class: "friend-actions" },
      act(t("play_with_go"), { class: "primary play-with-go" }, async () => {
        await post("/api/quickplay", { preset: ask.preset, rated: ask.rated, partner: ask.friend.id });
        window.dispatchEvent(new Event("belote:friends")); // answered: asked no more
        if (location.hash === "#/" || location.hash === "") window.dispatchEvent(new Event("belote:quickplay"));
        else go("#/");
      }),
      act("×", { class: "invitation-dismiss", "aria-label": t("play_with_dismiss") }, async () => {
        sessionStorage.setItem(SET_ASIDE, JSON.stringify([...setAside(), key].slice(-50)));
        await gone();
      }),
    ),
  );
}

/** The asks put away on this device. */
function setAside() {
  try {
    return JSON.parse(sessionStorage.getItem(SET_ASIDE) || "[]");
  } catch {
    return [];
  }
}

/** Of `asks` (`play_with`), those not put away on this device. */
export const playWithShown = (asks) => asks.filter((ask) => !setAside().includes(`${ask.friend.id}@${ask.at}`));

/** Whether a friend is on the site: "online", or when they were last (a moment, hours or days
 * ago in the reader's words, a date beyond a week); nothing if the server never saw them. */
function presence(friend) {
  if (friend.online) return h("span", { class: "presence online", text: t("friend_online") });
  if (!friend.seen_at) return null;
  const seen = new Date(friend.seen_at);
  const minutes = Math.max(1, Math.round((Date.now() - seen.getTime()) / 60000));
  const ago = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
  let text;
  if (minutes < 60) text = t("friend_seen_ago", { when: ago.format(-minutes, "minute") });
  else if (minutes < 24 * 60) text = t("friend_seen_ago", { when: ago.format(-Math.round(minutes / 60), "hour") });
  else if (minutes < 7 * 24 * 60) text = t("friend_seen_ago", { when: ago.format(-Math.round(minutes / 1440), "day") });
  else text = t("friend_seen_on", { date: seen.toLocaleDateString(lang(), { dateStyle: "medium" }) });
  return h("span", { class: "presence", text });
}

/** The lobby's "Friends" panel: `{panel, refresh, leave}`; `refused(error)` handles a refused
 * token as the lobby's other calls do (true when it did). */
export function friendsPanel(refused) {
  const panel = h("section", { class: "panel friends", id: "friends" });
  let left = false;
  let drawn = null; // the answer (with the language and minute) the panel shows
  async function refresh() {
    let data;
    try {
      data = await get("/api/players/me/friends");
    } catch (error) {
      if (!refused(error)) panel.hidden = true;
      return;
    }
    if (left) return;
    // Drawn again only if something changed (or a minute passed, for "seen 5 minutes ago"): a
    // reader's focus on a button stays put through the panel's rounds.
    const key = JSON.stringify([lang(), Math.floor(Date.now() / 60000), data, setAside()]);
    if (key !== drawn) {
      drawn = key;
      draw(data);
    }
    panel.dataset.read = String(Date.now()); // drawn from the server's answer (for tests)
  }
  const again = () => refresh();
  function draw({ friends, asked, asking, invitations, play_with: playWith }) {
    const invited = [...playWithShown(playWith).map((ask) => playWithItem(ask, again)), ...invitations.map((inv) => invitationItem(inv, refresh))];
    const asks = asking.map((p) =>
      h(
        "li",
        { class: "asking", dataset: { player: p.id } },
        h("span", { class: "friend-name", text: t("friend_asks", { name: p.name }) }),
        h(
          "span",
          { class: "friend-actions" },
          act(t("friend_accept"), { class: "primary friend-accept" }, async () => {
            await askFriend(p);
            await refresh();
          }),
          act(t("friend_decline"), { class: "friend-decline" }, async () => {
            await api("DELETE", path(p.id));
            await refresh();
          }),
        ),
      ),
    );
    const list = friends.map((f) =>
      h(
        "li",
        { class: "friend", dataset: { player: f.id } },
        h(
          "span",
          { class: "friend-name" },
          h("span", { class: "friend-head" }, h("a", { class: "friend-profile", href: `#/p/${encodeURIComponent(f.id)}` }, h("strong", { text: f.name })), presence(f)),
          h("span", { class: "friend-tables" }, ...(f.tables.length ? f.tables.map(tableLine) : [h("span", { class: "friend-idle", text: t("friend_no_table") })])),
        ),
        act(t("friend_remove"), { class: "link friend-remove", "aria-label": t("friend_remove_label", { name: f.name }) }, async () => {
          await api("DELETE", path(f.id));
          await refresh();
        }),
      ),
    );
    const pending = asked.map((p) =>
      h(
        "li",
        { class: "asked", dataset: { player: p.id } },
        h("span", { class: "friend-name", text: t("friend_asked_waiting", { name: p.name }) }),
        act(t("friend_withdraw"), { class: "link friend-withdraw" }, async () => {
          await api("DELETE", path(p.id));
          await refresh();
        }),
      ),
    );
    const lists = [invited, asks, list, pending].filter((items) => items.length).map((items) => h("ul", { class: "friend-list" }, ...items));
    replace(panel, h("h2", { text: t("friends_title") }), ...(lists.length ? lists : [h("p", { class: "muted", text: t("friends_empty") })]));
    panel.hidden = false;
  }
  window.addEventListener("belote:friends", again);
  return {
    panel,
    refresh,
    leave: () => {
      left = true;
      window.removeEventListener("belote:friends", again);
    },
  };
}

/** "Invite a friend" at table `code`: the friends, read when the box opens (those online
 * first, said so), each with a button that invites them. One element for the page's life, so a redraw keeps it open. */
export function inviteFriends(code) {
  const list = h("ul", { class: "friend-list invite-list", id: "invite-friends-list" });
  const box = h("details", { class: "invite-friends", id: "invite-friends" }, h("summary", { text: t("friend_invite_title") }), list);
  box.addEventListener("toggle", async () => {
    if (!box.open) return;
    let data;
    try {
      data = await get("/api/players/me/friends");
    } catch (error) {
      showError(error);
      return;
    }
    if (!data.friends.length) {
      replace(list, h("li", { class: "muted", text: t("friend_invite_none") }));
      return;
    }
    replace(
      list,
      ...data.friends.map((f) =>
        h(
          "li",
          { dataset: { player: f.id } },
          h("span", { class: "friend-name" }, f.name, presence(f)),
          act(t("friend_invite"), { class: "friend-invite", "aria-label": t("friend_invite_label", { name: f.name }) }, async () => {
            await post(`/api/rooms/${encodeURIComponent(code)}/invitations`, { player: f.id });
            toast(t("friend_invited", { name: f.name }));
          }),
        ),
      ),
    );
  });
  return box;
}
