// The archive (/daily/): a past day's deal dealt again as an unranked practice game (R19: its
// code is public once its day is over), then played at the table.
import { api } from "./api.js";

const error = document.getElementById("practice-error");

for (const button of document.querySelectorAll("button.practice")) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const game = await api("POST", "games", { code: button.dataset.code });
      location.href = `/play/${game.id}`;
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      button.disabled = false;
    }
  });
}
