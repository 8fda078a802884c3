// The booth's one inbox and the two slots the capture threads fill. Worker threads never call
// SDL: they post here, and the UI loop takes everything in order.
import Dispatch
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskSystem
import KioskMedia
import Synchronization

/// Everything that happens to the booth from outside the UI thread.
public indirect enum BoothMessage: Sendable {
    /// A file job's report (`Booth.fileJob`) with the job the core gave it: that job is counted
    /// done, then its report handled.
    case fileJobReported(FileJob, BoothMessage)
    /// The camera or microphone lost or found its device.
    case capture(CaptureEvent)
    /// A report that is the core's input as it stands (a camera of the switch tried, the microphone
    /// looked at, the launch's file work done, a hook's try ended, logind's PrepareForSleep, the parent gone).
    case input(BoothCore.Input)
    /// The camera made its first attempt to open (the error, if its thread could not start).
    case cameraStarted(failure: String?)
    /// The take's writer: it opened, could not start, or finalized the file.
    case take(TakeReport)
    /// A listing of the file worker's: the trimmer's pictures, the library's takes.
    case listed(Listing)
    /// A command from stdin or the control socket (a line that is none: its `badCommand` error, as `emit`).
    case command(Command)
    case signal(Int32)
    /// SIGHUP's reading of the configuration again: the new one, or why it is bad.
    case configurationRead(Result<Configuration, UsageError>)
    /// Pairing's check of the password typed on the screen (PairingPart).
    case pairing(PairingReport)
    /// `--key auto`'s measure of the backdrop, from the camera's thread (KeyCalibration).
    case keyMeasured(BackdropMeasure)
}

extension BoothMessage {
    /// What the message is to the core's gate before `ready` (`BoothCore.admits`).
    var arrival: BoothCore.Arrival {
        switch self {
        case .cameraStarted, .input(.microphoneTried), .fileJobReported(_, .input(.launchFilesDone)): .awaited
        case .capture(.cameraLost), .capture(.cameraBack): .cameraReport
        case .input(.service(.sleep)): .sleep
        default: .other
        }
    }
}

/// What the take's writer reports, from the file worker (its start) or its own thread (its end).
public enum TakeReport: Sendable {
    /// The take's writer (and microphone) opened: the take runs.
    case started(StartedTake)
    /// The writer could not start; nothing was recorded.
    case failed(code: ErrorCode, message: String)
    /// The writer finalized the file (after a stop, or by itself: a limit, a full disk).
    case finished(RecordingResult)
}

/// What the file worker listed for the UI thread.
public enum Listing: Sendable {
    /// The review trimmer's pictures of the take (`--trim`), for the request `serial`.
    case trimPictures(serial: Int, [RGBPicture])
    /// The library's takes (Booth+Library).
    case library([TakeLibrary.Take], leftOut: Int)
}

/// A take whose writer started, handed from the file worker to the UI thread.
public struct StartedTake: Sendable {
    public let writer: any TakeWriter
    public let microphone: (any AudioSource)?
    /// Where the take is written, and its number in the output folder (`--output-dir`).
    public let path: String
    public let number: Int?
}

/// Messages from worker threads, taken by the UI loop in order. A post wakes the loop's wait.
public final class Inbox: Sendable {
    private let messages = Locked<[BoothMessage]>([])
    private let waker = WakeCall()
    /// `wait` is waiting: a post signals `arrived` too.
    private let waiting = Atomic<Bool>(false)
    private let arrived = DispatchSemaphore(value: 0)

    public init() {}

    public func post(_ message: BoothMessage) {
        messages.withLock { $0.append(message) }
        waker()
        if waiting.load(ordering: .sequentiallyConsistent) { arrived.signal() }
    }

    /// Sleeps until a message is posted (at once if one waits) or `milliseconds` pass: the loop
    /// before `ready`, which does not read the screen's queue yet (a touch then waits there), sleeps
    /// here instead of looking a thousand times a second. A wake-up may come early; never late.
    func wait(milliseconds: Int) {
        waiting.store(true, ordering: .sequentiallyConsistent)
        defer { waiting.store(false, ordering: .sequentiallyConsistent) }
        if messages.withLock({ !$0.isEmpty }) { return }
        _ = arrived.wait(timeout: .now() + .milliseconds(milliseconds))
    }

    /// What ends the UI loop's wait (the screen's waker).
    func wakes(with wake: @escaping @Sendable () -> Void) { waker.set(wake) }

    func take() -> [BoothMessage] { messages.withLock { m in defer { m.removeAll() }; return m } }
}

/// The newest camera frame, replaced by each new one: the preview never queues behind the camera.
/// A frame replaced before the UI took it is a dropped preview frame, and counted.
/// A new frame wakes the UI loop's wait, so the loop sleeps between frames instead of looking.
final class FrameSlot: Sendable {
    private let slot = Locked<(frame: VideoFrame?, serial: Int, taken: Int, dropped: Int)>((nil, 0, 0, 0))
    private let waker = WakeCall()
    func put(_ frame: VideoFrame) {
        slot.withLock { s in
            if s.serial > s.taken { s.dropped += 1 }
            s.frame = frame
            s.serial += 1
        }
        waker()
    }
    func wakes(with wake: @escaping @Sendable () -> Void) { waker.set(wake) }
    /// The frame if it is newer than `serial`.
    func take(newerThan serial: Int) -> (VideoFrame, Int)? {
        slot.withLock { s in
            guard s.serial > serial, let frame = s.frame else { return nil }
            s.taken = s.serial
            return (frame, s.serial)
        }
    }
    var dropped: Int { slot.withLock { $0.dropped } }

    /// The pictures a second put here, over FrameRateMeter's windows (UI thread: each turn).
    private let meter = Locked(FrameRateMeter())
    func measuredRate(at now: Int64) -> Double? {
        let count = slot.withLock { $0.serial }
        return meter.withLock { $0.look(count: count, at: now) }
    }
}

/// The writer the camera and microphone threads feed while a take runs (nil between takes).
final class WriterSlot: Sendable {
    private let writer = Locked<(any TakeWriter)?>(nil)
    func set(_ w: (any TakeWriter)?) { writer.withLock { $0 = w } }
    func append(_ frame: VideoFrame, camera: Int64) { writer.withLock { $0 }?.append(frame, camera: camera) }
    func append(_ chunk: AudioChunk) { writer.withLock { $0 }?.append(chunk) }
    /// Whether the take keeps the camera's picture `sequence` (yes without a take).
    func wants(sequence: UInt32) -> Bool { writer.withLock { $0 }?.wants(sequence: sequence) ?? true }
}
