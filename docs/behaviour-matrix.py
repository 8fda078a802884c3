#!/usr/bin/env python3
# Prints the (state, event) matrix of docs/behaviour.md from the table in
# Tests/KioskCoreTests/RecorderMachineTests.swift, so the doc shows exactly what the tests assert.
# Run from the project root: python3 docs/behaviour-matrix.py
import re
src=open('Tests/KioskCoreTests/RecorderMachineTests.swift').read()
entries={}; modes={}
for k,a,m in re.findall(r'^\s*"(\w+/[\w()]+)": \.init\(actions: \[(.*?)\], mode: \.(\w+)\),\s*$', src, re.M):
    entries[k]=a; modes[k]=m
fixtures=["ready","readyNoCamera","readyBackground","countdown","recordingUnconfirmed","recording","stopping","finished","finishedFailed","playing","sharingPending","sharing","libraryGrid","libraryReview","closed"]
visible={"ready":["cancel","start"],"readyNoCamera":["cancel"],"readyBackground":["cancel"],"countdown":["cancel"],"recordingUnconfirmed":[],"recording":["stop"],"stopping":[],"finished":["retake","useVideo","playVideo"],"finishedFailed":["retake","playVideo"],"playing":["closePlayer"],"sharingPending":["done"],"sharing":["done"],"libraryGrid":["back"],"libraryReview":["back","useVideo","playVideo"],"closed":[]}
buttons=["cancel","start","stop","retake","useVideo","playVideo","closePlayer","switchCamera","done","photo","openLibrary","back"]
events=[f"press({b})" for b in buttons]+["start","countdownTick","tick","recordingStarted","recordingFailed","recordingFinished","background","foreground","rotate","cameraLost","cameraBack","playbackProgress","playbackEnded","togglePause","pause","seek","trim","stateQuery","terminate","quit","parentGone","reload","cameraSwitched","idleReset","takeShared","shareFailed","shareTimedOut","pick","libraryListed","closeBooth","openBooth"]
fixmode={"ready":"ready","readyNoCamera":"ready","readyBackground":"ready","countdown":"countdown","recordingUnconfirmed":"recording","recording":"recording","stopping":"recording","finished":"finished","finishedFailed":"finished","playing":"playing","sharingPending":"sharing","sharing":"sharing","libraryGrid":"library","libraryReview":"library","closed":"closed"}
def short(a):
    a=re.sub(r'\.emit\(\.(\w+)\(.*?\)\)\)?\)?', r'emit \1', a)
    a=re.sub(r'\.emit\(\.(\w+)\)', r'emit \1', a)
    a=re.sub(r'\.startRecording\(orientation: \.\w+\)','startRecording',a)
    a=a.replace('.playSound(.begin)','sound begin').replace('.playSound(.end)','sound end').replace('.playSound(.tick)','sound tick')
    a=re.sub(r'\.stopRecording\(\.(\w+)\)', r'stopRecording(\1)', a)
    a=a.replace('.exit(code: 0)','exit 0')
    a=re.sub(r'\.applyOrientation\(\.\w+\)', 'applyOrientation', a)
    a=a.replace('.setPlaybackPaused(true)','pause')
    a=a.replace('.startShareClock','startShareClock')
    a=re.sub(r'\.seekPlayback\(to: [\d.]+\)','seekPlayback',a)
    a=a.replace('.startPlayback(path: out)','startPlayback')
    a=re.sub(r'\.startPlayback\(path: libraryEntries\[\d\]\.path\)','startPlayback',a)
    a=a.replace('.','')
    parts=[p.strip() for p in a.split(',') if p.strip() and not p.strip().startswith(('remaining','reason','outputPath','message','signal','orientation','path','timer','buttons','mode'))]
    return ' · '.join(parts)
soft={"cameraLost":"camera flag off","cameraBack":"camera flag on","tick":"—","rotate":"kept","foreground":"—","playbackProgress":"—","togglePause":"—"}
lines=["| event | "+" | ".join(fixtures)+" |","|---|"+"---|"*len(fixtures)]
for e in events:
    row=[]
    for f in fixtures:
        k=f"{f}/{e}"
        if k in entries:
            s=short(entries[k]) or "(no action)"
            if modes[k]!=fixmode[f]: s+=f" → {modes[k]}"
            row.append(s)
        elif e.startswith("press(") and e[6:-1] not in visible[f]: row.append("notAllowed")
        elif e == "start" and "start" not in visible[f]: row.append("notAllowed")
        elif e in ("seek","pause") and fixmode[f] != "playing": row.append("notAllowed")
        elif e == "pick" and fixmode[f] != "library": row.append("notAllowed")
        elif e == "trim": row.append("notAllowed")
        else: row.append("—")
    lines.append(f"| `{e}` | "+" | ".join(row)+" |")
print("\n".join(lines))
