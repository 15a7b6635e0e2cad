#!/usr/bin/python3
"""The web flow in a real browser: Debian's headless Chromium driven by Selenium (chromium-driver).

Starts the built verify-server on loopback in test mode with an API key (made by `verify-server --new-api-key`) whose
origin is the server's own, and the demo page on. `navigator.credentials.get` is stubbed before any page script runs:
without the click's transient activation it rejects with NotAllowedError, as the browser does; with it, it hands the
page's own request to this test, which runs the compliance kit (`mdocverify simulate annex-c|openid4vp --request …`)
as the wallet and resolves the call with the kit's answer. Scenarios, end to end:

- the demo page, Annex C and OpenID4VP: click → wallet → the page posts JSON.stringify(credential) to the wallet-facing
  endpoint (page sees "accepted") → the backend's result, verified, with the elements;
- the backend API: this test creates a transaction with the API key, a page on the key's origin runs the same call and
  post, and the test reads the verified result with the key; then, from the page, a second answer → 409 and a wrong
  secret → 404; without the key, create → 401;
- no activation (a script's click) → NotAllowedError shown, nothing posted;
- CORS: the wallet endpoint is readable cross-origin from the key's origin, not from another one.

usage: Tests/Browser/web_flow_test.py <verify-server binary> <mdocverify binary>
Run by .ci/run; needs the Debian packages chromium, chromium-driver and python3-selenium (Debian's python3).
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
from browser_support import ROOT, SAMPLE, browser, csp_violations, free_port, start_server, stop_server  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

# The kit's IACA for its default seed (1): what `mdocverify simulate` signs with.
KIT_IACA = ROOT / "Certificates/test/mdoctesting-seed-1-iaca.pem"
# The demo page's default request (DemoHandler.demoDocuments), for the kit to disclose exactly that.
DEMO_DOCUMENTS = [{"docType": "org.iso.18013.5.1.mDL",
                   "nameSpaces": {"org.iso.18013.5.1": {"family_name": False, "given_name": False, "age_over_21": False}}}]

# Installed before any page script: a wallet that needs the click's activation and hands the request to the test.
STUB = """
(() => {
  const original = navigator.credentials.get.bind(navigator.credentials);
  window.__walletCalls = 0;
  navigator.credentials.get = function (options) {
    if (!options || !options.digital) return original(options);
    window.__walletCalls += 1;
    if (!navigator.userActivation.isActive) {
      return Promise.reject(new DOMException("requires transient activation", "NotAllowedError"));
    }
    return new Promise((resolve, reject) => {
      window.__wallet = {requests: JSON.parse(JSON.stringify(options.digital.requests)), resolve, reject};
    });
  };
})();
"""


def new_api_key(binary):
    listing = subprocess.run([binary, "--new-api-key", "web-flow-test"], check=True, capture_output=True, text=True).stdout
    key = next(line.strip() for line in listing.splitlines() if line.strip().startswith("vsk_"))
    sha256 = next(line.split(":", 1)[1].strip() for line in listing.splitlines() if line.strip().startswith("sha256:"))
    return key, sha256


def start_web_flow(binary, folder):
    """verify-server in test mode with a new API key for its own origin and the demo page on; returns it, its origin,
    port and the key."""
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    key, sha256 = new_api_key(binary)
    config = {
        "host": "127.0.0.1", "port": port, "operatorPort": 0, "testMode": True,
        "merchantID": "PassKit_Identity_Test_Merchant_ID", "teamID": "PassKit_Identity_Test_Team_ID",
        "decryptionKeys": [str(SAMPLE / "merchant_encryption.key")], "trustStore": [str(KIT_IACA)],
        "storeURL": "memory:", "revocationFetch": False, "logLevel": "warning",
        "apiKeys": [{"id": "web-flow-test", "sha256": sha256, "origins": [origin]}],
        "demoOrigin": origin,
    }
    server, _ = start_server(binary, folder, config)
    return server, origin, port, key


def http(method, url, body=None, headers=None):
    """(status, parsed JSON body or None) of one request."""
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            status, text = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, None


def simulate(mdocverify, folder, request, origin, name):
    """The kit's wallet answer ({protocol, data}) to the page's own request {protocol, data}."""
    out = pathlib.Path(folder) / name
    out.mkdir()
    policy = out / "request.json"
    policy.write_text(json.dumps({"documents": DEMO_DOCUMENTS}))
    if request["protocol"] == "org-iso-mdoc":
        info = out / "encryption-info.txt"
        info.write_text(request["data"]["encryptionInfo"])
        subprocess.run([mdocverify, "simulate", "annex-c", "--encryption-info", str(info), "--origin", origin,
                        "--request", str(policy), "--out", str(out / "wallet")], check=True, capture_output=True)
        return {"protocol": "org-iso-mdoc", "data": {"response": (out / "wallet/response.txt").read_text().strip()}}
    dc_request = out / "dc-request.json"
    dc_request.write_text(json.dumps(request))
    subprocess.run([mdocverify, "simulate", "openid4vp", "--dc-request", str(dc_request), "--origin", origin,
                    "--request", str(policy), "--out", str(out / "wallet")], check=True, capture_output=True)
    return json.loads((out / "wallet/response.json").read_text())


def answer_wallet(driver, mdocverify, folder, origin, name):
    """Waits for the page's navigator.credentials.get, answers it as the kit's wallet; returns the page's request."""
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return !!window.__wallet"))
    requests = driver.execute_script("return window.__wallet.requests")
    answer = simulate(mdocverify, folder, requests[0], origin, name)
    driver.execute_script("const w = window.__wallet; window.__wallet = null; w.resolve(arguments[0]);", answer)
    return requests[0]


def text(driver, element):
    return driver.find_element(By.ID, element).text


def demo_scenario(driver, mdocverify, folder, origin, format_name, protocol, failures):
    driver.get(origin + "/demo")
    Select(driver.find_element(By.ID, "format")).select_by_value(format_name)
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "verify").is_enabled()
                                    and protocol in text(d, "request"))
    driver.find_element(By.ID, "verify").click()
    request = answer_wallet(driver, mdocverify, folder, origin, f"demo-{format_name}")
    if request["protocol"] != protocol:
        failures.append(f"demo {format_name}: the page asked for protocol {request['protocol']!r}")
    WebDriverWait(driver, 30).until(lambda d: text(d, "backend") not in ("-", ""))
    page, backend, elements = text(driver, "page"), text(driver, "backend"), text(driver, "elements")
    if page != "accepted":
        failures.append(f"demo {format_name}: the page shows {page!r}, not accepted")
    if backend != "verified" or "family_name" not in elements:
        failures.append(f"demo {format_name}: the backend shows {backend!r} and elements {elements!r}")


# A page script of the relying party's own page: ask the wallet at the click, post its answer with the secret.
PAGE_FLOW = """
const created = arguments[0];
const button = document.createElement("button");
button.id = "rp-verify";
button.textContent = "Verify (relying party page)";
window.__rp = null;
button.addEventListener("click", async () => {
  const credential = await navigator.credentials.get({digital: {requests: [{protocol: created.protocol, data: created.data}]}});
  window.__credential = JSON.stringify(credential);
  const post = (secret) => fetch(`/v1/wallet/${created.requestId}/response`, {method: "POST",
    headers: {"content-type": "application/json", "x-client-secret": secret}, body: window.__credential});
  const wrong = await post(created.clientSecret.split("").reverse().join(""));
  const first = await post(created.clientSecret);
  const second = await post(created.clientSecret);
  window.__rp = {wrong: wrong.status, first: first.status, firstBody: await first.json(), second: second.status};
});
document.body.appendChild(button);
"""


def backend_scenario(driver, mdocverify, folder, origin, key, failures):
    status, _ = http("POST", origin + "/v1/transactions", {"format": "annex-c", "documents": DEMO_DOCUMENTS})
    if status != 401:
        failures.append(f"backend: create without the API key answered {status}, not 401")
    status, created = http("POST", origin + "/v1/transactions", {"format": "annex-c", "documents": DEMO_DOCUMENTS},
                           {"authorization": f"Bearer {key}"})
    if status != 201:
        failures.append(f"backend: create answered {status} {created}")
        return
    driver.get(origin + "/demo")
    driver.execute_script(PAGE_FLOW, created)
    driver.find_element(By.ID, "rp-verify").click()
    answer_wallet(driver, mdocverify, folder, origin, "backend")
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return window.__rp"))
    outcome = driver.execute_script("return window.__rp")
    if outcome["wrong"] != 404:
        failures.append(f"backend: a wrong client secret answered {outcome['wrong']}, not 404")
    if outcome["first"] != 200 or outcome["firstBody"] != {"status": "accepted"}:
        failures.append(f"backend: the answer got {outcome['first']} {outcome['firstBody']}")
    if outcome["second"] != 409:
        failures.append(f"backend: a second answer got {outcome['second']}, not 409")
    status, result = http("GET", f"{origin}/v1/transactions/{created['requestId']}", headers={"authorization": f"Bearer {key}"})
    if status != 200 or result.get("status") != "verified" or "family_name" not in json.dumps(result.get("report")):
        failures.append(f"backend: the result read with the key is {status} {str(result)[:300]}")


def activation_scenario(driver, origin, failures):
    driver.get(origin + "/demo")
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "verify").is_enabled())
    # A script's click carries no user activation: the stub (like the browser) refuses.
    driver.execute_script("document.getElementById('verify').click()")
    WebDriverWait(driver, 20).until(lambda d: "NotAllowedError" in text(d, "page"))
    if driver.execute_script("return window.__walletCalls") != 1 or text(driver, "backend") != "-":
        failures.append("activation: the call without activation reached further than NotAllowedError")


CROSS_ORIGIN = """
const done = arguments[arguments.length - 1];
fetch(arguments[0], {method: "POST", headers: {"content-type": "application/json", "x-client-secret": "x"},
                     body: JSON.stringify({response: "x"})})
  .then((answer) => done(answer.status), (error) => done(error.name));
"""


def cors_scenario(driver, origin, port, failures):
    target = "/v1/wallet/00000000-0000-4000-8000-000000000000/response"
    # Pages without a Content-Security-Policy of their own (JSON documents), so only CORS decides. From the key's
    # origin to the same server under another name: a cross-origin call (preflighted) whose answer may be read.
    driver.get(origin + "/healthz")
    allowed = driver.execute_async_script(CROSS_ORIGIN, f"http://localhost:{port}{target}")
    if allowed != 404:
        failures.append(f"cors: from the configured origin the answer was {allowed!r}, not a readable 404")
    # From an origin no key lists: the browser refuses to hand over the answer.
    driver.get(f"http://localhost:{port}/healthz")
    refused = driver.execute_async_script(CROSS_ORIGIN, f"{origin}{target}")
    if refused != "TypeError":
        failures.append(f"cors: from an unconfigured origin the answer was {refused!r}, not blocked")


def main():
    binary, mdocverify = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        server, origin, port, key = start_web_flow(binary, folder)
        driver = browser("1280,1400", STUB)
        try:
            driver.set_script_timeout(20)
            demo_scenario(driver, mdocverify, folder, origin, "annex-c", "org-iso-mdoc", failures)
            demo_scenario(driver, mdocverify, folder, origin, "openid4vp", "openid4vp-v1-unsigned", failures)
            backend_scenario(driver, mdocverify, folder, origin, key, failures)
            activation_scenario(driver, origin, failures)
            cors_scenario(driver, origin, port, failures)
            violations = csp_violations(driver)
            if violations:
                failures.append(f"csp: violations {violations}")
        finally:
            driver.quit()
            stop_server(server)
    for failure in failures:
        print("FAIL:", failure)
    scenarios = ["demo annex-c", "demo openid4vp", "backend", "activation", "cors", "csp"]
    failed = {name for name in scenarios if any(failure.startswith(name + ":") for failure in failures)}
    print(f"web flow browser scenarios: {len(scenarios) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
