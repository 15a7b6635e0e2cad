#!/usr/bin/env bash
# Builds the release tarball: verify-server and mdocverify as release binaries with the Swift runtime linked in
# (--static-swift-stdlib: the standard library, Foundation and Dispatch), the certificate bundle, the production and
# test example configurations, the systemd unit, the docs an operator needs, LICENSE; then its SHA-256. Written to
# .build/dist/ (out of git). It refuses binaries that still load a Swift library, and runs the packaged server where
# no Swift runtime is visible (the toolchain hidden, when run as root) to check the production example.
#
#   docs/deploy/release.sh                  build (one release build of both products), then package
#   RELEASE_BINARIES=DIR docs/deploy/release.sh   package the binaries already in DIR (e.g. to check the packaging)
#
# The binaries still load the system's OpenSSL, libcbor, libcurl, zlib and libstdc++: on the target host install
# Debian 12's libssl3 libcbor0.8 libcurl4 zlib1g libstdc++6 (or your distribution's equivalents). The version in the
# tarball's name is what `verify-server --version` prints: one number for the binaries, docs/openapi.yaml and the docs.
set -euo pipefail
cd "$(dirname "$0")/../.."

binaries=${RELEASE_BINARIES:-}
if [ -z "$binaries" ]; then
    swift build -c release --static-swift-stdlib --product verify-server
    swift build -c release --static-swift-stdlib --product mdocverify
    binaries=$(swift build -c release --static-swift-stdlib --show-bin-path)
fi
version=$("$binaries/verify-server" --version | head -n 1 | awk '{print $1}')
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "release.sh: unexpected version '$version'" >&2; exit 1; }
name="verify-server-$version-linux-$(uname -m)"
dist=.build/dist
stage="$dist/$name"
rm -rf "$stage" "$dist/$name.tar.gz" "$dist/$name.tar.gz.sha256"
mkdir -p "$stage/bin" "$stage/share/doc/verify-server" "$stage/etc/verify-server" "$stage/lib/systemd/system"

install -m 0755 "$binaries/verify-server" "$binaries/mdocverify" "$stage/bin/"
strip "$stage/bin/verify-server" "$stage/bin/mdocverify" 2>/dev/null || true
# The bundle: production IACAs (also embedded in the binary), VICAL roots, and the test IACAs the example trusts.
cp -R Certificates "$stage/etc/verify-server/Certificates"
# The example configuration, its paths rewritten to the installed bundle; the Apple test key it names is not shipped
# (test mode only): set decryptionKeys to your merchant key(s).
sed -e 's|Certificates/|/etc/verify-server/Certificates/|g' docs/verify-server.example.yaml \
    >"$stage/etc/verify-server/verify-server.example.yaml"
# The production example passes --check-config as shipped (checked below); install it as verify-server.yaml.
install -m 0644 docs/deploy/verify-server.production.yaml "$stage/etc/verify-server/verify-server.production.yaml"
install -m 0644 docs/deploy/verify-server.service "$stage/lib/systemd/system/verify-server.service"
install -m 0644 LICENSE README.md CHANGELOG.md SECURITY.md docs/configuration.md docs/openapi.yaml docs/reliability.md \
    "$stage/share/doc/verify-server/"
install -m 0644 LICENSE "$stage/"

# No Swift library may be loaded from the build host: the tarball must run where no toolchain is installed.
for binary in "$stage/bin/verify-server" "$stage/bin/mdocverify"; do
    if ldd "$binary" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime' >&2; then
        echo "release.sh: $binary loads the Swift runtime above; build with --static-swift-stdlib" >&2
        exit 1
    fi
done
# Run where no Swift runtime is visible: the toolchain's runtime folder hidden under an empty tmpfs (needs root and
# unshare; otherwise the ldd check above stands alone).
toolchain=$(command -v swift >/dev/null 2>&1 && echo "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift" || true)
check="\"$stage/bin/verify-server\" --version && \"$stage/bin/verify-server\" --check-config --config \"$stage/etc/verify-server/verify-server.production.yaml\""
if [ -d "$toolchain" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
    unshare -m sh -c "mount -t tmpfs none '$toolchain' && $check"
else
    sh -c "$check"
fi

tar -C "$dist" --owner=0 --group=0 --numeric-owner -czf "$dist/$name.tar.gz" "$name"
(cd "$dist" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$dist/$name.tar.gz"
cat "$dist/$name.tar.gz.sha256"
