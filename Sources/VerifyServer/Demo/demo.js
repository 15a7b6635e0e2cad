// The demo page: create (through the demo-only stand-in for a backend), ask the wallet, post the answer, show the
// backend's result. Every value from the server or the wallet is shown as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
let created = null;
let polling = null;

async function prepare() {
  created = null;
  clearInterval(polling);
  $("verify").disabled = true;
  $("by-reference").hidden = true;
  $("request").textContent = "preparing…";
  try {
    const response = await fetch("/v1/demo/transactions", {
      method: "POST", headers: {"content-type": "application/json"},
      body: JSON.stringify({format: $("format").value, sameDevice: $("same-device").checked}),
    });
    const body = await response.json();
    if (response.status !== 201) throw new Error(body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`);
    if (body.authorizationRequest) return showByReference(body);
    created = body;
    $("request").textContent = `${body.requestId} (${body.protocol}, expires ${body.expiresAt})`;
    $("verify").disabled = false;
  } catch (error) {
    $("request").textContent = `could not create a request: ${error.message}`;
  }
}

// A request the wallet fetches itself: its QR code and link; the page polls what the backend reads. On the same
// device the wallet returns the user here with a response_code, kept for this tab only.
function showByReference(body) {
  $("request").textContent = `${body.requestId} (${body.format}, expires ${body.expiresAt})`;
  $("qr").src = `/v1/demo/qr?text=${encodeURIComponent(body.authorizationRequest)}`;
  $("wallet-link").href = body.authorizationRequest;
  $("by-reference").hidden = false;
  $("page").textContent = "waiting for the wallet…";
  if ($("same-device").checked) sessionStorage.setItem("demo.requestId", body.requestId);
  polling = setInterval(() => poll(body.requestId, null), 1000);
}

async function poll(requestId, responseCode) {
  const query = responseCode ? `?response_code=${encodeURIComponent(responseCode)}` : "";
  const polled = await fetch(`/v1/demo/transactions/${encodeURIComponent(requestId)}${query}`);
  const backend = await polled.json();
  if (polled.status === 403) {
    clearInterval(polling);
    $("backend").textContent = "answered on the wallet's device: the result is read with its response_code";
    return;
  }
  show(backend, polled.status);
  if (!["pending", "fetched"].includes(backend.status)) clearInterval(polling);
}

function show(backend, status) {
  $("backend").textContent = backend.status || (backend.error ? backend.error.code : `HTTP ${status}`);
  const report = backend.report || {};
  const lines = [];
  for (const document of report.documents || []) {
    for (const [nameSpace, elements] of Object.entries(document.elements || {})) {
      for (const [name, value] of Object.entries(elements)) lines.push(`${nameSpace} ${name}: ${JSON.stringify(value)}`);
    }
  }
  for (const error of report.errors || []) lines.push(`${error.code}: ${error.message}`);
  $("elements").textContent = lines.join("\n");
}

// Back from the wallet on this device: read the result with the response_code of the redirect.
async function returned() {
  const code = new URLSearchParams(location.hash.slice(1)).get("response_code");
  const requestId = sessionStorage.getItem("demo.requestId");
  if (!code || !requestId) return false;
  clearInterval(polling);
  history.replaceState(null, "", location.pathname);
  sessionStorage.removeItem("demo.requestId");
  $("request").textContent = requestId;
  $("page").textContent = "back from the wallet";
  await poll(requestId, code);
  return true;
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
    show(await polled.json(), polled.status);
  } catch (error) {
    $("page").textContent = `could not post the answer: ${error.message}`;
  }
  prepare();
}

document.addEventListener("DOMContentLoaded", async () => {
  $("format").addEventListener("change", prepare);
  $("same-device").addEventListener("change", prepare);
  $("verify").addEventListener("click", verify);
  // The wallet's redirect to this very page changes only its fragment.
  window.addEventListener("hashchange", returned);
  if (!(await returned())) prepare();
});
