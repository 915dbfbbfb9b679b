// How the desk writes times, durations and the services' words.

let skew = 0; // server clock minus this browser's, from the latest board event

/** Seconds since 1970 on the server's clock, as well as this browser can tell. */
export const now = () => Date.now() / 1000 + skew;

/** The server said it is `at` now: later ages are counted on its clock. */
export function serverTime(at) {
  if (typeof at === "number" && Number.isFinite(at)) skew = at - Date.now() / 1000;
}

/** "45s", "1m 30s", "2h 05m"; "–" when unknown. */
export function duration(seconds) {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return "–";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return s + "s";
  if (s < 3600) return Math.floor(s / 60) + "m " + (s % 60) + "s";
  const minutes = Math.floor(s / 60) % 60;
  return Math.floor(s / 3600) + "h " + String(minutes).padStart(2, "0") + "m";
}

/** How long ago `at` was, on the server's clock. */
export const age = (at) => (typeof at === "number" ? duration(now() - at) : "–");

/** "14:02:05" (the operator's local time). */
export function clock(at) {
  if (typeof at !== "number") return "";
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

const REASONS = {
  noReply: "no reply to a check-in", noMovement: "no movement", walkOverdue: "walk overdue",
  needHelp: "asked for help", panic: "panic button", trackerOffline: "tracker offline", wrongPin: "wrong PINs",
};
export const reasonWords = (reason) => REASONS[reason] || String(reason || "unknown");

export const CLOSE_REASONS = { resolved: "resolved", falseAlarm: "false alarm", handedToPolice: "handed to police" };

/** "ann (sms, delivered)" for each person told. */
export function toldWords(told) {
  if (!Array.isArray(told) || told.length === 0) return "nobody yet";
  return told
    .map((t) => {
      const details = [t.channel, t.receipt].filter((x) => typeof x === "string" && x).join(", ");
      return (t.name || "someone") + (details ? " (" + details + ")" : "");
    })
    .join("; ");
}

/** "olga at 14:02:05 (desk)", or "" when nobody acknowledged. */
export function ackWords(ack) {
  if (!ack || !ack.by) return "";
  return ack.by + (ack.at ? " at " + clock(ack.at) : "") + (ack.via ? " (" + ack.via + ")" : "");
}

/** An error answer's message, for the operator to read. */
export function errorText(error) {
  if (!error || error.status === undefined) return "No connection to the server. Try again.";
  const e = error.body && error.body.error;
  if (e && e.message) return e.message;
  return "That did not work (" + error.status + (e && e.reason ? ", " + e.reason : "") + ").";
}
