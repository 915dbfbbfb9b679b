// The map: each open incident with a known position as a marker (a label with the walker's name,
// the level in words and the fix's age) inside a circle as wide as the fix's accuracy. Leaflet is
// Debian's libjs-leaflet at /static/leaflet/ (when web serves it); tiles come from the configured
// template. Each marker's element carries data-incident, data-lat and data-lon, so a test can read
// where it is without Leaflet.

import { el, setText, show } from "./dom.js";
import { age } from "./format.js";

let leaflet = null;
let map = null;
let onOpen = () => {};
let fitted = false;
/** incident id → { marker, circle, label, fix, info } */
const shown = new Map();

function loadLeaflet(tiles) {
  if (leaflet) return leaflet;
  leaflet = new Promise((resolve) => {
    if (!tiles) return resolve(false);
    const css = el("link", { rel: "stylesheet", href: "/static/leaflet/leaflet.css" });
    document.head.append(css);
    const script = el("script", { src: "/static/leaflet/leaflet.min.js" });
    script.addEventListener("load", () => resolve(!!window.L));
    script.addEventListener("error", () => resolve(false));
    document.head.append(script);
  });
  return leaflet;
}

/** Draws the map once the board is visible (Leaflet needs a box with a size). */
export async function setupMap({ tiles, open }) {
  onOpen = open;
  if (map) {
    map.invalidateSize();
    return;
  }
  const loaded = await loadLeaflet(tiles);
  if (!loaded) {
    setText("desk-map-note", "No map on this server: positions are listed with each incident.");
    return;
  }
  if (map) return;
  show("desk-map", true);
  map = window.L.map("desk-map", { zoomControl: true }).setView([30.2849, -97.7341], 15);
  window.L.tileLayer(tiles, { maxZoom: 19, attribution: "© OpenStreetMap contributors" }).addTo(map);
  setText("desk-map-note", "Markers: open incidents with a known position; the circle is the fix’s accuracy.");
  for (const [id, entry] of shown) draw(id, entry);
}

const labelText = (entry) =>
  entry.info.walker + " · " + (entry.info.level === "red" ? "RED" : "amber") + (entry.info.duress ? " · DURESS" : "") +
  " · " + age(entry.fix.tst);

function markerClass(info) {
  return "desk-marker " + (info.level === "red" ? "red" : "amber") + (info.duress ? " duress" : "");
}

/** A divIcon whose element holds the label (an element, never HTML text). */
function icon(cls, label) {
  return window.L.divIcon({ className: cls, html: label, iconSize: null, iconAnchor: [22, 22] });
}

function mark(entry, id) {
  const node = entry.marker && entry.marker.getElement();
  if (!node) return;
  node.dataset.incident = id;
  node.dataset.lat = String(entry.fix.lat);
  node.dataset.lon = String(entry.fix.lon);
  node.dataset.level = entry.info.level || "";
  node.dataset.duress = entry.info.duress ? "true" : "false";
  node.setAttribute("aria-label", labelText(entry) + " old. Open the incident.");
}

/** Puts an entry on the map (once Leaflet is there) or moves it. */
function draw(id, entry) {
  if (!map) return;
  const at = [entry.fix.lat, entry.fix.lon];
  const radius = Number.isFinite(entry.fix.acc) && entry.fix.acc > 0 ? entry.fix.acc : 0;
  const cls = markerClass(entry.info);
  if (!entry.marker) {
    entry.label = el("span", { class: "desk-marker-label" }, labelText(entry));
    entry.marker = window.L.marker(at, { icon: icon(cls, entry.label), keyboard: true, title: entry.info.walker, riseOnHover: true })
      .addTo(map);
    entry.marker.on("click", () => onOpen(id));
    entry.circle = window.L.circle(at, { radius, className: "desk-accuracy", interactive: false }).addTo(map);
  } else {
    entry.marker.setLatLng(at);
    entry.circle.setLatLng(at);
    entry.circle.setRadius(radius);
    setText(entry.label, labelText(entry));
    if (entry.cls !== cls) entry.marker.setIcon(icon(cls, entry.label));
  }
  entry.cls = cls;
  const ring = entry.circle.getElement && entry.circle.getElement();
  if (ring) ring.classList.toggle("red", entry.info.level === "red");
  mark(entry, id);
}

function remove(id) {
  const entry = shown.get(id);
  if (entry && entry.marker) entry.marker.remove();
  if (entry && entry.circle) entry.circle.remove();
  shown.delete(id);
}

/** A fix for an incident: kept only when newer than the one shown. */
export function place(id, info, fix) {
  if (!fix || !Number.isFinite(fix.lat) || !Number.isFinite(fix.lon)) return;
  let entry = shown.get(id);
  if (entry && Number.isFinite(entry.fix.tst) && Number.isFinite(fix.tst) && fix.tst < entry.fix.tst) {
    entry.info = info || entry.info;
    return;
  }
  if (!entry) {
    entry = { marker: null, circle: null, label: null, fix, info };
    shown.set(id, entry);
  }
  entry.fix = fix;
  if (info) entry.info = info;
  draw(id, entry);
}

/** The board's incidents: markers for those with a position, none for the others or the closed. */
export function syncMap(incidents) {
  const open = new Map();
  for (const incident of incidents || []) {
    if (!incident || incident.incident === undefined) continue;
    const id = String(incident.incident);
    const info = { walker: String(incident.walker), level: incident.level, duress: !!incident.duress };
    open.set(id, info);
    if (incident.position) place(id, info, incident.position);
    else if (shown.has(id)) shown.get(id).info = info;
  }
  for (const id of Array.from(shown.keys())) if (!open.has(id)) remove(id);
  if (map && !fitted && shown.size > 0) {
    fitted = true;
    fit();
  }
}

/** Shows every marker (the first time there are some, and when an incident is picked). */
export function fit(id) {
  if (!map) return;
  const entry = id && shown.get(id);
  if (entry) {
    map.setView([entry.fix.lat, entry.fix.lon], Math.max(map.getZoom(), 16));
    return;
  }
  const points = Array.from(shown.values()).map((e) => [e.fix.lat, e.fix.lon]);
  if (points.length === 1) map.setView(points[0], 16);
  else if (points.length > 1) map.fitBounds(points, { padding: [40, 40], maxZoom: 17 });
}

/** Every second: each marker's fix age. */
export function tickMap() {
  for (const entry of shown.values()) if (entry.label) setText(entry.label, labelText(entry));
}

export function clearMap() {
  for (const id of Array.from(shown.keys())) remove(id);
  fitted = false;
}

/** The map's box changed size (the layout moved). */
export function resizeMap() {
  if (map) map.invalidateSize();
}
