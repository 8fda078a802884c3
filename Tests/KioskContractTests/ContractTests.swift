// The JSON contract on stdout: events out (minified, `event` first, exact bytes); the commands in are KioskCoreTests' CommandTests.
import Foundation
import Testing
@testable import KioskContract

@Suite("Events")
struct ContractTests {
    let encoder = EventEncoder()

    @Test("events encode to the contract's exact lines")
    func exactLines() throws {
        let cases: [(KioskEvent, String)] = [
            (.ready(camera: "/dev/video0", width: 352, height: 288, fps: 30, orientation: .landscapeRight),
             #"{"event":"ready","camera":"/dev/video0","width":352,"height":288,"fps":30,"orientation":"landscape-right"}"#),
            (.recordingStarted(outputPath: "/tmp/a/output.mov"), #"{"event":"recordingStarted","outputPath":"/tmp/a/output.mov","kind":"video"}"#),
            (.recordingStarted(outputPath: "/t/7.mp4", kind: .boomerang), #"{"event":"recordingStarted","outputPath":"/t/7.mp4","kind":"boomerang"}"#),
            (.recordingFinished(RecordingResult(outputPath: "/o.mov", duration: 12.4, bytes: 123456, reason: .user, success: true)),
             #"{"event":"recordingFinished","outputPath":"/o.mov","kind":"video","duration":12.4,"bytes":123456,"reason":"user","success":true,"droppedFrames":0,"skippedFrames":0,"frameRate":0,"effortSteps":0}"#),
            (.recordingFinished(RecordingResult(outputPath: "/o.mov", duration: 2.0000004, bytes: 1, reason: .deviceDisconnected, success: false, droppedFrames: 3,
                                               skippedFrames: 30, frameRate: 15.0004, effortSteps: 3)),
             #"{"event":"recordingFinished","outputPath":"/o.mov","kind":"video","duration":2,"bytes":1,"reason":"deviceDisconnected","success":false,"droppedFrames":3,"skippedFrames":30,"frameRate":15,"effortSteps":3}"#),
            (.recordingRecovered(path: "/o.recovered.mov", duration: 4.25), #"{"event":"recordingRecovered","path":"/o.recovered.mov","duration":4.25}"#),
            (.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: "/o.mov"),
             #"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath","outputPath":"/o.mov"}"#),
            (.recordingFinished(RecordingResult(outputPath: "/t/7.mp4", duration: 3.8666, bytes: 83015, reason: .maxDuration, success: true,
                                                frameRate: 30, kind: .boomerang)),
             #"{"event":"recordingFinished","outputPath":"/t/7.mp4","kind":"boomerang","duration":3.867,"bytes":83015,"reason":"maxDuration","success":true,"droppedFrames":0,"skippedFrames":0,"frameRate":30,"effortSteps":0}"#),
            (.boomerang(.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: "/t/7.mp4")),
             #"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath","outputPath":"/t/7.mp4","kind":"boomerang"}"#),
            (.state(mode: "finished", timer: "00:04", buttons: [.retake, .useVideo, .playVideo], orientation: .portrait, review: .looping),
             #"{"event":"state","mode":"finished","timer":"00:04","buttons":["retake","useVideo","playVideo"],"orientation":"portrait","review":"looping"}"#),
            (.videoRecorderDidCancelRecordingVideo, #"{"event":"videoRecorderDidCancelRecordingVideo"}"#),
            (.playbackStarted(path: "/o.mov"), #"{"event":"playbackStarted","path":"/o.mov"}"#),
            (.playbackFinished(reason: .closed), #"{"event":"playbackFinished","reason":"closed"}"#),
            (.orientationChanged(orientation: .portraitUpsideDown), #"{"event":"orientationChanged","orientation":"portrait-upside-down"}"#),
            (.state(mode: "finished", timer: "00:03", buttons: [.retake, .useVideo, .playVideo], orientation: .portrait),
             #"{"event":"state","mode":"finished","timer":"00:03","buttons":["retake","useVideo","playVideo"],"orientation":"portrait"}"#),
            (.state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .portrait, microphoneLevel: -40, hooksPending: 2),
             #"{"event":"state","mode":"ready","timer":"00:00","buttons":["cancel","start"],"orientation":"portrait","microphoneLevel":-40,"hooksPending":2}"#),
            (.hookFinished(path: "/t.mov", status: 1, attempt: 2), #"{"event":"hookFinished","path":"/t.mov","status":1,"attempt":2}"#),
            (.error(code: .notAllowed, message: "no"), #"{"event":"error","code":"notAllowed","message":"no"}"#),
            (.terminated(signal: "SIGTERM"), #"{"event":"terminated","signal":"SIGTERM"}"#),
            (.boothClosed, #"{"event":"boothClosed"}"#), (.boothOpened, #"{"event":"boothOpened"}"#),
            (.takeHidden(path: "/t.mov"), #"{"event":"takeHidden","path":"/t.mov"}"#),
            (.takeShown(path: "/t.mov"), #"{"event":"takeShown","path":"/t.mov"}"#),
            (.reloaded(changed: ["countdown"], kept: []), #"{"event":"reloaded","changed":["countdown"],"kept":[]}"#),
            (.keyCalibrated(colour: "#0FA84A", similarity: 0.0712345, warning: nil), ##"{"event":"keyCalibrated","colour":"#0FA84A","similarity":0.071}"##),
            (.keyCalibrated(colour: "#041A08", similarity: 0.05, warning: "too dark"),
             ##"{"event":"keyCalibrated","colour":"#041A08","similarity":0.05,"warning":"too dark"}"##),
            (.takeDeleted(path: "/t.mov", reason: .guest), #"{"event":"takeDeleted","path":"/t.mov","reason":"guest"}"#),
        ]
        for (event, line) in cases {
            #expect(encoder.line(for: event) == line + "\n")
            // Decoding and encoding again gives the same bytes (durations are kept to the millisecond).
            #expect(encoder.line(for: try encoder.decode(line: line)) == line + "\n")
        }
    }

    /// One event of every kind the contract has.
    static let oneOfEach: [KioskEvent] = [
        .ready(camera: "test", width: 352, height: 288, fps: 30, orientation: .portrait, encoder: "libx264"),
        .countdown(remaining: 3), .recordingStarted(outputPath: "/o.mov"),
        .recordingFinished(RecordingResult(outputPath: "/o.mov", duration: 1, bytes: 2, reason: .user, success: true, encoder: "libx264")),
        .recordingRecovered(path: "/r.mov", duration: 1.5), .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: "/o.mov"),
        .videoRecorderDidCancelRecordingVideo, .playbackStarted(path: "/o.mov"), .playbackFinished(reason: .end),
        .orientationChanged(orientation: .landscapeLeft),
        .state(mode: "recording", timer: "00:01", buttons: [.stop], orientation: .portrait, remaining: 3.5, microphoneLevel: -20.5,
               hooksPending: 0),
        .microphoneSilent, .error(code: .badCommand, message: "x"), .terminated(signal: "SIGTERM"), .cameras([]),
        .cameraChanged(camera: "/dev/video1", width: 640, height: 480, fps: 25), .takeDeleted(path: "/t.mov", reason: .maxTakes),
        .idleReset(action: .use), .hookFinished(path: "/t.mov", status: 3, attempt: 1),
        .takeShared(url: "http://10.42.0.1/s/Ab-9_x/", token: "Ab-9_x", folder: "/srv/share/Ab-9_x"),
        .check(ok: false, items: [CheckItem(name: "camera", ok: false, detail: "none", fix: "plug one in")]),
        .photoTaken(path: "/srv/takes/photo-20260612-101500-7.jpg", width: 1280, height: 720),
        .reelProgress(done: 1, total: 3), .reelSkipped(path: "/srv/takes/b.mov", reason: "it cannot be opened"),
        .reelFinished(path: "reel.mp4", duration: 41.2, takes: 3), .boothClosed, .boothOpened,
        .takeHidden(path: "/t.mov"), .takeShown(path: "/t.mov"), .takeDeleted(path: "/t.mov", reason: .operator),
        .reloaded(changed: ["countdown"], kept: ["fps"]),
        .keyCalibrated(colour: "#041A08", similarity: 0.05, warning: "too dark"),
    ]

    @Test("each event is declared once: every kind has a name of its own, every event belongs to exactly one kind and reads back as itself")
    func declaredOnce() throws {
        let names = KioskEvent.kinds.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(Set(Self.oneOfEach.map(\.name)) == Set(names), "a kind without an example, or an example without a kind")
        for event in Self.oneOfEach {
            #expect(KioskEvent.kinds.filter { $0.fields(event) != nil }.count == 1, "\(event)")
            #expect(try encoder.decode(line: encoder.line(for: event)) == event)
        }
    }

    @Test("awkward paths survive the round trip on one line", arguments: [
        "/tmp/with \"quotes\"/out.mov", "/tmp/new\nline/out.mov", "/tmp/Ünïcødé/ビデオ.mov", "/tmp/back\\slash/tab\t.mov",
        "/tmp/\u{1}control.mov",
    ])
    func awkwardPaths(path: String) throws {
        let line = encoder.line(for: .recordingStarted(outputPath: path))
        #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"))
        #expect(line.hasPrefix(#"{"event":"recordingStarted","#))
        #expect(try encoder.decode(line: line) == .recordingStarted(outputPath: path))
        // An independent parser reads it too.
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        #expect(object?["outputPath"] == path)
    }

    @Test("an unknown event name does not decode")
    func unknownEvent() {
        #expect(throws: (any Error).self) { try encoder.decode(line: #"{"event":"nope"}"#) }
    }
}
