// The companion chat: its messages from `{w}/chat` (a repeat is dropped by id), the walker's own
// replies on `{w}/reply`, and the quick-reply row. "I need help 🚨" is a cry for help the services
// read from the reply itself; it goes through the outbox like every reply, so it is not lost
// offline.

import { $, el, store, now } from "./ui.js";

const KEEP = 60;
let log = store.get("chat", []);

function draw() {
  const list = $("chat-log");
  list.textContent = "";
  for (const message of log) {
    list.append(
      el("li", { "data-testid": "chat-message", "data-from": message.me ? "me" : "companion" }, message.text),
    );
  }
  list.lastElementChild && list.lastElementChild.scrollIntoView({ block: "nearest" });
}

function add(message) {
  log.push(message);
  if (log.length > KEEP) log = log.slice(-KEEP);
  store.set("chat", log);
  draw();
}

export function receiveChat(message) {
  if (!message || typeof message.text !== "string") return;
  if (message.id && log.some((m) => m.id === message.id)) return;
  add({ id: message.id, text: message.text, tst: message.tst, me: false });
}

export function clearChat() {
  log = [];
  store.set("chat", null);
  draw();
}

/** `send(payload)` queues a reply; `onHelp()` also shows the help links at once. */
export function setupChat({ send, onHelp }) {
  function reply(text, quick) {
    const payload = { v: 1, text, tst: Math.floor(now()) };
    if (quick) payload.quickReply = true;
    send(payload);
    add({ text, tst: payload.tst, me: true });
    if (text === "I need help 🚨") onHelp();
  }
  for (const button of document.querySelectorAll("#quick-replies [data-testid=quick-reply]")) {
    button.addEventListener("click", () => reply(button.dataset.text, true));
  }
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    reply(text, false);
  });
  draw();
}
