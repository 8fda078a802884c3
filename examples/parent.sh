#!/usr/bin/env bash
# A parent in the shell: run kiosk-recorder once and act on its outcome. Needs jq-free tools only:
# the events are one JSON object per line, and the two outcomes are recognised by their names.
#   examples/parent.sh ~/clips --camera auto --windowed
#   examples/parent.sh --recorder /usr/local/bin/kiosk-recorder /srv/clips --camera auto
# The recorder is the one on PATH, else the one built in this checkout (kiosk/run's .build/release,
# then swift build's .build/debug, found from this script's own place); --recorder PATH names
# another. Its stdin is the recorder's: commands typed or piped in ({"command":"start"}) reach it.
set -euo pipefail
usage="usage: examples/parent.sh [--recorder PATH] CLIPS_FOLDER [kiosk-recorder options]"
recorder=""
if [ "${1:-}" = "--recorder" ]; then
  recorder="${2:?$usage}"
  shift 2
fi
clips="${1:?$usage}"
shift
if [ -z "$recorder" ]; then
  project="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
  for candidate in "$(command -v kiosk-recorder || true)" "$project/.build/release/kiosk-recorder" \
                   "$project/.build/debug/kiosk-recorder"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then recorder="$candidate"; break; fi
  done
  if [ -z "$recorder" ]; then
    echo "parent.sh: kiosk-recorder not found: not on PATH, not at $project/.build/release/kiosk-recorder" \
         "(kiosk/run builds it) nor at $project/.build/debug/kiosk-recorder (swift build); name it with --recorder PATH" >&2
    exit 1
  fi
elif ! command -v "$recorder" >/dev/null; then
  echo "parent.sh: --recorder $recorder: no such program" >&2
  exit 1
fi
mkdir -p "$clips"
"$recorder" "$@" | while IFS= read -r line; do
  echo "event: $line"
  case "$line" in
    *'"event":"videoRecorderDidFinishRecordingVideoWithOutputPath"'*)
      path=$(printf '%s' "$line" | sed -E 's/.*"outputPath":"((\\.|[^"\\])*)".*/\1/')
      cp -- "$path" "$clips/clip-$(date +%Y%m%d-%H%M%S).${path##*.}"
      echo "copied $path to $clips" ;;
    *'"event":"videoRecorderDidCancelRecordingVideo"'*)
      echo "the guest cancelled" ;;
  esac
done
