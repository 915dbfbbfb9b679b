// Web Push: alerts reach a locked phone or a closed tab. The browser subscribes with web's VAPID
// public key (GET /v1/app/push) and web keeps the subscription (PUT); the service worker shows
// what arrives. Signing out removes it (DELETE), so a shared phone stops getting someone's alerts.

import { $, setText } from "./ui.js";
import { request } from "./api.js";

function setState(state, text) {
  $("push-state").dataset.push = state;
  setText("push-state", text);
}

function key(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function registration() {
  return navigator.serviceWorker.ready;
}

/** Shows whether this browser is subscribed; re-sends an existing subscription (web may have lost it). */
export async function refreshPush() {
  if (!supported()) {
    setState("unsupported", "This browser cannot show alerts when the app is closed.");
    $("push-enable").disabled = true;
    return;
  }
  if (Notification.permission === "denied") {
    setState("denied", "Notifications are blocked for this site in the browser’s settings.");
    return;
  }
  const reg = await registration();
  const subscription = await reg.pushManager.getSubscription();
  if (subscription) {
    const json = subscription.toJSON();
    await request("PUT", "/v1/app/push", { endpoint: json.endpoint, keys: json.keys }).catch(() => {});
    setState("on", "Notifications are on for this browser.");
    $("push-enable").hidden = true;
  } else {
    setState("off", "Notifications are off: alerts show only while the app is open.");
    $("push-enable").hidden = false;
  }
}

export async function enablePush() {
  if (!supported()) return refreshPush();
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") return refreshPush();
    const { publicKey } = await request("GET", "/v1/app/push");
    const reg = await registration();
    const subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(publicKey) });
    const json = subscription.toJSON();
    await request("PUT", "/v1/app/push", { endpoint: json.endpoint, keys: json.keys });
    await refreshPush();
  } catch (error) {
    setState("off", "Notifications could not be turned on (" + (error.message || error) + ").");
  }
}

export async function disablePush() {
  if (!supported()) return;
  try {
    const reg = await registration();
    const subscription = await reg.pushManager.getSubscription();
    if (!subscription) return;
    await request("DELETE", "/v1/app/push", { endpoint: subscription.endpoint }).catch(() => {});
    await subscription.unsubscribe();
  } catch {
    /* signing out goes on */
  }
}
