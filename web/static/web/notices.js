// On every page of a signed-in player (issue 32): the account's events over the WebSocket
// /ws/account/events (the session cookie signs it in: games/consumers.py), shown as notices in
// #notices (base.html, a live region): a challenge to the player, with Accept and Decline, and
// the answer to the player's own challenge. The socket resumes with `since` (the id of the last
// message, the first being `stream_opened`) after a drop, with the boards' back-off (board.js),
// and from one page to the next: the position and the notices still shown are kept for the tab
// (sessionStorage), so that nothing said while the player changes page is lost.
import { api, currentUser, el, format } from "./api.js";
import { retryDelay } from "./board.js";
import { errorText } from "./messages.js";
import { acceptChallenge, challengeModeText } from "./match-view.js";

const KEPT = "notices";
const CLOSE_BAD_SINCE = 4400; // events after it were forgotten: start afresh
const CLOSE_SIGNED_OUT = 4401; // nothing left to listen to

const me = currentUser();
const box = document.getElementById("notices");
const kept = keptNotices();

function keptNotices() {
  try {
    const found = JSON.parse(sessionStorage.getItem(KEPT));
    if (found && found.user === me) return found;
  } catch (error) {
    // (storage refused or unreadable: this page starts afresh)
  }
  return { user: me, since: null, events: [] };
}

function keep() {
  try {
    sessionStorage.setItem(KEPT, JSON.stringify(kept));
  } catch (error) {
    // (storage refused: the next page starts afresh)
  }
}

function forget(challengeId) {
  kept.events = kept.events.filter((event) => event.data.challenge !== challengeId);
  keep();
  for (const node of box.querySelectorAll("[data-challenge]")) {
    if (node.dataset.challenge === challengeId) node.remove();
  }
}

// A button that runs `action`; a refusal is said in the notice, which stays.
function actionButton(label, errorBox, action, primary = false) {
  const button = el("button", { type: "button", class: primary ? "primary" : null, text: label });
  button.addEventListener("click", async () => {
    button.disabled = true;
    errorBox.hidden = true;
    try {
      await action();
    } catch (error) {
      errorBox.textContent = errorText(error);
      errorBox.hidden = false;
      button.disabled = false;
    }
  });
  return button;
}

// What the notice of `event` says and its buttons, or null when it calls for none.
function noticeOf(event, errorBox) {
  const challenge = event.data;
  const mode = challengeModeText(challenge);
  if (event.type === "challenge_created" && challenge.player === me) {
    const text = format(gettext("%(player)s challenges you to a duel: %(mode)s."), { player: challenge.challenger, mode });
    const accept = actionButton(gettext("Accept"), errorBox, async () => {
      await acceptChallenge(challenge.challenge);
      forget(challenge.challenge);
    }, true);
    const decline = actionButton(gettext("Decline"), errorBox, async () => {
      await api("POST", `challenges/${challenge.challenge}/decline`);
      forget(challenge.challenge);
    });
    return [text, accept, decline];
  }
  if (event.type === "challenge_accepted" && challenge.challenger === me) {
    const text = format(gettext("%(player)s accepted your challenge: %(mode)s."), { player: challenge.player, mode });
    return [text, el("a", { class: "button primary", href: `/matches/${challenge.match}`, text: gettext("Play the duel") })];
  }
  if (event.type === "challenge_declined" && challenge.challenger === me) {
    return [format(gettext("%(player)s declined your challenge: %(mode)s."), { player: challenge.player, mode })];
  }
  return null;
}

function show(event) {
  const errorBox = el("p", { class: "error", hidden: true });
  const notice = noticeOf(event, errorBox);
  if (!notice) return false;
  const [text, ...actions] = notice;
  const dismiss = el("button", { type: "button", class: "dismiss", "aria-label": gettext("Dismiss"), text: "×" });
  dismiss.addEventListener("click", () => forget(event.data.challenge));
  box.append(
    el(
      "div",
      { class: "notice", role: "group", "aria-label": gettext("Challenge"), "data-challenge": event.data.challenge, "data-type": event.type },
      el("p", { text }),
      errorBox,
      el("div", { class: "notice-actions" }, ...actions, dismiss),
    ),
  );
  return true;
}

// A challenge's later state replaces its notice (a cancelled or expired challenge, one answered
// in another tab, takes its notice away).
function received(event) {
  if (!event.type.startsWith("challenge_")) return;
  forget(event.data.challenge);
  if (show(event)) kept.events.push(event);
}

function listen() {
  let failures = 0;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = kept.since === null ? "" : `?since=${kept.since}`;
    const socket = new WebSocket(`${scheme}://${location.host}/ws/account/events${since}`);
    socket.addEventListener("message", (message) => {
      const event = JSON.parse(message.data);
      if (event.type === "stream_opened") failures = 0;
      else received(event);
      kept.since = event.id;
      keep();
    });
    socket.addEventListener("close", (event) => {
      if (event.code === CLOSE_SIGNED_OUT) return;
      if (event.code === CLOSE_BAD_SINCE) kept.since = null;
      setTimeout(connect, retryDelay(failures++));
    });
  };
  connect();
}

if (box && me) {
  kept.events.forEach(show);
  listen();
}
