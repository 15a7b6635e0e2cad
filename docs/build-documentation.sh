#!/usr/bin/env bash
# Builds the DocC documentation of the library products into one archive (.build/docs, or $1) with warnings treated
# as errors, then checks that every public symbol declared in Sources/ has a documentation comment.
#
#   docs/build-documentation.sh [output folder]
#   Preview one module:  swift package --disable-sandbox preview-documentation --target Verifier
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs}
targets=(Verifier Mdoc MdocModel MdocTrust CryptoCore CBOR HPKE RevocationFetch MdocTesting MdocConformance KitCertificates MdocTestingServer VerifyServer)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
swift package --allow-writing-to-directory "$out" generate-documentation --enable-experimental-combined-documentation \
    "${args[@]}" --output-path "$out" --warnings-as-errors

# Every public declaration written in Sources/ carries a doc comment (what the compiler synthesizes or a protocol
# supplies has no source location there and is not counted; extension blocks are containers, their members count).
python3 - "$(pwd)/Sources/" "${targets[@]}" <<'PY'
import glob, json, sys
sources, targets = sys.argv[1], sys.argv[2:]
missing, counted = [], 0
for path in sorted(glob.glob(".build/*/extracted-symbols/*/*/*.symbols.json")):
    module = path.split("/")[-2]
    if module not in targets:
        continue
    for symbol in json.load(open(path))["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if sources not in uri or symbol["kind"]["identifier"] == "swift.extension":
            continue
        counted += 1
        if not symbol.get("docComment"):
            line = symbol["location"]["position"]["line"] + 1
            missing.append(f"{uri.split(sources)[1]}:{line}: {'.'.join(symbol['pathComponents'])}")
for entry in sorted(set(missing)):
    print(f"undocumented public symbol: {entry}")
if counted == 0:
    sys.exit("no symbol graph found: the documentation build did not extract symbols")
print(f"documentation: {counted} public symbols, {len(set(missing))} undocumented")
sys.exit(1 if missing else 0)
PY
