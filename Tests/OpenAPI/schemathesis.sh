#!/usr/bin/env bash
# OpenAPI conformance by an outside tool: schemathesis (PyPI) generates requests from docs/openapi.yaml against a
# live verify-server on loopback (Apple's sample configuration, test mode, inspector on, in-memory store, no rate
# limit: the limit's 429 is documented, but would stand in for the answers under test; a test reader identity, so
# openid4vp-redirect is offered) and checks
# every answer: no 5xx, every status and body as documented, no undocumented status. Bounded in examples and time.
# Then the same against the production example as shipped (docs/deploy/verify-server.production.yaml: legacy routes
# off, the private operator listener, the embedded trust bundle, SQLite), with only what it says to replace set: the
# API key, and the ports and the store's file for this run.
#
#   Tests/OpenAPI/schemathesis.sh <verify-server binary>     (SCHEMATHESIS: the schemathesis command to use)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-.build/debug/verify-server}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
folder=$(mktemp -d /tmp/verify-server-openapi.XXXXXX)
S=TestVectors/apple/in-app-sample
key_listing=$("$binary" --new-api-key schemathesis)
token=$(printf '%s\n' "$key_listing" | grep -o '^vsk_[A-Za-z0-9_-]*')
key_sha256=$(printf '%s\n' "$key_listing" | sed -n 's/^ *sha256: //p')
cat >"$folder/config.json" <<JSON
{"host": "127.0.0.1", "port": $port, "operatorListener": "shared", "testMode": true, "inspector": true,
 "merchantID": "PassKit_Identity_Test_Merchant_ID", "teamID": "PassKit_Identity_Test_Team_ID",
 "decryptionKeys": ["$S/merchant_encryption.key"], "trustStore": ["$S/issuer_root.crt"],
 "verificationTime": "2022-06-01T00:00:00Z", "storeURL": "memory:", "revocationFetch": false, "logLevel": "error",
 "maxConnectionsPerIP": 1024, "rateLimit": 0, "operatorTokenFile": "$folder/operator-token",
 "apiKeys": [{"id": "schemathesis", "sha256": "$key_sha256", "origins": ["https://shop.example"]}],
 "legacyAPI": "beside-api-keys",
 "readerKey": "TestVectors/reader/reader-key.pem", "readerCertificates": ["TestVectors/reader/reader-cert.pem"]}
JSON
# schemathesis sends one bearer token to every operation: an API key for the backend API, which is also the operator
# route's token here, so both are exercised past their 401 (and requests without it are checked to be refused).
printf '%s\n' "$token" >"$folder/operator-token"
server=
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$folder"' EXIT

# Starts the binary (with the environment given as NAME=VALUE arguments before --), waits for /healthz on $port.
start_server() {
    env "$@" "$binary" --config "$config" &
    server=$!
    python3 - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(200):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
        break
    except OSError:
        time.sleep(0.1)
PY
}

# Every check schemathesis has, in every phase (the schema's examples, coverage of each keyword's edges, fuzzing,
# stateful sequences); about 40 examples per operation, deterministic (the same cases every run), two workers, 10 s
# per request at most. hooks.py keeps generated bodies to the rule JSON Schema cannot state (x-unique-item-property).
# Arguments: the listener's port, then schemathesis options (which operations).
run_schemathesis() {
    local url="http://127.0.0.1:$1"
    shift
    SCHEMATHESIS_HOOKS=Tests/OpenAPI/hooks.py "${SCHEMATHESIS:-schemathesis}" --config-file Tests/OpenAPI/schemathesis.toml \
        run docs/openapi.yaml --url "$url" --checks all --phases "${phases:-examples,coverage,fuzzing,stateful}" \
        --max-examples 40 --generation-deterministic --workers 2 -H "Authorization: Bearer $token" \
        --request-timeout 10 --no-color "$@"
}

echo "schemathesis: the test configuration (every route on one listener)"
config="$folder/config.json"
start_server
run_schemathesis "$port"
kill "$server"; wait "$server" 2>/dev/null || true

echo "schemathesis: the production example as shipped, its API key replaced: the public listener"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
operator_port=$(free_port)
config=docs/deploy/verify-server.production.yaml
start_server VERIFY_SERVER_PORT="$port" VERIFY_SERVER_OPERATOR_PORT="$operator_port" \
    VERIFY_SERVER_STORE_URL="sqlite:$folder/production.sqlite" VERIFY_SERVER_LOG_LEVEL=error \
    VERIFY_SERVER_API_KEYS="[{\"id\":\"shop-backend\",\"sha256\":\"$key_sha256\",\"origins\":[\"https://shop.example\"]}]"
# The operator's operations live on the other listener. The example offers neither apple-app (no Apple settings) nor
# openid4vp-redirect (no reader identity, no walletBaseURL): a create for them is rightly 400.
operator_paths=(/metrics /v1/operator/revocation)
SCHEMATHESIS_FORMATS_NOT_OFFERED=apple-app,openid4vp-redirect run_schemathesis "$port" "${operator_paths[@]/#/--exclude-path=}"
echo "schemathesis: the production example: the private operator listener (its operations and the probes)"
# No links lead between these operations: no stateful phase.
phases=examples,coverage,fuzzing run_schemathesis "$operator_port" "${operator_paths[@]/#/--include-path=}" --include-path=/readyz --include-path=/healthz
