// arena false-positives --validate N --serve: label each translation present or absent.
"use strict";
let current = null, busy = false;

async function call(path, data) {  // request: static/api.js
  const answer = await request(path, data);
  if (!answer.ok) { $("message").textContent = answer.body.error; return {status: answer.status, body: null}; }
  return {status: answer.status, body: answer.body};
}

function showProgress(p) {
  $("progress").textContent = `${p.labelled}/${p.total} labelled: present ${p.present}, absent ${p.absent}, left ${p.left}`;
  $("bar").max = Math.max(p.total, 1);
  $("bar").value = p.labelled;
}

async function next() {
  const data = (await call("api/next")).body;
  if (data === null) return;
  showProgress(data.progress);
  if (data.finished) {
    current = null;
    $("task").hidden = true;
    $("finished").hidden = false;
    return;
  }
  current = data;
  $("item-id").textContent = data.id;
  $("phenomenon").textContent = data.phenomenon;
  $("source").textContent = data.source;
  $("translation").textContent = data.translation;
  $("finished").hidden = true;
  $("task").hidden = false;
}

async function label(value) {
  if (current === null || busy) return;
  busy = true;
  try {
    const answer = await call("api/label", {id: current.id, label: value});
    if (answer.body === null && answer.status !== 409) return;  // 409: someone labelled it first; their label stands
    if (answer.body !== null) $("message").textContent = `${current.id}: ${value}`;
    await next();
  } finally {
    busy = false;
  }
}

$("present").addEventListener("click", () => label("present"));
$("absent").addEventListener("click", () => label("absent"));
document.addEventListener("keydown", (event) => {
  if (event.key === "y") label("present");
  if (event.key === "n") label("absent");
});
next();
