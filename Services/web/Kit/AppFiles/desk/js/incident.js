// One incident's panel: what it is, its timeline (the notifier's ladder, the incident's changes and
// the desk's own log, in time order), its position stream moving its marker, and the actions:
// acknowledge, add a note, hand over, close. Every error answer's message is shown in the panel;
// after each action the panel is read again.

import { $, el, setText, show } from "./dom.js";
import * as api from "./api.js";
import { clock, age, reasonWords, toldWords, ackWords, errorText, CLOSE_REASONS } from "./format.js";

let current = null; // the incident id shown
let positions = null; // its position stream
let me = () => null;
let onPosition = () => {};
let onChange = () => {};
let loading = 0;

/** `whoami()` the operator's name; `position(id, info, fix)` moves a marker; `changed()` after an action. */
export function setupIncident({ whoami, position, changed }) {
  me = whoami;
  onPosition = position;
  onChange = changed;
  $("desk-incident-hide").addEventListener("click", hideIncident);
  $("desk-ack").addEventListener("click", () => act("ack", () => api.acknowledge(current), "Acknowledged: the walker’s people are told the desk is on it."));
  $("desk-note-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("desk-note-text").value.trim();
    if (!text) return failed("Write the note first.");
    act("note", () => api.addNote(current, text), "Note added.", () => ($("desk-note-text").value = ""));
  });
  $("desk-handover-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const to = $("desk-handover-to").value;
    if (!to) return failed("Choose the operator to hand over to.");
    act("handover", () => api.handOver(current, to), "Handed over to " + to + ".");
  });
  $("desk-close-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const reason = $("desk-close-reason").value;
    const note = $("desk-close-note").value.trim();
    act("close", () => api.close(current, reason, note), "Closed as " + (CLOSE_REASONS[reason] || reason) + ".",
      () => ($("desk-close-note").value = ""));
  });
}

export const shownIncident = () => current;

function failed(text) {
  setText("desk-incident-error", text);
  setText("desk-incident-result", "");
  $("desk-incident-error").scrollIntoView({ block: "nearest" });
}

const BUTTONS = ["desk-ack", "desk-note-add", "desk-handover", "desk-close"];

async function act(what, call, done, after) {
  if (!current) return;
  const id = current;
  setText("desk-incident-error", "");
  setText("desk-incident-result", "Sending…");
  for (const button of BUTTONS) $(button).disabled = true;
  try {
    await call();
    if (after) after();
    if (id === current) setText("desk-incident-result", done);
    onChange(what, id);
  } catch (error) {
    if (id === current) failed(errorText(error));
  } finally {
    for (const button of BUTTONS) $(button).disabled = false;
    if (id === current) await refresh();
  }
}

/** Opens `id` in the panel: its page, its positions and the operators to hand over to. */
export async function openIncident(id) {
  if (current !== id) {
    stopPositions();
    current = id;
    setText("desk-incident-title", "Incident");
    setText("desk-incident-error", "");
    setText("desk-incident-result", "");
    $("desk-incident-badges").replaceChildren();
    $("desk-incident-facts").replaceChildren();
    $("desk-incident-timeline").replaceChildren();
    $("desk-incident").dataset.incident = id;
    delete $("desk-incident").dataset.state;
  }
  show("desk-incident", true);
  $("desk-incident").focus({ preventScroll: true });
  $("desk-incident").scrollIntoView({ block: "nearest" });
  loadOperators();
  const page = await refresh();
  if (page && id === current && (page.state === undefined || page.state === "open") && !positions) {
    const info = infoOf(page);
    positions = api.openPositions(id, (fix) => onPosition(id, info, fix), () => {
      positions = null;
      if (id === current) refresh();
    });
  }
}

export function hideIncident() {
  stopPositions();
  current = null;
  show("desk-incident", false);
  onChange("hide", null);
}

function stopPositions() {
  if (positions) positions.close();
  positions = null;
}

const infoOf = (page) => ({ walker: String(page.walker || ""), level: page.level, duress: !!page.duress });

/** Reads the incident again and draws it; resolves to the page, or null. */
async function refresh() {
  const id = current;
  if (!id) return null;
  const mine = ++loading;
  try {
    const answer = await api.incident(id);
    // web answers {desk, incident: {...the board's row, with state and close...}, timeline: [...]}:
    // the panel draws the row with the timeline beside it (an answer that is the row itself too).
    const row = answer && typeof answer.incident === "object" && answer.incident ? answer.incident : null;
    const page = row ? { ...row, timeline: Array.isArray(answer.timeline) ? answer.timeline : row.timeline } : answer;
    if (id === current && mine === loading) draw(id, page || {});
    return page;
  } catch (error) {
    if (id === current && mine === loading) failed(errorText(error));
    return null;
  }
}

const fact = (term, value) => [el("dt", {}, term), el("dd", {}, value)];

function draw(id, page) {
  const state = page.state || "open";
  const panel = $("desk-incident");
  panel.dataset.state = state;
  panel.dataset.level = page.level || "";
  panel.dataset.duress = page.duress ? "true" : "false";
  setText("desk-incident-title", (page.walker || "Incident") + ": " + reasonWords(page.reason));
  const red = page.level === "red";
  // replaceChildren writes a null as the text "null": only the badges that apply.
  const badges = [
    el("span", { class: "badge " + (red ? "red" : "amber") }, red ? "RED" : String(page.level || "amber").toUpperCase()),
    page.duress ? el("span", { class: "badge duress" }, "DURESS") : null,
    el("span", { class: "badge state" }, state === "open" ? "OPEN" : String(state).toUpperCase()),
  ];
  $("desk-incident-badges").replaceChildren(...badges.filter(Boolean));
  const facts = [
    ...fact("Opened", page.openedAt ? clock(page.openedAt) + " (" + age(page.openedAt) + " ago)" : "–"),
    ...fact("Tier", Number.isFinite(page.tier) ? String(page.tier) : "–"),
    ...fact("Told", toldWords(page.told)),
    ...fact("Acknowledged", ackWords(page.acknowledgement) || "not yet"),
    ...fact("Assignee", page.assignee ? String(page.assignee) : "–"),
  ];
  const p = page.position;
  const placed = p && Number.isFinite(p.lat) && Number.isFinite(p.lon);
  if (placed) {
    facts.push(...fact("Position", p.lat.toFixed(5) + ", " + p.lon.toFixed(5) +
      (Number.isFinite(p.acc) ? " (±" + Math.round(p.acc) + " m)" : "") + (p.tst ? ", " + age(p.tst) + " old" : "")));
  }
  if (state !== "open") {
    facts.push(...fact("Closed", [page.closedAt ? clock(page.closedAt) : "", page.closedBy ? "by " + page.closedBy : "",
      page.closeReason ? "as " + (CLOSE_REASONS[page.closeReason] || page.closeReason) : ""].filter(Boolean).join(" ") || "yes"));
  }
  $("desk-incident-facts").replaceChildren(...facts);
  const timeline = Array.isArray(page.timeline) ? page.timeline.slice() : [];
  timeline.sort((a, b) => (a.at || 0) - (b.at || 0));
  $("desk-incident-timeline").replaceChildren(
    ...timeline.map((item) =>
      el("li", { "data-kind": item.kind || "" },
        el("time", {}, clock(item.at)), " ",
        el("span", { class: "kind" }, String(item.kind || "")), " ",
        el("span", { class: "text" }, String(item.text || "")),
        item.by ? el("span", { class: "by" }, " (" + item.by + ")") : null)),
  );
  if (placed && state === "open") onPosition(id, infoOf(page), p);
}

/** The hand-over choices: every other operator. */
async function loadOperators() {
  const select = $("desk-handover-to");
  try {
    const answer = await api.operators();
    const others = ((answer && answer.operators) || []).filter((o) => o && o.username && o.username !== me());
    const chosen = select.value;
    select.replaceChildren(...others.map((o) =>
      el("option", { value: o.username }, o.username + (o.role === "admin" ? " (admin)" : ""))));
    if (others.some((o) => o.username === chosen)) select.value = chosen;
    if (others.length === 0) select.append(el("option", { value: "" }, "No other operator"));
  } catch {
    if (select.options.length === 0) select.append(el("option", { value: "" }, "Operators not available"));
  }
}

export function clearIncident() {
  stopPositions();
  current = null;
  show("desk-incident", false);
}
