// Everything the app says to web: JSON over fetch (the session cookie rides along; the CSRF token
// goes in a header), publishing on the walker's own topics, and the event stream.

let csrf = null;

export class HttpError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || "HTTP " + status);
    this.status = status;
    this.body = body;
  }
  get reason() {
    return this.body && this.body.error ? this.body.error.reason : undefined;
  }
}

export function setCsrf(token) {
  csrf = token || null;
}

/** A request to web; throws HttpError for an answer that is not 2xx and TypeError offline. */
export async function request(method, path, body, again = true) {
  // Started offline (the shell from the service worker), or the token changed: fetch it first.
  const open = path === "/v1/sessions" || path === "/v1/accounts" || path === "/v1/sessions/current";
  if (!csrf && !open) await refreshCsrf();
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
  });
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (response.status === 403 && again && !open && data && data.error && data.error.reason === "csrf") {
    csrf = null;
    return request(method, path, body, false);
  }
  if (!response.ok) throw new HttpError(response.status, data);
  return data;
}

async function refreshCsrf() {
  try {
    const session = await request("GET", "/v1/sessions/current");
    csrf = session.csrfToken || null;
  } catch {
    /* the request goes without it and fails as it must (401 signed out, or offline) */
  }
}

export const currentSession = () => request("GET", "/v1/sessions/current");
export const signIn = (username, password) => request("POST", "/v1/sessions", { username, password });
export const signUp = (username, email, password) => request("POST", "/v1/accounts", { username, email, password });
export const signOut = () => request("DELETE", "/v1/sessions");
export const deskViews = () => request("GET", "/v1/app/desk-views");
export const ownTracks = (user) => request("GET", "/v1/accounts/" + encodeURIComponent(user) + "/owntracks");

/** Publishes on safewalk/{me}/{kind}; resolves once the broker has it (202). */
export const publish = (kind, payload) => request("POST", "/v1/app/publish", { kind, payload });

/** Kinds web forwards from the walker's own topics (docs/services/web.md). */
const KINDS = [
  "status", "position", "chat", "alert", "contacts", "contacts/result", "delivery", "action/result",
  "rejected", "circle", "circle/result", "inbox", "presence", "desk",
];

/**
 * The event stream: `onEvent(kind, payload)` with the payload parsed (null for an empty retained
 * clear), `onState("connected" | "reconnecting" | "unauthenticated")`. `others` lists the users
 * whose `shared/{other}` events to listen for (EventSource needs each event name up front);
 * `restart(others)` reconnects with a longer list, so retained views are sent again.
 */
export function openStream(onEvent, onState, others = []) {
  let source = null;
  let timer = null;
  let delay = 1000;
  let stopped = false;
  let names = others.slice();

  function parse(data) {
    if (!data) return null;
    try {
      return JSON.parse(data);
    } catch {
      return data;
    }
  }

  function connect() {
    clearTimeout(timer);
    if (source) source.close();
    source = new EventSource("/v1/app/events");
    source.addEventListener("bridge", (event) => {
      const state = parse(event.data);
      if (state && state.state === "connected") {
        delay = 1000;
        onState("connected");
      } else {
        onState("reconnecting");
      }
    });
    const kinds = KINDS.concat(names.map((user) => "shared/" + user));
    for (const kind of kinds) source.addEventListener(kind, (event) => onEvent(kind, parse(event.data)));
    source.addEventListener("error", () => {
      onState("reconnecting");
      // CONNECTING: the browser retries by itself. CLOSED: an HTTP error (401, 503): find out
      // which, then try again with a growing pause.
      if (source.readyState === EventSource.CLOSED && !stopped) {
        currentSession().then(
          () => schedule(),
          (error) => (error instanceof HttpError && error.status === 401 ? onState("unauthenticated") : schedule()),
        );
      }
    });
  }

  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30000);
  }

  connect();
  return {
    restart(more) {
      names = more.slice();
      connect();
    },
    listensTo: (user) => names.includes(user),
    close() {
      stopped = true;
      clearTimeout(timer);
      if (source) source.close();
    },
  };
}
