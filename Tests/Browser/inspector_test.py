#!/usr/bin/python3
"""The inspector page in a real browser: Debian's headless Chromium driven by Selenium (chromium-driver).

Starts the built verify-server on loopback with the inspector on (test mode, Apple's sample key and root, the
sample's verification time), submits Apple's signed sample and asserts the verdict, a check row, an element and
the portrait; then a tampered response and asserts its error code is shown; then a DeviceResponse whose version holds
control and bidi characters, which must be drawn as escapes. "Load sample" fills Apple's sample, which verifies, and
for device-response ISO Annex D's with its reader key, whose deviceMac must check. No Content-Security-Policy
violation may be logged. Screenshots of both go to the folder given (kept out of git).

usage: Tests/Browser/inspector_test.py <verify-server binary> <screenshot folder>
Run by .ci/run; needs the Debian packages chromium, chromium-driver and python3-selenium (Debian's python3).
"""
import pathlib
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
from browser_support import SAMPLE, browser, csp_violations, free_port, start_server, stop_server  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


def labelled(path):
    values = {}
    for line in path.read_text().splitlines():
        if ":" in line:
            label, value = line.split(":", 1)
            values[label.strip()] = value.strip()
    return values


def start_inspector(binary, folder):
    """verify-server with the inspector on, for Apple's sample; returns it, its base URL and the sample's parameters."""
    parameters = labelled(SAMPLE / "session_transcript_parameters.txt")
    config = {
        "host": "127.0.0.1", "port": free_port(), "operatorPort": 0, "testMode": True, "inspector": True,
        "merchantID": parameters["Merchant ID"], "teamID": parameters["Team ID"],
        "decryptionKeys": [str(SAMPLE / "merchant_encryption.key")], "trustStore": [str(SAMPLE / "issuer_root.crt")],
        "verificationTime": "2022-06-01T00:00:00Z", "storeURL": "memory:", "revocationFetch": False, "logLevel": "warning",
    }
    server, base = start_server(binary, folder, config)
    return server, base, parameters


def submit(driver, base, envelope_hex, parameters):
    driver.get(base + "/inspect")
    Select(driver.find_element(By.ID, "format")).select_by_value("apple-app")
    # A 12 KB paste: set the value directly, as a paste would, instead of typing it key by key.
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                          driver.find_element(By.ID, "response"), envelope_hex)
    driver.find_element(By.ID, "merchantId").send_keys(parameters["Merchant ID"])
    driver.find_element(By.ID, "teamId").send_keys(parameters["Team ID"])
    driver.find_element(By.ID, "nonce").send_keys(parameters["Nonce"])
    driver.find_element(By.ID, "verify").click()
    return WebDriverWait(driver, 20).until(EC.visibility_of_element_located((By.ID, "verdict")))


def text_item(text):
    """A CBOR text string (major type 3) of fewer than 256 bytes."""
    data = text.encode()
    return (bytes([0x60 + len(data)]) if len(data) < 24 else bytes([0x78, len(data)])) + data


def controls_response():
    """A DeviceResponse whose unsigned version carries ESC, CR and a bidi override: refused, with the version quoted."""
    return (bytes([0xA3]) + text_item("version") + text_item("9\x1b[2J\r\u202eVERIFIED") + text_item("documents") + bytes([0x80])
            + text_item("status") + bytes([0x00])).hex()


def submit_device_response(driver, base, response_hex):
    driver.get(base + "/inspect")
    Select(driver.find_element(By.ID, "format")).select_by_value("device-response")
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                          driver.find_element(By.ID, "response"), response_hex)
    # SessionTranscript [null, null, null]
    driver.find_element(By.ID, "sessionTranscript").send_keys("83f6f6f6")
    driver.find_element(By.ID, "verify").click()
    return WebDriverWait(driver, 20).until(EC.visibility_of_element_located((By.ID, "verdict")))


def load_sample(driver, base, format_value):
    """Chooses the format, clicks "Load sample" and verifies what it filled."""
    driver.get(base + "/inspect")
    Select(driver.find_element(By.ID, "format")).select_by_value(format_value)
    driver.find_element(By.ID, "sample").click()
    note = driver.find_element(By.ID, "sample-note")
    filled = {name: driver.find_element(By.ID, name).get_attribute("value")
              for name in ("response", "nonce", "sessionTranscript", "readerPrivateKey")}
    driver.find_element(By.ID, "verify").click()
    verdict = WebDriverWait(driver, 20).until(EC.visibility_of_element_located((By.ID, "verdict")))
    return verdict, note, filled


def main():
    binary, shots = sys.argv[1], pathlib.Path(sys.argv[2])
    shots.mkdir(parents=True, exist_ok=True)
    envelope_hex = "".join((SAMPLE / "hpke_envelope.cbor.hex").read_text().split())
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        server, base, parameters = start_inspector(binary, folder)
        driver = browser("1280,2600")
        try:
            verdict = submit(driver, base, envelope_hex, parameters)
            checks = driver.find_element(By.ID, "checks").text
            documents = driver.find_element(By.ID, "documents").text
            portraits = driver.find_elements(By.CSS_SELECTOR, "#documents img")
            driver.save_screenshot(str(shots / "inspector-verified.png"))
            if "VERIFIED" not in verdict.text:
                failures.append(f"sample: verdict {verdict.text!r}")
            if "hpke.open" not in checks or "issuer.signature" not in checks:
                failures.append("sample: the checks table lacks hpke.open or issuer.signature")
            if "family_name" not in documents or "Doe" not in documents:
                failures.append("sample: family_name Doe is not shown")
            if not any((img.get_attribute("src") or "").startswith("data:image/jpeg;base64,") for img in portraits):
                failures.append("sample: the portrait is not shown as an image")
            if not driver.find_elements(By.CSS_SELECTOR, "#cbor details"):
                failures.append("sample: no collapsible decoded CBOR")

            # One hex digit of the ciphertext changed: HPKE must refuse it, and the page must say so by its code.
            position = len(envelope_hex) - 40
            tampered = envelope_hex[:position] + ("0" if envelope_hex[position] != "0" else "1") + envelope_hex[position + 1:]
            verdict = submit(driver, base, tampered, parameters)
            codes = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#result .error-code")]
            driver.save_screenshot(str(shots / "inspector-rejected.png"))
            if "REJECTED" not in verdict.text:
                failures.append(f"tampered: verdict {verdict.text!r}")
            if not any("hpke.open_failed" in code for code in codes):
                failures.append(f"tampered: error codes shown {codes}")
            # Control and bidi characters from the response are drawn as visible escapes, never as themselves.
            verdict = submit_device_response(driver, base, controls_response())
            shown = driver.find_element(By.ID, "result").get_attribute("textContent")
            if "REJECTED" not in verdict.text:
                failures.append(f"controls: verdict {verdict.text!r}")
            if "9\\u{1B}[2J\\u{D}\\u{202E}VERIFIED" not in shown:
                failures.append(f"controls: the version is not shown escaped: {shown[:400]!r}")
            if any(c in shown for c in "\x1b\r\u202e"):
                failures.append("controls: a raw control or bidi character reached the page")

            # "Load sample" on the default format: Apple's sample, which this server verifies.
            verdict, note, filled = load_sample(driver, base, "apple-app")
            driver.save_screenshot(str(shots / "inspector-sample.png"))
            if "VERIFIED" not in verdict.text or "REJECTED" in verdict.text:
                failures.append(f"load sample: verdict {verdict.text!r}")
            if filled["response"] != envelope_hex or filled["nonce"] != parameters["Nonce"]:
                failures.append("load sample: the response or nonce is not Apple's sample")
            if not note.is_displayed() or "in-app-sample" not in note.text:
                failures.append(f"load sample: the note is not shown: {note.text!r}")

            # The reader key: Annex D's sample is MACed; with its reader key deviceMac checks (the issuer is not
            # trusted here, so the verdict stays REJECTED, but never for a missing or wrong MAC).
            verdict, note, filled = load_sample(driver, base, "device-response")
            checks = driver.find_element(By.ID, "checks").text
            shown = driver.find_element(By.ID, "result").text
            driver.save_screenshot(str(shots / "inspector-reader-key.png"))
            if not filled["readerPrivateKey"].startswith("-----BEGIN PRIVATE KEY-----") or not filled["sessionTranscript"]:
                failures.append("reader key: the sample did not fill the transcript and reader key")
            if "deviceMac" not in checks or "device.auth_missing" in shown or "device.mac_invalid" in shown:
                failures.append(f"reader key: deviceMac not checked: {checks[:600]!r}")

            violations = csp_violations(driver)
            if violations:
                failures.append(f"csp: violations {violations}")
        finally:
            driver.quit()
            stop_server(server)
    for failure in failures:
        print("FAIL:", failure)
    print(f"screenshots: {', '.join(str(shots / name) for name in ('inspector-verified.png', 'inspector-rejected.png', 'inspector-sample.png', 'inspector-reader-key.png'))}")
    failed = len({failure.split(":")[0] for failure in failures})
    # sample, tampered, controls, load sample, reader key, CSP
    print(f"inspector browser scenarios: {6 - failed} passed, {failed} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
