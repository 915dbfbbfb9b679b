// Signing in at the desk (operators only: web refuses walkers with 403 notOperator) and out.

import { $, setText } from "./dom.js";
import * as api from "./api.js";

/** What an answer to the sign-in means for the operator. */
export function explain(error) {
  if (!(error instanceof api.HttpError)) return "No connection to the server. Try again.";
  const reason = error.reason;
  if (error.status === 401) return "Wrong username or password.";
  if (error.status === 403 && reason === "notOperator") return "This account is not an operator";
  if (error.status === 429) return "Too many attempts. Wait a moment and try again.";
  if (error.status === 404) return "The desk is not available on this server.";
  return (error.body && error.body.error && error.body.error.message) || "That did not work (" + error.status + ").";
}

/** `onSignedIn(session)` with `{username, role, csrfToken, desk}`. */
export function setupSignIn(onSignedIn) {
  $("desk-signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    setText("desk-signin-error", "");
    const username = $("desk-username").value.trim();
    const password = $("desk-password").value;
    if (!username || !password) {
      setText("desk-signin-error", "Enter your username and password.");
      return;
    }
    $("desk-signin-submit").disabled = true;
    try {
      const session = await api.signIn(username, password);
      $("desk-password").value = "";
      onSignedIn(session);
    } catch (error) {
      setText("desk-signin-error", explain(error));
    } finally {
      $("desk-signin-submit").disabled = false;
    }
  });
}

/** Ends the session at web (the cookie goes with it). */
export async function signOut() {
  await api.signOut().catch(() => {});
  api.setCsrf(null);
}
