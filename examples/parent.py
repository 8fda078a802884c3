#!/usr/bin/env python3
"""A parent program for kiosk-recorder, with the standard library only.

It starts the recorder as a child, prints every event it reports (`event: ` and its JSON line),
and when a guest taps Use Video (the `videoRecorderDidFinishRecordingVideoWithOutputPath` event)
copies the clip into a folder of its own. Cancel, the end of a `once` session or a signal end it.

    examples/parent.py --copy-to ~/clips -- --camera auto --windowed
    examples/parent.py --auto 3 --copy-to /tmp/clips -- --camera test --microphone test

It runs the kiosk-recorder on PATH, else the one built in this checkout (kiosk/run's
.build/release, then swift build's .build/debug, found from this file's own place);
--recorder PATH names another. Lines on its stdin go to the recorder as they are (commands such as
{"command":"start"}), so a person at a terminal or a test can drive it; --auto SECONDS drives it
itself (start, wait, stop, use), as a demo would.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time


def find_recorder(given: str | None) -> str:
    """The recorder to run: --recorder, else kiosk-recorder on PATH, else this checkout's release
    build (kiosk/run makes it), else its debug build (swift build); or exit saying where it looked."""
    if given:
        return given
    on_path = shutil.which("kiosk-recorder")
    if on_path:
        return on_path
    project = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    built = [os.path.join(project, ".build", kind, "kiosk-recorder") for kind in ("release", "debug")]
    for path in built:
        if os.access(path, os.X_OK):
            return path
    sys.exit(f"parent.py: kiosk-recorder not found: not on PATH, not at {built[0]} (kiosk/run builds it) "
             f"nor at {built[1]} (swift build); name it with --recorder PATH")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recorder", help="the kiosk-recorder binary (default: from PATH, else this checkout's "
                        ".build/release, then .build/debug)")
    parser.add_argument("--copy-to", required=True, help="folder the accepted clips are copied to")
    parser.add_argument("--auto", type=float, metavar="SECONDS", help="record this long by itself, then use the take")
    parser.add_argument("recorder_args", nargs="*", help="options for kiosk-recorder (after --)")
    args = parser.parse_args()
    os.makedirs(args.copy_to, exist_ok=True)

    recorder = find_recorder(args.recorder)
    try:
        child = subprocess.Popen([recorder, *args.recorder_args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 text=True, bufsize=1)
    except OSError as error:
        sys.exit(f"parent.py: cannot run {recorder}: {error.strerror}")
    writing = threading.Lock()

    def write(line: str) -> None:
        with writing:
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass  # the recorder has ended: what it was told no longer matters

    def send(command: str) -> None:
        write(json.dumps({"command": command}) + "\n")

    def relay() -> None:
        # Our stdin's lines, as they come; at its end the recorder's stdin stays open (the end of
        # stdin ends nothing there either).
        for line in sys.stdin:
            write(line)

    if sys.stdin:
        threading.Thread(target=relay, daemon=True).start()

    copied = []
    for line in child.stdout:
        event = json.loads(line)
        name = event["event"]
        print(f"event: {line.rstrip()}", flush=True)
        if name == "ready" and args.auto:
            send("start")
        elif name == "recordingStarted" and args.auto:
            threading.Timer(args.auto, send, ["stop"]).start()
        elif name == "recordingFinished" and args.auto:
            send("useVideo" if event["success"] else "retake")
        elif name == "videoRecorderDidFinishRecordingVideoWithOutputPath":
            source = event["outputPath"]
            target = os.path.join(args.copy_to, time.strftime("clip-%Y%m%d-%H%M%S") + os.path.splitext(source)[1])
            shutil.copyfile(source, target)
            copied.append(target)
            print(f"copied: {target}", flush=True)
        elif name == "videoRecorderDidCancelRecordingVideo":
            print("the guest cancelled", flush=True)
    status = child.wait()
    print(f"kiosk-recorder exited with {status}; {len(copied)} clip(s) copied", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
