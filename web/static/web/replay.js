// Steps through a finished game: the frames (the table before and after each logged action)
// come with the page, rebuilt by the server's engine from the deal and the log.
import { renderTable } from "./render.js";

const frames = JSON.parse(document.getElementById("frames").textContent);
const table = document.getElementById("table");
let index = 0;

function show(next) {
  index = Math.min(Math.max(next, 0), frames.length - 1);
  const frame = frames[index];
  renderTable(table, frame.view);
  document.getElementById("score").textContent = frame.view.score;
  document.getElementById("moves").textContent = frame.view.moves;
  document.getElementById("step").textContent = `${index} / ${frames.length - 1}`;
  document.getElementById("step-caption").textContent = frame.caption;
  document.getElementById("first").disabled = document.getElementById("prev").disabled = index === 0;
  document.getElementById("last").disabled = document.getElementById("next").disabled = index === frames.length - 1;
}

document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("prev").addEventListener("click", () => show(index - 1));
document.getElementById("next").addEventListener("click", () => show(index + 1));
document.getElementById("last").addEventListener("click", () => show(frames.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight") show(index + 1);
  if (event.key === "ArrowLeft") show(index - 1);
});
show(0);
