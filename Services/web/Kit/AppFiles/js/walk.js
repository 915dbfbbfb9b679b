// Walks and watches: a destination by tapping the map (Leaflet from Debian's libjs-leaflet, at
// /static/leaflet/, when web serves it) or by typing coordinates, the minutes, start and stop;
// a watch without a destination, with or without location (`"location": false`).

import { $, setText, show, mapsURL } from "./ui.js";

let leaflet = null; // a promise: whether Leaflet loaded
let map = null;
let marker = null;

/** Loads Leaflet's script and style once; resolves false when it is not there (or tiles are off). */
export function loadLeaflet(tiles) {
  if (leaflet) return leaflet;
  leaflet = new Promise((resolve) => {
    if (!tiles) return resolve(false);
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = "/static/leaflet/leaflet.css";
    document.head.append(css);
    const script = document.createElement("script");
    script.src = "/static/leaflet/leaflet.min.js";
    script.onload = () => resolve(!!window.L);
    script.onerror = () => resolve(false);
    document.head.append(script);
  });
  return leaflet;
}

function readTo() {
  const lat = parseFloat($("walk-lat").value.replace(",", "."));
  const lon = parseFloat($("walk-lon").value.replace(",", "."));
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return null;
  return { lat, lon };
}

function setTo(lat, lon) {
  $("walk-lat").value = lat.toFixed(6);
  $("walk-lon").value = lon.toFixed(6);
  updateTo();
}

function updateTo() {
  const to = readTo();
  const link = $("maps-link");
  show(link, !!to);
  if (to) link.href = mapsURL(to.lat, to.lon);
  if (to && map) {
    if (!marker) marker = window.L.marker([to.lat, to.lon], { keyboard: false }).addTo(map);
    else marker.setLatLng([to.lat, to.lon]);
  }
}

/** Draws the map the first time the walk screen shows (Leaflet needs a visible box). */
export async function showWalkScreen({ tiles, here }) {
  if (map) {
    map.invalidateSize();
    return;
  }
  const loaded = await loadLeaflet(tiles);
  if (!loaded) {
    setText("map-note", "No map here: type the coordinates of where you are going (or use where you are now).");
    return;
  }
  show("map", true);
  const start = readTo() || here() || { lat: 30.2849, lon: -97.7341 };
  map = window.L.map("map").setView([start.lat, start.lon], 15);
  window.L.tileLayer(tiles, { maxZoom: 19, attribution: "© OpenStreetMap contributors" }).addTo(map);
  map.on("click", (event) => setTo(event.latlng.lat, event.latlng.lng));
  setText("map-note", "Tap the map where you are going. Map pictures come from the tile server, which learns roughly where you look.");
  updateTo();
}

/** `action(fields, onResult)` sends an action; `useLocation()` whether fixes are coming. */
export function setupWalk({ action, useLocation, here, onLocationToggle }) {
  const result = (text) => (answer) =>
    setText("walk-result", answer && answer.ok === false ? (answer.error && answer.error.message) || "Not done." : text);
  $("walk-lat").addEventListener("input", updateTo);
  $("walk-lon").addEventListener("input", updateTo);
  $("walk-here").addEventListener("click", () => {
    const fix = here();
    if (fix) setTo(fix.lat, fix.lon);
    else setText("walk-result", "Your position is not known yet.");
  });
  $("walk-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const destination = $("walk-destination").value.trim() || "my destination";
    const minutes = Math.round(Number($("walk-minutes").value));
    if (!(minutes >= 1 && minutes <= 1440)) {
      setText("walk-result", "Minutes: from 1 to 1440.");
      return;
    }
    const fields = { action: "startWalk", destination, minutes };
    const to = readTo();
    if (to) {
      fields.to = to;
      if ($("walk-extend").checked) fields.extendWhileProgressing = true;
    }
    if (!useLocation()) fields.location = false;
    action(fields, result("Walk started: " + destination + " in " + minutes + " min."));
    setText("walk-result", "Starting the walk…");
  });
  $("btn-arrived").addEventListener("click", () => action({ action: "arrived" }, result("Arrived. Well done.")));
  $("btn-start-watch").addEventListener("click", () => {
    const fields = { action: "start" };
    if (!useLocation()) fields.location = false;
    action(fields, result(useLocation() ? "Watching." : "Watching on check-ins alone."));
  });
  $("btn-stop-watch").addEventListener("click", () => action({ action: "stop" }, result("Stopped watching.")));
  $("use-location").addEventListener("change", (event) => onLocationToggle(event.target.checked));
}
