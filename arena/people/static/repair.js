// arena repair --serve: fix, keep, reject or skip each flagged machine reference.
"use strict";
let current = null, lastStatus = 0;

async function call(path, data) {  // request: static/api.js
  const answer = await request(path, data);
  lastStatus = answer.status;
  if (!answer.ok) { $("message").textContent = answer.body.error; return null; }
  return answer.body;
}

function showProgress(p) {
  const decided = p.fixed + p.kept + p.rejected;
  $("progress").textContent =
    `${decided}/${p.total} decided: fixed ${p.fixed}, kept ${p.kept}, rejected ${p.rejected}, left ${p.left}`;
  $("bar").max = Math.max(p.total, 1);
  $("bar").value = decided;
}

async function next() {
  const data = await call("api/next");
  if (data === null) return;
  showProgress(data.progress);
  if (data.finished) {
    current = null;
    $("task").hidden = true;
    $("finished").hidden = false;
    $("skipped-note").textContent = data.progress.skipped ? `You skipped ${data.progress.skipped}.` : "";
    $("unskip").hidden = !data.progress.skipped;
    return;
  }
  current = data;
  $("item-id").textContent = data.id;
  $("source").textContent = data.source;
  $("human").textContent = data.human;
  $("machine").textContent = data.machine;
  $("system").textContent = data.system ? `translated by ${data.system}` : "";
  $("flags").replaceChildren(...data.flags.map((f) => Object.assign(document.createElement("li"),
    {textContent: f.phenomenon + (f.evidence ? `: ${f.evidence}` : "")})));
  $("fixed").value = data.machine;
  $("finished").hidden = true;
  $("task").hidden = false;
  $("fixed").focus();
}

async function decide(action) {
  if (current === null) return;
  // a keep sends the text too: a changed one is refused (400), so no edit is lost by keeping
  const data = await call("api/decide", {id: current.id, action: action,
                                         reference: action === "reject" ? null : $("fixed").value});
  if (data === null && lastStatus !== 409) return;  // 409: someone decided it first; their decision stands
  const done = {fix: "fixed", keep: "kept", reject: "rejected"}[action];
  if (data !== null) $("message").textContent = `${done} ${current.id}`;
  await next();
}

$("fix").addEventListener("click", () => decide("fix"));
$("keep").addEventListener("click", () => decide("keep"));
$("reject").addEventListener("click", () => decide("reject"));
$("skip").addEventListener("click", async () => {
  if (current === null) return;
  const data = await call("api/skip", {id: current.id});
  if (data !== null) { $("message").textContent = `skipped ${current.id}`; await next(); }
});
$("unskip").addEventListener("click", async () => {
  if (await call("api/unskip", {}) !== null) { $("message").textContent = ""; await next(); }
});
next();
