// Settings: PINs (actions `setPins` / `clearPins`), preset panic notes (kept on this phone), the
// audible alarm (off unless chosen; never for an amber or silent panic), a fake incoming call, the
// first-use tour, the OwnTracks set-up link, and signing out.

import { $, el, setText, show, store, openDialog, closeDialog } from "./ui.js";

const DEFAULT_PRESETS = ["Followed by a car", "On a date that feels wrong", "Someone is following me"];
const PIN = /^[0-9]{4,12}$/;

const TOUR = [
  "SafeWalk watches over you on the way: it asks now and then if you are okay, and tells your contacts if you do not answer.",
  "Amber means “keep an eye on me”: your contacts are told you may need help and can look at where you are. Nobody calls the police.",
  "Red means “I need help now”: your contacts are asked to act at once, and you get a button to call the emergency number.",
  "Hold the panic button when you feel unsafe. Letting go sends the alert; sliding your finger off cancels it. Choose amber or red first.",
  "A locked phone stops the browser’s location. For the background, set up the OwnTracks app in Settings.",
];

export const presets = () => store.get("presets", DEFAULT_PRESETS);

function drawPresets() {
  const list = $("preset-list");
  const select = $("panic-note");
  const chosen = select.value;
  list.textContent = "";
  select.textContent = "";
  select.append(el("option", { value: "" }, "No note"));
  presets().forEach((text, index) => {
    const item = el("li", { "data-testid": "preset-note" }, el("span", { class: "who" }, text),
      el("button", { type: "button", "data-testid": "preset-remove", "aria-label": "Remove note: " + text }, "Remove"));
    item.querySelector("button").addEventListener("click", () => {
      store.set("presets", presets().filter((_, i) => i !== index));
      drawPresets();
    });
    list.append(item);
    select.append(el("option", { value: text }, text));
  });
  select.value = presets().includes(chosen) ? chosen : "";
}

// ---- the alarm: a two-tone siren from Web Audio, only when the walker chose it.
let siren = null;
export const alarmWanted = () => store.get("alarm", false) === true;

export function soundAlarm() {
  if (!alarmWanted() || siren) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const context = new Context();
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = "square";
  gain.gain.value = 0.6;
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  let high = false;
  const swap = setInterval(() => {
    high = !high;
    oscillator.frequency.setValueAtTime(high ? 1400 : 900, context.currentTime);
  }, 450);
  siren = { context, swap, stop: setTimeout(stopAlarm, 60000) };
  show("alarm-stop", true);
}

export function stopAlarm() {
  if (!siren) return;
  clearInterval(siren.swap);
  clearTimeout(siren.stop);
  siren.context.close();
  siren = null;
  show("alarm-stop", false);
}

// ---- the fake call
let callTimer = null;
let ring = null;

function ringOn() {
  if (navigator.vibrate) navigator.vibrate([800, 400, 800, 400, 800, 400, 800]);
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const context = new Context();
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.frequency.value = 440;
  gain.gain.value = 0;
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  let on = false;
  const beat = setInterval(() => {
    on = !on;
    gain.gain.setValueAtTime(on ? 0.25 : 0, context.currentTime);
  }, 1000);
  ring = { context, beat };
}

function ringOff() {
  if (navigator.vibrate) navigator.vibrate(0);
  if (!ring) return;
  clearInterval(ring.beat);
  ring.context.close();
  ring = null;
}

function endCall() {
  ringOff();
  closeDialog($("fake-call"));
  setText("fake-call-state", "");
}

// ---- the tour
let step = 0;
export function openTour() {
  step = 0;
  setText("tour-step", TOUR[0]);
  $("tour-next").textContent = "Next";
  openDialog($("tour"));
}

/** `action(fields, onResult)`; `ownTracks()` resolves to `{link}`; `signOut()` ends the session. */
export function setupSettings({ action, ownTracks, signOut }) {
  drawPresets();
  $("preset-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("preset-new").value.trim().slice(0, 140);
    if (!text) return;
    store.set("presets", presets().concat([text]));
    $("preset-new").value = "";
    drawPresets();
  });

  $("pin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const current = $("pin-current").value.trim();
    const cancelPin = $("pin-cancel-new").value.trim();
    const duressPin = $("pin-duress-new").value.trim();
    if (!PIN.test(cancelPin) || (duressPin && !PIN.test(duressPin)) || (current && !PIN.test(current))) {
      setText("pin-result", "PINs are 4 to 12 digits.");
      return;
    }
    if (duressPin && duressPin === cancelPin) {
      setText("pin-result", "The duress PIN must differ from the cancel PIN.");
      return;
    }
    const fields = { action: "setPins", cancelPin };
    if (duressPin) fields.duressPin = duressPin;
    if (current) fields.pin = current;
    action(fields, (result) => setText("pin-result", result && result.ok ? "PINs saved." : (result && result.error && result.error.message) || "Not saved."));
    setText("pin-result", "Saving…");
    for (const id of ["pin-current", "pin-cancel-new", "pin-duress-new"]) $(id).value = "";
  });
  $("pin-clear").addEventListener("click", () => {
    const current = $("pin-current").value.trim();
    if (!PIN.test(current)) {
      setText("pin-result", "Enter your current cancel PIN to remove the PINs.");
      return;
    }
    action({ action: "clearPins", pin: current }, (result) =>
      setText("pin-result", result && result.ok ? "PINs removed." : (result && result.error && result.error.message) || "Not removed."));
    $("pin-current").value = "";
  });

  const alarm = $("alarm-audible");
  alarm.checked = alarmWanted();
  alarm.addEventListener("change", () => store.set("alarm", alarm.checked));
  $("alarm-stop").addEventListener("click", stopAlarm);

  $("fake-call-start").addEventListener("click", () => {
    clearTimeout(callTimer);
    const seconds = Number($("fake-call-delay").value) || 30;
    const name = $("fake-call-name").value.trim() || "Mom";
    setText("fake-call-state", name + " will call in " + seconds + " s.");
    callTimer = setTimeout(() => {
      setText("fake-call-title", name);
      openDialog($("fake-call"));
      ringOn();
    }, seconds * 1000);
  });
  $("fake-call-answer").addEventListener("click", () => {
    ringOff();
    setText("fake-call-title", "On the phone · 00:00");
    const started = Date.now();
    const name = $("fake-call-name").value.trim() || "Mom";
    const clockTimer = setInterval(() => {
      if (!$("fake-call").open) return clearInterval(clockTimer);
      const s = Math.floor((Date.now() - started) / 1000);
      setText("fake-call-title", name + " · " + String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0"));
    }, 1000);
    $("fake-call-answer").hidden = true;
    $("fake-call-decline").textContent = "Hang up";
  });
  $("fake-call-decline").addEventListener("click", () => {
    endCall();
    $("fake-call-answer").hidden = false;
    $("fake-call-decline").textContent = "Decline";
  });

  $("tour-open").addEventListener("click", openTour);
  $("tour-next").addEventListener("click", () => {
    step += 1;
    if (step >= TOUR.length) {
      store.set("tourDone", 1);
      closeDialog($("tour"));
      return;
    }
    setText("tour-step", TOUR[step]);
    if (step === TOUR.length - 1) $("tour-next").textContent = "Done";
  });
  $("tour-close").addEventListener("click", () => {
    store.set("tourDone", 1);
    closeDialog($("tour"));
  });
  if (!store.get("tourDone")) openTour();

  $("btn-owntracks").addEventListener("click", async () => {
    try {
      const answer = await ownTracks();
      const link = $("owntracks-link");
      link.href = answer.link;
      link.hidden = false;
    } catch (error) {
      $("btn-owntracks").textContent = "Could not get the link (" + (error.message || "offline") + "). Try again";
    }
  });
  $("btn-signout").addEventListener("click", signOut);
}
