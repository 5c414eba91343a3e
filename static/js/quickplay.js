// "Play now" in the lobby: ask the server for a table of a game (rated or casual), wait while it
// looks for players near your rating, and go to the table it seats you at. The server keeps the
// request only while this page keeps asking about it (once a second).
import { api, get, post } from "./api.js";
import { h, replace } from "./dom.js";
import { getPlayer } from "./identity.js";
import { t } from "./i18n.js";
import { accountNote, go, showError, toast } from "./ui.js";

const WAITS = [15, 30, 60, 120];

/** The panel and a ``leave`` that stops asking (the request then lapses on the server).
 * ``refused(player, error)`` is the lobby's answer to a refused token (`bad_token`; false for
 * any other error, which the panel shows). */
export function quickPlayPanel(presets, refused) {
  let timer = null;
  const preset = h("select", { id: "qp-preset", name: "qp_preset" }, presets.map((p) => h("option", { value: p, text: t(`preset_${p}`) })));
  const rated = h("input", { type: "checkbox", id: "qp-rated", name: "qp_rated", disabled: !getPlayer()?.username });
  const wait = h("select", { id: "qp-wait", name: "qp_wait" }, WAITS.map((n) => h("option", { value: String(n), text: t("seconds", { n }) })));
  wait.value = "30";
  const body = h("div", { class: "qp-body" });
  const panel = h("section", { class: "panel quickplay", id: "quickplay" }, h("h2", { text: t("play_now") }), body);

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  function showForm() {
    stop();
    panel.dataset.state = "idle";
    const button = h("button", { type: "submit", class: "primary", id: "play-now", text: t("play_now") });
    const form = h(
      "form",
      { class: "qp-form", id: "qp-form" },
      h("p", { class: "muted", text: t("play_now_explain") }),
      h("div", { class: "field" }, h("label", { for: "qp-preset", text: t("preset") }), preset),
      h("div", { class: "field" }, h("label", { for: "qp-wait", text: t("wait_for_players") }), wait),
      h("label", { class: "check" }, rated, " ", t("rated")),
      accountNote(),
      button,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const player = getPlayer();
      if (!player) {
        toast(t("name_needed"), { kind: "error", code: "name_needed" });
        document.getElementById("name-input")?.focus();
        return;
      }
      button.disabled = true;
      try {
        show(await post("/api/quickplay", { preset: preset.value, rated: rated.checked, wait_seconds: Number(wait.value) }));
      } catch (error) {
        button.disabled = false;
        if (!refused(player, error)) showError(error);
      }
    });
    replace(body, form);
  }

  function show(status) {
    if (status.state === "seated") {
      stop();
      panel.dataset.state = "seated";
      toast(t("seated_found"));
      api("DELETE", "/api/quickplay").catch(() => {}); // answered: coming back must not re-send us
      go(`#/r/${encodeURIComponent(status.room)}`);
      return;
    }
    panel.dataset.state = "waiting";
    replace(
      body,
      h("p", { class: "qp-status", id: "qp-status", role: "status" }, h("strong", { text: `${t(`preset_${status.preset}`)} · ${status.rated ? t("rated") : t("casual")}` }), h("br"), t("looking", { n: Math.floor(status.waited) })),
      h("progress", { max: String(status.wait_seconds), value: String(Math.min(status.waited, status.wait_seconds)) }),
      h("button", { type: "button", id: "play-cancel", text: t("cancel"), onclick: cancel }),
    );
    if (!timer) timer = setInterval(poll, 1000);
  }

  async function poll() {
    const player = getPlayer();
    try {
      show(await get("/api/quickplay"));
    } catch (error) {
      if (error.code === "bad_token") {
        // Signed out meanwhile: say so once, not once a second; the request lapses unasked.
        showForm();
        if (player) refused(player, error);
        return;
      }
      if (error.code !== "network") showError(error);
      if (error.code === "not_queued") showForm();
    }
  }

  async function cancel() {
    stop();
    try {
      await api("DELETE", "/api/quickplay");
    } catch (error) {
      showError(error);
    }
    showForm();
  }

  showForm();
  // Back in the lobby while a request is pending (a reload, a look at the history): resume it.
  if (getPlayer()) get("/api/quickplay").then((status) => status.state === "waiting" && show(status), () => {});
  return { panel, leave: stop };
}
