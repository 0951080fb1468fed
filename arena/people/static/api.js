// What the pages of arena serve that talk JSON share: the CSRF token, $, and one request.
"use strict";
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const $ = (id) => document.getElementById(id);

// GET ``path`` (no data) or POST ``data`` as JSON; answers {ok, status, body}.
async function request(path, data) {
  const options = data === undefined ? {headers: {"Accept": "application/json"}} : {
    method: "POST", body: JSON.stringify(data),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf, "Accept": "application/json"}};
  const response = await fetch(path, options);
  return {ok: response.ok, status: response.status, body: await response.json()};
}
