// Start-up and wiring: which screen shows, the session, the event stream's messages to each
// screen, and the home screen's one-tap buttons. Each module does one job; this one connects them.

import { $, setText, show, store, openDialog, closeDialog } from "./ui.js";
import * as api from "./api.js";
import * as outbox from "./outbox.js";
import { renderStatus, statusNow, tick } from "./status.js";
import { setupHold } from "./hold.js";
import { showHelp, renderAlert } from "./help.js";
import { setupChat, receiveChat, clearChat } from "./chat.js";
import { setupContacts, renderContacts, renderContactResult, cachedContacts } from "./contacts.js";
import * as circle from "./circle.js";
import { setupWalk, showWalkScreen, loadLeaflet } from "./walk.js";
import * as geo from "./geo.js";
import { refreshPush, enablePush, disablePush } from "./push.js";
import { setupSettings, soundAlarm, presets } from "./settings.js";
import { setupSignIn } from "./session.js";
import { setupDeskNotice, receiveDeskNotice, loadDeskViews, clearDeskViews } from "./desk.js";

const SCREENS = ["home", "walk", "chat", "contacts", "circle", "settings"];
const PIN_CODES = new Set(["pin_required", "wrong_pin"]);
const tiles = (() => {
  const value = document.querySelector('meta[name="safewalk-tiles"]')?.content || "";
  return value.includes("{z}") && !value.includes("{{") ? value : "";
})();

let user = null;
let stream = null;
let wired = false;
let tellPresence = () => {};

// ---- screens
function showScreen(name) {
  if (!user) name = "signin";
  else if (!SCREENS.includes(name)) name = "home";
  document.body.dataset.screen = name;
  for (const screen of SCREENS.concat(["signin"])) show("screen-" + screen, screen === name);
  for (const button of document.querySelectorAll("#nav button")) {
    if (button.dataset.screen === name) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  if (name === "walk") showWalkScreen({ tiles, here: geo.lastFix });
  if (name === "settings") loadDeskViews(api.deskViews);
  window.scrollTo(0, 0); // each screen opens at its top (the hash names no element)
}
window.addEventListener("hashchange", () => showScreen(location.hash.slice(1)));
for (const button of document.querySelectorAll("#nav button")) {
  button.addEventListener("click", () => (location.hash = button.dataset.screen));
}

// ---- network state
function onlineBanner() {
  show("banner-offline", !navigator.onLine);
}
window.addEventListener("online", () => {
  onlineBanner();
  outbox.pump();
});
window.addEventListener("offline", onlineBanner);
onlineBanner();
outbox.watch((count) => {
  const box = $("outbox-count");
  box.dataset.count = String(count);
  box.textContent = count === 1 ? "1 message waiting to send" : count + " messages waiting to send";
  box.hidden = count === 0;
});

// ---- the PIN prompt: an action answered pin_required or wrong_pin is sent again, with the PIN,
// under a new id (the watchdog answers a repeated id with its first answer).
function askPin(message, onPin, onCancel) {
  const dialog = $("pin-dialog");
  setText("pin-message", message || "Enter your PIN");
  $("pin-input").value = "";
  openDialog(dialog);
  $("pin-input").focus();
  const submit = (event) => {
    event.preventDefault();
    const pin = $("pin-input").value.trim();
    if (!/^[0-9]{4,12}$/.test(pin)) {
      setText("pin-message", "A PIN is 4 to 12 digits.");
      return;
    }
    done();
    onPin(pin);
  };
  const cancel = () => {
    done();
    if (onCancel) onCancel();
  };
  function done() {
    $("pin-dialog-form").removeEventListener("submit", submit);
    $("pin-cancel").removeEventListener("click", cancel);
    closeDialog(dialog);
  }
  $("pin-dialog-form").addEventListener("submit", submit);
  $("pin-cancel").addEventListener("click", cancel);
}

function strip(payload) {
  const fields = { ...payload };
  delete fields.id;
  delete fields.v;
  return fields;
}

/** An action through the outbox; a PIN question on the way is asked and answered. */
function act(fields, onResult) {
  outbox.sendAction(fields, (result) => {
    if (result && result.ok === false && result.error && PIN_CODES.has(result.error.code)) {
      askPin(result.error.message, (pin) => act({ ...fields, pin }, onResult), () => onResult && onResult(result));
    } else if (onResult) onResult(result);
  });
}

const circleCommand = (fields) => outbox.sendCircle(fields, circle.renderCircleResult);

// ---- the event stream
function onEvent(kind, payload) {
  switch (kind) {
    case "status":
      // The incident ended (imSafe, stop, arrived): its links and alert are history.
      if (statusNow() && statusNow().state === "alert" && !(payload && payload.state === "alert")) {
        show("help-panel", false);
        show("alert-panel", false);
      }
      store.set("status", payload);
      renderStatus(payload);
      geo.keepAwake(!!(payload && payload.walk));
      break;
    case "chat":
      receiveChat(payload);
      break;
    case "alert":
      renderAlert(payload);
      break;
    case "contacts":
      renderContacts(payload, removeContact);
      break;
    case "contacts/result":
      renderContactResult(payload);
      break;
    case "action/result":
      if (!payload) break;
      // An action queued by an earlier visit has no callback here: ask for its PIN all the same.
      if (payload.ok === false && payload.error && PIN_CODES.has(payload.error.code)) {
        const entry = outbox.pending().find((e) => e.id === payload.id);
        if (entry && !outbox.hasCallback(payload.id)) {
          outbox.settle(payload.id, payload);
          askPin(payload.error.message, (pin) => act({ ...strip(entry.payload), pin }));
          break;
        }
      }
      outbox.settle(payload.id, payload);
      break;
    case "rejected":
      if (payload && payload.id) {
        outbox.settle(payload.id, { ok: false, error: { code: payload.reason, message: "Refused (" + payload.reason + ")." } });
      }
      break;
    case "circle": {
      circle.renderCircle(payload);
      const others = circle.circleNames();
      store.set("following", others);
      // A new person followed: listen for their shared view too (the stream sends retained views again).
      if (stream && others.some((name) => !stream.listensTo(name))) stream.restart(others);
      break;
    }
    case "circle/result":
      if (payload) outbox.settle(payload.id, payload);
      break;
    case "inbox":
      circle.receiveInbox(payload);
      break;
    case "desk":
      receiveDeskNotice(payload);
      break;
    default:
      if (kind.startsWith("shared/")) {
        circle.renderShared(kind.slice("shared/".length), payload);
        // Their live position on a map: Leaflet is loaded the first time someone's view arrives.
        if (payload) loadLeaflet(tiles).then((loaded) => loaded && circle.refreshShared());
      }
  }
}

function onStreamState(state) {
  document.body.dataset.stream = state === "connected" ? "connected" : "reconnecting";
  show("banner-reconnecting", state !== "connected" && !!user);
  if (state === "connected") {
    outbox.pump();
    tellPresence();
    // Inbox events are not retained: ask for the ones kept while this page was away (dropped by id).
    outbox.sendNow("circle/cmd", { v: 1, id: outbox.newId(), op: "inbox" });
  } else if (state === "unauthenticated") {
    signedOut(false);
  }
}

// ---- home screen
function removeContact(contact) {
  outbox.sendOnce("contacts/remove", { v: 1, id: contact.id });
}

function needHelp(note) {
  const offline = !navigator.onLine || document.body.dataset.stream !== "connected";
  showHelp(
    { alert: store.get("alert"), contacts: cachedContacts(), user, note, position: geo.lastFix() },
    offline
      ? "No connection: your call for help is queued and goes out as soon as the network is back. Call or text now:"
      : "Sending your call for help…",
  );
  soundAlarm();
}

function setupHome() {
  $("btn-im-safe").addEventListener("click", () => {
    act({ action: "imSafe" }, (result) => {
      if (result && result.ok) setText("home-result", "Glad you’re safe.");
      else if (result && result.error) setText("home-result", result.error.message);
    });
    const requests = circle.circleNow()?.checkInRequests || [];
    if (requests.length) circleCommand({ op: "checkIn" });
    setText("home-result", "Sending I’m safe…");
  });
  $("btn-need-help").addEventListener("click", () => {
    const note = $("panic-note").value;
    const fields = { action: "needHelp" };
    if (note) fields.note = note;
    act(fields, (result) => {
      if (result && result.ok) setText("help-queued", "Your contacts are being told. Call or text them too:");
    });
    needHelp(note);
  });
  $("btn-home-safe").addEventListener("click", () => {
    if (statusNow() && statusNow().watching) {
      act({ action: "arrived" }, (result) => result && result.ok && setText("home-result", "Home safe. Your followers can see it."));
    } else {
      outbox.sendCircle({ op: "homeSafe" }, (result) => setText("home-result",
        result && result.ok ? "Home safe. Your followers can see it." : (result && result.error && result.error.message) || "Not sent."));
    }
    setText("home-result", "Sending home safe…");
  });
  $("alert-dismiss").addEventListener("click", () => show("alert-panel", false));
  setupHold({
    level: () => (document.querySelector('input[name="panic-level"]:checked')?.value === "amber" ? "amber" : "red"),
    note: () => $("panic-note").value,
    arm: (fields) => act({ action: "hold", ...fields }),
    beat: () => outbox.sendNow("action", { v: 1, id: outbox.newId(), action: "holding" }),
    release: (fields) => {
      const red = document.querySelector('input[name="panic-level"]:checked')?.value !== "amber";
      act({ action: "release", ...fields });
      if (red) needHelp(fields.note);
    },
    cancel: () => act({ action: "cancelHold" }),
  });
}

// ---- session
function wire() {
  if (wired) return;
  wired = true;
  setupHome();
  setupChat({ send: (payload) => outbox.sendOnce("reply", payload), onHelp: () => needHelp($("panic-note").value) });
  setupContacts({ add: (payload) => outbox.sendOnce("contacts/add", payload) });
  circle.setupCircle({ send: circleCommand, tileTemplate: tiles });
  const useLocation = () => $("use-location").checked && !["denied", "unavailable"].includes(geo.geoState());
  $("use-location").checked = geo.locationWanted();
  setupWalk({
    action: act,
    useLocation,
    here: geo.lastFix,
    onLocationToggle: (on) => {
      store.set("useLocation", on);
      if (on) geo.startGeo(sendFix);
      else geo.stopGeo();
    },
  });
  setupSettings({ action: act, ownTracks: () => api.ownTracks(user), signOut: () => signedOut(true) });
  $("push-enable").addEventListener("click", enablePush);
  setupDeskNotice();
  tellPresence = geo.setupPresence((word) => outbox.sendNow("presence", word));
  setInterval(tick, 1000);
}

const sendFix = (fix) => outbox.sendNow("fix", fix);

function signedIn(session, offline = false) {
  user = session.username;
  if (session.csrfToken) api.setCsrf(session.csrfToken);
  if (store.get("user") && store.get("user") !== user) {
    // Another account on this phone: nothing of theirs stays.
    outbox.clear();
    for (const key of ["contacts", "alert", "chat", "inbox", "status", "following"]) store.set(key, null);
  }
  store.set("user", user);
  document.body.dataset.signedIn = "true";
  setText("whoami", user);
  show("nav", true);
  wire();
  renderStatus(store.get("status"));
  renderContacts({ contacts: cachedContacts() }, removeContact);
  showScreen(location.hash.slice(1) || "home");
  if (stream) stream.close();
  stream = api.openStream(onEvent, onStreamState, store.get("following", []));
  if (geo.locationWanted()) geo.startGeo(sendFix);
  if (!offline) refreshPush().catch(() => {});
  outbox.pump();
}

async function signedOut(byUser) {
  if (byUser) {
    await disablePush();
    await api.signOut().catch(() => {});
    outbox.clear();
    for (const key of ["contacts", "alert", "chat", "inbox", "status", "following", "user"]) store.set(key, null);
    clearChat();
    circle.clearCircle();
    clearDeskViews();
  }
  if (stream) stream.close();
  stream = null;
  geo.stopGeo();
  geo.keepAwake(false);
  user = null;
  api.setCsrf(null);
  document.body.dataset.signedIn = "false";
  show("nav", false);
  show("banner-reconnecting", false);
  showScreen("signin");
}

async function boot() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  setupSignIn((session) => {
    signedIn(session);
    location.hash = "home";
  });
  try {
    signedIn(await api.currentSession());
  } catch (error) {
    if (!(error instanceof api.HttpError) && store.get("user")) {
      // No network (the service worker gave us the shell): this phone's walker, from the cache, so
      // "I need help" works at once and queues.
      signedIn({ username: store.get("user") }, true);
    } else {
      signedOut(false);
    }
  }
  presets(); // the preset notes exist from the first visit
}

boot();
