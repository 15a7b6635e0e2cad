#!/bin/sh
# Runs the conformance corpus's device-response cases against open-source mdoc verifiers from PyPI (pymdoccbor,
# isomdoc, through the shims beside this script) and against this project's CLI, then regenerates
# docs/conformance-results.md from the JSON results.
#
# Usage, from the repository root:
#     Tests/ConformanceFixtures/peers/run.sh PATH/TO/mdocverify
#
# The first run needs PyPI: it builds one virtualenv per library under $PEER_VENVS (default
# /tmp/mdoc-conformance-peers), installing exactly the versions in requirements-<library>.txt. Later runs reuse a
# virtualenv while its pins are unchanged, so they work offline. PEER_PYTHON is the interpreter the virtualenvs are
# made with (default /usr/bin/python3, Debian 12's 3.11). The JSON results stay in $PEER_VENVS/results/.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 PATH/TO/mdocverify   (from the repository root)" >&2; exit 2; }
[ -f TestVectors/conformance/manifest.json ] || { echo "$0: run it from the repository root" >&2; exit 2; }
MDOCVERIFY=$(realpath "$1")
[ -x "$MDOCVERIFY" ] || { echo "$0: $1 is not an executable" >&2; exit 2; }
export MDOCVERIFY  # for Tests/ConformanceFixtures/mdocverify_shim.py
HERE=Tests/ConformanceFixtures/peers
PYTHON=${PEER_PYTHON:-/usr/bin/python3}
VENVS=${PEER_VENVS:-/tmp/mdoc-conformance-peers}
RESULTS=$VENVS/results
mkdir -p "$RESULTS"
started=$(date +%s)

# venv LIBRARY: makes $VENVS/LIBRARY with the pinned versions, unless it already has exactly those pins.
venv() {
    pins=$HERE/requirements-$1.txt
    if ! cmp -s "$pins" "$VENVS/$1/pinned.txt"; then
        echo "== $1: building $VENVS/$1 from $pins (needs PyPI)"
        rm -rf "$VENVS/$1"
        "$PYTHON" -m venv "$VENVS/$1"
        "$VENVS/$1/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$pins"
        cp "$pins" "$VENVS/$1/pinned.txt"
    fi
}

# corpus NAME [RUN OPTIONS] -- COMMAND…: the device-response cases against one command target, results in NAME.json.
# The run exits 1 when a case was wrongly accepted: that is a result here, not a failure of this script.
corpus() {
    name=$1
    shift
    echo "== $name"
    status=0
    "$MDOCVERIFY" conformance run --corpus TestVectors/conformance --format device-response --target command \
        --json "$RESULTS/$name.json" "$@" >"$RESULTS/$name.txt" 2>&1 || status=$?
    [ "$status" -le 1 ] || { cat "$RESULTS/$name.txt" >&2; echo "$0: the $name run failed ($status)" >&2; exit 1; }
    grep -m 1 '^Conformance run' "$RESULTS/$name.txt" || true
}

for library in pymdoccbor isomdoc; do
    venv "$library"
    # Neither library checks revocation (CRLs, status lists) or holds a response to a request: those cases are
    # counted as not applicable rather than as failures.
    corpus "$library" --without revocation --without request-policy \
        -- "$VENVS/$library/bin/python" "$HERE/${library}_shim.py"
done
# isomdoc takes no trust anchors and its shim checks the Document Signer's issuer itself; this run leaves that out.
ISOMDOC_SHIM_ISSUER_CHECK=off
export ISOMDOC_SHIM_ISSUER_CHECK
corpus isomdoc-library-only --without revocation --without request-policy \
    -- "$VENVS/isomdoc/bin/python" "$HERE/isomdoc_shim.py"
unset ISOMDOC_SHIM_ISSUER_CHECK
corpus mdocverify -- "$PYTHON" Tests/ConformanceFixtures/mdocverify_shim.py

"$PYTHON" "$HERE/results_page.py" --corpus TestVectors/conformance --results "$RESULTS" \
    --python "$("$PYTHON" -c 'import platform; print(platform.python_version())')" \
    --mdocverify-version "$("$MDOCVERIFY" --version)" --out docs/conformance-results.md
echo "== wrote docs/conformance-results.md in $(($(date +%s) - started)) s (results in $RESULTS)"
