#!/usr/bin/env python3
"""Runs the shell examples of the README and the DocC articles against built binaries (CI runs it).

    docs/run-doc-blocks.py BIN_DIR [--verbose] [--list] [DOCUMENT ...]

BIN_DIR is the folder holding the built executables (e.g. .build/debug). DOCUMENT defaults to README.md and every
Sources/*/*.docc/*.md. A fenced block runs when its info string is `sh runnable` (GitHub and DocC show it as an
ordinary shell block). Each document's runnable blocks run in order, each in its own `bash` with
`set -euo pipefail`, all in one fresh temporary folder per document, so a block may use the files an earlier block
of the same document wrote; shell variables do not carry over (each block sets what it uses). The folder looks
like the repository root to the blocks, as it does to a reader who copies them there: `TestVectors`,
`Certificates` and `docs` link to the repository's, `.build/release` and `.build/debug` to BIN_DIR. The
environment has `B` (BIN_DIR/mdocverify), `REPO` (the repository root) and BIN_DIR first on `PATH`.

A block fails on a non-zero exit, on a timeout, on a repository path it names that does not exist, or when it
leaves a process running (a block that starts a server must stop it). The first failure stops the run with a
non-zero exit naming the document, the block and its line, and keeps its folder for a look.
"""

import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = "runnable"
SHELLS = {"sh", "bash", "shell"}
BLOCK_TIMEOUT = 30  # seconds; the whole run takes a few seconds on a debug build
SHOWN_LINES = 12  # output lines printed per block that passed (all of them with --verbose or on failure)
LINKED = ["TestVectors", "Certificates", "docs"]
REPO_PATH = re.compile(r"(?<![\w./$-])(?:\$REPO/|\$\{REPO\}/)?((?:TestVectors|Certificates|docs|Sources)/[^\s\"'`)$|;&<>]*)")
FENCE = re.compile(r"^( *)(`{3,}|~{3,})(.*)$")


class Block:
    def __init__(self, document, line, info, text):
        self.document, self.line, self.info, self.text = document, line, info, text

    @property
    def runnable(self):
        words = self.info.split()
        return MARKER in words[1:]


def display_name(document):
    path = os.path.abspath(document)
    return os.path.relpath(path, REPO) if path.startswith(REPO + os.sep) else path


def blocks(document):
    """The fenced code blocks of a Markdown file, with the line of their opening fence."""
    found, lines = [], open(document, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match or (match.group(2)[0] == "`" and "`" in match.group(3)):
            index += 1
            continue
        indent, fence, info = len(match.group(1)), match.group(2), match.group(3).strip()
        start, body = index + 1, []
        index += 1
        while index < len(lines):
            stripped = lines[index].strip()
            if stripped.startswith(fence[0] * len(fence)) and stripped.strip(fence[0]) == "":
                break
            line = lines[index]
            body.append(line[min(indent, len(line) - len(line.lstrip(" "))):])
            index += 1
        found.append(Block(display_name(document), start, info, "\n".join(body) + "\n"))
        index += 1
    return found


def check_marker(block):
    words = block.info.split()
    if MARKER in words[1:] and (not words or words[0] not in SHELLS):
        return f"marked {MARKER} but its language is {words[0]!r}, not one of {sorted(SHELLS)}"
    if words and words[0] == MARKER:
        return f"'{MARKER}' must follow the language: ```sh {MARKER}"
    return None


def missing_paths(block):
    missing = []
    for match in REPO_PATH.finditer(block.text):
        path = match.group(1).rstrip(".,:")
        if "*" in path or "…" in path:
            continue
        if not os.path.exists(os.path.join(REPO, path)):
            missing.append(path)
    return missing


def prepare_folder(bin_dir):
    folder = tempfile.mkdtemp(prefix="doc-blocks-")
    for name in LINKED:
        os.symlink(os.path.join(REPO, name), os.path.join(folder, name))
    os.mkdir(os.path.join(folder, ".build"))
    for name in ("release", "debug"):
        os.symlink(bin_dir, os.path.join(folder, ".build", name))
    return folder


def environment(bin_dir):
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERIFY_SERVER_") and k not in ("BASH_ENV", "ENV")}
    env.update(B=os.path.join(bin_dir, "mdocverify"), REPO=REPO, PATH=bin_dir + os.pathsep + env.get("PATH", ""))
    return env


def group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def run_block(block, folder, env):
    """Runs one block; returns (failure or None, output, seconds)."""
    script = "set -euo pipefail\n" + block.text
    started, failure = time.monotonic(), None
    # Output goes to a file, not a pipe, so a process the block leaves behind cannot hold the run open.
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(["bash", "--noprofile", "--norc", "-c", script], cwd=folder, env=env,
                                   stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        try:
            process.wait(timeout=BLOCK_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            failure = f"timed out after {BLOCK_TIMEOUT} s"
        seconds = time.monotonic() - started
        if failure is None and process.returncode != 0:
            failure = f"exit status {process.returncode}"
        if group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
            failure = failure or "left a process running (a block that starts a server must stop it)"
        output.seek(0)
        return failure, output.read().decode("utf-8", "replace"), seconds


def show(text, prefix, limit=None):
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    for line in lines[:limit] if limit else lines:
        print(prefix + line)
    if limit and len(lines) > limit:
        print(f"{prefix}… {len(lines) - limit} more line(s)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin_dir", help="folder of the built executables, e.g. .build/debug")
    parser.add_argument("documents", nargs="*", help="Markdown files (default: README.md and the DocC articles)")
    parser.add_argument("--verbose", action="store_true", help="print every block's whole output")
    parser.add_argument("--list", action="store_true", help="list the runnable blocks without running them")
    arguments = parser.parse_args()

    bin_dir = os.path.abspath(arguments.bin_dir)
    if not arguments.list and not os.access(os.path.join(bin_dir, "mdocverify"), os.X_OK):
        sys.exit(f"run-doc-blocks: no executable mdocverify in {bin_dir}: build first (swift build)")
    documents = arguments.documents or [os.path.join(REPO, "README.md")] + sorted(
        glob.glob(os.path.join(REPO, "Sources", "*", "*.docc", "*.md")))

    total, started = 0, time.monotonic()
    for document in documents:
        all_blocks = blocks(os.path.abspath(document))
        for block in all_blocks:
            problem = check_marker(block)
            if problem:
                sys.exit(f"run-doc-blocks: {block.document}:{block.line}: {problem}")
        runnable = [block for block in all_blocks if block.runnable]
        if not runnable:
            continue
        name = display_name(document)
        print(f"== {name}: {len(runnable)} runnable block(s)")
        if arguments.list:
            for block in runnable:
                print(f"   line {block.line}: {block.text.strip().splitlines()[0]}")
            continue
        folder, env = prepare_folder(bin_dir), environment(bin_dir)
        for number, block in enumerate(runnable, 1):
            where = f"{name}, block {number} (line {block.line})"
            print(f"-- {where}")
            show(block.text, "   $ ")
            missing = missing_paths(block)
            if missing:
                print(f"FAILED {where}: names missing file(s): {', '.join(missing)}")
                sys.exit(1)
            failure, output, seconds = run_block(block, folder, env)
            if failure:
                show(output, "   | ")
                print(f"FAILED {where}: {failure}; its folder is kept: {folder}")
                sys.exit(1)
            show(output, "   | ", None if arguments.verbose else SHOWN_LINES)
            print(f"   ok ({seconds:.1f} s)")
            total += 1
        shutil.rmtree(folder)
    if not arguments.list:
        print(f"run-doc-blocks: {total} block(s) passed in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
