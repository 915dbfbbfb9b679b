// Small DOM helpers shared by every screen: no framework, just elements and text (never HTML from
// the network: everything the services send is set as text, so a name cannot inject markup).

export const $ = (id) => document.getElementById(id);

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "onclick") node.addEventListener("click", value);
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export function setText(id, text) {
  const node = $(id);
  if (node && node.textContent !== text) node.textContent = text;
}

export function show(id, visible) {
  const node = typeof id === "string" ? $(id) : id;
  if (node) node.hidden = !visible;
}

/** localStorage as JSON; a full or disabled storage never breaks the app. */
export const store = {
  get(key, fallback = null) {
    try {
      const raw = localStorage.getItem("safewalk." + key);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem("safewalk." + key);
      else localStorage.setItem("safewalk." + key, JSON.stringify(value));
    } catch {
      /* private mode or full: the app still works for this visit */
    }
  },
};

export const now = () => Date.now() / 1000;

export function clock(at) {
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export function ago(seconds) {
  seconds = Math.max(0, Math.round(seconds));
  if (seconds < 60) return seconds + " s ago";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes + " min ago";
  return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min ago";
}

export function mapsURL(lat, lon) {
  return "https://maps.google.com/?q=" + lat.toFixed(6) + "," + lon.toFixed(6);
}

/** `modal: false` leaves the page usable behind it (the hold button stays touchable). */
export function openDialog(dialog, modal = true) {
  if (dialog.open) return;
  if (modal && typeof dialog.showModal === "function") dialog.showModal();
  else if (typeof dialog.show === "function") dialog.show();
  else dialog.setAttribute("open", "");
}

export function closeDialog(dialog) {
  if (!dialog.open) return;
  if (typeof dialog.close === "function") dialog.close();
  else dialog.removeAttribute("open");
}

export const reducedMotion = () =>
  window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
