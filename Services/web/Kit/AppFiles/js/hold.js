// Hold-to-release: the finger down arms `hold` (at the level chosen before) and sends `holding`
// every 2 s (the watchdog's limit is 3 s; two missed beats raise the panic). Lifting the finger
// on the button sends `release` (the panic); sliding off sends `cancelHold`. `pointercancel` means
// the browser took the gesture (a scroll, a system swipe), not that the walker let go: the hold
// stays armed, heartbeats go on, and the page asks; with no answer it releases by itself.
// Keyboard: Space or Enter held down works the same, and leaving the button cancels.

import { $, setText, openDialog, closeDialog } from "./ui.js";

const BEAT = 2000;
const ASK_FOR = 15; // seconds the question waits before the alert goes

export function setupHold({ arm, beat, release, cancel, level, note }) {
  const button = $("btn-hold");
  const ask = $("hold-ask");
  let state = "idle";
  let beats = null;
  let countdown = null;
  let pointer = null;

  function set(next, text) {
    state = next;
    button.dataset.hold = next;
    setText("hold-state", text);
    button.textContent = next === "holding" ? "Holding: let go to send" : "Hold here";
  }

  function stopTimers() {
    clearInterval(beats);
    clearInterval(countdown);
    beats = countdown = null;
  }

  function start() {
    if (state === "asking") {
      // Back on the button: holding again, the question is moot.
      clearInterval(countdown);
      countdown = null;
      closeDialog(ask);
      set("holding", "Holding. Let go to send the alert, slide off to cancel.");
      return;
    }
    if (state === "holding") return;
    const chosen = level();
    arm({ level: chosen, note: note() || undefined });
    set("holding", "Holding (" + chosen + "). Let go to send the alert, slide off to cancel.");
    beats = setInterval(beat, BEAT);
  }

  function letGo() {
    if (state !== "holding" && state !== "asking") return;
    stopTimers();
    closeDialog(ask);
    release({ note: note() || undefined });
    set("released", "Alert sent.");
  }

  function slideOff() {
    if (state !== "holding") return;
    stopTimers();
    cancel();
    set("cancelled", "Cancelled: nothing was sent.");
  }

  function browserTookIt() {
    if (state !== "holding") return;
    state = "asking";
    button.dataset.hold = "asking";
    setText("hold-state", "Still armed. Are you okay?");
    let left = ASK_FOR;
    setText("hold-ask-countdown", String(left));
    openDialog(ask, false);
    countdown = setInterval(() => {
      left -= 1;
      setText("hold-ask-countdown", String(Math.max(0, left)));
      if (left <= 0) letGo();
    }, 1000);
  }

  button.addEventListener("pointerdown", (event) => {
    if (event.button !== undefined && event.button > 0) return;
    event.preventDefault();
    pointer = event.pointerId;
    // Touch captures the pointer to the button implicitly, and a captured pointer never leaves
    // it: let it go, so sliding off is seen as leaving.
    if (button.hasPointerCapture && button.hasPointerCapture(event.pointerId)) {
      button.releasePointerCapture(event.pointerId);
    }
    start();
  });
  button.addEventListener("pointerup", (event) => {
    if (pointer !== null && event.pointerId !== pointer) return;
    pointer = null;
    if (state === "holding") letGo();
  });
  button.addEventListener("pointerleave", (event) => {
    if (pointer !== null && event.pointerId !== pointer) return;
    pointer = null;
    slideOff();
  });
  button.addEventListener("pointercancel", (event) => {
    if (pointer !== null && event.pointerId !== pointer) return;
    pointer = null;
    browserTookIt();
  });
  button.addEventListener("contextmenu", (event) => event.preventDefault());
  button.addEventListener("keydown", (event) => {
    if ((event.key === " " || event.key === "Enter") && !event.repeat) {
      event.preventDefault();
      start();
    }
  });
  button.addEventListener("keyup", (event) => {
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      if (state === "holding") letGo();
    }
  });
  button.addEventListener("blur", () => {
    if (pointer === null) slideOff();
  });
  $("hold-ask-send").addEventListener("click", letGo);
  $("hold-ask-safe").addEventListener("click", () => {
    if (state !== "asking") return;
    stopTimers();
    closeDialog(ask);
    cancel();
    set("cancelled", "Cancelled: nothing was sent.");
  });
  ask.addEventListener("cancel", (event) => event.preventDefault()); // Escape is not an answer

  return { state: () => state };
}
