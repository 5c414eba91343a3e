// The account page (#/account): a guest claims its identity (username + password) or logs in to
// an existing account; a signed-in player changes the password, signs devices out, logs out,
// or deletes the account for good.
import { api, get, post } from "./api.js";
import { askFirst } from "./dialog.js";
import { append, clear, h } from "./dom.js";
import { forgetPlayer, getPlayer, setPlayer } from "./identity.js";
import { t } from "./i18n.js";
import { go, showError, toast, tokenRefused } from "./ui.js";
import { myRoomRow } from "./lobby.js";
import { suspensionNotice } from "./suspension.js";
import { mutedPanel } from "./mute.js";
import { reportsPanel } from "./reports.js";

function identityChanged() {
  window.dispatchEvent(new Event("belote:identity"));
}

/** A form of labelled inputs; ``onSubmit`` gets the values by name and may throw ApiErrors. */
function form(id, fields, submitText, onSubmit, { button = "primary" } = {}) {
  const inputs = fields.map((f) =>
    h("input", {
      id: `${id}-${f.name}`,
      name: f.name,
      type: f.type || "text",
      required: true,
      autocomplete: f.autocomplete,
      minlength: f.minlength,
      maxlength: f.maxlength || "128",
      autocapitalize: "none",
      spellcheck: "false",
    }),
  );
  const el = h(
    "form",
    { class: "account-form", id },
    fields.map((f, i) =>
      h("div", { class: "field" }, h("label", { for: inputs[i].id, text: f.label }), inputs[i], f.hint ? h("p", { class: "explain", text: f.hint }) : null),
    ),
    h("button", { type: "submit", class: button, text: submitText }),
  );
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(inputs.map((input) => [input.name, input.value]));
    const button = el.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await onSubmit(values);
      for (const input of inputs) if (input.type === "password") input.value = "";
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
    }
  });
  return el;
}

/** Log in, and what to do about a lost password: there is no e-mail on file, so the site's
 * operator draws a new one (`python -m app.admin reset-password`). */
function loginForm(rerender) {
  const el = form(
    "login-form",
    [
      { name: "username", label: t("username"), autocomplete: "username", maxlength: "100" },
      { name: "password", label: t("password"), type: "password", autocomplete: "current-password", maxlength: "1000" },
    ],
    t("log_in"),
    async ({ username, password }) => {
      const signed = await post("/api/accounts/login", { username, password });
      setPlayer({ id: signed.id, name: signed.name, token: signed.token, username: signed.username });
      identityChanged();
      toast(t("logged_in", { name: signed.username }));
      rerender();
    },
  );
  el.append(h("p", { class: "muted lost-password", text: t("lost_password") }));
  return el;
}

function claimForm(player, rerender) {
  return form(
    "claim-form",
    [
      { name: "username", label: t("username"), autocomplete: "username", maxlength: "32" },
      { name: "password", label: t("password"), type: "password", autocomplete: "new-password", minlength: "8", maxlength: "1000", hint: t("password_hint") },
    ],
    t("create_account"),
    async ({ username, password }) => {
      const account = await post("/api/accounts", { username, password });
      setPlayer({ ...player, username: account.username });
      identityChanged();
      toast(t("account_created"));
      rerender();
    },
  );
}

function passwordForm() {
  return form(
    "password-form",
    [
      { name: "old_password", label: t("old_password"), type: "password", autocomplete: "current-password", maxlength: "1000" },
      { name: "new_password", label: t("new_password"), type: "password", autocomplete: "new-password", minlength: "8", maxlength: "1000", hint: t("password_hint") },
    ],
    t("change_password"),
    async (values) => {
      await api("PUT", "/api/accounts/me/password", values);
      toast(t("password_changed"));
    },
  );
}

/** "Your data": everything the site keeps about the player (`GET /api/players/me/export`),
 * saved as a JSON file. */
function yourData(playerId) {
  const button = h("button", { type: "button", id: "export", text: t("data_download") });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const data = await get("/api/players/me/export");
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
      const link = h("a", { href: url, download: `belote-${playerId}.json`, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      toast(t("data_downloaded"));
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
    }
  });
  return h("section", { class: "panel", id: "your-data" }, h("h2", { text: t("data_title") }), h("p", { class: "muted", text: t("data_explain") }), button);
}

/** Erase the player (`DELETE` of `path`, with `body`), and this device starts afresh. */
async function erase(path, body, done) {
  try {
    await api("DELETE", path, body);
  } catch (error) {
    if (error.code === "match_in_progress") error.text = t("erase_playing");
    throw error;
  }
  forgetPlayer();
  identityChanged();
  toast(done);
  go("#/");
}

/** Delete the account: the password again (a device left signed in must not be enough), then
 * a last question. The server erases what names the person and signs every device out. */
function eraseForm(username) {
  return form(
    "erase-form",
    [{ name: "password", label: t("password"), type: "password", autocomplete: "current-password", maxlength: "1000" }],
    t("erase_button"),
    async ({ password }) => {
      const words = { title: t("erase_confirm_title", { username }), text: t("erase_confirm_text"), stay: t("erase_keep"), go: t("erase_button") };
      if (await askFirst("erase", words)) await erase("/api/accounts/me", { password }, t("account_erased"));
    },
    { button: "danger" },
  );
}

/** Forget a guest: its token is all it has, so the last question is the only one. */
function forgetButton(player) {
  return h("button", {
    type: "button",
    class: "danger",
    id: "forget-guest",
    text: t("forget_button"),
    onclick: async () => {
      const words = { title: t("forget_confirm_title", { name: player.name }), text: t("forget_confirm_text"), stay: t("forget_keep"), go: t("forget_button") };
      if (!(await askFirst("erase", words))) return;
      try {
        await erase("/api/players/me", undefined, t("guest_forgotten"));
      } catch (error) {
        showError(error);
      }
    },
  });
}

function sessionList(sessions, rerender) {
  return h(
    "ul",
    { class: "sessions", id: "sessions" },
    sessions.map((s) =>
      h(
        "li",
        { class: "session-row", dataset: { session: s.id, current: String(s.current) } },
        h(
          "div",
          { class: "room-main" },
          h("strong", { class: "session-label", text: s.label || t("unknown_device") }),
          h("span", { class: "muted", text: ` · ${t("signed_in_on", { date: new Date(s.created_at).toLocaleString() })}` }),
          s.current ? h("span", { class: "badge", text: t("this_device") }) : null,
        ),
        s.current
          ? null
          : h("button", {
              type: "button",
              class: "revoke",
              text: t("sign_out_device"),
              onclick: async () => {
                try {
                  await api("DELETE", `/api/accounts/sessions/${encodeURIComponent(s.id)}`);
                  toast(t("device_signed_out"));
                  rerender();
                } catch (error) {
                  showError(error);
                }
              },
            }),
      ),
    ),
  );
}

/** The matches still being played at tables where you sit: the way back to them on this device. */
/** The account's open tables, as the lobby lists them (who sits where, how it stands): a
 * game's name and target alone did not tell two tables apart. */
function openTables(rooms) {
  return h("ul", { class: "rooms", id: "open-tables" }, rooms.map(myRoomRow));
}

async function logout() {
  try {
    await post("/api/accounts/logout");
  } catch (error) {
    if (error.code !== "bad_token") return showError(error);
  }
  forgetPlayer();
  identityChanged();
  toast(t("logged_out"));
  go("#/");
}

export function showAccount(app) {
  const box = h("div", { class: "lobby account", id: "account" });
  app.append(box);
  let alive = true;

  async function render() {
    if (!alive) return;
    const player = getPlayer();
    clear(box);
    if (!player) {
      box.append(
        h("section", { class: "panel" }, h("h2", { text: t("account") }), h("p", { text: t("account_needs_name") }), h("a", { class: "button", href: "#/", text: t("nav_lobby") })),
        h("section", { class: "panel" }, h("h2", { text: t("login_title") }), loginForm(render)),
      );
      return;
    }
    let me;
    try {
      me = await get("/api/accounts/me");
    } catch (error) {
      if (error.code !== "bad_token") showError(error);
      else {
        tokenRefused(player, error);
        render();
      }
      return;
    }
    if (!alive) return;
    const notice = suspensionNotice(me.suspension);
    if (notice) box.append(notice);
    const profile = h("a", { class: "button", href: `#/p/${encodeURIComponent(me.id)}`, text: t("your_profile") });
    if (!me.username) {
      const [muted, reports] = await Promise.all([mutedPanel(), reportsPanel()]);
      if (!alive) return;
      append(box, [
        h("section", { class: "panel" }, h("h2", { text: t("claim_title") }), h("p", { class: "muted", text: t("claim_explain") }), claimForm(player, render)),
        h("section", { class: "panel" }, h("h2", { text: t("login_title") }), h("p", { class: "muted", text: t("login_explain") }), loginForm(render)),
        muted,
        reports,
        yourData(me.id),
        h("section", { class: "panel erase", id: "forget" }, h("h2", { text: t("forget_title") }), h("p", { class: "muted", text: t("forget_explain") }), forgetButton(player)),
      ]);
      return;
    }
    if (player.username !== me.username) setPlayer({ ...player, username: me.username });
    const [sessions, open, muted, reports] = await Promise.all([
      get("/api/accounts/sessions").catch((error) => (showError(error), [])),
      get("/api/players/me/rooms").catch(() => []),
      mutedPanel(),
      reportsPanel(),
    ]);
    if (!alive) return;
    // dom.js's append skips null (the element's own would write "null" on the page).
    append(box, [
      h(
        "section",
        { class: "panel" },
        h("h2", { id: "signed-in-as", text: t("signed_in_as", { username: me.username }) }),
        h("p", {}, profile, " ", h("button", { type: "button", id: "logout", text: t("log_out"), onclick: logout })),
        h("h3", { text: t("change_password") }),
        passwordForm(),
      ),
      h("section", { class: "panel" }, h("h2", { text: t("sessions") }), sessionList(sessions, render)),
      open.length ? h("section", { class: "panel" }, h("h2", { text: t("open_tables") }), openTables(open)) : null,
      muted,
      reports,
      yourData(me.id),
      h("section", { class: "panel erase", id: "erase" }, h("h2", { text: t("erase_title") }), h("p", { class: "muted", text: t("erase_explain") }), eraseForm(me.username)),
    ]);
  }

  render();
  return {
    leave: () => {
      alive = false;
    },
  };
}
