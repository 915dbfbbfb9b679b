// Location from the browser: `watchPosition` with high accuracy becomes fixes on `{w}/fix` (with
// the accuracy, and the battery where the browser tells it), at most one every few seconds unless
// the walker moved. The Screen Wake Lock keeps the screen on during a walk, since a locked phone
// stops browser location. Presence: `online` while the page is visible, `background` when hidden,
// so the watchdog knows fixes will pause rather than reading it as "no movement".

import { $, setText, store } from "./ui.js";

const MIN_GAP = 5000; // ms between fixes when standing still
let watchId = null;
let last = null; // the last fix sent
let lastSentAt = 0;
let battery = null;
let lock = null;
let wantLock = false;
let state = "off";

export const lastFix = () => last;
export const geoState = () => state;
export const locationWanted = () => store.get("useLocation", true) !== false;

function setState(next, text) {
  state = next;
  $("geo-state").dataset.geo = next;
  setText("geo-state", text);
}

function metres(a, b) {
  const r = 6371000;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.sqrt(h));
}

/** Starts publishing fixes with `send(fix)`; safe to call again. */
export function startGeo(send) {
  if (watchId !== null) return;
  if (!("geolocation" in navigator)) {
    setState("unavailable", "This browser gives no location: SafeWalk relies on check-ins and the ETA.");
    return;
  }
  if (navigator.getBattery) navigator.getBattery().then((b) => (battery = b), () => {});
  setState("asking", "Asking for your location…");
  watchId = navigator.geolocation.watchPosition(
    (position) => {
      const c = position.coords;
      const fix = { v: 1, lat: c.latitude, lon: c.longitude, tst: Math.floor(position.timestamp / 1000) };
      if (Number.isFinite(c.accuracy)) fix.acc = Math.round(c.accuracy * 10) / 10;
      if (Number.isFinite(c.altitude)) fix.alt = Math.round(c.altitude);
      if (Number.isFinite(c.speed)) fix.vel = Math.round(c.speed * 3.6);
      if (battery && Number.isFinite(battery.level)) fix.batt = Math.round(battery.level * 100);
      setState("on", "Location on" + (fix.acc !== undefined ? ", accurate to " + Math.round(fix.acc) + " m." : "."));
      const moved = !last || metres(last, fix) > Math.max(5, fix.acc || 0);
      if (!moved && Date.now() - lastSentAt < MIN_GAP) return;
      last = fix;
      lastSentAt = Date.now();
      send(fix);
    },
    (error) => {
      if (error.code === 1) {
        stopGeo();
        setState("denied", "Location is blocked for this site. Watches run on check-ins and the ETA alone.");
      } else if (error.code === 2) {
        setState("unavailable", "No location right now. SafeWalk relies on check-ins and the ETA until it is back.");
      }
      // 3 (timeout): the watch keeps trying by itself.
    },
    { enableHighAccuracy: true, maximumAge: 5000, timeout: 30000 },
  );
}

export function stopGeo() {
  if (watchId !== null) navigator.geolocation.clearWatch(watchId);
  watchId = null;
  setState("off", "Location off.");
}

/** Keep the screen on while a walk runs (where the browser can). */
export async function keepAwake(on) {
  wantLock = on;
  if (!("wakeLock" in navigator)) return;
  if (on && !lock && document.visibilityState === "visible") {
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => (lock = null));
    } catch {
      lock = null; // refused (battery saver): the note about locked phones still stands
    }
  } else if (!on && lock) {
    await lock.release().catch(() => {});
    lock = null;
  }
}

/** Presence for the watchdog: `online` when visible, `background` when hidden. */
export function setupPresence(send) {
  const tell = () => send(document.visibilityState === "visible" ? "online" : "background");
  document.addEventListener("visibilitychange", () => {
    tell();
    if (document.visibilityState === "visible" && wantLock) keepAwake(true);
  });
  return tell;
}
