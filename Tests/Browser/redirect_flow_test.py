#!/usr/bin/python3
"""OpenID4VP by QR code or link (openid4vp-redirect) in a real browser, read with a real QR decoder.

Starts the built verify-server on loopback in test mode with the demo page on and the test reader identity
(TestVectors/reader; the format is offered only with one). In Debian's headless Chromium the demo page creates a
transaction and shows its QR code; a screenshot of the code is decoded with Debian's zbarimg (zbar-tools), so the test
reads what a phone would. The decoded authorization request is handed to the compliance kit's wallet. Scenarios:

- cross-device: the QR code decodes to the page's own link; `mdocverify simulate openid4vp-redirect --post` is the
  wallet: it POSTs a wallet_nonce to request_uri, checks the signed request object, answers and POSTs the form to
  response_uri; the page, polling, shows verified with the elements; a second fetch of the request object is 409;
- same-device: this test fetches the request object with wallet_metadata, `mdocverify simulate` checks it and
  builds the answer from files, and this test POSTs it; the answer carries redirect_uri with a response_code; the
  browser follows it, the page reads the result with the code and shows verified; the result is not readable without
  the code (403).

usage: Tests/Browser/redirect_flow_test.py <verify-server binary> <mdocverify binary>
Run by .ci/run; needs chromium, chromium-driver, python3-selenium and zbar-tools (Debian).
"""
import base64
import json
import pathlib
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
from browser_support import ROOT, SAMPLE, browser, csp_violations, free_port, start_server, stop_server  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

KIT_IACA = ROOT / "Certificates/test/mdoctesting-seed-1-iaca.pem"
READER = ROOT / "TestVectors/reader"
DEMO_DOCUMENTS = [{"docType": "org.iso.18013.5.1.mDL",
                   "nameSpaces": {"org.iso.18013.5.1": {"family_name": False, "given_name": False, "age_over_21": False}}}]


def post_form(url, fields):
    """(status, body bytes, content type) of a form POST."""
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(url, method="POST", data=data,
                                     headers={"content-type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.read(), answer.headers.get("content-type")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("content-type")


def decoded_qr(driver, folder, name):
    """The text of the page's QR code, read from a screenshot of it by zbarimg."""
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "const i = document.getElementById('qr'); return i.complete && i.naturalWidth > 0 && !document.getElementById('by-reference').hidden"))
    shot = pathlib.Path(folder) / f"{name}.png"
    driver.find_element(By.ID, "qr").screenshot(str(shot))
    result = subprocess.run(["zbarimg", "--raw", "--quiet", str(shot)], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else None


def wallet(mdocverify, folder, name, authorization_request):
    """The kit's wallet for `authorization_request`: fetch the request object (POST, wallet_nonce), check it, answer.
    Returns (response_uri status, its JSON body, the request_uri of a second fetch's status)."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(authorization_request).query)
    request_uri = query["request_uri"][0]
    status, body, content_type = post_form(request_uri, {"wallet_nonce": f"nonce-{name}",
                                                         "wallet_metadata": json.dumps({"vp_formats_supported": {"mso_mdoc": {}}})})
    if status != 200 or content_type != "application/oauth-authz-req+jwt":
        raise AssertionError(f"request_uri answered {status} {content_type} {body[:200]!r}")
    out = pathlib.Path(folder) / name
    out.mkdir()
    (out / "authorization-request.txt").write_text(authorization_request)
    (out / "request-object.jwt").write_text(body.decode())
    (out / "request.json").write_text(json.dumps({"documents": DEMO_DOCUMENTS}))
    subprocess.run([mdocverify, "simulate", "openid4vp-redirect", "--authorization-request", str(out / "authorization-request.txt"),
                    "--request-object", str(out / "request-object.jwt"), "--wallet-nonce", f"nonce-{name}",
                    "--request", str(out / "request.json"), "--out", str(out / "wallet")], check=True, capture_output=True)
    form = (out / "wallet/response.txt").read_text().strip()
    payload = jwt_payload(body.decode())
    answer = urllib.request.Request(payload["response_uri"], method="POST", data=form.encode(),
                                    headers={"content-type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(answer, timeout=30) as posted:
        result = posted.status, json.loads(posted.read() or b"{}")
    second, _, _ = post_form(request_uri, {})
    return result[0], result[1], second


def jwt_payload(jws):
    segment = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def text(driver, element):
    return driver.find_element(By.ID, element).text


def open_demo(driver, origin, same_device):
    driver.get(origin + "/demo")
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "verify").is_enabled() or "expires" in text(d, "request"))
    if same_device:
        driver.find_element(By.ID, "same-device").click()
    Select(driver.find_element(By.ID, "format")).select_by_value("openid4vp-redirect")


def cross_device(driver, mdocverify, folder, origin, failures):
    open_demo(driver, origin, same_device=False)
    decoded = decoded_qr(driver, folder, "cross-device-qr")
    link = driver.find_element(By.ID, "wallet-link").get_attribute("href")
    if not decoded or decoded != link or not decoded.startswith("openid4vp://?client_id=x509_hash%3A"):
        failures.append(f"cross-device: the QR code decodes to {decoded!r}, the page's link is {link!r}")
        return
    # Here mdocverify is the whole wallet: it fetches the request object from request_uri and posts to response_uri.
    out = pathlib.Path(folder) / "cross-device"
    out.mkdir()
    (out / "request.json").write_text(json.dumps({"documents": DEMO_DOCUMENTS}))
    simulated = subprocess.run([mdocverify, "simulate", "openid4vp-redirect", "--authorization-request", decoded, "--post",
                                "--request", str(out / "request.json"), "--out", str(out / "wallet")], capture_output=True, text=True)
    if simulated.returncode != 0 or "posted:   response_uri answered 200" not in simulated.stdout:
        failures.append(f"cross-device: the wallet's fetch and post failed: {simulated.stdout} {simulated.stderr}")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(decoded).query)
    second, _, _ = post_form(query["request_uri"][0], {})
    if second != 409:
        failures.append(f"cross-device: a second fetch of the request object answered {second}, not 409")
    WebDriverWait(driver, 30).until(lambda d: text(d, "backend") not in ("-", "", "pending", "fetched"))
    if text(driver, "backend") != "verified" or "family_name" not in text(driver, "elements"):
        failures.append(f"cross-device: the page shows {text(driver, 'backend')!r} {text(driver, 'elements')!r}")


def same_device(driver, mdocverify, folder, origin, failures):
    open_demo(driver, origin, same_device=True)
    decoded = decoded_qr(driver, folder, "same-device-qr")
    link = driver.find_element(By.ID, "wallet-link").get_attribute("href")
    if decoded != link:
        failures.append(f"same-device: the QR code decodes to {decoded!r}, the link is {link!r}")
        return
    status, body, _ = wallet(mdocverify, folder, "same-device", link)
    redirect = body.get("redirect_uri", "")
    if status != 200 or not redirect.startswith(origin + "/demo#response_code="):
        failures.append(f"same-device: response_uri answered {status} {body}")
        return
    request_id = driver.execute_script("return sessionStorage.getItem('demo.requestId')")
    try:
        with urllib.request.urlopen(f"{origin}/v1/demo/transactions/{request_id}", timeout=10) as answer:
            failures.append(f"same-device: the result was readable without the response_code ({answer.status})")
    except urllib.error.HTTPError as error:
        if error.code != 403:
            failures.append(f"same-device: without the response_code the status answered {error.code}, not 403")
    # The wallet app opens the redirect in the browser: a new load of the page.
    driver.get("about:blank")
    driver.get(redirect)
    WebDriverWait(driver, 30).until(lambda d: text(d, "backend") not in ("-", ""))
    if text(driver, "backend") != "verified" or "family_name" not in text(driver, "elements"):
        failures.append(f"same-device: after the redirect the page shows {text(driver, 'backend')!r} {text(driver, 'elements')!r}")
    if "response_code" in driver.current_url:
        failures.append("same-device: the response_code stayed in the address bar")


def main():
    binary, mdocverify = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        origin = f"http://127.0.0.1:{port}"
        config = {
            "host": "127.0.0.1", "port": port, "operatorPort": 0, "testMode": True, "trustStore": [str(KIT_IACA)], "storeURL": "memory:",
            "merchantID": "PassKit_Identity_Test_Merchant_ID", "teamID": "PassKit_Identity_Test_Team_ID",
            "decryptionKeys": [str(SAMPLE / "merchant_encryption.key")],
            "revocationFetch": False, "logLevel": "warning", "demoOrigin": origin,
            "readerKey": str(READER / "reader-key.pem"), "readerCertificates": [str(READER / "reader-cert.pem")],
        }
        server, _ = start_server(binary, folder, config)
        driver = browser("1280,1400")
        try:
            cross_device(driver, mdocverify, folder, origin, failures)
            same_device(driver, mdocverify, folder, origin, failures)
            violations = csp_violations(driver)
            if violations:
                failures.append(f"csp: violations {violations}")
        finally:
            driver.quit()
            stop_server(server)
    for failure in failures:
        print("FAIL:", failure)
    scenarios = ["cross-device", "same-device", "csp"]
    failed = {name for name in scenarios if any(failure.startswith(name + ":") for failure in failures)}
    print(f"redirect flow browser scenarios: {len(scenarios) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
