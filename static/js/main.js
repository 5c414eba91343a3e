// The router: #/ lobby, #/r/CODE a room (the invite link), #/history, #/m/ID a match,
// #/m/ID/d/N the replay of a deal, #/account, #/ratings/PRESET a leaderboard, #/p/ID a profile,
// #/rules/PRESET how to play a game, #/tournaments the tournaments, #/tournaments/ID one.
// An invite path /r/CODE is honoured too if the server serves it.
import { clear, h } from "./dom.js";
import { getPlayer } from "./identity.js";
import { LANGS, lang, onLangChange, setLang, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showRoom } from "./room.js";
import { showHistory, showMatch, showReplay } from "./history.js";
import { showAccount } from "./account.js";
import { showLeaderboard, showProfile } from "./ratings.js";
import { showRules } from "./rules.js";
import { showTournament, showTournaments } from "./tournaments.js";
import { dropToasts } from "./ui.js";
import { showSignal } from "./signal.js";
import { applyPrefs, toggleTheme } from "./prefs.js";
import { syncMutes } from "./mute.js";
import { relangAnnouncement, watchAnnouncement } from "./announcement.js";
import { invitationsAt, readInvitations, relangInvitations, watchInvitations } from "./invitations.js";

let page = null; // the current page: { leave(), relang() } (a room closes its socket on leave)

function chrome() {
  showSignal(); // the title: the game's name, after what calls the player if anything does
  document.getElementById("brand").textContent = `♠ ${t("app_title")}`;
  document.getElementById("nav-lobby").textContent = t("nav_lobby");
  document.getElementById("nav-history").textContent = t("nav_history");
  document.getElementById("nav-ratings").textContent = t("nav_ratings");
  document.getElementById("nav-tournaments").textContent = t("nav_tournaments");
  document.getElementById("nav-rules").textContent = t("nav_rules");
  document.getElementById("nav-account").textContent = t("nav_account");
  document.getElementById("lang-label").textContent = t("language");
  document.getElementById("theme-label").textContent = t("dark_colours");
  document.getElementById("theme").title = t("dark_colours");
  const player = getPlayer();
  document.getElementById("who").textContent = player ? t("you_are", { name: player.name }) : "";
  const select = document.getElementById("lang");
  if (!select.options.length) {
    for (const [code, name] of Object.entries(LANGS)) select.append(h("option", { value: code, text: name }));
    select.addEventListener("change", () => setLang(select.value));
  }
  select.value = lang();
}

function route() {
  if (page && page.leave) page.leave();
  page = null;
  chrome();
  const app = document.getElementById("app");
  clear(app);
  const path = location.pathname.match(/^\/r\/([\w-]+)\/?$/);
  if (path && !location.hash) {
    history.replaceState(null, "", `/#/r/${path[1]}`);
  }
  const hash = location.hash.replace(/^#/, "") || "/";
  let m;
  let where = {}; // for the invitations above the page: the lobby lists them, a table not its own
  if ((m = hash.match(/^\/r\/([\w-]+)$/))) {
    where = { room: decodeURIComponent(m[1]) };
    page = showRoom(app, where.room);
  } else if (hash === "/history") page = showHistory(app);
  else if (hash === "/account") page = showAccount(app);
  else if ((m = hash.match(/^\/ratings\/([\w-]+)$/))) page = showLeaderboard(app, m[1]);
  else if ((m = hash.match(/^\/p\/([\w-]+)$/))) page = showProfile(app, decodeURIComponent(m[1]));
  else if (hash === "/rules") page = showRules(app, "bulgarian");
  else if ((m = hash.match(/^\/rules\/([\w-]+)$/))) page = showRules(app, m[1]);
  else if (hash === "/tournaments") page = showTournaments(app);
  else if ((m = hash.match(/^\/tournaments\/([\w-]+)$/))) {
    where = { tournament: m[1] };
    page = showTournament(app, m[1]);
  }
  else if ((m = hash.match(/^\/m\/([\w-]+)\/d\/(\d+)$/))) page = showReplay(app, m[1], Number(m[2]));
  else if ((m = hash.match(/^\/m\/([\w-]+)$/))) page = showMatch(app, m[1]);
  else {
    where = { lobby: true };
    page = showLobby(app);
  }
  invitationsAt(where);
}

window.addEventListener("hashchange", route);
window.addEventListener("belote:identity", () => {
  chrome();
  syncMutes();
  // A name is saved now: the toasts that asked for one are out of date.
  dropToasts("name_needed");
  dropToasts("not_authenticated");
  readInvitations();
});
onLangChange(() => {
  chrome();
  relangAnnouncement();
  relangInvitations();
  if (page && page.relang) page.relang();
  else route();
});
applyPrefs();
document.getElementById("theme").addEventListener("click", toggleTheme);
route();
syncMutes();
watchAnnouncement();
watchInvitations();
