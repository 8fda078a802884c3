// A camera that is a program: `--camera 'exec:COMMAND'` runs COMMAND through /bin/sh -c and reads
// pictures from its stdout (MJPEG, or raw frames of --size) on a thread of its own. For cameras
// libv4l2 cannot reach (a Raspberry Pi camera module behind libcamera: rpicam-vid, GStreamer's
// libcamerasrc), or anything ffmpeg can read. It behaves as a V4L2 camera that can be unplugged:
// the command's end, or its silence, is a lost camera, and it is started again every second.
import Dispatch
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

/// How an exec camera reads its command's output (`--camera-format`, `--camera-delay`).
public struct ExecCameraSettings: Sendable, Equatable {
    public var format: CameraPipeFormat
    /// Milliseconds from the sensor to our read of the pipe: pictures' times are moved back by it.
    public var delayMilliseconds: Int

    public init(format: CameraPipeFormat = .mjpeg, delayMilliseconds: Int = 0) {
        self.format = format
        self.delayMilliseconds = delayMilliseconds
    }
}

/// A program's stdout as a `VideoSource`.
///
/// Timing: a picture's capture time is when its last byte was read from the pipe, minus
/// `--camera-delay`. What the pipe adds on top of the program's own latency is small (a pipe
/// holds 64 KiB; we read as soon as poll says there is data), but programs buffer their output:
/// ffmpeg needs `-flush_packets 1`, rpicam-vid `--flush`, GStreamer's `fdsink` `sync=false`.
public final class ExecCamera: VideoSource {
    public let command: String
    let requestedSize: Size
    let requestedFPS: Double
    let settings: ExecCameraSettings
    let makeMJPEGDecoder: FrameDecoderFactory
    /// How long a command may take to its first picture (rpicam-vid needs a few seconds), and how
    /// long it may then stay silent before it counts as a lost camera.
    /// (10 s each; tests shorten them.)
    let firstPictureMilliseconds: Int64
    let silenceMilliseconds: Int64
    /// How often a lost camera's command is started again.
    static let retryMilliseconds: Int32 = 1000
    /// Bytes an MJPEG stream may carry before its first picture (a banner) before it is not MJPEG.
    static let maxBytesBeforePicture = 4 << 20

    private struct Shared {
        var info: VideoSourceInfo
        var dropped = 0
        var open = false
    }
    private let shared: Locked<Shared>
    private let thread = Locked<WorkerThread?>(nil)

    public convenience init(command: String, size: Size, fps: Double, settings: ExecCameraSettings, mjpeg: @escaping FrameDecoderFactory) {
        self.init(command: command, size: size, fps: fps, settings: settings, mjpeg: mjpeg, firstPictureMilliseconds: 10_000, silenceMilliseconds: 10_000)
    }

    init(command: String, size: Size, fps: Double, settings: ExecCameraSettings, mjpeg: @escaping FrameDecoderFactory,
         firstPictureMilliseconds: Int64, silenceMilliseconds: Int64) {
        self.firstPictureMilliseconds = firstPictureMilliseconds
        self.silenceMilliseconds = silenceMilliseconds
        self.command = command
        requestedSize = size
        requestedFPS = fps
        self.settings = settings
        makeMJPEGDecoder = mjpeg
        let format = settings.format.rawFormat ?? .yuv420p
        let label = "exec: " + String(command.prefix(40))
        shared = Locked(Shared(info: VideoSourceInfo(name: "exec:" + command, label: label, size: size, fps: fps,
                                                     deviceFormat: settings.format.rawFormat ?? .mjpeg, deliveredFormat: format)))
    }

    deinit { stop() }

    public var info: VideoSourceInfo { shared.withLock { $0.info } }
    public var droppedFrames: Int { shared.withLock { $0.dropped } }
    public var isOpen: Bool { shared.withLock { $0.open } && thread.withLock { $0 != nil } }

    /// Starts the reading thread, which starts the command, and waits for its first picture (so
    /// `info` has the pictures' real size), at most `firstPictureMilliseconds`. A command that
    /// fails is not an error here: `.cameraLost` is sent and it is started again every second.
    public func start(frames: @escaping @Sendable (VideoFrame) -> Void,
                      events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        guard thread.withLock({ $0 == nil }) else { return }
        let firstAttempt = DispatchSemaphore(value: 0)
        let started = try WorkerThread(name: "kiosk-exec-cam") { [self] worker in
            run(on: worker, frames: frames, events: events, firstAttempt: firstAttempt)
        }
        thread.withLock { $0 = started }
        firstAttempt.wait()
    }

    /// Stops the thread, which ends the command (its whole process group).
    public func stop() { thread.withLock { $0.take() }?.stop() }

    /// The reading thread: start the command, read pictures, and on loss report, end it and start
    /// it again a second later, until `stop`.
    private func run(on thread: WorkerThread, frames: @escaping @Sendable (VideoFrame) -> Void,
                     events: @escaping @Sendable (CaptureEvent) -> Void, firstAttempt: DispatchSemaphore) {
        var reportedLost = false
        var first = true
        var sequence: UInt32 = 0
        var lastStamp = Int64.min
        defer { if first { firstAttempt.signal() } }
        while !thread.isStopping {
            let outcome = readChild(thread: thread, quiet: reportedLost) { frame in
                var stamp = frame.timestamp
                // Pictures read in one go (a burst from the program) keep their order in time.
                if lastStamp != .min, stamp <= lastStamp { stamp = lastStamp + 1_000_000 }
                lastStamp = stamp
                let out = VideoFrame(format: frame.format, size: frame.size, planes: frame.planes, bytes: frame.bytes,
                                     timestamp: stamp, sequence: sequence, fullRange: frame.fullRange)
                sequence &+= 1
                let isFirst = !self.shared.withLock { state -> Bool in
                    defer {
                        state.open = true
                        state.info.size = frame.size
                        state.info.deliveredFormat = frame.format
                    }
                    return state.open
                }
                if isFirst {
                    Log.info("camera exec:\(self.command): \(frame.size) \(self.settings.format.rawValue) pictures")
                    if reportedLost { events(.cameraBack(self.info)) }
                    reportedLost = false
                    if first {
                        first = false
                        firstAttempt.signal()
                    }
                }
                frames(out)
            } dropped: { count in
                self.shared.withLock { $0.dropped += count }
            }
            shared.withLock { $0.open = false }
            guard case let .lost(reason) = outcome else { break }
            if !reportedLost {
                Log.info("camera exec:\(command) lost: \(reason); starting it again every second")
                events(.cameraLost(reason: "camera exec:\(command): \(reason)"))
                reportedLost = true
            }
            if first {
                first = false
                firstAttempt.signal()
            }
            thread.wait(milliseconds: Self.retryMilliseconds)
        }
    }

    private enum Outcome { case stopped, lost(String) }

    /// Milliseconds as seconds for a message: "10", "0.5".
    private static func seconds(_ milliseconds: Int64) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
    }

    /// One run of the command: started, read until it ends, falls silent, writes something else
    /// than declared, or the thread stops; then ended with its process group.
    private func readChild(thread: WorkerThread, quiet: Bool, deliver: (VideoFrame) -> Void,
                           dropped: (Int) -> Void) -> Outcome {
        let child: ChildProgram
        do { child = try ChildProgram(command) } catch { return .lost("\(error)") }
        if !quiet { Log.info("camera exec:\(command): started (pid \(child.pid))") }
        var reader = PictureReader(settings: settings, size: requestedSize, makeDecoder: makeMJPEGDecoder)
        let delay = Int64(settings.delayMilliseconds) * 1_000_000
        let started = MonotonicClock.now()
        var lastPicture: Int64?
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        func pump() -> Outcome {
            while true {
                let now = MonotonicClock.now()
                let deadline = (lastPicture ?? started) + (lastPicture == nil ? firstPictureMilliseconds : silenceMilliseconds) * 1_000_000
                if now >= deadline {
                    return .lost(lastPicture == nil
                        ? "no picture within \(Self.seconds(firstPictureMilliseconds)) s of starting (is it writing \(settings.format.rawValue) to stdout?)"
                        : "no picture for \(Self.seconds(silenceMilliseconds)) s")
                }
                var fds = [pollfd(fd: child.output.rawValue, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 2, Int32(clamping: min((deadline - now) / 1_000_000 + 1, 500)))
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .lost("poll: \(String(cString: strerror(errno)))")
                }
                if fds[1].revents != 0 || thread.isStopping { return .stopped }
                if ready == 0 { continue }
                let count = chunk.withUnsafeMutableBytes { read(child.output.rawValue, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return .lost("reading its output: \(String(cString: strerror(errno)))")
                }
                if count == 0 {
                    let status = child.end(grace: 500)
                    return .lost("the command ended (\(status)) after \(reader.pictures) pictures")
                }
                let arrival = MonotonicClock.now() - delay
                let result = chunk.withUnsafeBytes { reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count]), arrival: arrival) }
                if result.dropped > 0 { dropped(result.dropped) }
                for frame in result.frames {
                    lastPicture = MonotonicClock.now()
                    deliver(frame)
                }
                if let problem = result.problem { return .lost("its output \(problem)") }
            }
        }
        let outcome = pump()
        _ = child.end(grace: 0)
        return outcome
    }
}

/// Cuts what the command writes into pictures: MJPEG split and decoded, raw frames by size. Owned
/// by the reading thread.
struct PictureReader {
    let format: CameraPipeFormat
    let size: Size
    let makeDecoder: FrameDecoderFactory
    private var decoder: (any FrameDecoder)?
    private var splitter = JPEGSplitter()
    private var raw: [UInt8] = []
    private var head: [UInt8] = []
    private var decodeFailures = 0
    private var brokenSeen = 0
    private var headChecked = false
    private(set) var pictures = 0

    init(settings: ExecCameraSettings, size: Size, makeDecoder: @escaping FrameDecoderFactory) {
        format = settings.format
        self.size = size
        self.makeDecoder = makeDecoder
    }

    struct Result {
        var frames: [VideoFrame] = []
        var dropped = 0
        /// The stream is not what was declared (what to say), or the decoder cannot be made.
        var problem: String?
    }

    /// Takes bytes read at `arrival` (CLOCK_MONOTONIC ns, the delay taken off): the pictures
    /// they complete.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, arrival: Int64) -> Result {
        var result = Result()
        if head.count < 16 { head += bytes.prefix(16 - head.count) }
        guard let rawFormat = format.rawFormat else {
            splitter.append(bytes)
            while let picture = splitter.next() {
                if decoder == nil {
                    do { decoder = try makeDecoder() } catch {
                        result.problem = "cannot be decoded: no MJPEG decoder (\(error))"
                        return result
                    }
                }
                let frame: VideoFrame?
                do {
                    frame = try picture.withUnsafeBytes { try decoder!.decode($0, timestamp: arrival, sequence: UInt32(truncatingIfNeeded: pictures)) }
                } catch {
                    frame = nil
                    decodeFailures += 1
                }
                if let frame {
                    pictures += 1
                    result.frames.append(frame)
                } else {
                    result.dropped += 1
                }
            }
            result.dropped += splitter.brokenPictures - brokenSeen
            brokenSeen = splitter.brokenPictures
            // Nothing decodes: not MJPEG (raw frames where a JPEG was declared, H.264, …).
            if pictures == 0 && (decodeFailures + splitter.brokenPictures >= 3 || splitter.skippedBytes > ExecCamera.maxBytesBeforePicture) {
                result.problem = StreamSniffer.notMJPEG(head)
            }
            return result
        }
        // Once, on the stream's first bytes: a known signature there is not raw video.
        if !headChecked && head.count >= 12 {
            headChecked = true
            if let problem = StreamSniffer.notRaw(head, declared: format) {
                result.problem = problem
                return result
            }
        }
        raw.append(contentsOf: bytes)
        let frameBytes = rawFormat.frameBytes(for: size)
        var used = 0
        while raw.count - used >= frameBytes {
            let bytes = Array(raw[used..<(used + frameBytes)])
            result.frames.append(VideoFrame(format: rawFormat, size: size, planes: rawFormat.planes(for: size), bytes: bytes,
                                            timestamp: arrival, sequence: UInt32(truncatingIfNeeded: pictures)))
            pictures += 1
            used += frameBytes
        }
        if used > 0 { raw.removeFirst(used) }
        return result
    }
}

/// The command running as the leader of its own process group, its stdout a pipe we read. It
/// cannot outlive the booth: a small /bin/sh wrapper runs it beside a watcher that reads a pipe
/// whose write end only this process holds (`lifeline`); when the booth ends in any way (kill -9
/// included) the kernel closes that end, the watcher's read returns, and it kills the group.
/// (PR_SET_PDEATHSIG cannot be set through posix_spawn, would fire when the spawning *thread* ends,
/// and reaches one process, not a pipeline.)
final class ChildProgram {
    let pid: pid_t
    /// The read end of the command's stdout (close-on-exec, ours alone), closed once the command
    /// has been ended (the deinit's body runs first).
    let output: FileDescriptor
    private var reaped: String?

    /// The wrapper: $1 is the command. The watcher waits on fd 3 (the lifeline) and kills the whole
    /// group (kill 0) when it reads EOF; the command does not get fd 3. When the command ends by
    /// itself the watcher is ended and the command's status passed on.
    static let wrapper = """
        { read -r _ <&3; kill -KILL 0; } </dev/null >/dev/null 2>&1 &
        watcher=$!
        exec 3<&-
        /bin/sh -c "$1"
        status=$?
        kill "$watcher" 2>/dev/null
        exit "$status"
        """

    /// The pipe every exec camera's wrapper watches; its write end is never written, and never
    /// closed while this process lives (a static is never freed).
    static let lifeline = Result<Lifeline, SystemError>(catching: { () throws(SystemError) in try Lifeline(FileDescriptor.pipe()) })

    final class Lifeline: Sendable {
        let pipe: FileDescriptor.Pipe
        init(_ pipe: consuming FileDescriptor.Pipe) { self.pipe = pipe }
    }

    init(_ command: String) throws(SystemError) {
        let lifeline = try Self.lifeline.get()
        let pipe = try FileDescriptor.pipe()
        let read = pipe.read, write = pipe.write
        let spawned = ShellCommand.spawn(Self.wrapper, environment: [:], arguments: ["kiosk-exec-camera", command],
                                         stdout: write.rawValue, fd3: lifeline.pipe.read.rawValue)
        // Ours closed at once: the command's copy is the only writer, so its end is our end of file.
        _ = consume write
        switch spawned {
        case let .success(pid):
            self.pid = pid
            output = read
        case let .failure(error):
            throw error
        }
    }

    deinit { _ = end(grace: 0) }

    /// Ends the command's process group and reaps the wrapper: first `grace` ms for it to end by
    /// itself (its status is then the command's), then SIGTERM, a second, SIGKILL. Returns how
    /// it ended. The wrapper stays a zombie (`WNOWAIT`) until the group has been signalled, so
    /// its pid, the group's id, cannot be reused meanwhile.
    @discardableResult
    func end(grace: Int) -> String {
        if let reaped { return reaped }
        if !exited(within: grace) {
            kill(-pid, SIGTERM)
            if !exited(within: 1000) { kill(-pid, SIGKILL) }
        }
        // Stragglers (a pipeline's other programs, a program that ignores SIGTERM).
        kill(-pid, SIGKILL)
        let status = ShellCommand.wait(pid)
        let text = status > 128 ? "killed by signal \(status - 128)" : "exit status \(status)"
        reaped = text
        return text
    }

    /// Whether the wrapper has ended within `milliseconds`, left unreaped.
    private func exited(within milliseconds: Int) -> Bool {
        let deadline = MonotonicClock.now() + Int64(milliseconds) * 1_000_000
        while true {
            // With WNOHANG and nothing to report the kernel leaves the siginfo zeroed.
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info.si_signo == SIGCHLD { return true }
            // ECHILD: already reaped (or never ours); nothing to wait for.
            if errno == ECHILD { return true }
            if MonotonicClock.now() >= deadline { return false }
            usleep(10_000)
        }
    }
}
