// "I need help": the call and text links, shown at once, offline too. They come from the last
// `{w}/alert` the notifier sent (its emergency number and group text, exactly as it wrote them)
// and from the cached contacts (a call link for each dialable one, and a group `sms:` to all of
// them with a message, built the way the notifier builds its own), so nothing waits on the network.

import { $, el, setText, show, store, mapsURL } from "./ui.js";

/** Links for the help panel: [{title, url, kind: "call" | "text"}]. */
export function helpLinks({ alert, contacts, user, note, position }) {
  const links = [];
  const seen = new Set();
  const add = (title, url) => {
    if (seen.has(url)) return;
    seen.add(url);
    links.push({ title, url, kind: url.startsWith("sms:") ? "text" : "call" });
  };
  const actions = (alert && Array.isArray(alert.actions)) ? alert.actions : [];
  for (const action of actions) {
    if (typeof action.url === "string" && action.url.startsWith("tel:")) add(action.title, action.url);
  }
  const dialable = (contacts || []).filter((c) => c.dialable && typeof c.phone === "string");
  if (dialable.length) {
    let body = "SafeWalk: " + (user || "I") + " needs help now.";
    if (note) body += " " + note;
    body += position ? " Last known position: " + mapsURL(position.lat, position.lon) : " Please call me.";
    const count = dialable.length === 1 ? "1 contact" : dialable.length + " contacts";
    add("Text " + count, "sms:" + dialable.map((c) => c.phone).join(",") + "?&body=" + encodeURIComponent(body));
  } else {
    for (const action of actions) {
      if (typeof action.url === "string" && action.url.startsWith("sms:")) add(action.title, action.url);
    }
  }
  for (const contact of dialable) add("Call " + contact.name, "tel:" + contact.phone);
  return links;
}

/** Fills `#help-links` and shows the panel. */
export function showHelp(options, queuedText) {
  const links = helpLinks(options);
  const box = $("help-links");
  box.textContent = "";
  for (const link of links) {
    box.append(el("a", { href: link.url, "data-testid": "help-" + link.kind }, link.title));
  }
  if (!links.length) box.append(el("p", {}, "Add contacts so SafeWalk can text them; call your local emergency number now if you are in danger."));
  setText("help-queued", queuedText);
  show("help-panel", true);
  $("help-panel").scrollIntoView({ block: "nearest" });
}

/** The latest `{w}/alert`, kept for the next time there is no network. */
export function renderAlert(alert) {
  if (!alert || !alert.title) {
    show("alert-panel", false);
    return;
  }
  store.set("alert", alert);
  setText("alert-title", alert.title);
  setText("alert-body", alert.body || "");
  const box = $("alert-actions");
  box.textContent = "";
  for (const action of alert.actions || []) {
    if (typeof action.url !== "string" || !/^(tel|sms):/.test(action.url)) continue; // only call and text links
    box.append(el("a", { href: action.url, "data-testid": "alert-action" }, action.title || action.url));
  }
  show("alert-panel", true);
}
