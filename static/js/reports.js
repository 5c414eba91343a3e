// What came of the player's reports (docs/protocol.md §1, "What came of your reports"): the
// operator says whether they acted on a report, not how. The lobby tells each closed report
// once (`answered_reports` of `GET /api/players/me`; "OK" marks them read); the account page
// lists them all with where each stands.
import { get, post } from "./api.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { showError } from "./ui.js";

const day = (iso) => new Date(iso).toLocaleDateString(lang(), { dateStyle: "medium" });

/** The lobby's notice of `reports` (closed, not yet read), or null when there are none. */
export function answeredNotice(reports) {
  if (!reports || !reports.length) return null;
  const items = reports.map((r) =>
    h("li", { dataset: { report: r.id }, text: t(r.outcome === "upheld" ? "report_upheld" : "report_dismissed", { name: r.player.name, date: day(r.at) }) }),
  );
  const ok = h("button", { type: "button", id: "answered-ok", text: t("reports_ok") });
  const notice = h("section", { class: "panel answered", id: "answered-reports", role: "status" }, h("h2", { text: t("reports_title") }), h("ul", { class: "answered-list" }, ...items), ok);
  ok.addEventListener("click", async () => {
    ok.disabled = true;
    try {
      await post("/api/players/me/reports/read", { ids: reports.map((r) => r.id) });
      notice.remove();
    } catch (error) {
      ok.disabled = false;
      showError(error);
    }
  });
  return notice;
}

/** "Your reports" on the account page: each report with its reason, day and where it stands.
 * Null when the player made none (or they could not be read: the page says what matters). */
export async function reportsPanel() {
  let reports;
  try {
    reports = await get("/api/players/me/reports");
  } catch {
    return null;
  }
  if (!reports.length) return null;
  const state = (r) => (r.outcome ? t(`report_status_${r.outcome}`) : t("report_status_open"));
  const list = h(
    "ul",
    { class: "report-list", id: "report-list" },
    ...reports.map((r) =>
      h(
        "li",
        { dataset: { report: r.id, outcome: r.outcome || "open" } },
        h("strong", { class: "report-name", text: r.player.name }),
        h("span", { class: `report-state ${r.outcome || "open"}`, text: state(r) }),
        h("span", { class: "report-detail", text: `${t(`report_${r.reason}`)} · ${day(r.at)}` }),
      ),
    ),
  );
  return h("section", { class: "panel", id: "your-reports" }, h("h2", { text: t("reports_title") }), h("p", { class: "muted", text: t("reports_explain") }), list);
}
