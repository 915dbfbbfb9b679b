// Adding an operator (admins only; web answers 403 notAdmin to anyone else).

import { $, setText } from "./dom.js";
import * as api from "./api.js";
import { errorText } from "./format.js";

const FIELDS = { username: "Username", email: "E-mail", password: "Password" };

function explain(error) {
  const e = error && error.body && error.body.error;
  if (e && e.field && FIELDS[e.field] && e.message) return FIELDS[e.field] + ": " + e.message;
  return errorText(error);
}

/** `added()` after an operator was made (the hand-over list grows). */
export function setupAdmin({ added }) {
  $("desk-operator-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const username = $("desk-operator-username").value.trim();
    const fields = {
      username,
      email: $("desk-operator-email").value.trim(),
      password: $("desk-operator-password").value,
      admin: $("desk-operator-admin").checked,
    };
    setText("desk-operator-result", "Adding…");
    $("desk-operator-add").disabled = true;
    try {
      await api.addOperator(fields);
      setText("desk-operator-result", username + " can now sign in at the desk.");
      for (const id of ["desk-operator-username", "desk-operator-email", "desk-operator-password"]) $(id).value = "";
      $("desk-operator-admin").checked = false;
      added();
    } catch (error) {
      setText("desk-operator-result", explain(error));
    } finally {
      $("desk-operator-add").disabled = false;
    }
  });
}
