#!/usr/bin/env bash
# A parent in the shell: run kiosk-recorder once and act on its outcome. Needs jq-free tools only:
# the events are one JSON object per line, and the two outcomes are recognised by their names.
#   examples/parent.sh /srv/clips --camera auto
set -euo pipefail
clips="${1:?usage: examples/parent.sh CLIPS_FOLDER [kiosk-recorder options]}"
shift
mkdir -p "$clips"
kiosk-recorder "$@" | while IFS= read -r line; do
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
