// arena serve: one round at a time; keys 1/2 answer, s shows the summary.
"use strict";
const csrf = document.querySelector('meta[name="csrf-token"]').content;
let current = null;
let deadline = null;  // with a time budget: when it runs out
let shownAt = null;  // without one: the clock counts up
let busy = false;

function show(id, visible) { document.getElementById(id).hidden = !visible; }
function message(text) { document.getElementById("message").textContent = text; }

async function next() {
  const response = await fetch("api/next", {headers: {"Accept": "application/json"}});
  const data = await response.json();
  if (!response.ok) { message(data.error); return; }
  document.getElementById("progress").textContent = `${data.done}/${data.total}`;
  const bar = document.getElementById("bar");
  bar.max = data.total; bar.value = data.done;
  if (data.finished) { current = null; show("round", false); show("finished", true); timer(null); return; }
  current = data.round;
  document.getElementById("source").textContent = data.source;
  for (const i of [0, 1]) {
    document.querySelector(`#c${i} span`).textContent = data.candidates[i];
  }
  show("round", true);
  deadline = data.remaining === null ? null : performance.now() + data.remaining * 1000;
  shownAt = performance.now();
  busy = false;
  timer();  // the clock is on screen with the round, not up to 100 ms later
}

async function answer(choice) {
  if (current === null || busy) return;
  busy = true;
  const response = await fetch("api/judge", {
    method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
    body: JSON.stringify({round: current, choice: choice}),
  });
  const data = await response.json();
  if (response.ok && data.resolved_by === "late") {
    message(`late (${data.seconds.toFixed(1)} s): a coin decided that round`);
  } else if (response.ok) {
    message("");
  } else {
    message(data.error);
  }
  if (response.ok || response.status === 409) { await next(); } else { busy = false; }
}

function timer() {
  const element = document.getElementById("timer");
  if (current === null) { element.textContent = ""; return; }
  if (deadline === null) { element.textContent = `${((performance.now() - shownAt) / 1000).toFixed(1)} s`; return; }
  const left = Math.max(0, (deadline - performance.now()) / 1000);
  element.textContent = `${left.toFixed(1)} s`;
  element.classList.toggle("low", left < 3);
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  if (event.key === "1") answer(0);
  else if (event.key === "2") answer(1);
  else if (event.key === "s") window.location = "summary";
});
for (const i of [0, 1]) {
  document.getElementById(`c${i}`).addEventListener("click", () => answer(i));
}
setInterval(timer, 100);
next();
