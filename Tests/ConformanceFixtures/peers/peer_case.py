"""What the peer shims share (standard library only, so it loads in any virtualenv): the case the conformance runner
names in MDOC_CONFORMANCE_CASE_DIR, and the answer line the runner reads."""
import datetime
import json
import os
import sys


class Case:
    """One case folder: its case.json, its files by role, and its verification time."""

    def __init__(self, folder):
        self.folder = folder
        with open(os.path.join(folder, "case.json")) as f:
            self.entry = json.load(f)
        self.files = self.entry["files"]
        self.at = datetime.datetime.fromisoformat(self.entry["at"].replace("Z", "+00:00"))

    def read(self, name):
        """The bytes of one file of the case, by its name inside the folder."""
        with open(os.path.join(self.folder, name), "rb") as f:
            return f.read()


def load():
    return Case(os.environ["MDOC_CONFORMANCE_CASE_DIR"])


def answer(verdict, reason=None):
    """Prints {"verdict", "code"} (the code is the library's own reason, free text, one line) and exits 0: the runner
    reads the verdict from the line, not from the exit status."""
    line = {"verdict": verdict}
    if reason:
        line["code"] = " ".join(str(reason).split())[:160]
    print(json.dumps(line))
    sys.exit(0)


def failure(error):
    """An exception from the library as a short reason: its class and message."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
