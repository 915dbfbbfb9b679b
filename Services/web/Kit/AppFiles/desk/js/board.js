// The board: counts of walkers watched now by status, the response-time figures, and the table of
// open incidents (one row each, with a clear DURESS badge and an age that ticks every second).

import { $, el, setText, show } from "./dom.js";
import { duration, age, clock, reasonWords, toldWords, ackWords } from "./format.js";

let onOpen = () => {};
let selected = null;

/** `open(incidentId)` is called when the operator picks a row. */
export function setupBoard({ open }) {
  onOpen = open;
}

/** Marks the row of the incident shown in the panel. */
export function select(id) {
  selected = id;
  for (const row of document.querySelectorAll("#desk-incidents-rows tr[data-incident]")) {
    if (row.dataset.incident === id) row.setAttribute("aria-selected", "true");
    else row.removeAttribute("aria-selected");
  }
}

const count = (value) => (Number.isFinite(value) ? String(value) : "–");

export function renderCounts(watching) {
  const w = watching || {};
  setText("desk-count-safe", count(w.safe));
  setText("desk-count-checking", count(w.checking));
  setText("desk-count-alert", count(w.alert));
}

export function renderFigures(figures) {
  const f = figures || {};
  for (const kind of ["ack", "close"]) {
    const figure = f[kind] || {};
    setText("desk-figure-" + kind + "-p50", duration(figure.p50));
    setText("desk-figure-" + kind + "-p95", duration(figure.p95));
  }
  const closed = f.close && Number.isFinite(f.close.count) ? f.close.count : null;
  setText("desk-figures-over", closed === null ? "" : "(over the last " + closed + " closed)");
}

/** A badge that says in words what its colour says. */
const badge = (kind, text) => el("span", { class: "badge " + kind }, text);

function levelCell(incident) {
  const red = incident.level === "red";
  return el("td", { "data-label": "Level" },
    badge(red ? "red" : "amber", red ? "RED" : String(incident.level || "amber").toUpperCase()),
    incident.duress ? badge("duress", "DURESS") : null);
}

function row(incident) {
  const id = String(incident.incident);
  const acknowledged = !!(incident.acknowledgement && incident.acknowledgement.by);
  const position = incident.position;
  const tr = el("tr", {
    "data-incident": id,
    "data-walker": incident.walker,
    "data-level": incident.level || "",
    "data-duress": incident.duress ? "true" : "false",
    "data-acknowledged": acknowledged ? "true" : "false",
    class: [incident.level === "red" ? "red" : "amber", incident.duress ? "duress" : ""].join(" ").trim(),
  });
  const open = el("button", { type: "button", class: "open", "data-testid": "desk-open-incident",
    "aria-label": "Open the incident of " + incident.walker }, String(incident.walker));
  open.addEventListener("click", (event) => {
    event.stopPropagation();
    onOpen(id);
  });
  tr.addEventListener("click", () => onOpen(id));
  tr.append(
    el("th", { scope: "row", "data-label": "Walker" }, open,
      el("span", { class: "where" }, position ? "on the map" : "no position")),
    levelCell(incident),
    el("td", { "data-label": "Reason" }, reasonWords(incident.reason)),
    el("td", { "data-label": "Open for", class: "age", "data-opened-at": incident.openedAt,
      title: "opened at " + clock(incident.openedAt) }, age(incident.openedAt)),
    el("td", { "data-label": "Tier" }, Number.isFinite(incident.tier) ? "tier " + incident.tier : "–"),
    el("td", { "data-label": "Told", class: "told" }, toldWords(incident.told)),
    el("td", { "data-label": "Acknowledged", class: acknowledged ? "acked" : "not-acked" },
      acknowledged ? ackWords(incident.acknowledgement) : "not yet"),
    el("td", { "data-label": "Assignee" }, incident.assignee ? String(incident.assignee) : "–"),
  );
  if (id === selected) tr.setAttribute("aria-selected", "true");
  return tr;
}

/** Red first, then duress, then the oldest first. */
function order(a, b) {
  const weight = (i) => (i.level === "red" ? 0 : 2) + (i.duress ? 0 : 1);
  return weight(a) - weight(b) || (a.openedAt || 0) - (b.openedAt || 0);
}

export function renderIncidents(incidents) {
  const list = (Array.isArray(incidents) ? incidents : []).filter((i) => i && i.incident !== undefined);
  const body = $("desk-incidents-rows");
  body.replaceChildren(...list.slice().sort(order).map(row));
  show("desk-incidents-empty", list.length === 0);
  show("desk-incidents", list.length > 0);
  setText("desk-incidents-count", list.length ? "(" + list.length + ")" : "");
}

/** Every second: the ages, counted from each incident's `openedAt`. */
export function tick() {
  for (const cell of document.querySelectorAll("#desk-incidents-rows td.age")) {
    const opened = Number(cell.dataset.openedAt);
    if (Number.isFinite(opened)) setText(cell, age(opened));
  }
}

export function clearBoard() {
  renderCounts(null);
  renderFigures(null);
  renderIncidents([]);
  selected = null;
}
