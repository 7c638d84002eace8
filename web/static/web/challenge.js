// A player's page (issue 32): challenge them to a duel, with a draw mode and rated or not.
import { api } from "./api.js";
import { errorText } from "./messages.js";

const form = document.getElementById("challenge-form");

if (form) {
  const username = document.getElementById("player-page").dataset.username;
  const button = document.getElementById("challenge-send");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const errorBox = document.getElementById("challenge-error");
    button.disabled = true;
    errorBox.hidden = true;
    try {
      await api("POST", "challenges", { player: username, draw: Number(data.get("draw")), rated: data.get("rated") === "on" });
      document.getElementById("challenge-sent").hidden = false;
    } catch (error) {
      errorBox.textContent = errorText(error);
      errorBox.hidden = false;
      button.disabled = false;
    }
  });
  // Disabled in the page until now: a click before this listens would reload the page.
  button.disabled = false;
}
