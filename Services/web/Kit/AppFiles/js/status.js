// The status hero: safe / checking / alert from `{w}/status`, the countdown to the next check-in
// and the walk's ETA, and whether location is on, paused or off. Text only: the countdown ticks
// as words, so nothing moves for a reader who asked for reduced motion.

import { $, setText, show, now, clock } from "./ui.js";

const REASONS = {
  noReply: "no answer to a check-in",
  noMovement: "no movement",
  walkOverdue: "the walk is overdue",
  needHelp: "you asked for help",
  panic: "panic",
  trackerOffline: "the phone went offline",
  wrongPin: "wrong PINs",
};

let current = null;
let skew = 0; // server time minus ours, from `since` when it is in the future

export function statusNow() {
  return current;
}

export function renderStatus(status) {
  current = status;
  const hero = $("status-hero");
  if (!status) {
    hero.dataset.state = "unknown";
    hero.dataset.level = "";
    hero.dataset.watching = "false";
    setText("status-title", "Not watching");
    setText("status-detail", "Start a walk or a watch, or press I need help at any time.");
    tick();
    return;
  }
  if (status.since && status.since > now() + 5) skew = status.since - now();
  hero.dataset.state = status.state || "unknown";
  hero.dataset.level = status.state === "alert" ? status.level || "red" : "";
  hero.dataset.watching = String(!!status.watching);
  let title;
  let detail;
  if (status.state === "alert") {
    const red = status.level !== "amber";
    title = red ? "Alert: your contacts are asked to help" : "Alert: your contacts are asked to keep an eye on you";
    detail = (REASONS[status.reason] ? "Because of " + REASONS[status.reason] + ". " : "") +
      "Press I’m safe when you are.";
  } else if (status.state === "checking") {
    title = "Are you okay?";
    detail = "Answer with I’m safe or a quick reply in the chat.";
  } else if (status.watching) {
    title = "You’re safe";
    detail = status.walk ? "Walking to " + status.walk.destination + "." : "SafeWalk is watching over you.";
  } else {
    title = "Not watching";
    detail = "Start a walk or a watch, or press I need help at any time.";
  }
  setText("status-title", title);
  setText("status-detail", detail);
  const location = $("location-state");
  location.dataset.location = status.location || "";
  setText(
    "location-state",
    status.location === "paused"
      ? "Location paused: SafeWalk relies on check-ins and the ETA until it is back."
      : status.location === "off"
        ? "Watching without location: check-ins and the ETA only."
        : status.location === "on" && status.watching
          ? "Location on."
          : "",
  );
  tick();
}

function remaining(seconds) {
  seconds = Math.max(0, Math.round(seconds));
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m + ":" + String(s).padStart(2, "0");
}

/** Called every second: the countdown and the ETA as words. */
export function tick() {
  const status = current;
  const t = now() + skew;
  const next = status && status.watching && status.state !== "alert" ? status.nextCheckInAt : null;
  show("checkin-countdown", !!next);
  if (next) setText("checkin-countdown", "Next check-in in " + remaining(next - t));
  const walk = status && status.walk;
  show("walk-eta", !!walk);
  if (walk) {
    const left = walk.eta - t;
    setText(
      "walk-eta",
      left >= 0
        ? "Expected at " + walk.destination + " by " + clock(walk.eta) + " (" + remaining(left) + " left)"
        : "Overdue at " + walk.destination + " since " + clock(walk.eta),
    );
  }
}
