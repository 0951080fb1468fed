// arena serve --zellig: edit the reference, see the Claudes' scores live, submit; check others' pairs.
"use strict";
let current = null, checking = null, timer = null, sequence = 0;

// The message line says what the person's last action did ("recorded", or why it was refused)
// and stays until their next action (submit, verdict, export) clears it; loading the next
// sentence and the live scores never wipe it.
async function call(path, data) {  // request: static/api.js
  const answer = await request(path, data);
  if (!answer.ok) { $("message").textContent = answer.body.error; return null; }
  return answer.body;
}

function action() { $("message").textContent = ""; }

async function next() {
  const data = await call("api/next");
  if (data === null) return;
  $("progress").textContent = data.done;
  if (data.finished) { current = null; $("task").hidden = true; $("finished").hidden = false; return; }
  current = data;
  $("source").textContent = data.source;
  $("reference").textContent = data.reference;
  $("edit").value = data.reference;
  $("phenomenon").value = "";  // each sentence starts with an empty label: no carry-over from the last one
  $("phenomena").replaceChildren(...data.phenomena.map((p) => Object.assign(document.createElement("option"), {value: p})));
  document.querySelector("#live tbody").replaceChildren();
  $("detector").textContent = "";
  $("task").hidden = false;
  $("edit").focus();
}

async function live() {
  if (current === null) return;
  const mine = ++sequence;
  const data = await call("api/live", {instance: current.instance, text: $("edit").value,
                                       phenomenon: $("phenomenon").value || null});
  if (data === null || mine !== sequence) return;  // a newer edit is on its way
  const rows = data.claudes.map((r) => {
    const row = document.createElement("tr");
    row.className = r.fooled && data.changed ? "fooled" : "";
    for (const text of [r.claude, r.reference.toFixed(3), r.edit.toFixed(3), data.changed ? (r.fooled ? "FOOLED" : "no") : "-"]) {
      row.appendChild(Object.assign(document.createElement("td"), {textContent: text}));
    }
    return row;
  });
  document.querySelector("#live tbody").replaceChildren(...rows);
  $("detector").textContent = data.detector === null ? "" :
    `detector: the edit ${data.detector ? "shows" : "does not show"} the phenomenon`;
}

function scheduleLive() { clearTimeout(timer); timer = setTimeout(live, 200); }

async function submit(unchanged) {
  if (current === null) return;
  action();
  const text = unchanged ? current.reference : $("edit").value;
  const data = await call("api/submit", {instance: current.instance, text: text,
                                         phenomenon: unchanged ? null : ($("phenomenon").value || null)});
  if (data !== null) { $("message").textContent = data.variant ? "recorded" : "recorded: no corruption applies"; next(); }
}

async function nextCheck() {
  const data = await call("api/check/next");
  if (data === null) return;
  checking = data.finished ? null : data;
  $("check").hidden = data.finished; $("check-empty").hidden = !data.finished;
  if (data.finished) return;
  for (const key of ["author", "source", "reference", "edit", "phenomenon"]) $(`c-${key}`).textContent = data[key];
}

async function verdict(valid) {
  if (checking === null) return;
  action();
  const data = await call("api/check", {author: checking.author, instance: checking.instance, valid: valid});
  if (data !== null) nextCheck();
}

$("edit").addEventListener("input", scheduleLive);
$("phenomenon").addEventListener("change", scheduleLive);
$("submit").addEventListener("click", () => submit(false));
$("none").addEventListener("click", () => submit(true));
$("valid").addEventListener("click", () => verdict(true));
$("invalid").addEventListener("click", () => verdict(false));
$("export").addEventListener("click", async () => {
  action();
  const data = await call("api/export", {});
  if (data !== null) $("exported").textContent = data.command;
});
next();
nextCheck();
