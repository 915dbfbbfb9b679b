// The outbox: every action and circle command gets an id, is kept in localStorage and is POSTed
// again until its answer (`action/result`, `circle/result`) with that id arrives, so a cry for help
// survives a lost network, a reload and a closed tab. Entries go out in order: a `release` never
// overtakes its `hold`. Replies and contact commands have no answer by id: they stay until web has
// published them (202).

import { publish, HttpError } from "./api.js";
import { store } from "./ui.js";

const RESEND_AFTER = 5000; // ms without an answer before the same id is POSTed again
const waiting = new Map(); // id → callbacks of this page (an entry from an earlier visit has none)
let queue = store.get("outbox", []);
let running = false;
let pause = 1000;
let timer = null;
let onChange = () => {};

export function newId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function save() {
  store.set("outbox", queue);
  onChange(queue.length);
}

/** `kind` is the publish kind; `answer` the event kind that settles it, or null (202 is enough). */
function enqueue(kind, payload, answer, callback) {
  const entry = { kind, payload, answer, id: payload && payload.id, postedAt: 0 };
  queue.push(entry);
  if (callback && entry.id) waiting.set(entry.id, callback);
  save();
  pump();
  return entry.id;
}

// The hold switch's steps supersede each other: once web took a `hold` (202, the broker has it),
// a later `release` or `cancelHold` makes sending it again pointless, and after many heartbeats
// (each a new id) the watchdog may have forgotten its id and would arm the switch again.
const HOLD_STEPS = new Set(["hold", "release", "cancelHold"]);

/** An action on `{w}/action`; `callback(result)` gets its `action/result` (or a refusal). */
export function sendAction(fields, callback) {
  if (HOLD_STEPS.has(fields.action)) {
    queue = queue.filter((e) => !(e.postedAt && e.kind === "action" && HOLD_STEPS.has(e.payload.action)));
  }
  return enqueue("action", { v: 1, id: newId(), ...fields }, "action/result", callback);
}

export function sendCircle(fields, callback) {
  return enqueue("circle/cmd", { v: 1, id: newId(), ...fields }, "circle/result", callback);
}

/** Published once, without an id to wait for (replies, contact commands). */
export function sendOnce(kind, payload) {
  return enqueue(kind, payload, null, null);
}

/** An answer arrived: the entry is done. Returns whether it was ours. */
export function settle(id, result) {
  if (!id) return false;
  const before = queue.length;
  queue = queue.filter((entry) => entry.id !== id);
  if (queue.length !== before) save();
  const callback = waiting.get(id);
  waiting.delete(id);
  if (callback) callback(result);
  return before !== queue.length || !!callback;
}

export const size = () => queue.length;
export const hasCallback = (id) => waiting.has(id);
export const pending = () => queue.slice();

export function watch(callback) {
  onChange = callback;
  callback(queue.length);
}

/** Forget everything (sign-out). */
export function clear() {
  queue = [];
  waiting.clear();
  save();
}

/** Sends what is due, in order; stops at the first network failure and tries again later. */
export async function pump() {
  if (running) return;
  running = true;
  clearTimeout(timer);
  try {
    for (const entry of queue.slice()) {
      if (!queue.includes(entry)) continue;
      if (entry.postedAt && Date.now() - entry.postedAt < RESEND_AFTER) continue;
      try {
        await publish(entry.kind, entry.payload);
        pause = 1000;
        if (entry.answer) {
          entry.postedAt = Date.now();
          store.set("outbox", queue);
        } else {
          queue = queue.filter((e) => e !== entry);
          save();
        }
      } catch (error) {
        if (error instanceof HttpError && (error.status === 400 || error.status === 413)) {
          // web will never take it: say so instead of trying forever.
          queue = queue.filter((e) => e !== entry);
          save();
          settle(entry.id, { ok: false, error: { code: "refused", message: "This could not be sent." } });
          continue;
        }
        pause = Math.min(pause * 2, 15000);
        break; // offline, signed out or the broker is away: keep the order, try again later
      }
    }
  } finally {
    running = false;
    if (queue.length) timer = setTimeout(pump, queue.some((e) => !e.postedAt) ? pause : RESEND_AFTER);
  }
}

/** A publish that is not worth keeping when it fails (heartbeats, fixes, presence). */
export async function sendNow(kind, payload) {
  try {
    await publish(kind, payload);
    return true;
  } catch {
    return false;
  }
}
