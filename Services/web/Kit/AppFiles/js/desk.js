// Who of the monitoring desk looked at the walker's alerts: the live notice on the home screen
// (`{w}/desk`, one per operator and incident) and the list in Settings (GET /v1/app/desk-views,
// the walker's own audit, read each time Settings opens, plus the notices that arrive after).

import { $, el, setText, show, clock } from "./ui.js";

let dismissed = null; // the notice id the walker hid

const WHAT = { page: "opened your alert", positions: "followed your position", position: "saw your position", board: "saw your position on the board" };

function item(view) {
  const what = view.text || (view.operator + " of " + (view.desk || "the desk") + " " + (WHAT[view.what] || "looked at your alert") +
    (view.at ? " at " + clock(view.at) : ""));
  return el("li", { "data-incident": view.incident, "data-operator": view.operator, "data-at": view.at },
    el("span", { class: "who" }, String(what)));
}

/** A `desk` event: shown on the home screen until dismissed, and added to the list. */
export function receiveDeskNotice(notice) {
  if (!notice || typeof notice !== "object" || !notice.text) return;
  if (notice.id !== dismissed) {
    setText("desk-notice-text", String(notice.text));
    $("desk-notice").dataset.id = notice.id || "";
    show("desk-notice", true);
  }
  const list = $("desk-views");
  const seen = Array.from(list.children).some(
    (li) => li.dataset.incident === String(notice.incident) && li.dataset.operator === String(notice.operator) && li.dataset.at === String(notice.at));
  if (!seen) list.prepend(item(notice));
  setText("desk-views-state", "");
}

/** Reads the walker's audit (when Settings opens). */
export async function loadDeskViews(fetchViews) {
  try {
    const answer = await fetchViews();
    const views = (answer && Array.isArray(answer.views) ? answer.views : []).slice().sort((a, b) => (b.at || 0) - (a.at || 0));
    $("desk-views").replaceChildren(...views.map(item));
    setText("desk-views-state", views.length ? "" : "Nobody of the desk has looked at your alerts.");
  } catch {
    setText("desk-views-state", "Could not load the list. It is loaded again when you open Settings.");
  }
}

export function setupDeskNotice() {
  $("desk-notice-dismiss").addEventListener("click", () => {
    dismissed = $("desk-notice").dataset.id || null;
    show("desk-notice", false);
  });
}

export function clearDeskViews() {
  show("desk-notice", false);
  $("desk-views").replaceChildren();
  setText("desk-views-state", "");
  dismissed = null;
}
