// The stdout contract: one minified JSON object per line, key "event" first (docs/interface.md).
import FoundationEssentials

/// Why a recording stopped.
public enum StopReason: String, CaseIterable, Codable, Sendable {
    case user, maxDuration, maxFileSize, diskFull, background, deviceDisconnected, signal, error
    /// The parent closed its end of stdout: the take is finished and kept with its marker, so the
    /// next Start reports it as recovered.
    case parentGone
}

/// Why playback ended.
public enum PlaybackEndReason: String, CaseIterable, Codable, Sendable {
    case end, closed, error
}

/// The `code` of an `error` event.
public enum ErrorCode: String, CaseIterable, Codable, Sendable {
    /// A command pressed a button that is not on screen.
    case notAllowed
    /// A stdin line that is not a JSON object, or a command with missing or bad fields.
    case badCommand
    /// A stdin command name that does not exist.
    case unknownCommand
    /// Not enough free disk to start, or the disk filled up.
    case diskFull
    case cameraUnavailable
    /// A `camera.*` setting this camera cannot take (it lacks the control, or the value is out of
    /// its range); reported each time the camera opens, and the booth runs on.
    case cameraControl
    case microphoneUnavailable
    /// The microphone delivers sound faster than time passes (ALSA's null device, a stuck driver, a
    /// clock far off): it is held to the clock and the excess left out. Said once a run.
    case microphoneUnreliable
    case recordingFailed
    case playbackFailed
    case screenshotFailed
    /// SIGHUP's reload found a bad config (or one changing what cannot change while running): the
    /// old one is kept.
    case badConfig
    /// `--on-take`'s command could not be started.
    case hookFailed
    /// The disk has kept a sync of the take waiting 2 s (once a take): while recording, the take
    /// goes on; after a stop, `recordingFinished` comes once the disk has the take.
    case storageSlow
    /// `--share-dir`: the share folder of an accepted take could not be written (a full disk, a
    /// take that cannot be remuxed); the take itself was handed over as always.
    case shareFailed
    /// `photo`: the picture could not be taken or written (no picture from the camera within 2 s,
    /// a full disk); the booth goes on.
    case photoFailed
    /// `--trim`: the take could not be cut to its trim (a full disk); it was handed over whole.
    case trimFailed
    /// `--loudness`: the take's sound could not be set to the target; it is handed over as recorded.
    case loudnessFailed
    /// `--key auto`: the backdrop measured is too dark, lit unevenly or not empty (the message says which).
    case keyBackdrop
}

/// One line of `--check`'s report: a part of the booth, whether it is fit, what was found, and the
/// fix when it is not (or when it only works with a caveat: `warning`).
public struct CheckItem: Codable, Equatable, Sendable {
    public var name: String
    public var ok: Bool
    public var warning: Bool
    public var detail: String
    public var fix: String?

    public init(name: String, ok: Bool, detail: String, fix: String? = nil, warning: Bool = false) {
        self.name = name
        self.ok = ok
        self.warning = warning
        self.detail = detail
        self.fix = fix
    }
}

/// Why a take was deleted: retention's rules, or `deleteTake` (the operator's, or a guest's request).
public enum DeletionReason: String, CaseIterable, Codable, Sendable {
    case maxTakes, maxAge, keepFree
    case `operator`, guest
}

/// The outcome of one take, as the writer reports it.
public struct RecordingResult: Equatable, Sendable {
    public var outputPath: String
    public var duration: Double
    public var bytes: Int64
    public var reason: StopReason
    /// Whether the file is complete and playable (Use Video shows only then).
    public var success: Bool
    public var droppedFrames: Int
    /// The video encoder the take was made with (`libx264`, `h264_vaapi`, …).
    public var encoder: String?
    /// The encoder stopped returning packets and ended the take (the booth uses libx264 from the
    /// next take on). Not in the event: `reason` is `error` and `encoder` names it.
    public var encoderStalled: Bool
    /// Why the take's file is not there to be used (its folder was removed mid-take): said as an
    /// `error` before `recordingFinished`. Not in the event.
    public var lost: String?
    /// Of `droppedFrames`, those dropped in the backlog just after the whole process stood still
    /// (SIGSTOP, a suspended machine): not the encoder's doing. Not in the event.
    public var droppedAfterStall: Int
    /// The camera's pictures the booth chose to leave out, evenly, when the CPU ran short
    /// (`EffortRule`); not in `droppedFrames`, which counts only the unplanned losses.
    public var skippedFrames: Int
    /// The pictures a second the take really has (its pictures over its length).
    public var frameRate: Double
    /// The steps of effort and rate the take took, down and up (0 with the CPU to spare).
    public var effortSteps: Int
    /// A video, or a boomerang (its file the loop of its pictures).
    public var kind = TakeKind.video

    public init(outputPath: String, duration: Double, bytes: Int64, reason: StopReason, success: Bool,
                droppedFrames: Int = 0, encoder: String? = nil, encoderStalled: Bool = false, lost: String? = nil,
                droppedAfterStall: Int = 0, skippedFrames: Int = 0, frameRate: Double = 0, effortSteps: Int = 0,
                kind: TakeKind = .video) {
        self.kind = kind
        self.outputPath = outputPath
        self.duration = duration
        self.bytes = bytes
        self.reason = reason
        self.success = success
        self.droppedFrames = droppedFrames
        self.encoder = encoder
        self.encoderStalled = encoderStalled
        self.lost = lost
        self.droppedAfterStall = droppedAfterStall
        self.skippedFrames = skippedFrames
        self.frameRate = frameRate
        self.effortSteps = effortSteps
    }
}

/// One stdout event. Encoded with `event` first, then the fields in the order documented.
public enum KioskEvent: Equatable, Sendable {
    /// `encoder`: the video encoder the next take will use (`--video-encoder auto` resolved).
    /// `microphone`: the microphone the takes will have (its ALSA name, or `test`), or `none` (asked
    /// for none, or the one asked for did not open at launch: an `error` `microphoneUnavailable`
    /// before `ready` said why).
    case ready(camera: String, width: Int, height: Int, fps: Double, orientation: Orientation, encoder: String? = nil,
               microphone: String? = nil)
    /// The countdown after Start: 3, 2, 1, a second apart; the take starts a second after the 1.
    case countdown(remaining: Int)
    /// `kind`: a video, or a boomerang (`--boomerang-button`).
    case recordingStarted(outputPath: String, kind: TakeKind = .video)
    case recordingFinished(RecordingResult)
    case recordingRecovered(path: String, duration: Double)
    case videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: String)
    /// `--trim`: the same event on stdout, for a take cut before it was handed over: the part kept
    /// (`trimmed`, on the take's time line) and the delivered take's length. A case of its own so that
    /// a match of the plain one keeps its one value; `handedOverPath` answers for both.
    case videoRecorderDidFinishRecordingTrimmedVideo(outputPath: String, trimmed: TrimRange, duration: Double)
    case videoRecorderDidCancelRecordingVideo
    case playbackStarted(path: String)
    case playbackFinished(reason: PlaybackEndReason)
    case orientationChanged(orientation: Orientation)
    /// `remaining`: while recording, the seconds left before a limit (duration, file size, free disk).
    /// `microphoneLevel`: the microphone's peak over the last 100 ms in dBFS (floor −100); absent
    /// with `--microphone none`. `hooksPending`: with `--on-take`, how many takes still owe their hook.
    /// `trim`: with `--trim`, in finished, the part Use Video delivers when one is set.
    /// `library`: in the library, the takes it shows; `libraryLeftOut`: how many older takes it
    /// leaves out (it shows the newest `TakeLibrary.shown`), absent when none. `review`: in finished,
    /// how the take is shown when it plays by itself (a boomerang loops).
    case state(mode: String, timer: String, buttons: [Button], orientation: Orientation, remaining: Double? = nil,
               microphoneLevel: Double? = nil, hooksPending: Int? = nil, trim: TrimRange? = nil,
               library: [LibraryEntry]? = nil, libraryLeftOut: Int? = nil, review: ReviewShown? = nil)
    /// While recording, the microphone stayed below −60 dBFS for 3 s (once; again after sound came
    /// back and went).
    case microphoneSilent
    case error(code: ErrorCode, message: String)
    case terminated(signal: String)
    /// `--list-cameras`: every capture device with its formats, sizes and rates.
    case cameras([CameraDescription])
    /// The switch button (or `switchCamera`) changed the camera: its path (or `test`), its size and rate.
    case cameraChanged(camera: String, width: Int, height: Int, fps: Double)
    /// Retention deleted an accepted take in the output folder.
    case takeDeleted(path: String, reason: DeletionReason)
    /// The finished screen was left untouched for `--idle-timeout`: what happens next follows.
    case idleReset(action: IdleAction)
    /// `--on-take`'s command for a take ended: its exit status, or 128 + the signal that ended it;
    /// `attempt`: which try for this take it was (1, 2, …; counted across restarts); `hook`: `delete`
    /// for `--on-delete`'s (then in the line), `take` for `--on-take`'s (not in the line).
    case hookFinished(path: String, status: Int, attempt: Int, hook: HookKind = .take)
    /// `--share-dir`: the accepted take's share folder is written whole; `url` is what the QR code
    /// on the screen says (`--share-url` with the token), `folder` the folder's path. A photo's share
    /// folder (`--photo-button` with `--share-dir`) names the photo as `path`; a take's has none.
    case takeShared(url: String, token: String, folder: String, path: String? = nil)
    /// `photo` (`--photo-button`): the camera's next picture is written as a JPEG at `path`, upright,
    /// `width` x `height` pixels.
    case photoTaken(path: String, width: Int, height: Int)
    /// `--check`: whether the booth can run, and each part checked.
    case check(ok: Bool, items: [CheckItem])
    /// `--questions` (the guestbook): a take's event (`recordingStarted`, `recordingFinished`, the
    /// outcome) or `state`, with the question the guest was asked. On stdout it is the inner
    /// event's line with a `question` field after its own.
    indirect case asked(KioskEvent, question: String)
    /// `--loudness`: the outcome of a take whose sound was set to the target at its hand-over, with
    /// what was measured and applied. On stdout it is the outcome's line with a `loudness` field.
    indirect case leveled(KioskEvent, loudness: Leveling)
    /// A boomerang's outcome: the same event, with `"kind":"boomerang"` after its own fields (a
    /// video's outcome has no `kind`).
    indirect case boomerang(KioskEvent)
    /// A `state` reply with the booth's figures (StateFigures): on stdout the inner event's line
    /// with a `figures` object after its own fields. Read back, a line gives the inner event alone.
    indirect case figured(KioskEvent, figures: StateFigures)
    /// `--consent`: the outcome with the consent its take was made under, or `state` with the consent
    /// screen's switches: the inner event's line with `consent` or `consentChoices` after its own.
    indirect case consented(KioskEvent, ConsentStamp)
    /// `reel --json` (the hosts' film): `done` of `total` takes are in it; a take left out and why;
    /// the film written, its length and the takes in it.
    case reelProgress(done: Int, total: Int)
    case reelSkipped(path: String, reason: String)
    case reelFinished(path: String, duration: Double, takes: Int)
    /// `closeBooth`: the booth shows its "back soon" screen (mode `closed`) and refuses guests, any
    /// take of the moment kept; `openBooth`: it is open again (BoothEvents.swift).
    case boothClosed, boothOpened
    /// `hideTake`, `showTake`: the take is hidden from the slideshow, the film and its share page, or
    /// shown again (`deleteTake` says `takeDeleted` with its reason).
    case takeHidden(path: String), takeShown(path: String)
    /// A reload (SIGHUP, the command `reload`) was read and accepted: the settings it changes (in
    /// force now in ready, else when the booth is back in ready) and those kept until a restart.
    case reloaded(changed: [String], kept: [String])
    /// `--key auto`'s measure of the backdrop, and `calibrate`'s (BoothEvents.swift).
    case keyCalibrated(colour: String, similarity: Double, warning: String?)
}

extension KioskEvent: Codable {
    enum Key: String, CodingKey {
        case event, camera, width, height, fps, orientation, outputPath, duration, bytes, reason, success
        case droppedFrames, path, mode, timer, buttons, code, message, signal, cameras
        case action, status, ok, items, remaining, microphoneLevel, encoder, microphone, url, token, folder, attempt, hooksPending
        case trim, trimmed, library, libraryLeftOut, question, loudness, done, total, takes, kind, review
        case skippedFrames, frameRate, effortSteps, changed, kept, figures, hook, consent, consentChoices
        case colour, similarity, warning
    }

    /// The path a Use Video outcome delivered (trimmed or not); nil for other events.
    public var handedOverPath: String? {
        switch self {
        case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path), let .videoRecorderDidFinishRecordingTrimmedVideo(path, _, _): path
        case let .asked(event, _), let .leveled(event, _), let .boomerang(event), let .consented(event, _): event.handedOverPath
        default: nil
        }
    }

    struct UnknownEvent: Error, CustomStringConvertible {
        let name: String
        var description: String { "unknown event '\(name)'" }
    }

    /// Seconds rounded to the millisecond, so 12.4 prints as 12.4 and not as 12.400000000000000355.
    public static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    typealias Field = (key: Key, value: any Encodable & Sendable)

    /// The value of the `event` key.
    public var name: String {
        if case let .asked(event, _) = self { return event.name }
        if case let .leveled(event, _) = self { return event.name }
        if case let .boomerang(event) = self { return event.name }
        if case let .figured(event, _) = self { return event.name }
        if case let .consented(event, _) = self { return event.name }
        return Self.kind(of: self).name
    }

    /// The fields in the contract's order, `event` first. Both encoders below use this one list.
    var fields: [Field] {
        if case let .asked(event, question) = self { return event.fields + [(.question, question)] }
        if case let .leveled(event, loudness) = self { return event.fields + [(.loudness, loudness)] }
        if case let .boomerang(event) = self { return event.fields + [(.kind, TakeKind.boomerang)] }
        if case let .figured(event, figures) = self { return event.fields + [(.figures, figures)] }
        if case let .consented(event, stamp) = self { return event.fields + [stamp.field] }
        return [(.event, name)] + (Self.kind(of: self).fields(self) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (key, value) in fields { try c.encode(value, forKey: key) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let name = try c.decode(String.self, forKey: .event)
        guard let kind = Self.kinds.first(where: { $0.name == name }) else { throw UnknownEvent(name: name) }
        var event = try kind.decode(c)
        if let loudness = try c.decodeIfPresent(Leveling.self, forKey: .loudness) { event = .leveled(event, loudness: loudness) }
        // A take's own events carry their kind; an outcome says it only for a boomerang.
        if event.handedOverPath != nil, try c.decodeIfPresent(TakeKind.self, forKey: .kind) == .boomerang { event = .boomerang(event) }
        event = try c.decodeIfPresent(String.self, forKey: .question).map { .asked(event, question: $0) } ?? event
        self = try ConsentStamp.read(c).map { .consented(event, $0) } ?? event
    }

    /// One kind of event, declared once: its name, its fields in the contract's order (nil for an
    /// event of another kind), and how a line of it is read back.
    struct Kind: Sendable {
        let name: String
        let fields: @Sendable (KioskEvent) -> [Field]?
        let decode: @Sendable (KeyedDecodingContainer<Key>) throws -> KioskEvent
    }

    static func kind(of event: KioskEvent) -> Kind {
        guard let kind = kinds.first(where: { $0.fields(event) != nil }) else {
            preconditionFailure("KioskEvent \(event): no kind declares it")
        }
        return kind
    }

    /// Every event of the contract (docs/interface.md), each declared once.
    static let kinds: [Kind] = [
        Kind(name: "ready", fields: {
            guard case let .ready(camera, width, height, fps, orientation, encoder, microphone) = $0 else { return nil }
            return [(.camera, camera), (.width, width), (.height, height), (.fps, milliseconds(fps)), (.orientation, orientation)]
                + (encoder.map { [(.encoder, $0)] } ?? []) + (microphone.map { [(.microphone, $0)] } ?? [])
        }, decode: { c in
            .ready(camera: try c.decode(String.self, forKey: .camera), width: try c.decode(Int.self, forKey: .width),
                   height: try c.decode(Int.self, forKey: .height), fps: try c.decode(Double.self, forKey: .fps),
                   orientation: try c.decode(Orientation.self, forKey: .orientation),
                   encoder: try c.decodeIfPresent(String.self, forKey: .encoder),
                   microphone: try c.decodeIfPresent(String.self, forKey: .microphone))
        }),
        Kind(name: "countdown", fields: {
            guard case let .countdown(remaining) = $0 else { return nil }
            return [(.remaining, remaining)]
        }, decode: { c in .countdown(remaining: try c.decode(Int.self, forKey: .remaining)) }),
        Kind(name: "recordingStarted", fields: {
            guard case let .recordingStarted(outputPath, kind) = $0 else { return nil }
            return [(.outputPath, outputPath), (.kind, kind)]
        }, decode: { c in
            .recordingStarted(outputPath: try c.decode(String.self, forKey: .outputPath),
                              kind: try c.decodeIfPresent(TakeKind.self, forKey: .kind) ?? .video)
        }),
        Kind(name: "recordingFinished", fields: {
            guard case let .recordingFinished(r) = $0 else { return nil }
            return [(.outputPath, r.outputPath), (.kind, r.kind), (.duration, milliseconds(r.duration)), (.bytes, r.bytes),
                    (.reason, r.reason), (.success, r.success), (.droppedFrames, r.droppedFrames), (.skippedFrames, r.skippedFrames),
                    (.frameRate, milliseconds(r.frameRate)), (.effortSteps, r.effortSteps)]
                + (r.encoder.map { [(.encoder, $0)] } ?? [])
        }, decode: { c in
            .recordingFinished(RecordingResult(
                outputPath: try c.decode(String.self, forKey: .outputPath),
                duration: try c.decode(Double.self, forKey: .duration),
                bytes: try c.decode(Int64.self, forKey: .bytes), reason: try c.decode(StopReason.self, forKey: .reason),
                success: try c.decode(Bool.self, forKey: .success),
                droppedFrames: try c.decodeIfPresent(Int.self, forKey: .droppedFrames) ?? 0,
                encoder: try c.decodeIfPresent(String.self, forKey: .encoder),
                skippedFrames: try c.decodeIfPresent(Int.self, forKey: .skippedFrames) ?? 0,
                frameRate: try c.decodeIfPresent(Double.self, forKey: .frameRate) ?? 0,
                effortSteps: try c.decodeIfPresent(Int.self, forKey: .effortSteps) ?? 0,
                kind: try c.decodeIfPresent(TakeKind.self, forKey: .kind) ?? .video))
        }),
        Kind(name: "recordingRecovered", fields: {
            guard case let .recordingRecovered(path, duration) = $0 else { return nil }
            return [(.path, path), (.duration, milliseconds(duration))]
        }, decode: { c in
            .recordingRecovered(path: try c.decode(String.self, forKey: .path), duration: try c.decode(Double.self, forKey: .duration))
        }),
        Kind(name: "videoRecorderDidFinishRecordingVideoWithOutputPath", fields: {
            switch $0 {
            case let .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath): [(.outputPath, outputPath)]
            case let .videoRecorderDidFinishRecordingTrimmedVideo(outputPath, trimmed, duration):
                [(.outputPath, outputPath), (.trimmed, TrimRange(start: milliseconds(trimmed.start), end: milliseconds(trimmed.end))),
                 (.duration, milliseconds(duration))]
            default: nil
            }
        }, decode: { c in
            let path = try c.decode(String.self, forKey: .outputPath)
            guard let trimmed = try c.decodeIfPresent(TrimRange.self, forKey: .trimmed) else {
                return .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: path)
            }
            return .videoRecorderDidFinishRecordingTrimmedVideo(outputPath: path, trimmed: trimmed, duration: try c.decode(Double.self, forKey: .duration))
        }),
        Kind(name: "videoRecorderDidCancelRecordingVideo", fields: {
            guard case .videoRecorderDidCancelRecordingVideo = $0 else { return nil }
            return []
        }, decode: { _ in .videoRecorderDidCancelRecordingVideo }),
        Kind(name: "playbackStarted", fields: {
            guard case let .playbackStarted(path) = $0 else { return nil }
            return [(.path, path)]
        }, decode: { c in .playbackStarted(path: try c.decode(String.self, forKey: .path)) }),
        Kind(name: "playbackFinished", fields: {
            guard case let .playbackFinished(reason) = $0 else { return nil }
            return [(.reason, reason)]
        }, decode: { c in .playbackFinished(reason: try c.decode(PlaybackEndReason.self, forKey: .reason)) }),
        Kind(name: "orientationChanged", fields: {
            guard case let .orientationChanged(orientation) = $0 else { return nil }
            return [(.orientation, orientation)]
        }, decode: { c in .orientationChanged(orientation: try c.decode(Orientation.self, forKey: .orientation)) }),
        Kind(name: "state", fields: {
            guard case let .state(mode, timer, buttons, orientation, remaining, level, hooks, trim, library, leftOut, review) = $0 else { return nil }
            return [(.mode, mode), (.timer, timer), (.buttons, buttons), (.orientation, orientation)]
                + (remaining.map { [(.remaining, milliseconds($0))] } ?? [])
                + (level.map { [(.microphoneLevel, ($0 * 10).rounded() / 10)] } ?? [])
                + (hooks.map { [(.hooksPending, $0)] } ?? [])
                + (trim.map { [(.trim, TrimRange(start: milliseconds($0.start), end: milliseconds($0.end)))] } ?? [])
                + (library.map { [(.library, $0)] } ?? [])
                + (leftOut.map { [(.libraryLeftOut, $0)] } ?? [])
                + (review.map { [(.review, $0)] } ?? [])
        }, decode: { c in
            .state(mode: try c.decode(String.self, forKey: .mode), timer: try c.decode(String.self, forKey: .timer),
                   buttons: try c.decode([Button].self, forKey: .buttons), orientation: try c.decode(Orientation.self, forKey: .orientation),
                   remaining: try c.decodeIfPresent(Double.self, forKey: .remaining),
                   microphoneLevel: try c.decodeIfPresent(Double.self, forKey: .microphoneLevel),
                   hooksPending: try c.decodeIfPresent(Int.self, forKey: .hooksPending),
                   trim: try c.decodeIfPresent(TrimRange.self, forKey: .trim),
                   library: try c.decodeIfPresent([LibraryEntry].self, forKey: .library),
                   libraryLeftOut: try c.decodeIfPresent(Int.self, forKey: .libraryLeftOut),
                   review: try c.decodeIfPresent(ReviewShown.self, forKey: .review))
        }),
        Kind(name: "microphoneSilent", fields: {
            guard case .microphoneSilent = $0 else { return nil }
            return []
        }, decode: { _ in .microphoneSilent }),
        Kind(name: "error", fields: {
            guard case let .error(code, message) = $0 else { return nil }
            return [(.code, code), (.message, message)]
        }, decode: { c in .error(code: try c.decode(ErrorCode.self, forKey: .code), message: try c.decode(String.self, forKey: .message)) }),
        Kind(name: "terminated", fields: {
            guard case let .terminated(signal) = $0 else { return nil }
            return [(.signal, signal)]
        }, decode: { c in .terminated(signal: try c.decode(String.self, forKey: .signal)) }),
        Kind(name: "cameras", fields: {
            guard case let .cameras(list) = $0 else { return nil }
            return [(.cameras, list)]
        }, decode: { c in .cameras(try c.decode([CameraDescription].self, forKey: .cameras)) }),
        Kind(name: "cameraChanged", fields: {
            guard case let .cameraChanged(camera, width, height, fps) = $0 else { return nil }
            return [(.camera, camera), (.width, width), (.height, height), (.fps, milliseconds(fps))]
        }, decode: { c in
            .cameraChanged(camera: try c.decode(String.self, forKey: .camera), width: try c.decode(Int.self, forKey: .width),
                           height: try c.decode(Int.self, forKey: .height), fps: try c.decode(Double.self, forKey: .fps))
        }),
        Kind(name: "takeDeleted", fields: {
            guard case let .takeDeleted(path, reason) = $0 else { return nil }
            return [(.path, path), (.reason, reason)]
        }, decode: { c in
            .takeDeleted(path: try c.decode(String.self, forKey: .path), reason: try c.decode(DeletionReason.self, forKey: .reason))
        }),
        Kind(name: "idleReset", fields: {
            guard case let .idleReset(action) = $0 else { return nil }
            return [(.action, action)]
        }, decode: { c in .idleReset(action: try c.decode(IdleAction.self, forKey: .action)) }),
        Kind(name: "hookFinished", fields: {
            guard case let .hookFinished(path, status, attempt, hook) = $0 else { return nil }
            return [(.path, path), (.status, status), (.attempt, attempt)] + (hook == .delete ? [(.hook, hook)] : [])
        }, decode: { c in
            .hookFinished(path: try c.decode(String.self, forKey: .path), status: try c.decode(Int.self, forKey: .status),
                          attempt: try c.decode(Int.self, forKey: .attempt), hook: try c.decodeIfPresent(HookKind.self, forKey: .hook) ?? .take)
        }),
        Kind(name: "takeShared", fields: {
            guard case let .takeShared(url, token, folder, path) = $0 else { return nil }
            return [(.url, url), (.token, token), (.folder, folder)] + (path.map { [(.path, $0)] } ?? [])
        }, decode: { c in
            .takeShared(url: try c.decode(String.self, forKey: .url), token: try c.decode(String.self, forKey: .token),
                        folder: try c.decode(String.self, forKey: .folder), path: try c.decodeIfPresent(String.self, forKey: .path))
        }),
        Kind(name: "photoTaken", fields: {
            guard case let .photoTaken(path, width, height) = $0 else { return nil }
            return [(.path, path), (.width, width), (.height, height)]
        }, decode: { c in
            .photoTaken(path: try c.decode(String.self, forKey: .path), width: try c.decode(Int.self, forKey: .width),
                        height: try c.decode(Int.self, forKey: .height))
        }),
        Kind(name: "check", fields: {
            guard case let .check(ok, items) = $0 else { return nil }
            return [(.ok, ok), (.items, items)]
        }, decode: { c in .check(ok: try c.decode(Bool.self, forKey: .ok), items: try c.decode([CheckItem].self, forKey: .items)) }),
    ] + reelKinds + boothKinds
}

/// Turns events into stdout lines: minified JSON, `event` first, slashes unescaped, one `\n`.
public struct EventEncoder: Sendable {
    public init() {}

    /// The event as one line of JSON, ending in a newline.
    ///
    /// Every key and value is encoded by JSONEncoder (so escaping is JSONEncoder's); only the object's
    /// braces and commas are joined here, because Foundation's JSONEncoder on Linux does not keep
    /// key order and the contract puts `event` first.
    public func line(for event: KioskEvent) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        func json(_ value: any Encodable) -> String {
            // Strings, numbers, bools and arrays of them always encode; a failure is a programming error.
            guard let data = try? encoder.encode(value) else {
                preconditionFailure("KioskEvent \(event.name): a field failed to encode")
            }
            return String(decoding: data, as: UTF8.self)
        }
        let members = event.fields.map { json($0.key.stringValue) + ":" + json($0.value) }
        return "{" + members.joined(separator: ",") + "}\n"
    }

    /// Reads one stdout line back (for tests and parent programs written in Swift).
    public func decode(line: String) throws -> KioskEvent {
        try JSONDecoder().decode(KioskEvent.self, from: Data(line.utf8))
    }
}
