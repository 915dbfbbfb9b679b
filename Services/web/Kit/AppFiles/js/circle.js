// The circle (`{w}/circle`): follow requests in and out, people followed with their SOS mark,
// check-in requests answered with one tap, home safe; the inbox (`{w}/inbox`, each event once by
// id); and another user's alert with their live view (`{w}/shared/{other}`).

import { $, el, setText, show, store, clock, ago, now, mapsURL } from "./ui.js";

let circle = null;
const shared = new Map(); // user → SharedView
const maps = new Map(); // user → { map, marker } when Leaflet is there
let inbox = store.get("inbox", []);
let command = () => {};
let tiles = "";

const TYPES = {
  followRequest: "Follow request", followAccepted: "Accepted", followDenied: "Declined",
  checkInRequest: "Check-in request", checkedIn: "Checked in", homeSafe: "Home safe", alert: "Alert",
  ack: "On it", allClear: "All clear", lastKnown: "Last known", seen: "Seen", circleNotAlerted: "Nobody in your circle",
};

export const circleNow = () => circle;
/** Everyone whose `shared/{user}` view may come: whoever made this user their SOS contact follows
 * this user (`followers`, `sosOfTheirs`); the people followed are added so a mark made later is
 * heard at once. */
export const circleNames = () => {
  if (!circle) return [];
  const names = (circle.followers || []).concat(circle.following || []).map((f) => f.user);
  return Array.from(new Set(names)).sort();
};

function button(label, testid, onclick, extra = {}) {
  return el("button", { type: "button", "data-testid": testid, onclick, ...extra }, label);
}

function list(id, items, make, empty) {
  const box = $(id);
  box.textContent = "";
  if (!items || !items.length) {
    if (empty) box.append(el("li", { class: "hint" }, empty));
    return;
  }
  for (const item of items) box.append(make(item));
}

export function renderCircle(view) {
  circle = view;
  if (!view) return;
  list("circle-checkin-requests", view.checkInRequests, (r) =>
    el("li", { "data-testid": "checkin-request", "data-user": r.user },
      el("span", { class: "who" }, r.user + " asks you to check in (" + clock(r.at) + ")")), "Nobody is asking.");
  list("circle-requests-in", view.requestsIn, (r) =>
    el("li", { "data-testid": "request-in", "data-user": r.user },
      el("span", { class: "who" }, r.user + " wants to follow you"),
      button("Accept", "accept", () => command({ op: "accept", user: r.user }), { class: "primary" }),
      button("Deny", "deny", () => command({ op: "deny", user: r.user }))), "None.");
  list("circle-requests-out", view.requestsOut, (r) =>
    el("li", { "data-testid": "request-out", "data-user": r.user },
      el("span", { class: "who" }, "Asked " + r.user + " (" + clock(r.at) + ")"),
      button("Withdraw", "withdraw", () => command({ op: "unfollow", user: r.user }))), "None.");
  list("circle-following", view.following, (f) => {
    const home = f.homeSafe && f.homeSafe.until > now();
    return el("li", { "data-testid": "following", "data-user": f.user, "data-sos": String(!!f.sos) },
      el("span", { class: "who" }, f.user),
      f.sos ? el("span", { class: "tag" }, "SOS contact") : null,
      home ? el("span", { class: "tag", "data-testid": "home-safe-mark" }, "🏠 home safe " + clock(f.homeSafe.at)) : null,
      f.checkedInAt ? el("span", { class: "tag", "data-testid": "checked-in" }, "checked in " + clock(f.checkedInAt)) : null,
      button(f.sos ? "Remove SOS" : "Make SOS contact", "sos-toggle",
        () => command({ op: f.sos ? "unsos" : "sos", user: f.user }), { "aria-pressed": String(!!f.sos) }),
      button("Ask to check in", "ask-checkin", () => command({ op: "checkInRequest", user: f.user })),
      button("Unfollow", "unfollow", () => command({ op: "unfollow", user: f.user })));
  }, "You follow nobody yet.");
  list("circle-followers", view.followers, (f) =>
    el("li", { "data-testid": "follower", "data-user": f.user },
      el("span", { class: "who" }, f.user + (f.sosOfTheirs ? " (you are their SOS contact)" : "")),
      button("Remove", "remove-follower", () => command({ op: "removeFollower", user: f.user }))), "Nobody yet.");
  $("reveal-toggle").checked = !!view.revealOnMissedCheckIn;
}

function drawInbox() {
  list("circle-inbox", inbox.slice().reverse(), (e) =>
    el("li", { "data-testid": "inbox-event", "data-type": e.type },
      el("span", { class: "who" }, clock(e.at) + " · " + (e.text || TYPES[e.type] || e.type))), "Nothing yet.");
}

export function receiveInbox(event) {
  if (!event || !event.id || inbox.some((e) => e.id === event.id)) return false;
  inbox.push({ id: event.id, at: event.at, type: event.type, text: event.text, from: event.from });
  inbox.sort((a, b) => a.at - b.at);
  if (inbox.length > 100) inbox = inbox.slice(-100);
  store.set("inbox", inbox);
  drawInbox();
  return true;
}

/** `{w}/shared/{user}`: null (an empty retained message) ends the view. */
export function renderShared(user, view) {
  if (view && view.incident) shared.set(user, view);
  else {
    shared.delete(user);
    const m = maps.get(user);
    if (m) m.map.remove();
    maps.delete(user);
  }
  drawShared();
}

function drawShared() {
  const box = $("circle-shared");
  const keep = new Set(shared.keys());
  for (const article of Array.from(box.children)) if (!keep.has(article.dataset.user)) article.remove();
  for (const [user, view] of shared) {
    let article = box.querySelector('article[data-user="' + CSS.escape(user) + '"]');
    if (!article) {
      article = el("article", { class: "shared", "data-testid": "shared-view", "data-user": user },
        el("h2", {}), el("p", { class: "incident" }), el("p", { "data-testid": "shared-position" }),
        el("a", { class: "button", "data-testid": "shared-maps", rel: "noreferrer noopener", target: "_blank" }, "Open in Maps"),
        el("div", { class: "shared-map", "data-testid": "shared-map", hidden: true }),
        button("I’m on it", "shared-ack", () => command({ op: "ack", user }), { class: "primary" }));
      box.append(article);
    }
    const incident = view.incident;
    article.dataset.level = incident.level;
    article.querySelector("h2").textContent = incident.level === "amber"
      ? user + " may need help" : user + " needs help now";
    article.querySelector(".incident").textContent =
      "Since " + clock(incident.openedAt) + (incident.acknowledgedBy ? " · " + incident.acknowledgedBy + " is on it" : "") +
      (incident.duress ? " · Their phone shows the alert as cancelled: do not call or text it." : "");
    const p = view.position;
    article.querySelector("[data-testid=shared-position]").textContent = p
      ? p.lat.toFixed(5) + ", " + p.lon.toFixed(5) + " · " + ago(now() - p.tst) +
        (p.acc != null ? " · ±" + Math.round(p.acc) + " m" : "") + (p.batt != null ? " · battery " + Math.round(p.batt) + "%" : "")
      : "No position yet.";
    const link = article.querySelector("[data-testid=shared-maps]");
    link.hidden = !p;
    if (p) link.href = mapsURL(p.lat, p.lon);
    if (p && tiles && window.L) {
      const box = article.querySelector("[data-testid=shared-map]");
      box.hidden = false;
      let m = maps.get(user);
      if (!m) {
        const map = window.L.map(box).setView([p.lat, p.lon], 16);
        window.L.tileLayer(tiles, { maxZoom: 19, attribution: "© OpenStreetMap contributors" }).addTo(map);
        m = { map, marker: window.L.marker([p.lat, p.lon], { keyboard: false }).addTo(map) };
        maps.set(user, m);
      } else {
        m.marker.setLatLng([p.lat, p.lon]);
        m.map.panTo([p.lat, p.lon]);
      }
    }
  }
  const alerts = Array.from(shared.values());
  const banner = $("circle-alert-banner");
  banner.textContent = alerts.length
    ? alerts.map((v) => v.user + (v.incident.level === "amber" ? " may need help" : " needs help now")).join(" · ") + " — open"
    : "";
  show(banner, alerts.length > 0);
}

/** Draws the views again (Leaflet just loaded: their maps can be drawn now). */
export const refreshShared = () => drawShared();

export function renderCircleResult(result) {
  if (!result) return;
  if (result.ok) {
    const done = { follow: "Request sent.", checkInRequest: "Asked.", checkIn: "Checked in.", homeSafe: "Home safe sent.", ack: "They know you are on it." };
    setText("circle-result", done[result.op] || "Done.");
  } else {
    setText("circle-result", (result.error && result.error.message) || "That did not work.");
  }
}

export function clearCircle() {
  inbox = [];
  store.set("inbox", null);
  shared.clear();
  drawShared();
  drawInbox();
}

export function setupCircle({ send, tileTemplate }) {
  command = send;
  tiles = tileTemplate;
  $("circle-follow-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const user = $("circle-follow-user").value.trim();
    if (!user) return;
    send({ op: "follow", user });
    $("circle-follow-user").value = "";
    setText("circle-result", "Asking " + user + "…");
  });
  $("btn-checkin").addEventListener("click", () => send({ op: "checkIn" }));
  $("btn-ask-all").addEventListener("click", () => send({ op: "checkInRequest" }));
  $("reveal-toggle").addEventListener("change", (event) =>
    send({ op: "revealOnMissedCheckIn", on: event.target.checked }));
  drawInbox();
  setInterval(drawShared, 15000); // the position's age
}
