#!/usr/bin/env python3
"""Writes docs/conformance-results.md from the JSON results of run.sh (one file per verifier, written by
`mdocverify conformance run --json`), the corpus's case.json summaries and the pinned versions in
requirements-<library>.txt. Standard library only. run.sh calls it; by hand:

    python3 results_page.py --corpus TestVectors/conformance --results DIR --python 3.11.2 \
        --mdocverify-version "$(mdocverify --version)" --out docs/conformance-results.md"""
import argparse
import datetime
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures

HERE = os.path.dirname(os.path.abspath(__file__))
COMMAND = "Tests/ConformanceFixtures/peers/run.sh PATH/TO/mdocverify"

# What the page says about each library: where it comes from, how the shim calls it, what the API cannot be given.
# Keep these in step with the shims' docstrings.
PEERS = {
    "pymdoccbor": {
        "source": "`pymdoccbor` on PyPI (source: IdentityPython/pyMDOC-CBOR)",
        "called": "As its README's \"Verify with Certificate Chain and Element Hashes\" shows: `MdocCbor().loads(bytes)`, "
                  "then `verify(trusted_root_certs=[the case's IACA], verify_hashes=True)`; the shim answers with that "
                  "boolean, and an exception from the library is a reject. The library compares the Document Signer's "
                  "validity with `datetime.now()`; the shim sets that clock to the case's time (2026-06-01T12:00:00Z), "
                  "since the API has no parameter for it and the corpus's certificates are dated around that time.",
        "cannot": "The API takes no session transcript: pymdoccbor does not verify `deviceSigned`/`deviceAuth` at "
                  "all, so a response is accepted whoever signed it for whichever session. It takes no request, CRLs "
                  "or status lists, and no verification time (see the clock above). From its source, it does not "
                  "check the MSO's `validityInfo`, `docType` or `digestAlgorithm` (it always hashes with SHA-256), "
                  "the Document Signer's extensions, the DeviceResponse `status` or `documentErrors`.",
    },
    "isomdoc": {
        "source": "`isomdoc` on PyPI (source: leecam/pymdoc)",
        "called": "As its `examples/verify_mdoc.py` does: `verify_device_response(bytes, session_transcript)`, the "
                  "transcript decoded from `session-transcript.cbor`; it returns the parsed response or raises, and an "
                  "exception is a reject. The function takes no trust anchors; the example ends with \"Remember to "
                  "check the issuer cert\", so the shim does that check for it: each document's Document Signer (the "
                  "first certificate of its x5chain) must be issued directly by the case's IACA "
                  "(`cryptography`'s `Certificate.verify_directly_issued_by`: issuer name and signature, no dates).",
        "cannot": "The API takes no trust anchors (the shim's own check stands in, above), no verification time (it "
                  "reads no clock: from its source, neither the Document Signer's validity nor the MSO's "
                  "`validityInfo` is checked), no request, CRLs or status lists. It verifies `deviceSignature` over "
                  "the transcript it is given (as ES256 whatever the header says) and does not support `deviceMac`.",
        # A second run of the same shim with ISOMDOC_SHIM_ISSUER_CHECK=off: the library call alone.
        "variant": ("isomdoc-library-only", "The library call alone, without the shim's issuer check (as a caller "
                    "who forgets the example's reminder would have it)"),
    },
}
SELF_SHIM = "Tests/ConformanceFixtures/mdocverify_shim.py"
OUTCOMES = ["passed", "wrongly accepted", "wrongly rejected", "not applicable", "error"]


def cell(text):
    """Text for one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def code(text):
    return "`" + cell(text).replace("`", "'") + "`"


def load_cases(corpus):
    """The corpus's case.json entries by id."""
    with open(os.path.join(corpus, "manifest.json")) as f:
        manifest = json.load(f)
    return manifest, {entry["id"]: entry for entry in manifest["cases"]}


def load_results(path):
    with open(path) as f:
        results = json.load(f)
    counts = {outcome: 0 for outcome in OUTCOMES}
    for case in results["cases"]:
        counts[case["outcome"]] = counts.get(case["outcome"], 0) + 1
    results["counts"] = counts
    return results


def pins(library):
    """The name==version lines of requirements-<library>.txt."""
    with open(os.path.join(HERE, f"requirements-{library}.txt")) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def short(case_id):
    return case_id.split("/", 1)[1]


def reasons(case):
    return "; ".join(case.get("gotCodes") or []) or "—"


def counts_row(name, version, results):
    c = results["counts"]
    return (f"| {name} | {version} | {c['passed']} | **{c['wrongly accepted']}** | {c['wrongly rejected']} | "
            f"{c['not applicable']} | {c['error']} | {results['seconds']:.1f} s |")


def library_section(library, results, cases, variant=None):
    version = next(p.split("==")[1] for p in pins(library) if p.split("==")[0].lower() == library)
    others = ", ".join(p for p in pins(library) if p.split("==")[0].lower() != library)
    c = results["counts"]
    by_outcome = {outcome: [case for case in results["cases"] if case["outcome"] == outcome] for outcome in OUTCOMES}
    lines = [
        f"## {library} {version}",
        "",
        f"- **Package:** {PEERS[library]['source']}, version {version}, with {others}.",
        f"- **How it is called** (`Tests/ConformanceFixtures/peers/{library}_shim.py`): {PEERS[library]['called']}",
        f"- **What its API cannot be given:** {PEERS[library]['cannot']}",
        f"- **Counts:** {c['passed']} passed, **{c['wrongly accepted']} wrongly accepted**, "
        f"{c['wrongly rejected']} wrongly rejected, {c['not applicable']} not applicable, {c['error']} errors "
        f"(of {len(results['cases'])} cases, in {results['seconds']:.1f} s).",
        "",
        f"### Wrongly accepted ({c['wrongly accepted']})",
        "",
    ]
    if by_outcome["wrongly accepted"]:
        lines += ["| case | what is wrong with the response |", "|---|---|"]
        lines += [f"| `{short(case['id'])}` | {cell(cases[case['id']]['summary'])} |" for case in by_outcome["wrongly accepted"]]
    else:
        lines.append("None.")
    if variant:
        name, description, other = variant
        wrong = {case["id"] for case in by_outcome["wrongly accepted"]}
        more = [case for case in other["cases"] if case["outcome"] == "wrongly accepted" and case["id"] not in wrong]
        fewer = [i for i in wrong if i not in {case["id"] for case in other["cases"] if case["outcome"] == "wrongly accepted"}]
        oc = other["counts"]
        lines += ["", f"{description}: {oc['passed']} passed, **{oc['wrongly accepted']} wrongly accepted**, "
                  f"{oc['wrongly rejected']} wrongly rejected, {oc['not applicable']} not applicable, {oc['error']} "
                  f"errors (run as `{name}`)."
                  + (" It also accepts " + "; ".join(f"`{short(case['id'])}`: {cell(cases[case['id']]['summary'])}"
                                                      for case in more) + "." if more else "")
                  + (f" ({len(fewer)} fewer wrong acceptances: check the shims.)" if fewer else "")]
    for outcome in ("wrongly rejected", "error"):
        if by_outcome[outcome]:
            lines += ["", f"### {outcome.capitalize()} ({len(by_outcome[outcome])})", "",
                      "| case | the case | the library's reason |", "|---|---|---|"]
            lines += [f"| `{short(case['id'])}` | {cell(cases[case['id']]['summary'])} | "
                      f"{code(reasons(case)) if case.get('gotCodes') else cell(case['reason'])} |"
                      for case in by_outcome[outcome]]
    rejected = [case for case in by_outcome["passed"] if case["expected"] == "reject"]
    lines += ["", "<details><summary>Rightly rejected, with the library's reason "
              f"({len(rejected)}): a pass is the right verdict, not always for the right reason</summary>", "",
              "| case | the library's reason |", "|---|---|"]
    lines += [f"| `{short(case['id'])}` | {code(reasons(case))} |" for case in rejected]
    lines += ["", "</details>", "",
              f"Not applicable ({c['not applicable']}): "
              + ", ".join(f"`{short(case['id'])}`" for case in by_outcome["not applicable"]) + ".", ""]
    return lines


def page(args):
    manifest, cases = load_cases(args.corpus)
    peers = {library: load_results(os.path.join(args.results, f"{library}.json")) for library in PEERS}
    variants = {library: (PEERS[library]["variant"][0], PEERS[library]["variant"][1],
                          load_results(os.path.join(args.results, PEERS[library]["variant"][0] + ".json")))
                for library in PEERS if "variant" in PEERS[library]}
    own = load_results(os.path.join(args.results, "mdocverify.json"))
    ids = [case["id"] for case in own["cases"]]
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    applicable = [cases[case["id"]] for case in next(iter(peers.values()))["cases"] if case["outcome"] != "not applicable"]
    must_accept = sum(1 for case in applicable if case["verdict"] == "accept")
    lines = [
        "# Conformance results for open-source mdoc verifiers",
        "",
        f"<!-- Generated by `{COMMAND}` (from the repository root); do not edit by hand. -->",
        "",
        f"Generated by `{COMMAND}`, run from the repository root on **{today}**. Edit the shims or the generator "
        "(`Tests/ConformanceFixtures/peers/`), not this page.",
        "",
        f"What this project's conformance corpus (`TestVectors/conformance`, see its README) reports for mdoc "
        f"verifiers a user can install from PyPI, next to this project's own CLI. Only the {len(ids)} "
        "`device-response` cases run (a bare ISO/IEC 18013-5 DeviceResponse with its SessionTranscript): the libraries "
        "do not read the other formats' envelopes. Every case is verified at the corpus's time, "
        f"{manifest['at']}, trusting only the case's `iaca.pem`. Each library runs in its own virtualenv on Python "
        f"{args.python}, with the versions pinned in `Tests/ConformanceFixtures/peers/requirements-<library>.txt`, "
        "through a shim in `Tests/ConformanceFixtures/peers/` that answers the corpus's command-target protocol.",
        "",
        "| verifier | version | passed | wrongly accepted (critical) | wrongly rejected | not applicable | errors | time |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for library, results in peers.items():
        version = next(p.split("==")[1] for p in pins(library) if p.split("==")[0].lower() == library)
        lines.append(counts_row(library, version, results))
        if library in variants:
            lines.append(counts_row(f"{library}, library call alone (no issuer check)", version, variants[library][2]))
    lines += [
        counts_row("mdocverify (this project)", args.mdocverify_version.split()[0], own),
        "",
        "A wrong acceptance is the critical failure: a forged, expired, replayed or otherwise wrong response that the "
        "verifier would let through. Both libraries run with `--without revocation --without request-policy`, so the "
        "cases that need a CRL or status-list check, or a request to hold the response to, count as not applicable "
        f"rather than as failures. For comparison, this project's CLI ran every case through `{SELF_SHIM}` "
        "(with `MDOCVERIFY` naming the binary), with nothing marked not applicable.",
        "",
    ]
    for library, results in peers.items():
        lines += library_section(library, results, cases, variants.get(library))
    lines += [
        "## What the suite cannot tell",
        "",
        "- **Only one format.** The `apple-app`, `annex-c` and `openid4vp` cases did not run: these libraries take a "
        "decoded DeviceResponse, not the HPKE, JWE or DC API envelopes around it. Nothing here says how an "
        "application built on them handles those envelopes, transcripts or replays.",
        "- **Features the library lacks are not applicable, not failures.** Neither library checks revocation or "
        f"request policy, so the {len(ids) - len(applicable)} cases that need them did not run, and their counts "
        f"above are over the {len(applicable)} that did. A deployment that needs revocation or data minimisation has to add them itself.",
        f"- **Rejecting everything scores well.** Of the {len(applicable)} applicable cases only {must_accept} must be "
        f"accepted; a verifier that rejects every response would pass {len(applicable) - must_accept} and be wrongly "
        f"rejected on {must_accept}. So the few cases that must verify weigh more than their number: a wrong "
        "rejection there (such as `unknown-map-keys`, whose unknown keys a verifier must ignore) means genuine "
        "responses fail.",
        "- **A pass is a verdict, not a reason.** The runner compares only accept or reject; the libraries' messages "
        "are not this project's error codes. Some reject cases pass because the library fails on the input rather "
        "than because it checks the rule (the \"rightly rejected\" lists show each reason).",
        "- **The results depend on the shims.** Each shim uses the library's documented call in good faith, but "
        "its choices are part of the result: the clock set to the case's time for pymdoccbor, the issuer check "
        "isomdoc's example leaves to the caller. An application that calls a library differently (no trust anchors "
        "for pymdoccbor, no issuer check after isomdoc) accepts more than shown here.",
        "- **The corpus catches the bugs someone wrote down.** Its mutation test "
        "(`Tests/ConformanceFixtures/mutation/`, in the corpus README) runs one-bug variants of an independent "
        "reference verifier, and every case it needs is in the corpus; a bug nobody listed can still pass. Zero "
        "wrong acceptances is a floor, not a proof.",
        "- **One version, one day.** The results are for the pinned versions on the date above; newer releases may "
        "differ. The corpus's bytes change when it is regenerated (random signatures), its verdicts do not.",
        "",
        "## Regenerate",
        "",
        "From the repository root, with a built `mdocverify`:",
        "",
        "```sh",
        COMMAND,
        "```",
        "",
        "The first run needs PyPI: it makes one virtualenv per library under `$PEER_VENVS` (default "
        "`/tmp/mdoc-conformance-peers`) with `/usr/bin/python3` (`$PEER_PYTHON`) and installs exactly the pinned "
        "versions. Later runs reuse the virtualenvs while the pins are unchanged and work offline. The JSON results "
        "stay in `$PEER_VENVS/results/`. To try a newer release, change its `requirements-<library>.txt` and run "
        "the command again.",
        "",
    ]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--results", required=True, help="the folder with <library>.json and mdocverify.json")
    parser.add_argument("--python", required=True, help="the virtualenvs' Python version")
    parser.add_argument("--mdocverify-version", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    text = page(args)
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
