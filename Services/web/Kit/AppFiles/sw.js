// The service worker: keeps the app (the shell and its modules) for when there is no network, so
// "I need help" still opens and shows its call and text links; shows push messages (check-in
// prompts, another user's alert, "{name} is on it") on a locked phone or with the tab closed.
// web fills in VERSION and SHELL when it loads this file: a new app is a new worker and a new cache.

const VERSION = "{{VERSION}}";
const SHELL = {{SHELL}};
const CACHE = "safewalk-" + VERSION;
const MAPS = "safewalk-leaflet";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("safewalk-") && k !== CACHE && k !== MAPS).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function fromCache(request, name) {
  const cache = await caches.open(name);
  const hit = await cache.match(request, { ignoreSearch: false });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

async function shellFirstFromNetwork(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) cache.put("/", response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match("/");
    if (hit) return hit;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return; // map tiles go straight to the network
  if (request.mode === "navigate" && url.pathname === "/") {
    event.respondWith(shellFirstFromNetwork(request));
  } else if (url.pathname.includes("/desk/")) {
    return; // the monitoring desk (/ops) is not part of the walker's offline app
  } else if (url.pathname.startsWith("/app/") || url.pathname === "/app.webmanifest") {
    event.respondWith(fromCache(request, CACHE));
  } else if (url.pathname.startsWith("/static/leaflet/")) {
    event.respondWith(fromCache(request, MAPS));
  }
  // Everything else (the API, the event stream, contacts' pages) is never cached.
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const tag = typeof data.tag === "string" ? data.tag : undefined;
  event.waitUntil(
    self.registration.showNotification(data.title || "SafeWalk", {
      body: data.body || "",
      tag,
      renotify: !!tag,
      icon: "/app/" + VERSION + "/icon.svg",
      data: { url: typeof data.url === "string" ? data.url : "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let target = new URL("/", self.location.origin);
  try {
    const asked = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
    if (asked.origin === self.location.origin) target = asked; // never open another site from a push
  } catch {
    /* keep "/" */
  }
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (new URL(client.url).origin === self.location.origin && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(target.href);
    }),
  );
});
