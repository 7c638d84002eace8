// Steps through a finished game: the frames (the table before and after each logged action)
// come with the page, rebuilt by the server's engine from the deal and the log. Under it, the
// review (R37, _review.html): the winnability strip and its slider follow the step shown, a
// button jumps to the step that lost the win, and the solver's winning line from the step
// before it plays as a ghost replay (its own frames, from the server too).
import { api, format } from "./api.js";
import { renderTable } from "./render.js";

const frames = JSON.parse(document.getElementById("frames").textContent);
const table = document.getElementById("table");
const section = document.getElementById("replay");
const reviewData = document.getElementById("review-data");
const review = reviewData ? JSON.parse(reviewData.textContent) : null;
const range = document.getElementById("strip-range");
const marks = document.querySelectorAll("#strip .mark");
const MARK_WORDS = {
  win: () => gettext("winnable"),
  lost: () => gettext("lost"),
  open: () => gettext("undecided"),
  undone: () => gettext("taken back"),
};
let index = 0;
// The ghost replay's step, or null while the game itself is shown.
let ghost = null;

function showView(view) {
  renderTable(table, view);
  document.getElementById("score").textContent = view.score;
  document.getElementById("moves").textContent = view.moves;
}

function markText(step) {
  if (!review || step === 0) return "";
  return MARK_WORDS[review.marks[step - 1]]();
}

function show(next) {
  ghost = null;
  section.classList.remove("solver-line");
  const controls = document.getElementById("ghost-controls");
  if (controls) controls.hidden = true;
  document.getElementById("replay-controls").hidden = false;
  index = Math.min(Math.max(next, 0), frames.length - 1);
  const frame = frames[index];
  showView(frame.view);
  document.getElementById("step").textContent = `${index} / ${frames.length - 1}`;
  const verdict = markText(index);
  document.getElementById("step-caption").textContent = verdict ? `${frame.caption} · ${verdict}` : frame.caption;
  document.getElementById("first").disabled = document.getElementById("prev").disabled = index === 0;
  document.getElementById("last").disabled = document.getElementById("next").disabled = index === frames.length - 1;
  if (range) {
    range.value = String(index);
    range.setAttribute("aria-valuetext", verdict ? `${index} / ${frames.length - 1}: ${verdict}` : `${index} / ${frames.length - 1}`);
  }
  marks.forEach((mark, at) => mark.classList.toggle("current", at + 1 === index));
}

// The solver's winning line: the table it starts from (the step before the turn), then each
// of its actions.
function showGhost(next) {
  ghost = Math.min(Math.max(next, 0), review.ghost.length - 1);
  section.classList.add("solver-line");
  document.getElementById("ghost-controls").hidden = false;
  document.getElementById("replay-controls").hidden = true;
  showView(review.ghost[ghost].view);
  document.getElementById("ghost-step").textContent = format(gettext("Winning line: %(step)s / %(count)s"), { step: ghost, count: review.ghost.length - 1 });
  document.getElementById("ghost-caption").textContent = review.ghost[ghost].caption;
  document.getElementById("ghost-prev").disabled = ghost === 0;
  document.getElementById("ghost-next").disabled = ghost === review.ghost.length - 1;
}

function step(by) {
  if (ghost === null) show(index + by);
  else showGhost(ghost + by);
}

document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("prev").addEventListener("click", () => show(index - 1));
document.getElementById("next").addEventListener("click", () => show(index + 1));
document.getElementById("last").addEventListener("click", () => show(frames.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return; // the slider steps by itself
  if (event.key === "ArrowRight") step(1);
  if (event.key === "ArrowLeft") step(-1);
  if (event.key === "Escape" && ghost !== null) show(index);
});

if (review) {
  range.addEventListener("input", () => show(Number(range.value)));
  document.getElementById("strip").addEventListener("click", (event) => {
    const mark = event.target.closest(".mark");
    if (mark) show(Number(mark.dataset.step));
  });
  const jump = document.getElementById("jump-turn");
  if (jump) {
    jump.addEventListener("click", () => {
      show(review.lost_at);
      table.scrollIntoView({ block: "nearest" });
    });
  }
  const start = document.getElementById("ghost-start");
  if (start) {
    start.addEventListener("click", () => {
      showGhost(0);
      document.getElementById("ghost-next").focus();
    });
    document.getElementById("ghost-prev").addEventListener("click", () => showGhost(ghost - 1));
    document.getElementById("ghost-next").addEventListener("click", () => showGhost(ghost + 1));
    document.getElementById("ghost-leave").addEventListener("click", () => {
      show(index);
      start.focus();
    });
  }
  const share = document.getElementById("share");
  if (share) share.addEventListener("click", () => shareResult(document.getElementById("share-text").value));
}

// One tap: the phone's share sheet where there is one, else the clipboard; either way the
// page says what happened (and shows the text, to copy by hand if both were refused).
async function shareResult(text) {
  const done = document.getElementById("share-done");
  if (navigator.share && matchMedia("(pointer: coarse)").matches) {
    try {
      await navigator.share({ text });
      done.textContent = gettext("Shared.");
      return;
    } catch (error) {
      // Cancelled or refused: copying is the fallback.
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    done.textContent = gettext("Copied!");
  } catch (error) {
    const box = document.getElementById("share-text");
    box.hidden = false;
    box.select();
    done.textContent = gettext("Copy the result from the box.");
  }
}

// While the analysis is computed: ask the API again, less and less often, and show the review
// once it is done (a reload: the page then comes with it). After a few tries, a button.
async function waitForAnalysis(gameId) {
  let wait = 2000;
  for (let tries = 0; tries < 8; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      const answer = await api("GET", `games/${gameId}/analysis`);
      if (answer.status === "done") {
        location.reload();
        return;
      }
      document.getElementById("review-wait").textContent = format(
        gettext("The solver is analysing this game (%(progress)s/100 done). The review appears here by itself."),
        { progress: Math.round(100 * answer.progress) },
      );
    } catch (error) {
      break;
    }
    wait = Math.min(wait * 1.6, 30000);
  }
  const again = document.createElement("button");
  again.type = "button";
  again.textContent = gettext("Look again");
  again.addEventListener("click", () => location.reload());
  document.getElementById("review-wait").append(" ", again);
}

const reviewSection = document.getElementById("review");
if (reviewSection.dataset.state === "pending") waitForAnalysis(reviewSection.dataset.game);
show(0);
