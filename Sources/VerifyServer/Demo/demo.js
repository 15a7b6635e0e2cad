// The demo page: create (through the demo-only stand-in for a backend), ask the wallet, post the answer, show the
// backend's result. Every value from the server or the wallet is shown as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
let created = null;

async function prepare() {
  created = null;
  $("verify").disabled = true;
  $("request").textContent = "preparing…";
  try {
    const response = await fetch("/v1/demo/transactions", {
      method: "POST", headers: {"content-type": "application/json"},
      body: JSON.stringify({format: $("format").value}),
    });
    const body = await response.json();
    if (response.status !== 201) throw new Error(body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`);
    created = body;
    $("request").textContent = `${body.requestId} (${body.protocol}, expires ${body.expiresAt})`;
    $("verify").disabled = false;
  } catch (error) {
    $("request").textContent = `could not create a request: ${error.message}`;
  }
}

async function verify() {
  if (!created) return;
  const request = created;
  created = null;
  $("verify").disabled = true;
  $("page").textContent = "waiting for the wallet…";
  $("backend").textContent = "-";
  $("elements").textContent = "";
  let credential;
  try {
    // Called first in the click handler: the browser needs the click's transient activation.
    credential = await navigator.credentials.get({digital: {requests: [{protocol: request.protocol, data: request.data}]}});
  } catch (error) {
    $("page").textContent = `the wallet did not answer: ${error.name}`;
    return prepare();
  }
  try {
    const answered = await fetch(`/v1/wallet/${encodeURIComponent(request.requestId)}/response`, {
      method: "POST", headers: {"content-type": "application/json", "x-client-secret": request.clientSecret},
      body: JSON.stringify(credential),
    });
    const page = await answered.json();
    $("page").textContent = page.status || (page.error ? page.error.code : `HTTP ${answered.status}`);
    const polled = await fetch(`/v1/demo/transactions/${encodeURIComponent(request.requestId)}`);
    const backend = await polled.json();
    $("backend").textContent = backend.status || (backend.error ? backend.error.code : `HTTP ${polled.status}`);
    const report = backend.report || {};
    const lines = [];
    for (const document of report.documents || []) {
      for (const [nameSpace, elements] of Object.entries(document.elements || {})) {
        for (const [name, value] of Object.entries(elements)) lines.push(`${nameSpace} ${name}: ${JSON.stringify(value)}`);
      }
    }
    for (const error of report.errors || []) lines.push(`${error.code}: ${error.message}`);
    $("elements").textContent = lines.join("\n");
  } catch (error) {
    $("page").textContent = `could not post the answer: ${error.message}`;
  }
  prepare();
}

document.addEventListener("DOMContentLoaded", () => {
  $("format").addEventListener("change", prepare);
  $("verify").addEventListener("click", verify);
  prepare();
});
