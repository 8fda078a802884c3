#!/usr/bin/env python3
"""A parent program for kiosk-recorder, with the standard library only.

It starts the recorder as a child, prints every event it reports, and when a guest taps Use Video
(the `videoRecorderDidFinishRecordingVideoWithOutputPath` event) copies the clip into a folder of
its own. Cancel, the end of a `once` session or a signal end it.

    examples/parent.py --copy-to ~/clips -- --camera auto --windowed
    examples/parent.py --auto 3 --copy-to /tmp/clips -- --camera test --microphone test

--auto SECONDS drives the recorder itself (start, wait, stop, use), as a test or a demo would.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recorder", default="kiosk-recorder", help="the kiosk-recorder binary (default: from PATH)")
    parser.add_argument("--copy-to", required=True, help="folder the accepted clips are copied to")
    parser.add_argument("--auto", type=float, metavar="SECONDS", help="record this long by itself, then use the take")
    parser.add_argument("recorder_args", nargs="*", help="options for kiosk-recorder (after --)")
    args = parser.parse_args()
    os.makedirs(args.copy_to, exist_ok=True)

    child = subprocess.Popen([args.recorder, *args.recorder_args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)

    def send(command: str) -> None:
        child.stdin.write(json.dumps({"command": command}) + "\n")
        child.stdin.flush()

    copied = []
    for line in child.stdout:
        event = json.loads(line)
        name = event["event"]
        print(f"event: {name} {json.dumps({k: v for k, v in event.items() if k != 'event'})}", flush=True)
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
