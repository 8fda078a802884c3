# Sourced by the kiosk/ scripts: the project root and a PATH with the Swift toolchain.
KIOSK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# A release build of the given products as kiosk/install builds the booth: Swift's runtime and
# Foundation linked in, so the binary loads only Debian's C libraries (no Swift runtime to install,
# less relocation at start-up, and less memory mapped: what the benchmarks measure is what deploys).
kiosk_release_build() {
  for product in "$@"; do swift build -c release --static-swift-stdlib --product "$product" >&2; done
}
