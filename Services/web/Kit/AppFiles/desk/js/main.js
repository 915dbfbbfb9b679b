// The monitoring desk at /ops: start-up and wiring. Signed out, the sign-in form; signed in, the
// board (an EventSource of `board` events) drawn as counts, figures, a table and a map, and one
// incident's panel. Each module does one job; this one connects them.

import { $, setText, show } from "./dom.js";
import * as api from "./api.js";
import { serverTime } from "./format.js";
import { setupBoard, renderCounts, renderFigures, renderIncidents, select, tick, clearBoard } from "./board.js";
import { setupMap, syncMap, place, fit, tickMap, clearMap } from "./map.js";
import { setupIncident, openIncident, shownIncident, clearIncident } from "./incident.js";
import { setupSignIn, signOut, explain } from "./session.js";
import { setupAdmin } from "./admin.js";

const tiles = (() => {
  const value = document.querySelector('meta[name="safewalk-tiles"]')?.content || "";
  return value.includes("{z}") && !value.includes("{{") ? value : "";
})();

let operator = null; // {username, role, desk}
let board = null; // the board's stream
let ticking = null;

function onBoard(next) {
  serverTime(next.at);
  if (typeof next.desk === "string") setText("desk-name", "· " + next.desk);
  renderCounts(next.watching);
  renderFigures(next.figures);
  renderIncidents(next.incidents);
  syncMap(next.incidents);
  select(shownIncident());
}

function onStreamState(state) {
  document.body.dataset.deskStream = state === "connected" ? "connected" : "reconnecting";
  show("desk-banner-reconnecting", state !== "connected" && !!operator);
  if (state === "unauthenticated") signedOut("Your session ended. Sign in again.");
}

function pick(id) {
  select(id);
  fit(id);
  openIncident(id);
}

function signedIn(session) {
  operator = { username: session.username, role: session.role, desk: session.desk };
  api.setCsrf(session.csrfToken);
  document.body.dataset.signedIn = "true";
  setText("desk-whoami", session.username || "");
  if (typeof session.desk === "string") setText("desk-name", "· " + session.desk);
  show("desk-signin", false);
  show("desk-account", true);
  show("desk-board", true);
  show("desk-admin", session.role === "admin");
  setupMap({ tiles, open: pick });
  if (board) board.close();
  board = api.openBoard(onBoard, onStreamState);
  if (!ticking) ticking = setInterval(() => {
    tick();
    tickMap();
  }, 1000);
}

function signedOut(message) {
  if (board) board.close();
  board = null;
  clearInterval(ticking);
  ticking = null;
  operator = null;
  api.setCsrf(null);
  clearIncident();
  clearBoard();
  clearMap();
  document.body.dataset.signedIn = "false";
  document.body.dataset.deskStream = "reconnecting";
  show("desk-banner-reconnecting", false);
  show("desk-board", false);
  show("desk-account", false);
  show("desk-admin", false);
  show("desk-signin", true);
  setText("desk-signin-error", message || "");
  $("desk-username").focus();
}

async function boot() {
  setupBoard({ open: pick });
  setupIncident({
    whoami: () => operator && operator.username,
    position: place,
    changed: (what, id) => (what === "hide" ? select(null) : select(id)),
  });
  setupAdmin({ added: () => {} });
  setupSignIn(signedIn);
  $("desk-signout").addEventListener("click", async () => {
    await signOut();
    signedOut("Signed out.");
  });
  try {
    signedIn(await api.me());
  } catch (error) {
    // 401: nobody signed in. 403: a walker's session in this browser. Anything else (the server
    // does not have the desk, no network): the form, with a word when it helps.
    const quiet = error instanceof api.HttpError && error.status === 401;
    signedOut(quiet ? "" : error instanceof api.HttpError && error.status === 404 ? "" : explain(error));
  }
}

boot();
