// Every (mode, event) pair of the recorder state machine, and the seed's flows end to end.
import Testing
@testable import KioskCore
import KioskContract

let out = "/tmp/kiosk/output.mov"

/// A machine driven into a named state through the real events.
enum Fixture: String, CaseIterable, CustomStringConvertible {
    case ready, readyNoCamera, readyBackground, countdown, recordingUnconfirmed, recording, stopping, finished, finishedFailed, playing
    /// `--share-dir`: Use Video pressed, the share folder being written; then its QR code on screen.
    case sharingPending, sharing
    /// `--library`: the grid of takes (listed), then one's review.
    case libraryGrid, libraryReview
    /// `closeBooth` from ready: "back soon".
    case closed
    /// `--consent` offering share and film: Start pressed, the consent screen up.
    case consent
    /// The same with `--photo-button`, for the shutter pressed in ready: Agree takes the photo.
    case consentPhoto

    var description: String { rawValue }

    static let goodTake = RecordingResult(outputPath: out, duration: 3.2, bytes: 1000, reason: .user, success: true)
    static let badTake = RecordingResult(outputPath: out, duration: 0.4, bytes: 10, reason: .error, success: false)

    func make(session: SessionMode = .once) -> RecorderMachine {
        // The seed's Start begins the take at once; the countdown fixture counts 3 seconds first.
        var m = RecorderMachine(session: session, outputPath: out, orientation: .landscapeRight, countdown: self == .countdown ? 3 : 0,
                                shares: self == .sharingPending || self == .sharing)
        m.library = self == .libraryGrid || self == .libraryReview
        if self == .consent || self == .consentPhoto {
            m = RecorderMachine(session: session, outputPath: out, orientation: .landscapeRight, consent: consentOffer)
            m.photoButton = self == .consentPhoto
        }
        _ = m.start()
        switch self {
        case .ready: break
        case .countdown: _ = m.handle(.press(.start))
        case .readyNoCamera: _ = m.handle(.cameraLost)
        case .readyBackground: _ = m.handle(.background)
        case .recordingUnconfirmed: _ = m.handle(.press(.start))
        case .recording:
            _ = m.handle(.press(.start)); _ = m.handle(.recordingStarted(outputPath: out))
        case .stopping:
            m = Fixture.recording.make(session: session); _ = m.handle(.press(.stop))
        case .finished:
            m = Fixture.stopping.make(session: session); _ = m.handle(.recordingFinished(Fixture.goodTake))
        case .finishedFailed:
            m = Fixture.stopping.make(session: session); _ = m.handle(.recordingFinished(Fixture.badTake))
        case .playing:
            m = Fixture.finished.make(session: session); _ = m.handle(.press(.playVideo))
        case .sharingPending:
            _ = m.handle(.press(.start)); _ = m.handle(.recordingStarted(outputPath: out)); _ = m.handle(.press(.stop))
            _ = m.handle(.recordingFinished(Fixture.goodTake)); _ = m.handle(.press(.useVideo))
        case .sharing:
            m = Fixture.sharingPending.make(session: session); _ = m.handle(.takeShared(sharedLink))
        case .libraryGrid:
            _ = m.handle(.press(.openLibrary)); _ = m.handle(.libraryListed(libraryEntries))
        case .libraryReview:
            m = Fixture.libraryGrid.make(session: session); _ = m.handle(.pick(path: libraryEntries[1].path))
        case .closed: _ = m.handle(.closeBooth)
        case .consent: _ = m.handle(.press(.start))
        case .consentPhoto: _ = m.handle(.press(.photo))
        }
        return m
    }
}

/// The consent fixture's offer: its text's version, and two switches.
let consentOffer = ConsentOffer(version: String(repeating: "ab", count: 32), choices: [.share, .film])

/// Where the sharing fixtures' take went.
let sharedLink = ShareLink(url: "http://10.42.0.1/s/abc/", token: "abc", folder: "/srv/share/abc")

/// The library fixtures' takes, newest first.
let libraryEntries = [LibraryEntry(path: "/takes/take-2.mov", duration: 2.5), LibraryEntry(path: "/takes/take-1.mov", duration: 4.2)]

/// The machine's part of the default configuration (KioskOptionsTests checks it against
/// `Configuration().machineSettings`).
let defaultSettings = MachineSettings(session: .once, shares: false, trims: false, countdown: 3, warnRemaining: 10, orientation: nil)

/// The machine's part of a configuration SIGHUP reloaded: a loop session, in portrait.
let reloaded: MachineSettings = {
    var s = defaultSettings
    s.session = .loop
    s.orientation = .portrait
    return s
}()

/// One sample of each kind of event (every press is listed separately).
let sampleEvents: [RecorderEvent] = Button.allCases.map { .press($0) } + [
    .start(countdown: 2),
    .countdownTick,
    .tick(elapsed: 1.5),
    .recordingStarted(outputPath: out),
    .recordingFailed(code: .diskFull, message: "no space"),
    .recordingFinished(RecordingResult(outputPath: out, duration: 5, bytes: 99, reason: .maxDuration, success: true)),
    .background, .foreground,
    .rotate(.portrait),
    .cameraLost, .cameraBack,
    .playbackProgress(position: 2, duration: 3.2),
    .playbackEnded(.end),
    .togglePause, .pause(true), .seek(position: 1.5), .trim(TrimRange(start: 1, end: 3)), .stateQuery,
    .terminate(signal: "SIGTERM"), .quit, .parentGone,
    .reload(reloaded),
    .cameraSwitched,
    .idleReset(.use),
    .takeShared(sharedLink), .shareFailed(message: "no space"), .shareTimedOut,
    .pick(path: libraryEntries[1].path), .libraryListed(libraryEntries), .captureEnded,
    .closeBooth, .openBooth, .consentChoice(.film, on: true),
]

/// The name of an event's kind; the exhaustive switch makes a new event fail to compile here
/// until it is added to `sampleEvents` and the table.
func kind(_ e: RecorderEvent) -> String {
    switch e {
    case let .press(b): "press(\(b.rawValue))"
    case .start: "start"
    case .countdownTick: "countdownTick"
    case .tick: "tick"
    case .recordingStarted: "recordingStarted"
    case .recordingFailed: "recordingFailed"
    case .recordingFinished: "recordingFinished"
    case .background: "background"
    case .foreground: "foreground"
    case .rotate: "rotate"
    case .cameraLost: "cameraLost"
    case .cameraBack: "cameraBack"
    case .playbackProgress: "playbackProgress"
    case .playbackEnded: "playbackEnded"
    case .togglePause: "togglePause"
    case .pause: "pause"
    case .seek: "seek"
    case .stateQuery: "stateQuery"
    case .trim: "trim"
    case .terminate: "terminate"
    case .quit: "quit"
    case .parentGone: "parentGone"
    case .reload: "reload"
    case .cameraSwitched: "cameraSwitched"
    case .idleReset: "idleReset"
    case .takeShared: "takeShared"
    case .shareFailed: "shareFailed"
    case .shareTimedOut: "shareTimedOut"
    case .pick: "pick"
    case .libraryListed: "libraryListed"
    case .captureEnded: "captureEnded"
    case .closeBooth: "closeBooth"
    case .openBooth: "openBooth"
    case .consentChoice: "consentChoice"
    }
}

struct Expectation {
    let actions: [RecorderAction]
    let mode: Mode
}

func notAllowed(_ b: Button, _ mode: Mode, _ visible: [Button]) -> RecorderAction {
    notAllowed(b.rawValue, mode, visible)
}

func notAllowed(_ name: String, _ mode: Mode, _ visible: [Button]) -> RecorderAction {
    .emit(.error(code: .notAllowed, message: "'\(name)' is not on screen in \(mode.rawValue) mode (visible: \(visible.map(\.rawValue).joined(separator: ", ")))"))
}

/// The player's controls that are not buttons (the progress bar, the pause): refused outside the
/// playing mode like a hidden button.
let playerControls: [(event: RecorderEvent, name: String)] = [(.seek(position: 1.5), "seek"), (.pause(true), "pause")]

/// The trimmer (`--trim`, which no fixture has: TrimMachineTests has it): refused everywhere like a
/// hidden button.
let trimControl: (event: RecorderEvent, name: String) = (.trim(TrimRange(start: 1, end: 3)), "trim")

/// `pick`: refused outside the library like a hidden button.
let libraryPick: RecorderEvent = .pick(path: libraryEntries[1].path)

let finishedByLimit = RecordingResult(outputPath: out, duration: 5, bytes: 99, reason: .maxDuration, success: true)

/// Every pair that does something. A pair not listed must emit nothing and change nothing but
/// the flags its event names (checked in `unlistedPairsAreNoOps`).
let table: [String: Expectation] = [
    // library (grid: Back; a take's review in a once session: Back, Use Video, Play Video)
    "libraryGrid/press(back)": .init(actions: [.releaseLibrary, .startCamera], mode: .ready),
    "libraryGrid/pick": .init(actions: [], mode: .library),
    "libraryGrid/stateQuery": .init(actions: [.emit(.state(mode: "library", timer: "00:00", buttons: [.back], orientation: .landscapeRight, library: libraryEntries))], mode: .library),
    "libraryGrid/idleReset": .init(actions: [.releaseLibrary, .startCamera], mode: .ready),
    "libraryGrid/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .library),
    "libraryGrid/quit": .init(actions: [.exit(code: 0)], mode: .library),
    "libraryGrid/parentGone": .init(actions: [.exit(code: 0)], mode: .library),
    "libraryReview/press(back)": .init(actions: [], mode: .library),
    "libraryReview/press(playVideo)": .init(actions: [.startPlayback(path: libraryEntries[1].path), .emit(.playbackStarted(path: libraryEntries[1].path))], mode: .playing),
    "libraryReview/press(useVideo)": .init(actions: [.emit(.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: libraryEntries[1].path)), .releaseLibrary, .exit(code: 0)], mode: .library),
    "libraryReview/pick": .init(actions: [.emit(.error(code: .badCommand, message: "pick: a take's review is open (Back first)"))], mode: .library),
    "libraryReview/stateQuery": .init(actions: [.emit(.state(mode: "library", timer: "00:04", buttons: [.back, .useVideo, .playVideo], orientation: .landscapeRight, library: libraryEntries))], mode: .library),
    "libraryReview/idleReset": .init(actions: [.releaseLibrary, .startCamera], mode: .ready),
    "libraryReview/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .library),
    "libraryReview/quit": .init(actions: [.exit(code: 0)], mode: .library),
    "libraryReview/parentGone": .init(actions: [.exit(code: 0)], mode: .library),
    // consent (`--consent`: No thanks, Agree; its switches set by consentChoice)
    "consent/press(decline)": .init(actions: [], mode: .ready),
    "consent/idleReset": .init(actions: [], mode: .ready),
    "consent/press(agree)": .init(actions: [.discardTake, .startRecording(orientation: .landscapeRight)], mode: .recording),
    "consent/consentChoice": .init(actions: [], mode: .consent),
    "consent/stateQuery": .init(actions: [.emit(.state(mode: "consent", timer: "00:00", buttons: [.decline, .agree], orientation: .landscapeRight))], mode: .consent),
    "consent/background": .init(actions: [.stopCamera], mode: .ready),
    "consent/closeBooth": .init(actions: [.emit(.boothClosed), .stopCamera], mode: .closed),
    "consent/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .stopCamera, .exit(code: 0)], mode: .ready),
    "consent/quit": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    "consent/parentGone": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    // consent before a photo: as before a take, but Agree takes the photo and stays in ready
    "consentPhoto/press(decline)": .init(actions: [], mode: .ready),
    "consentPhoto/idleReset": .init(actions: [], mode: .ready),
    "consentPhoto/press(agree)": .init(actions: [.takePhoto(orientation: .landscapeRight, consent: Consent(version: consentOffer.version, choices: []))], mode: .ready),
    "consentPhoto/consentChoice": .init(actions: [], mode: .consent),
    "consentPhoto/stateQuery": .init(actions: [.emit(.state(mode: "consent", timer: "00:00", buttons: [.decline, .agree], orientation: .landscapeRight))], mode: .consent),
    "consentPhoto/background": .init(actions: [.stopCamera], mode: .ready),
    "consentPhoto/closeBooth": .init(actions: [.emit(.boothClosed), .stopCamera], mode: .closed),
    "consentPhoto/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .stopCamera, .exit(code: 0)], mode: .ready),
    "consentPhoto/quit": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    "consentPhoto/parentGone": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    // ready
    "ready/press(cancel)": .init(actions: [.emit(.videoRecorderDidCancelRecordingVideo), .stopCamera, .exit(code: 0)], mode: .ready),
    "ready/press(start)": .init(actions: [.discardTake, .startRecording(orientation: .landscapeRight)], mode: .recording),
    "ready/start": .init(actions: [.emit(.countdown(remaining: 2)), .playSound(.tick), .startCountdownClock], mode: .countdown),
    "ready/background": .init(actions: [.stopCamera], mode: .ready),
    "ready/rotate": .init(actions: [.applyOrientation(.portrait), .emit(.orientationChanged(orientation: .portrait))], mode: .ready),
    "ready/stateQuery": .init(actions: [.emit(.state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight))], mode: .ready),
    "ready/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .stopCamera, .exit(code: 0)], mode: .ready),
    "ready/quit": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    "ready/parentGone": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    "ready/reload": .init(actions: [.applyOrientation(.portrait), .emit(.orientationChanged(orientation: .portrait)), .applyReload], mode: .ready),
    // ready, camera missing: only Cancel shows; a rotation waits for the camera.
    "readyNoCamera/press(cancel)": .init(actions: [.emit(.videoRecorderDidCancelRecordingVideo), .stopCamera, .exit(code: 0)], mode: .ready),
    "readyNoCamera/background": .init(actions: [.stopCamera], mode: .ready),
    "readyNoCamera/stateQuery": .init(actions: [.emit(.state(mode: "ready", timer: "00:00", buttons: [.cancel], orientation: .landscapeRight))], mode: .ready),
    "readyNoCamera/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .stopCamera, .exit(code: 0)], mode: .ready),
    "readyNoCamera/quit": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    "readyNoCamera/parentGone": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    "readyNoCamera/reload": .init(actions: [.applyReload], mode: .ready),
    // ready, in the background: the camera is released; it comes back with the foreground.
    "readyBackground/press(cancel)": .init(actions: [.emit(.videoRecorderDidCancelRecordingVideo), .exit(code: 0)], mode: .ready),
    "readyBackground/foreground": .init(actions: [.startCamera], mode: .ready),
    "readyBackground/stateQuery": .init(actions: [.emit(.state(mode: "ready", timer: "00:00", buttons: [.cancel], orientation: .landscapeRight))], mode: .ready),
    "readyBackground/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .ready),
    "readyBackground/quit": .init(actions: [.exit(code: 0)], mode: .ready),
    "readyBackground/parentGone": .init(actions: [.exit(code: 0)], mode: .ready),
    "readyBackground/reload": .init(actions: [.applyReload], mode: .ready),
    // countdown (3 s, after Start): only Cancel shows; Cancel goes back to ready without the cancel
    // event; the guest leaving (background, a lost camera) ends the count; each second ticks.
    "countdown/press(cancel)": .init(actions: [], mode: .ready),
    "countdown/countdownTick": .init(actions: [.emit(.countdown(remaining: 2)), .playSound(.tick)], mode: .countdown),
    "countdown/background": .init(actions: [.stopCamera], mode: .ready),
    "countdown/cameraLost": .init(actions: [], mode: .ready),
    "countdown/stateQuery": .init(actions: [.emit(.state(mode: "countdown", timer: "00:00", buttons: [.cancel], orientation: .landscapeRight))], mode: .countdown),
    "countdown/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .stopCamera, .exit(code: 0)], mode: .ready),
    "countdown/quit": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    "countdown/parentGone": .init(actions: [.stopCamera, .exit(code: 0)], mode: .ready),
    // recording, before the writer confirmed: no Stop yet (nothing to stop), a failure returns to ready.
    "recordingUnconfirmed/recordingStarted": .init(actions: [.emit(.recordingStarted(outputPath: out)), .playSound(.begin)], mode: .recording),
    "recordingUnconfirmed/recordingFailed": .init(actions: [.emit(.error(code: .diskFull, message: "no space"))], mode: .ready),
    "recordingUnconfirmed/recordingFinished": .init(actions: [.playSound(.end), .emit(.recordingFinished(finishedByLimit)), .stopCamera], mode: .finished),
    "recordingUnconfirmed/background": .init(actions: [.stopRecording(.background), .stopCamera], mode: .recording),
    "recordingUnconfirmed/cameraLost": .init(actions: [.stopRecording(.deviceDisconnected)], mode: .recording),
    "recordingUnconfirmed/stateQuery": .init(actions: [.emit(.state(mode: "recording", timer: "00:01", buttons: [], orientation: .landscapeRight))], mode: .recording),
    "recordingUnconfirmed/terminate": .init(actions: [.stopRecording(.signal), .stopCamera], mode: .recording),
    "recordingUnconfirmed/quit": .init(actions: [.stopRecording(.user), .stopCamera], mode: .recording),
    "recordingUnconfirmed/parentGone": .init(actions: [.stopRecording(.parentGone), .stopCamera], mode: .recording),
    // recording
    "recording/press(stop)": .init(actions: [.stopRecording(.user)], mode: .recording),
    "recording/recordingFinished": .init(actions: [.playSound(.end), .emit(.recordingFinished(finishedByLimit)), .stopCamera], mode: .finished),
    "recording/background": .init(actions: [.stopRecording(.background), .stopCamera], mode: .recording),
    "recording/cameraLost": .init(actions: [.stopRecording(.deviceDisconnected)], mode: .recording),
    "recording/stateQuery": .init(actions: [.emit(.state(mode: "recording", timer: "00:01", buttons: [.stop], orientation: .landscapeRight))], mode: .recording),
    "recording/terminate": .init(actions: [.stopRecording(.signal), .stopCamera], mode: .recording),
    "recording/quit": .init(actions: [.stopRecording(.user), .stopCamera], mode: .recording),
    "recording/parentGone": .init(actions: [.stopRecording(.parentGone), .stopCamera], mode: .recording),
    // stopping: the writer is finalizing; nothing can be pressed, a second stop is not sent.
    "stopping/recordingFinished": .init(actions: [.playSound(.end), .emit(.recordingFinished(finishedByLimit)), .stopCamera], mode: .finished),
    "stopping/background": .init(actions: [.stopCamera], mode: .recording),
    "stopping/stateQuery": .init(actions: [.emit(.state(mode: "recording", timer: "00:00", buttons: [], orientation: .landscapeRight))], mode: .recording),
    "stopping/terminate": .init(actions: [.stopCamera], mode: .recording),
    "stopping/quit": .init(actions: [.stopCamera], mode: .recording),
    "stopping/parentGone": .init(actions: [.stopCamera], mode: .recording),
    // finished
    "finished/press(retake)": .init(actions: [.discardTake, .startCamera], mode: .ready),
    "finished/press(useVideo)": .init(actions: [.handOverTake(), .exit(code: 0)], mode: .finished),
    "finished/idleReset": .init(actions: [.emit(.idleReset(action: .use)), .handOverTake(), .exit(code: 0)], mode: .finished),
    "finished/press(playVideo)": .init(actions: [.startPlayback(path: out), .emit(.playbackStarted(path: out))], mode: .playing),
    "finished/stateQuery": .init(actions: [.emit(.state(mode: "finished", timer: "00:03", buttons: [.retake, .useVideo, .playVideo], orientation: .landscapeRight))], mode: .finished),
    "finished/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .finished),
    "finished/quit": .init(actions: [.exit(code: 0)], mode: .finished),
    "finished/parentGone": .init(actions: [.exit(code: 0)], mode: .finished),
    // finished after a failed take: no Use Video.
    "finishedFailed/press(retake)": .init(actions: [.discardTake, .startCamera], mode: .ready),
    "finishedFailed/idleReset": .init(actions: [.emit(.idleReset(action: .discard)), .discardTake, .startCamera, .emit(.videoRecorderDidCancelRecordingVideo), .stopCamera, .exit(code: 0)], mode: .ready),
    "finishedFailed/press(playVideo)": .init(actions: [.startPlayback(path: out), .emit(.playbackStarted(path: out))], mode: .playing),
    "finishedFailed/stateQuery": .init(actions: [.emit(.state(mode: "finished", timer: "00:00", buttons: [.retake, .playVideo], orientation: .landscapeRight))], mode: .finished),
    "finishedFailed/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .finished),
    "finishedFailed/quit": .init(actions: [.exit(code: 0)], mode: .finished),
    "finishedFailed/parentGone": .init(actions: [.exit(code: 0)], mode: .finished),
    // playing
    "playing/press(closePlayer)": .init(actions: [.stopPlayback, .emit(.playbackFinished(reason: .closed))], mode: .finished),
    "playing/idleReset": .init(actions: [.emit(.idleReset(action: .use)), .stopPlayback, .emit(.playbackFinished(reason: .closed)), .handOverTake(), .exit(code: 0)], mode: .finished),
    "playing/background": .init(actions: [.setPlaybackPaused(true)], mode: .playing),
    "playing/playbackEnded": .init(actions: [.emit(.playbackFinished(reason: .end))], mode: .finished),
    "playing/togglePause": .init(actions: [.setPlaybackPaused(true)], mode: .playing),
    "playing/pause": .init(actions: [.setPlaybackPaused(true)], mode: .playing),
    "playing/seek": .init(actions: [.seekPlayback(to: 1.5)], mode: .playing),
    "playing/stateQuery": .init(actions: [.emit(.state(mode: "playing", timer: "00:00 / 00:03", buttons: [.closePlayer], orientation: .landscapeRight))], mode: .playing),
    "playing/terminate": .init(actions: [.stopPlayback, .emit(.playbackFinished(reason: .closed)), .emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .finished),
    "playing/quit": .init(actions: [.stopPlayback, .emit(.playbackFinished(reason: .closed)), .exit(code: 0)], mode: .finished),
    "playing/parentGone": .init(actions: [.stopPlayback, .emit(.playbackFinished(reason: .closed)), .exit(code: 0)], mode: .finished),
    // sharing (a once session): the share folder being written, then its QR code until Done or
    // --share-seconds; the session ends with the share screen. A failed share says so and ends it.
    "sharingPending/press(done)": .init(actions: [.exit(code: 0)], mode: .sharing),
    "sharingPending/takeShared": .init(actions: [.emit(.takeShared(url: sharedLink.url, token: "abc", folder: sharedLink.folder)), .startShareClock], mode: .sharing),
    "sharingPending/shareFailed": .init(actions: [.emit(.error(code: .shareFailed, message: "no space")), .exit(code: 0)], mode: .sharing),
    "sharingPending/stateQuery": .init(actions: [.emit(.state(mode: "sharing", timer: "00:00", buttons: [.done], orientation: .landscapeRight))], mode: .sharing),
    "sharingPending/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .sharing),
    "sharingPending/quit": .init(actions: [.exit(code: 0)], mode: .sharing),
    "sharingPending/parentGone": .init(actions: [.exit(code: 0)], mode: .sharing),
    "sharing/press(done)": .init(actions: [.exit(code: 0)], mode: .sharing),
    "sharing/shareTimedOut": .init(actions: [.exit(code: 0)], mode: .sharing),
    "sharing/stateQuery": .init(actions: [.emit(.state(mode: "sharing", timer: "00:00", buttons: [.done], orientation: .landscapeRight))], mode: .sharing),
    "sharing/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .sharing),
    "sharing/quit": .init(actions: [.exit(code: 0)], mode: .sharing),
    "sharing/parentGone": .init(actions: [.exit(code: 0)], mode: .sharing),
    // closeBooth (RecorderMachine+Closed): "back soon" and no buttons at once where nothing is in flight,
    // the camera resting; a take being recorded stops as for the background (the booth closes once it
    // is finished: RecorderMachineClosedTests); a review's take is kept; a once session's share screen
    // ends as Done (the session's end). Closing a closed booth changes nothing.
    "ready/closeBooth": .init(actions: [.emit(.boothClosed), .stopCamera], mode: .closed),
    "readyNoCamera/closeBooth": .init(actions: [.emit(.boothClosed), .stopCamera], mode: .closed),
    "readyBackground/closeBooth": .init(actions: [.emit(.boothClosed)], mode: .closed),
    "countdown/closeBooth": .init(actions: [.emit(.boothClosed), .stopCamera], mode: .closed),
    "recordingUnconfirmed/closeBooth": .init(actions: [.stopRecording(.background)], mode: .recording),
    "recording/closeBooth": .init(actions: [.stopRecording(.background)], mode: .recording),
    "stopping/closeBooth": .init(actions: [], mode: .recording),
    "finished/closeBooth": .init(actions: [.keepTake, .emit(.boothClosed)], mode: .closed),
    "finishedFailed/closeBooth": .init(actions: [.keepTake, .emit(.boothClosed)], mode: .closed),
    "playing/closeBooth": .init(actions: [.stopPlayback, .emit(.playbackFinished(reason: .closed)), .keepTake, .emit(.boothClosed)], mode: .closed),
    "sharingPending/closeBooth": .init(actions: [.exit(code: 0)], mode: .sharing),
    "sharing/closeBooth": .init(actions: [.exit(code: 0)], mode: .sharing),
    "libraryGrid/closeBooth": .init(actions: [.releaseLibrary, .emit(.boothClosed)], mode: .closed),
    "libraryReview/closeBooth": .init(actions: [.releaseLibrary, .emit(.boothClosed)], mode: .closed),
    // closed: every guest's press refused (no buttons); openBooth goes back to ready, the camera
    // again; a reload applies (the booth stays closed); a share folder's report is still said.
    "closed/closeBooth": .init(actions: [], mode: .closed),
    "closed/openBooth": .init(actions: [.emit(.boothOpened), .startCamera], mode: .ready),
    "closed/stateQuery": .init(actions: [.emit(.state(mode: "closed", timer: "00:00", buttons: [], orientation: .landscapeRight))], mode: .closed),
    "closed/reload": .init(actions: [.applyReload], mode: .closed),
    "closed/takeShared": .init(actions: [.emit(.takeShared(url: sharedLink.url, token: "abc", folder: sharedLink.folder))], mode: .closed),
    "closed/shareFailed": .init(actions: [.emit(.error(code: .shareFailed, message: "no space"))], mode: .closed),
    "closed/terminate": .init(actions: [.emit(.terminated(signal: "SIGTERM")), .exit(code: 0)], mode: .closed),
    "closed/quit": .init(actions: [.exit(code: 0)], mode: .closed),
    "closed/parentGone": .init(actions: [.exit(code: 0)], mode: .closed),
]

/// The recording fixture is taken at 1.5 s so the timer shows 00:01.
func prepared(_ fixture: Fixture) -> RecorderMachine {
    var m = fixture.make()
    if fixture == .recording || fixture == .recordingUnconfirmed { _ = m.handle(.tick(elapsed: 1.5)) }
    return m
}

@Suite("RecorderMachine: every (mode, event) pair")
struct RecorderMachinePairTests {
    @Test("the samples cover every kind of event")
    func samplesCoverEveryKind() {
        let kinds = Set(sampleEvents.map(kind))
        #expect(kinds.count == sampleEvents.count)
        #expect(kinds.count == Button.allCases.count + 33)
    }

    @Test("the fixtures reach the modes they are named for")
    func fixtures() {
        #expect(Fixture.ready.make().mode == .ready)
        #expect(Fixture.recording.make().visibleButtons == [.stop])
        #expect(Fixture.stopping.make().state == .recording(.init(confirmed: true, stopRequested: .user)))
        #expect(Fixture.finished.make().mode == .finished)
        #expect(Fixture.playing.make().mode == .playing)
        #expect(Fixture.readyBackground.make().cameraRunning == false)
    }

    @Test("listed pairs give exactly their actions and mode", arguments: Fixture.allCases)
    func listedPairs(fixture: Fixture) {
        for event in sampleEvents {
            let key = "\(fixture)/\(kind(event))"
            guard let expected = table[key] else { continue }
            var m = prepared(fixture)
            let actions = m.handle(event)
            #expect(actions == expected.actions, "\(key)")
            #expect(m.mode == expected.mode, "\(key)")
        }
    }

    @Test("a press of a hidden button emits notAllowed and changes nothing", arguments: Fixture.allCases)
    func hiddenPresses(fixture: Fixture) {
        let before = prepared(fixture)
        for button in Button.allCases where !before.visibleButtons.contains(button) {
            var m = before
            let actions = m.handle(.press(button))
            #expect(actions == [notAllowed(button, before.mode, before.visibleButtons)], "\(fixture)/\(button)")
            #expect(m == before, "\(fixture)/\(button)")
        }
        // The progress bar and the pause are on screen only in the player.
        if before.mode != .playing {
            for (event, name) in playerControls {
                var m = before
                #expect(m.handle(event) == [notAllowed(name, before.mode, before.visibleButtons)], "\(fixture)/\(name)")
                #expect(m == before, "\(fixture)/\(name)")
            }
        }
        var trimmed = before
        #expect(trimmed.handle(trimControl.event) == [notAllowed(trimControl.name, before.mode, before.visibleButtons)], "\(fixture)/trim")
        #expect(trimmed == before, "\(fixture)/trim")
        if before.mode != .consent {
            var m = before
            #expect(m.handle(.consentChoice(.film, on: true)) == [notAllowed("consentChoice", before.mode, before.visibleButtons)], "\(fixture)/consentChoice")
            #expect(m == before, "\(fixture)/consentChoice")
        }
        if before.mode != .library {
            var m = before
            #expect(m.handle(libraryPick) == [notAllowed("pick", before.mode, before.visibleButtons)], "\(fixture)/pick")
            #expect(m == before, "\(fixture)/pick")
        }
        // Start with a countdown of its own is a press of Start too.
        if !before.visibleButtons.contains(.start) {
            var m = before
            #expect(m.handle(.start(countdown: 2)) == [notAllowed(.start, before.mode, before.visibleButtons)], "\(fixture)/start")
            #expect(m == before, "\(fixture)/start")
        }
    }

    @Test("every other pair emits nothing and leaves mode, buttons and timer alone", arguments: Fixture.allCases)
    func unlistedPairsAreNoOps(fixture: Fixture) {
        let before = prepared(fixture)
        for event in sampleEvents {
            let key = "\(fixture)/\(kind(event))"
            if table[key] != nil { continue }
            if case let .press(b) = event, !before.visibleButtons.contains(b) { continue }
            if case .start = event, !before.visibleButtons.contains(.start) { continue }
            if playerControls.contains(where: { $0.event == event }), before.mode != .playing { continue }
            if event == trimControl.event { continue }
            if event == libraryPick, before.mode != .library { continue }
            if case .consentChoice = event, before.mode != .consent { continue }
            var m = before
            let actions = m.handle(event)
            #expect(actions == [], "\(key)")
            #expect(m.mode == before.mode, "\(key)")
            // Flags an event names may change (cameraLost, rotate kept for later); the screen may not,
            // except the timer and the buttons that depend on those flags.
            switch event {
            case .cameraLost, .cameraBack, .tick, .playbackProgress, .togglePause, .rotate, .foreground: break
            default: #expect(m.viewModel == before.viewModel, "\(key)")
            }
        }
    }

    @Test("every visible button of every fixture has a listed press")
    func visiblePressesAreListed() {
        for fixture in Fixture.allCases {
            for button in prepared(fixture).visibleButtons {
                #expect(table["\(fixture)/press(\(button.rawValue))"] != nil, "\(fixture)/\(button)")
            }
        }
    }
}

@Suite("RecorderMachine: sharing (--share-dir)")
struct RecorderMachineShareTests {
    @Test("Use Video hands the take over, then asks for its share folder; the share screen shows Done and, once written, the QR code's address")
    func useVideoShares() {
        var m = Fixture.finished.make(session: .loop)
        #expect(m.handle(.press(.useVideo)) == [.handOverTake(), .startCamera])  // not sharing: no share screen
        var s = RecorderMachine(session: .loop, outputPath: out, orientation: .landscapeRight, shares: true)
        _ = s.start()
        for event: RecorderEvent in [.press(.start), .recordingStarted(outputPath: out), .press(.stop), .recordingFinished(Fixture.goodTake)] { _ = s.handle(event) }
        #expect(s.handle(.press(.useVideo)) == [.handOverTake(), .shareTake])
        #expect(s.mode == .sharing && s.visibleButtons == [.done] && s.viewModel.share == ShareScreen(url: nil))
        _ = s.handle(.takeShared(sharedLink))
        #expect(s.viewModel.share == ShareScreen(url: sharedLink.url))
        // A loop session goes back to ready, the camera with it, at Done or when the time is up.
        var done = s
        #expect(done.handle(.press(.done)) == [.startCamera] && done.mode == .ready)
        #expect(s.handle(.shareTimedOut) == [.startCamera] && s.mode == .ready)
    }

    @Test("an idle finished screen used shares too; a failed share goes on as Use Video would; a reload turns sharing on in ready")
    func idleFailedReload() {
        var s = Fixture.finished.make(session: .loop)
        var c = defaultSettings
        c.session = .loop
        c.shares = true
        var r = Fixture.ready.make(session: .loop)
        _ = r.handle(.reload(c))
        #expect(r.shares)
        #expect(!s.shares)
        _ = s.handle(.reload(c))
        #expect(!s.shares, "a reload waits for ready")
        var idle = Fixture.sharingPending.make(session: .loop)
        #expect(idle.handle(.shareFailed(message: "disk full")) == [.emit(.error(code: .shareFailed, message: "disk full")), .startCamera])
        #expect(idle.mode == .ready)
        var used = RecorderMachine(session: .once, outputPath: out, orientation: .landscapeRight, shares: true)
        _ = used.start()
        for event: RecorderEvent in [.press(.start), .recordingStarted(outputPath: out), .press(.stop), .recordingFinished(Fixture.goodTake)] { _ = used.handle(event) }
        #expect(used.handle(.idleReset(.use)) == [.emit(.idleReset(action: .use)), .handOverTake(), .shareTake])
        #expect(used.mode == .sharing && !used.exiting)
    }
}

@Suite("RecorderMachine: the seed's behaviour")
struct RecorderMachineSeedTests {
    @Test("ready shows Cancel and Start, a 00:00 timer and the panel background")
    func readyView() {
        let v = Fixture.ready.make().viewModel
        #expect(v.buttons == [.cancel, .start])
        #expect(v.timer == "00:00")
        #expect(v.bottomPanelBackground)
        #expect(!v.frozenFrame)
    }

    @Test("start deletes the old file and starts recording, timer from 00:00; the begin sound once the writer started")
    func start() {
        var m = Fixture.ready.make()
        #expect(m.handle(.press(.start)) == [.discardTake, .startRecording(orientation: .landscapeRight)])
        #expect(m.timerText == "00:00")
        #expect(m.handle(.recordingStarted(outputPath: out)) == [.emit(.recordingStarted(outputPath: out)), .playSound(.begin)])
    }

    @Test("the countdown: 3, 2, 1 with a tick each, a second apart (the booth's ticks), then the take; start with countdown 0 skips it")
    func countdown() {
        var m = RecorderMachine(session: .once, outputPath: out, orientation: .landscapeRight, countdown: 3)
        _ = m.start()
        #expect(m.handle(.press(.start)) == [.emit(.countdown(remaining: 3)), .playSound(.tick), .startCountdownClock])
        #expect(m.viewModel.countdown == 3 && m.viewModel.buttons == [.cancel] && m.stateEvent.name == "state")
        #expect(m.handle(.countdownTick) == [.emit(.countdown(remaining: 2)), .playSound(.tick)])
        #expect(m.handle(.countdownTick) == [.emit(.countdown(remaining: 1)), .playSound(.tick)])
        #expect(m.viewModel.countdown == 1)
        #expect(m.handle(.countdownTick) == [.discardTake, .startRecording(orientation: .landscapeRight)])
        #expect(m.mode == .recording && m.viewModel.countdown == nil)
        // A tick after the count (a late one) does nothing.
        #expect(m.handle(.countdownTick) == [])

        var quick = RecorderMachine(session: .once, outputPath: out, orientation: .landscapeRight, countdown: 3)
        _ = quick.start()
        #expect(quick.handle(.start(countdown: 0)) == [.discardTake, .startRecording(orientation: .landscapeRight)])
        // A reload changes the countdown of the next Start.
        var c = defaultSettings
        c.countdown = 0
        var reloadedMachine = RecorderMachine(session: .once, outputPath: out, orientation: .landscapeRight, countdown: 3)
        _ = reloadedMachine.start()
        _ = reloadedMachine.handle(.reload(c))
        #expect(reloadedMachine.countdownSeconds == 0)
        #expect(reloadedMachine.handle(.press(.start)) == [.discardTake, .startRecording(orientation: .landscapeRight)])
    }

    @Test("time left: remaining in state while recording; under --warn-remaining the timer counts down what is left and the ring's fraction empties")
    func timeLeft() {
        var m = RecorderMachine(session: .once, outputPath: out, orientation: .landscapeRight, warnRemaining: 10)
        _ = m.start()
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: out))
        _ = m.handle(.tick(elapsed: 5, remaining: 15))
        #expect(!m.timeWarning && m.timerText == "00:05" && m.viewModel.remainingFraction == nil)
        #expect(m.stateEvent == .state(mode: "recording", timer: "00:05", buttons: [.stop], orientation: .landscapeRight, remaining: 15))
        _ = m.handle(.tick(elapsed: 12.2, remaining: 7.8))
        #expect(m.timeWarning && m.timerText == "00:08" && m.viewModel.remainingFraction == 0.78)
        // Stopping: the warning goes; finished: no remaining in state.
        _ = m.handle(.press(.stop))
        #expect(!m.timeWarning)
        _ = m.handle(.recordingFinished(Fixture.goodTake))
        #expect(m.stateEvent == .state(mode: "finished", timer: "00:03", buttons: [.retake, .useVideo, .playVideo], orientation: .landscapeRight))
        // 0: never warned.
        var quiet = RecorderMachine(session: .once, outputPath: out, orientation: .landscapeRight, warnRemaining: 0)
        _ = quiet.start()
        _ = quiet.handle(.press(.start))
        _ = quiet.handle(.recordingStarted(outputPath: out))
        _ = quiet.handle(.tick(elapsed: 12, remaining: 1))
        #expect(!quiet.timeWarning && quiet.timerText == "00:12")
    }

    @Test("a take that fails to start plays no begin sound and returns to ready")
    func failedStartIsSilent() {
        var m = Fixture.ready.make()
        var actions = m.handle(.press(.start))
        actions += m.handle(.recordingFailed(code: .recordingFailed, message: "avcodec_open2 failed"))
        #expect(!actions.contains(.playSound(.begin)))
        #expect(actions.last == .emit(.error(code: .recordingFailed, message: "avcodec_open2 failed")))
        #expect(m.mode == .ready)
    }

    @Test("a stop asked for while the writer opens reaches the writer when it starts, without the begin sound",
          arguments: [(RecorderEvent.terminate(signal: "SIGTERM"), StopReason.signal), (.background, .background),
                      (.cameraLost, .deviceDisconnected)])
    func stopWhileStarting(event: RecorderEvent, reason: StopReason) {
        var m = Fixture.recordingUnconfirmed.make()
        #expect(m.handle(event).first == .stopRecording(reason))
        #expect(m.handle(.recordingStarted(outputPath: out)) == [.emit(.recordingStarted(outputPath: out)), .stopRecording(reason)])
    }

    @Test("recording shows only Stop, hides the panel background, counts each second")
    func recordingView() {
        var m = Fixture.recording.make()
        #expect(m.viewModel.buttons == [.stop])
        #expect(!m.viewModel.bottomPanelBackground)
        for (t, text) in [(0.9, "00:00"), (1.0, "00:01"), (59.99, "00:59"), (61, "01:01"), (3723, "1:02:03")] {
            _ = m.handle(.tick(elapsed: t))
            #expect(m.timerText == text)
        }
        // A tick never moves the timer backwards.
        _ = m.handle(.tick(elapsed: 10))
        #expect(m.timerText == "1:02:03")
    }

    @Test("each stop cause stops with its reason, then the end sound and the frozen frame",
          arguments: [
            (RecorderEvent.press(.stop), StopReason.user), (.background, .background), (.cameraLost, .deviceDisconnected),
          ])
    func stopCauses(event: RecorderEvent, reason: StopReason) {
        var m = Fixture.recording.make()
        #expect(m.handle(event).first == .stopRecording(reason))
        let result = RecordingResult(outputPath: out, duration: 2, bytes: 5, reason: reason, success: true)
        let actions = m.handle(.recordingFinished(result))
        #expect(actions.prefix(2) == [.playSound(.end), .emit(.recordingFinished(result))])
        #expect(m.mode == .finished)
        #expect(m.viewModel.frozenFrame)
        #expect(m.timerText == "00:02")
    }

    @Test("the writer stopping by itself (a full disk) lands in finished without a stop request")
    func writerStopsItself() {
        var m = Fixture.recording.make()
        let result = RecordingResult(outputPath: out, duration: 1.6, bytes: 5, reason: .diskFull, success: true)
        #expect(m.handle(.recordingFinished(result)) == [.playSound(.end), .emit(.recordingFinished(result)), .stopCamera])
        #expect(m.timerText == "00:02")
    }

    @Test("finished shows Retake, Use Video only after a good take, and Play Video")
    func finishedView() {
        #expect(Fixture.finished.make().viewModel.buttons == [.retake, .useVideo, .playVideo])
        #expect(Fixture.finishedFailed.make().viewModel.buttons == [.retake, .playVideo])
        #expect(Fixture.finished.make().timerText == "00:03")
    }

    @Test("retake deletes the take, resets the timer and restarts the camera")
    func retake() {
        var m = Fixture.finished.make()
        #expect(m.handle(.press(.retake)) == [.discardTake, .startCamera])
        #expect(m.mode == .ready && m.timerText == "00:00" && m.cameraRunning)
    }

    @Test("Use Video reports the path: once exits; loop hands the take over and returns to ready with the camera")
    func useVideo() {
        var once = Fixture.finished.make(session: .once)
        #expect(once.handle(.press(.useVideo)) == [.handOverTake(), .exit(code: 0)])
        #expect(once.handle(.stateQuery) == [], "nothing after exit")
        var loop = Fixture.finished.make(session: .loop)
        #expect(loop.handle(.press(.useVideo)) == [.handOverTake(), .startCamera])
        #expect(loop.mode == .ready && loop.visibleButtons == [.cancel, .start] && loop.timerText == "00:00")
    }

    @Test("Cancel in loop mode reports and stays ready with the camera on")
    func cancelLoop() {
        var loop = Fixture.ready.make(session: .loop)
        #expect(loop.handle(.press(.cancel)) == [.emit(.videoRecorderDidCancelRecordingVideo)])
        #expect(loop.mode == .ready && loop.cameraRunning)
    }

    @Test("Play Video plays; Close or the end of the file returns to finished; tap pauses")
    func playback() {
        var m = Fixture.playing.make()
        #expect(m.viewModel.buttons == [.closePlayer])
        _ = m.handle(.playbackProgress(position: 1.6, duration: 3.2))
        #expect(m.timerText == "00:01 / 00:03")
        #expect(m.viewModel.progress == 0.5)
        #expect(m.handle(.togglePause) == [.setPlaybackPaused(true)])
        #expect(m.viewModel.paused)
        #expect(m.handle(.togglePause) == [.setPlaybackPaused(false)])
        #expect(m.handle(.playbackEnded(.error)) == [.emit(.playbackFinished(reason: .error))])
        #expect(m.mode == .finished && m.viewModel.frozenFrame)
        // A late end from the closed player changes nothing.
        #expect(m.handle(.playbackEnded(.end)) == [])
    }

    @Test("rotation applies in ready and is kept for the next ready at any other time")
    func rotation() {
        var m = Fixture.recording.make()
        #expect(m.handle(.rotate(.portrait)) == [])
        #expect(m.orientation == .landscapeRight && m.pendingOrientation == .portrait)
        _ = m.handle(.press(.stop))
        _ = m.handle(.recordingFinished(Fixture.goodTake))
        #expect(m.orientation == .landscapeRight)
        // The later request wins.
        #expect(m.handle(.rotate(.landscapeLeft)) == [])
        #expect(m.handle(.press(.retake)) == [.discardTake, .applyOrientation(.landscapeLeft),
                                              .emit(.orientationChanged(orientation: .landscapeLeft)), .startCamera])
        #expect(m.orientation == .landscapeLeft && m.pendingOrientation == nil)
        // Asking for the current orientation in ready is not a change.
        #expect(m.handle(.rotate(.landscapeLeft)) == [])
    }

    @Test("a reload applies at once in ready; during a take, the review or playback it waits for the next return to ready")
    func reload() {
        // In ready: at once (its orientation as a rotate would).
        var m = Fixture.ready.make()
        var plain = reloaded
        plain.orientation = nil
        #expect(m.handle(.reload(plain)) == [.applyReload])
        #expect(m.session == .loop && m.pendingSettings == nil)
        // During a take: held through finished and playing, applied by Retake's return to ready.
        for fixture in [Fixture.recordingUnconfirmed, .recording, .stopping, .finished, .finishedFailed, .playing] {
            var m = fixture.make()
            #expect(m.handle(.reload(reloaded)) == [], "\(fixture)")
            #expect(m.session == .once && m.pendingSettings == reloaded, "\(fixture)")
        }
        m = Fixture.recording.make()
        _ = m.handle(.reload(reloaded))
        _ = m.handle(.press(.stop))
        #expect(m.handle(.recordingFinished(Fixture.goodTake)) == [.playSound(.end), .emit(.recordingFinished(Fixture.goodTake)), .stopCamera])
        _ = m.handle(.press(.playVideo))
        _ = m.handle(.press(.closePlayer))
        #expect(m.pendingSettings == reloaded)
        #expect(m.handle(.press(.retake)) == [.discardTake, .applyOrientation(.portrait),
                                              .emit(.orientationChanged(orientation: .portrait)), .applyReload, .startCamera])
        #expect(m.session == .loop && m.orientation == .portrait)
        // A newer reload replaces one still waiting; a take that fails to start returns to ready.
        m = Fixture.recordingUnconfirmed.make()
        _ = m.handle(.reload(reloaded))
        _ = m.handle(.reload(plain))
        #expect(m.handle(.recordingFailed(code: .diskFull, message: "no space")) == [.emit(.error(code: .diskFull, message: "no space")),
                                                                                    .applyOrientation(.portrait), .emit(.orientationChanged(orientation: .portrait)),
                                                                                    .applyReload])
    }

    @Test("a reload waiting in finished: Use Video in loop applies it in ready, in once the booth leaves without it")
    func reloadAfterOutcome() {
        var plain = reloaded
        plain.orientation = nil
        plain.session = .once
        var m = Fixture.finished.make(session: .loop)
        _ = m.handle(.reload(plain))
        #expect(m.handle(.press(.useVideo)) == [.handOverTake(), .applyReload, .startCamera])
        #expect(m.session == .once)
        // Now in once: the next outcome exits.
        #expect(m.handle(.press(.cancel)) == [.emit(.videoRecorderDidCancelRecordingVideo), .stopCamera, .exit(code: 0)])
        var n = Fixture.finished.make()
        _ = n.handle(.reload(reloaded))
        #expect(n.handle(.press(.useVideo)) == [.handOverTake(), .exit(code: 0)])
        // On the way out a reload is ignored; the player alone has nothing to reload.
        var leaving = Fixture.recording.make()
        _ = leaving.handle(.terminate(signal: "SIGTERM"))
        #expect(leaving.handle(.reload(reloaded)) == [] && leaving.pendingSettings == nil)
        var player = RecorderMachine(playing: "/tmp/x.mov", orientation: .landscapeRight)
        _ = player.start()
        #expect(player.handle(.reload(reloaded)) == [] && player.pendingSettings == nil)
    }

    @Test("a rotation asked for in the background or without a camera waits for it")
    func rotationWaitsForCamera() {
        var m = Fixture.readyBackground.make()
        #expect(m.handle(.rotate(.portrait)) == [])
        #expect(m.handle(.foreground) == [.applyOrientation(.portrait), .emit(.orientationChanged(orientation: .portrait)), .startCamera])
        var n = Fixture.readyNoCamera.make()
        #expect(n.handle(.rotate(.portrait)) == [])
        #expect(n.handle(.cameraBack) == [.applyOrientation(.portrait), .emit(.orientationChanged(orientation: .portrait))])
        // Asking for the current orientation cancels a pending one.
        var p = Fixture.recording.make()
        _ = p.handle(.rotate(.portrait))
        _ = p.handle(.rotate(.landscapeRight))
        #expect(p.pendingOrientation == nil)
    }

    @Test("the recording carries the orientation at the start of the take")
    func recordingOrientation() {
        var m = Fixture.ready.make()
        _ = m.handle(.rotate(.portraitUpsideDown))
        #expect(m.handle(.press(.start)).contains(.startRecording(orientation: .portraitUpsideDown)))
    }

    @Test("background stops and keeps a recording; foreground does not restart the camera in finished")
    func backgroundWhileRecording() {
        var m = Fixture.recording.make()
        #expect(m.handle(.background) == [.stopRecording(.background), .stopCamera])
        let result = RecordingResult(outputPath: out, duration: 2, bytes: 5, reason: .background, success: true)
        _ = m.handle(.recordingFinished(result))
        #expect(m.viewModel.buttons == [.retake, .useVideo, .playVideo])
        #expect(m.handle(.foreground) == [])
        #expect(m.handle(.press(.retake)) == [.discardTake, .startCamera])
    }

    @Test("a signal while recording finishes the take, then reports terminated and exits")
    func signalWhileRecording() {
        var m = Fixture.recording.make()
        #expect(m.handle(.terminate(signal: "SIGINT")) == [.stopRecording(.signal), .stopCamera])
        #expect(m.visibleButtons == [])
        let result = RecordingResult(outputPath: out, duration: 2, bytes: 5, reason: .signal, success: true)
        #expect(m.handle(.recordingFinished(result)) == [.emit(.recordingFinished(result)), .emit(.terminated(signal: "SIGINT")), .exit(code: 0)])
        #expect(m.handle(.terminate(signal: "SIGTERM")) == [])
    }

    @Test("a failed start returns to ready with an error and the camera still on")
    func failedStart() {
        var m = Fixture.recordingUnconfirmed.make()
        #expect(m.handle(.recordingFailed(code: .diskFull, message: "only 10 KiB free")) == [.emit(.error(code: .diskFull, message: "only 10 KiB free"))])
        #expect(m.mode == .ready && m.cameraRunning && m.visibleButtons == [.cancel, .start])
    }

    @Test("the camera message shows while the camera is missing in ready and recording")
    func cameraMessage() {
        var m = Fixture.ready.make()
        _ = m.handle(.cameraLost)
        #expect(m.viewModel.message != nil)
        _ = m.handle(.cameraBack)
        #expect(m.viewModel.message == nil)
        #expect(Fixture.finished.make().viewModel.message == nil)
    }

    @Test("the first actions start the camera")
    func firstActions() {
        var m = RecorderMachine(session: .once, outputPath: out, orientation: .portrait)
        #expect(m.start() == [.startCamera])
        #expect(m.start() == [])
    }
}

@Suite("RecorderMachine: the player alone (--play), the same playing mode")
struct PlayerMachineTests {
    let file = "/tmp/kiosk/clip.mp4"

    func player() -> RecorderMachine { RecorderMachine(playing: file, orientation: .landscapeRight) }

    @Test("it starts playing the file at once, no camera")
    func starts() {
        var m = player()
        #expect(m.start() == [.startPlayback(path: file), .emit(.playbackStarted(path: file))])
        #expect(m.mode == .playing && m.visibleButtons == [.closePlayer] && !m.cameraRunning)
    }

    @Test("the end exits 0, an error exits 1, Close exits 0, each after playbackFinished")
    func endings() {
        var m = player()
        _ = m.start()
        #expect(m.handle(.playbackEnded(.end)) == [.emit(.playbackFinished(reason: .end)), .exit(code: 0)])
        m = player()
        _ = m.start()
        #expect(m.handle(.playbackEnded(.error)) == [.emit(.playbackFinished(reason: .error)), .exit(code: 1)])
        m = player()
        _ = m.start()
        #expect(m.handle(.press(.closePlayer)) == [.stopPlayback, .emit(.playbackFinished(reason: .closed)), .exit(code: 0)])
    }

    @Test("background pauses and the foreground leaves it paused, as in the booth; a tap resumes")
    func background() {
        for var m in [player(), Fixture.playing.make()] {
            _ = m.start()
            #expect(m.handle(.background) == [.setPlaybackPaused(true)])
            #expect(m.handle(.foreground) == [])
            #expect(m.playbackPaused)
            #expect(m.handle(.togglePause) == [.setPlaybackPaused(false)])
        }
    }

    @Test("a signal closes the player: playbackFinished closed, terminated, exit 0")
    func signal() {
        var m = player()
        _ = m.start()
        #expect(m.handle(.terminate(signal: "SIGTERM")) == [.stopPlayback, .emit(.playbackFinished(reason: .closed)),
                                                           .emit(.terminated(signal: "SIGTERM")), .exit(code: 0)])
    }
}


@Suite("RecorderMachine: camera switch")
struct RecorderMachineSwitchTests {
    @Test("with two cameras Switch Camera shows in ready (also with the camera missing), not in the background, a take or a switch; a press asks for the switch, which holds Start back until the booth says it is done")
    func switchButton() {
        var m = RecorderMachine(session: .once, outputPath: out, orientation: .landscapeRight, cameraCount: 2)
        _ = m.start()
        #expect(m.visibleButtons == [.cancel, .start, .switchCamera])
        #expect(m.handle(.press(.switchCamera)) == [.switchCamera])
        // Until the booth says the switch is done: no Start, no second switch.
        #expect(m.cameraSwitching && m.mode == .ready)
        #expect(m.visibleButtons == [.cancel])
        #expect(m.handle(.press(.start)) == [.emit(.error(code: .notAllowed, message: "'start' is not on screen in ready mode (visible: cancel)"))])
        #expect(m.handle(.cameraSwitched) == [])
        #expect(!m.cameraSwitching && m.visibleButtons == [.cancel, .start, .switchCamera])
        _ = m.handle(.cameraLost)
        #expect(m.visibleButtons == [.cancel, .switchCamera])
        _ = m.handle(.cameraBack)
        _ = m.handle(.background)
        #expect(m.visibleButtons == [.cancel])
        _ = m.handle(.foreground)
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: out))
        #expect(m.visibleButtons == [.stop])
        #expect(m.handle(.press(.switchCamera))
            == [.emit(.error(code: .notAllowed, message: "'switchCamera' is not on screen in recording mode (visible: stop)"))])
        #expect(m.mode == .recording)
    }
}
