// Signing in and up. web answers sign-in with the CSRF token (the cookie itself is HttpOnly and
// never seen here); after a reload GET /v1/sessions/current gives it back.

import { $, setText, show } from "./ui.js";
import { signIn, signUp, HttpError } from "./api.js";

const FIELD_TEXT = {
  username: "Username", email: "E-mail", password: "Password",
};
const REASON_TEXT = {
  taken: "is taken", missing: "is missing", empty: "is empty", tooShort: "is too short", tooLong: "is too long",
  invalidCharacters: "has characters that are not allowed", reserved: "is reserved", invalid: "is not valid",
  needsDigit: "needs a digit", needsSpecial: "needs a character that is neither a letter nor a digit",
};

function explain(error) {
  if (!(error instanceof HttpError)) return "No network. Try again when you are online.";
  const e = error.body && error.body.error;
  if (error.status === 401) return "Wrong username or password.";
  if (error.status === 429) return "Too many attempts. Wait a moment and try again.";
  if (e && e.field && REASON_TEXT[e.reason]) return FIELD_TEXT[e.field] + " " + REASON_TEXT[e.reason] + ".";
  return (e && e.message) || "That did not work (" + error.status + ").";
}

/** `onSignedIn(session)` with `{username, csrfToken, expiresAt}`. */
export function setupSignIn(onSignedIn) {
  const busy = (id, on) => ($(id).disabled = on);
  $("show-signup").addEventListener("click", () => {
    show("signin-form", false);
    show("signup-form", true);
    $("signup-username").focus();
  });
  $("show-signin").addEventListener("click", () => {
    show("signup-form", false);
    show("signin-form", true);
    $("signin-username").focus();
  });
  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    setText("signin-error", "");
    busy("signin-submit", true);
    try {
      const session = await signIn($("signin-username").value.trim(), $("signin-password").value);
      $("signin-password").value = "";
      onSignedIn(session);
    } catch (error) {
      setText("signin-error", explain(error));
    } finally {
      busy("signin-submit", false);
    }
  });
  $("signup-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    setText("signup-error", "");
    busy("signup-submit", true);
    const username = $("signup-username").value.trim();
    const password = $("signup-password").value;
    try {
      await signUp(username, $("signup-email").value.trim(), password);
      const session = await signIn(username, password);
      $("signup-password").value = "";
      onSignedIn(session);
    } catch (error) {
      setText("signup-error", explain(error));
    } finally {
      busy("signup-submit", false);
    }
  });
}
