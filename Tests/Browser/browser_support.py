"""What the browser tests share: a free loopback port, verify-server started from a JSON configuration and waited
for on /healthz, Debian's headless Chromium under Selenium (chromium-driver), and the page's CSP violations.

Needs the Debian packages chromium, chromium-driver and python3-selenium (Debian's python3)."""
import json
import pathlib
import socket
import subprocess
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "TestVectors/apple/in-app-sample"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary, folder, config):
    """Writes `config` to folder/verify-server.json, starts `binary` on it and waits until /healthz answers 200 on
    config's host and port; returns the process and its base URL. Exits when the server does not come up."""
    path = pathlib.Path(folder) / "verify-server.json"
    path.write_text(json.dumps(config))
    server = subprocess.Popen([binary, "--config", str(path)])
    base = f"http://{config['host']}:{config['port']}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return server, base
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("verify-server did not start")


def stop_server(server):
    server.terminate()
    server.wait(timeout=10)


def browser(window_size, script_on_new_document=None):
    """Headless Chromium logging the browser console, at `window_size` ("width,height"); the script, if given, runs
    before any page script of every document."""
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={window_size}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if script_on_new_document:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script_on_new_document})
    return driver


def csp_violations(driver):
    return [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]
