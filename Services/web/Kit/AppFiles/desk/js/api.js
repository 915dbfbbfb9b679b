// Everything the desk says to web: JSON over fetch (the session cookie rides along, the CSRF token
// goes in a header on every POST and DELETE) and the two event streams (the board, one incident's
// positions).

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
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
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
  // The token changed (signed in in another tab): fetch it again, once.
  if (response.status === 403 && again && method !== "GET" && data && data.error && data.error.reason === "csrf") {
    try {
      const me = await request("GET", "/v1/desk/me");
      setCsrf(me.csrfToken);
      return request(method, path, body, false);
    } catch {
      /* answered below with the 403 */
    }
  }
  if (!response.ok) throw new HttpError(response.status, data);
  return data;
}

const incidentPath = (id) => "/v1/desk/incidents/" + encodeURIComponent(id);

export const me = () => request("GET", "/v1/desk/me");
export const signIn = (username, password) => request("POST", "/v1/desk/sessions", { username, password });
export const signOut = () => request("DELETE", "/v1/sessions");
export const incident = (id) => request("GET", incidentPath(id));
export const acknowledge = (id) => request("POST", incidentPath(id) + "/ack", {});
export const addNote = (id, text) => request("POST", incidentPath(id) + "/notes", { text });
export const handOver = (id, to) => request("POST", incidentPath(id) + "/handover", { to });
export const close = (id, reason, note) =>
  request("POST", incidentPath(id) + "/close", note ? { reason, note } : { reason });
export const operators = () => request("GET", "/v1/desk/operators");
export const addOperator = (fields) => request("POST", "/v1/desk/operators", fields);

function parse(data) {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/**
 * The board: `onBoard(board)` for each `board` event, `onState("connected" | "reconnecting" |
 * "unauthenticated")`. The browser retries a dropped stream by itself; a refused one (401, 403,
 * 5xx) is looked into, then tried again with a growing pause.
 */
export function openBoard(onBoard, onState) {
  let source = null;
  let timer = null;
  let delay = 1000;
  let stopped = false;

  function connect() {
    clearTimeout(timer);
    if (source) source.close();
    source = new EventSource("/v1/desk/events");
    source.addEventListener("open", () => {
      delay = 1000;
      onState("connected");
    });
    source.addEventListener("board", (event) => {
      const board = parse(event.data);
      if (board && typeof board === "object") {
        onState("connected");
        onBoard(board);
      }
    });
    source.addEventListener("error", () => {
      if (stopped) return;
      onState("reconnecting");
      if (source.readyState === EventSource.CLOSED) {
        me().then(
          () => schedule(),
          (error) =>
            error instanceof HttpError && (error.status === 401 || error.status === 403)
              ? onState("unauthenticated")
              : schedule(),
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
    close() {
      stopped = true;
      clearTimeout(timer);
      if (source) source.close();
    },
  };
}

/**
 * One incident's positions while it is open: `onPosition({lat, lon, acc, tst})`, then `onClosed()`
 * once (the incident closed, or web refused the stream: it is not open).
 */
export function openPositions(id, onPosition, onClosed) {
  let ended = false;
  const source = new EventSource(incidentPath(id) + "/positions");
  const end = () => {
    if (ended) return;
    ended = true;
    source.close();
    onClosed();
  };
  source.addEventListener("position", (event) => {
    const fix = parse(event.data);
    if (fix && Number.isFinite(fix.lat) && Number.isFinite(fix.lon)) onPosition(fix);
  });
  source.addEventListener("closed", end);
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) end();
  });
  return {
    close() {
      ended = true;
      source.close();
    },
  };
}
