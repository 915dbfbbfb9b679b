// Contacts: the list from `{w}/contacts` (kept for "I need help" without a network), adding and
// removing them, and why a number cannot be dialled.

import { $, el, setText, store } from "./ui.js";

const REASONS = {
  empty: "No number.",
  containsLetters: "The number contains letters.",
  invalidCharacter: "The number has a character that is not a digit.",
  misplacedPlus: "A + may only come first.",
  noDigits: "The number has no digits.",
  tooShort: "The number is too short.",
  tooLong: "The number is too long.",
};

let contacts = store.get("contacts", []);

export const cachedContacts = () => contacts;

export function renderContacts(list, remove) {
  contacts = list && Array.isArray(list.contacts) ? list.contacts : [];
  store.set("contacts", contacts);
  const box = $("contacts-list");
  box.textContent = "";
  if (!contacts.length) box.append(el("li", {}, "No contacts yet."));
  for (const contact of contacts) {
    const item = el(
      "li",
      { "data-testid": "contact", "data-id": contact.id, "data-dialable": String(!!contact.dialable) },
      el("span", { class: "who" }, contact.name + " · " + contact.phone),
      contact.tier === 2 ? el("span", { class: "tag" }, "backup") : null,
      el(
        "button",
        { type: "button", "data-testid": "contact-remove", "aria-label": "Remove " + contact.name },
        "Remove",
      ),
      contact.dialable
        ? null
        : el("span", { class: "warn", "data-testid": "contact-reason" },
          "Cannot be called or texted: " + (REASONS[contact.reason] || contact.reason || "not a phone number")),
    );
    item.querySelector("button").addEventListener("click", () => remove(contact));
    box.append(item);
  }
}

export function renderContactResult(result) {
  if (!result) return;
  if (result.ok) setText("contact-result", result.operation === "remove" ? "Removed." : "Added.");
  else setText("contact-result", result.error || "That did not work.");
}

export function setupContacts({ add }) {
  $("contact-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("contact-name").value.trim();
    const phone = $("contact-phone").value.trim();
    if (!name || !phone) {
      setText("contact-result", "A name and a number, please.");
      return;
    }
    const payload = { v: 1, name, phone };
    if ($("contact-backup").checked) payload.tier = 2;
    add(payload);
    setText("contact-result", "Adding " + name + "…");
    $("contact-name").value = "";
    $("contact-phone").value = "";
    $("contact-backup").checked = false;
  });
}
