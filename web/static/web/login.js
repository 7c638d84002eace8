// The log-in form posts as a form does, through fetch, so that a refusal from in front of the
// server shows in the page's language: nginx limits the password doors and answers 429 with a
// JSON body in English (deploy/nginx.conf.template), which a plain form post would show as the
// whole page. Any other answer is the server's page: a redirect is followed, a page (the form
// with its errors, a lock-out) replaces this one's content.
import { errorText } from "./messages.js";

async function logIn(form) {
  const refused = form.querySelector(".refused");
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  let response;
  try {
    response = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" });
  } catch (error) {
    response = null;
  }
  button.disabled = false;
  if (!response || response.status === 429 || response.status >= 500) {
    refused.textContent = errorText({ code: response && response.status === 429 ? "throttled" : "network" });
    refused.hidden = false;
    return;
  }
  if (response.redirected) {
    location.assign(response.url);
    return;
  }
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  document.title = page.title;
  document.querySelector("main").replaceWith(page.querySelector("main"));
  const field = document.querySelector("main input:not([type=hidden])");
  if (field) field.focus();
}

document.addEventListener("submit", (event) => {
  if (event.target.id !== "login-form") return;
  event.preventDefault();
  logIn(event.target);
});
