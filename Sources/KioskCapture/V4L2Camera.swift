// A USB (UVC) camera through libv4l2: mmap streaming on a thread of its own, MJPEG decoded by the
// decoder it is given (KioskMedia's libavcodec one), "camera lost" within a second of an unplug,
// and reopened when it comes back.
import CV4L2
import Dispatch
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

/// A V4L2 camera as a `VideoSource`.
public final class V4L2Camera: VideoSource {
    public let path: String
    let requestedSize: CaptureSize
    let requestedFPS: Double
    let makeMJPEGDecoder: FrameDecoderFactory
    /// How long a streaming camera may stay silent before it counts as lost.
    static let silenceTimeoutMilliseconds: Int32 = 2000
    /// How often a lost camera is tried again.
    static let retryMilliseconds: Int32 = 1000

    private struct Shared {
        var info: VideoSourceInfo
        var dropped = 0
        /// `camera.*`, set on each open; `controlsChanged` asks the capture thread to set them now.
        var controls: [CameraControl: CameraControlValue] = [:]
        var controlsChanged = false
        var focusAsked = false
        /// A session is open (frames can come).
        var open = false
    }
    private let shared: Locked<Shared>
    private let thread = Locked<WorkerThread?>(nil)
    /// `--camera auto` that found no camera at launch: each attempt to open (every second) looks
    /// for one again (the path it returns), until one is plugged in. Nil: `path` itself.
    private let search: (@Sendable () -> String?)?

    /// `mjpeg` makes the decoder for a camera that sends MJPEG (one each time the device opens).
    public init(path: String, size: CaptureSize, fps: Double, mjpeg: @escaping FrameDecoderFactory) {
        self.path = path
        requestedSize = size
        requestedFPS = fps
        makeMJPEGDecoder = mjpeg
        search = nil
        shared = Locked(Shared(info: VideoSourceInfo(name: path, size: size.planned, fps: fps, deviceFormat: .yuyv, deliveredFormat: .yuv420p)))
    }

    /// A camera still to be found (`--camera auto` with none plugged in): named `auto` until then,
    /// reported lost (the booth shows "No camera found" and offers no Record), and looked for with
    /// `search` at each attempt, every second; the first it finds opens, and the booth hears
    /// `cameraBack`.
    public init(searching search: @escaping @Sendable () -> String?, size: CaptureSize, fps: Double, mjpeg: @escaping FrameDecoderFactory) {
        path = "auto"
        requestedSize = size
        requestedFPS = fps
        makeMJPEGDecoder = mjpeg
        self.search = search
        shared = Locked(Shared(info: VideoSourceInfo(name: "auto", label: "No camera", size: size.planned, fps: fps, deviceFormat: .yuyv,
                                                     deliveredFormat: .yuv420p)))
    }

    deinit { stop() }

    public var info: VideoSourceInfo { shared.withLock { $0.info } }
    public var droppedFrames: Int { shared.withLock { $0.dropped } }

    /// Starts the capture thread and waits for its first attempt to open the camera. A camera that is
    /// missing is not an error: `.cameraLost` is sent and the thread keeps trying every second.
    public func start(frames: @escaping @Sendable (VideoFrame) -> Void,
                      events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        try start(frames: frames, wanted: { _ in true }, events: events)
    }

    /// The same; a picture `wanted` says no to is given back to the driver undecoded (its MJPEG
    /// decoding is most of the camera's cost: 3 to 6 ms a picture at 720p on this machine).
    public func start(frames: @escaping @Sendable (VideoFrame) -> Void,
                      wanted: @escaping @Sendable (UInt32) -> Bool,
                      events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        guard thread.withLock({ $0 == nil }) else { return }
        let firstAttempt = DispatchSemaphore(value: 0)
        let started = try WorkerThread(name: "kiosk-camera") { [self] worker in
            run(on: worker, frames: frames, wanted: wanted, events: events, firstAttempt: firstAttempt)
        }
        thread.withLock { $0 = started }
        firstAttempt.wait()
    }

    public func stop() { thread.withLock { $0.take() }?.stop() }

    public func setControls(_ settings: [CameraControl: CameraControlValue]) {
        shared.withLock {
            $0.controlsChanged = $0.controlsChanged || $0.controls != settings
            $0.controls = settings
        }
    }

    public func triggerFocus() { shared.withLock { $0.focusAsked = true } }

    public var isOpen: Bool { shared.withLock { $0.open } && thread.withLock { $0 != nil } }

    /// Sets the camera settings on the open device (capture thread); each one it cannot take is
    /// reported.
    private func applyControls(_ device: V4L2Device, events: @Sendable (CaptureEvent) -> Void) {
        let settings = shared.withLock { state -> [CameraControl: CameraControlValue] in
            state.controlsChanged = false
            return state.controls
        }
        guard !settings.isEmpty else { return }
        let plan = ControlPlan(settings, lookup: device.control)
        for problem in plan.problems {
            Log.info("camera \(path): \(problem)")
            events(.controlProblem(problem))
        }
        do { try device.set(plan.values) } catch {
            // One control the driver refused: set them one by one, so the rest still apply.
            for value in plan.values {
                do { try device.set([value]) } catch {
                    let name = ControlPlan.names[value.id] ?? "control \(value.id)"
                    events(.controlProblem("\(name) = \(value.value): the camera refused it (\(error))"))
                }
            }
        }
    }

    /// A tap's focus (capture thread): the auto-focus trigger where the camera has one.
    private func focus(_ device: V4L2Device) {
        guard device.control(ControlID.autoFocusStart) != nil else {
            Log.info("camera \(path): a tap asked for focus, but it has no auto-focus trigger (Auto Focus, Start)")
            return
        }
        do { try device.set([(ControlID.autoFocusStart, 1)]) } catch { Log.info("camera \(path): auto-focus start: \(error)") }
    }

    /// The device to open now: `path`, or the camera `search` finds (none: an error saying so).
    private func target() throws(NoCameraFound) -> String {
        guard let search else { return path }
        guard let found = search() else { throw NoCameraFound() }
        return found
    }

    /// `--camera auto` found nothing to open (yet).
    struct NoCameraFound: Error, CustomStringConvertible {
        var description: String { "--camera auto: no camera found; plug one in (looking again every second)" }
    }

    /// The capture thread: open, stream, and on loss report and retry, until `stop`.
    private func run(on thread: WorkerThread, frames: @escaping @Sendable (VideoFrame) -> Void,
                     wanted: @escaping @Sendable (UInt32) -> Bool, events: @escaping @Sendable (CaptureEvent) -> Void,
                     firstAttempt: DispatchSemaphore) {
        var session: V4L2Session?
        var reportedLost = false
        var first = true
        while !thread.isStopping {
            if session == nil {
                do {
                    let opened = try V4L2Session(path: try target(), size: requestedSize, fps: requestedFPS, mjpeg: makeMJPEGDecoder)
                    session = opened
                    shared.withLock {
                        $0.info = opened.info
                        $0.open = true
                    }
                    applyControls(opened.device, events: events)
                    if reportedLost { events(.cameraBack(opened.info)) }
                    reportedLost = false
                    Log.info("camera \(opened.info.name): \(opened.info.size) \(opened.info.deviceFormat.rawValue) at \(opened.info.fps) fps")
                } catch {
                    if !reportedLost {
                        events(.cameraLost(reason: "\(error)"))
                        reportedLost = true
                    }
                }
                if first {
                    first = false
                    firstAttempt.signal()
                }
                if session == nil {
                    thread.wait(milliseconds: Self.retryMilliseconds)
                    continue
                }
            }
            guard let current = session else { continue }
            // What the UI asked for since the last frame, in one look under the lock.
            let (controlsChanged, focusAsked) = shared.withLock { state in
                defer { state.focusAsked = false }
                return (state.controlsChanged, state.focusAsked)
            }
            if controlsChanged { applyControls(current.device, events: events) }
            if focusAsked { focus(current.device) }
            switch current.next(wakeFD: thread.wakeFD, timeoutMilliseconds: Self.silenceTimeoutMilliseconds, wanted: wanted) {
            case let .frame(frame, dropped):
                if dropped > 0 { shared.withLock { $0.dropped += dropped } }
                frames(frame)
            case .skipped:
                shared.withLock { $0.dropped += 1 }
            case .woken, .notYet, .unwanted:
                break
            case let .lost(reason):
                session = nil
                shared.withLock { $0.open = false }
                events(.cameraLost(reason: reason))
                reportedLost = true
                Log.info("camera \(path) lost: \(reason); trying again every second")
            }
        }
        session = nil
        shared.withLock { $0.open = false }
    }
}

/// One open, streaming camera: the device, its mapped buffers and (for MJPEG) a decoder. Owned
/// by the capture thread alone; closing it stops the stream and unmaps everything.
final class V4L2Session {
    let device: V4L2Device
    let info: VideoSourceInfo
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var streaming = false
    private let decoder: (any FrameDecoder)?
    /// The raw layout the driver uses (its bytes per line may exceed the width).
    private let planes: [Plane]
    private let frameBytes: Int
    private var lastSequence: UInt32?
    /// Frames dropped because the driver's buffer said something impossible (logged: the first few).
    private var distrusted = 0
    /// Buffers asked of the driver: a picture waits in one while the capture thread cannot run.
    /// Eight ride out 230 ms at 30 fps: a CPU quota's freeze (0.3 of a core: 70 ms in every 100)
    /// with the encoder's threads ahead of the camera's when it ends; four (133 ms) lost pictures
    /// there.
    static let bufferCount: UInt32 = 8
    /// A capture time further than this from the time it is dequeued cannot be one.
    static let maxStampDistance: Int64 = 10_000_000_000

    /// The four outcomes of waiting for a frame, as values (only a real failure is "lost").
    enum Next {
        case frame(VideoFrame, dropped: Int)
        /// A frame arrived but could not be used (a corrupt JPEG, an impossible buffer index or
        /// capture time); counted as dropped.
        case skipped
        /// A picture nobody wanted (`wanted`), given back undecoded; not a loss.
        case unwanted
        case notYet
        case woken
        case lost(String)
    }

    init(path: String, size: CaptureSize, fps: Double, mjpeg: FrameDecoderFactory) throws {
        device = try V4L2Device(path: path)
        let caps = try device.capabilities()
        guard caps.canCapture else {
            throw V4L2Error(errno: ENODEV, call: "\(path) (\(caps.card)) is not a streaming capture device")
        }
        let (modes, _) = try device.describe()
        guard let choice = CameraModeChooser.choose(from: modes, size: size, fps: fps),
              let fourcc = FourCC.fourcc(for: choice.format), let code = FourCC.code(fourcc) else {
            throw V4L2Error(errno: EINVAL, call: "\(path): no YUYV, NV12, YU12 or MJPEG mode")
        }

        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(choice.size.width)
        format.fmt.pix.height = UInt32(choice.size.height)
        format.fmt.pix.pixelformat = code
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try device.ioctl(kiosk_VIDIOC_S_FMT(), "VIDIOC_S_FMT", &format)
        // Driver paranoia: use what the driver set, not what was asked.
        let actualSize = Size(width: Int(format.fmt.pix.width), height: Int(format.fmt.pix.height))
        guard let actualFormat = FourCC.pixelFormats[FourCC.string(format.fmt.pix.pixelformat)] else {
            throw V4L2Error(errno: EINVAL, call: "VIDIOC_S_FMT gave \(FourCC.string(format.fmt.pix.pixelformat))")
        }
        // Driver paranoia: a raw picture of no pixels, or of an odd width (YUYV's and NV12's pairs of
        // pixels share their chroma), cannot be read.
        if actualFormat != .mjpeg && (actualSize.width <= 0 || actualSize.height <= 0 || actualSize.width % 2 != 0) {
            throw V4L2Error(errno: EINVAL, call: "VIDIOC_S_FMT gave \(FourCC.string(format.fmt.pix.pixelformat)) at an impossible \(actualSize.width)x\(actualSize.height)")
        }
        let bytesPerLine = Int(format.fmt.pix.bytesperline)

        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parm.parm.capture.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32((choice.fps * 1000).rounded()))
        var actualFPS = choice.fps
        do {
            try device.ioctl(kiosk_VIDIOC_S_PARM(), "VIDIOC_S_PARM", &parm)
            let t = parm.parm.capture.timeperframe
            if t.numerator > 0 && t.denominator > 0 { actualFPS = Double(t.denominator) / Double(t.numerator) }
        } catch {
            // Some cameras have a fixed rate and refuse S_PARM: keep their rate.
            Log.info("camera \(path): VIDIOC_S_PARM refused (\(error)); using its own rate")
        }

        switch actualFormat {
        case .mjpeg:
            decoder = try mjpeg()
            planes = []
            frameBytes = 0
        default:
            decoder = nil
            let packed = actualFormat.planes(for: actualSize)
            let stride = max(bytesPerLine, packed[0].stride)
            // Scale each plane's pitch by the driver's pitch for luma (chroma rows keep the ratio).
            var offset = 0
            var driverPlanes: [Plane] = []
            for plane in packed {
                let pitch = plane.stride * stride / packed[0].stride
                driverPlanes.append(Plane(offset: offset, stride: pitch, rows: plane.rows))
                offset += pitch * plane.rows
            }
            planes = driverPlanes
            frameBytes = offset
        }
        // MJPEG is decoded to 4:2:2; YUYV is made 4:2:0 as it is copied out (YUYVFrames).
        let delivered: PixelFormat = switch actualFormat {
        case .mjpeg: .yuv422p
        case .yuyv: .yuv420p
        default: actualFormat
        }
        info = VideoSourceInfo(name: path, label: caps.card.isEmpty ? path : caps.card, size: actualSize, fps: actualFPS, deviceFormat: actualFormat,
                               deliveredFormat: delivered)

        var request = v4l2_requestbuffers()
        request.count = Self.bufferCount
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.ioctl(kiosk_VIDIOC_REQBUFS(), "VIDIOC_REQBUFS", &request)
        guard request.count >= 2 else { throw V4L2Error(errno: ENOMEM, call: "VIDIOC_REQBUFS gave \(request.count) buffers") }
        for index in 0..<request.count {
            var buffer = v4l2_buffer()
            buffer.index = index
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            try device.ioctl(kiosk_VIDIOC_QUERYBUF(), "VIDIOC_QUERYBUF", &buffer)
            let mapped = v4l2_mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, device.fd, Int64(buffer.m.offset))
            guard let mapped, mapped != kiosk_MAP_FAILED() else { throw V4L2Error(errno: Glibc.errno, call: "v4l2_mmap") }
            buffers.append(UnsafeMutableRawBufferPointer(start: mapped, count: Int(buffer.length)))
            try device.ioctl(kiosk_VIDIOC_QBUF(), "VIDIOC_QBUF", &buffer)
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try device.ioctl(kiosk_VIDIOC_STREAMON(), "VIDIOC_STREAMON", &type)
        streaming = true
    }

    deinit {
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        // An unplugged camera refuses these; there is nothing to do about it but let go.
        if streaming { try? device.ioctl(kiosk_VIDIOC_STREAMOFF(), "VIDIOC_STREAMOFF", &type) }
        for buffer in buffers { v4l2_munmap(buffer.baseAddress, buffer.count) }
        var request = v4l2_requestbuffers()
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try? device.ioctl(kiosk_VIDIOC_REQBUFS(), "VIDIOC_REQBUFS", &request)
    }

    /// Waits for the next frame (or the wake pipe, or the silence timeout), copies it out of the
    /// driver's buffer once (or decodes it) and gives the buffer straight back.
    func next(wakeFD: Int32, timeoutMilliseconds: Int32, wanted: (UInt32) -> Bool = { _ in true }) -> Next {
        var fds = [pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, timeoutMilliseconds)
        if ready < 0 { return Glibc.errno == EINTR ? .notYet : .lost("poll: \(String(cString: strerror(Glibc.errno)))") }
        if ready == 0 { return .lost("no frame for \(timeoutMilliseconds / 1000) s") }
        if fds[1].revents != 0 { return .woken }
        if fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
            return .lost("the device reported an error (unplugged?)")
        }

        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        do {
            try device.ioctl(kiosk_VIDIOC_DQBUF(), "VIDIOC_DQBUF", &buffer)
        } catch where error.errno == EAGAIN {
            return .notYet
        } catch {
            return .lost(error.description)
        }
        var dropped = 0
        if let last = lastSequence, buffer.sequence > last &+ 1 { dropped = Int(buffer.sequence &- last &- 1) }
        lastSequence = buffer.sequence

        // Driver paranoia: an index that is not one of our buffers cannot be read, nor given back.
        // The frame is dropped (counted); the stream goes on with the buffers still queued (a
        // driver left with none reports an error on poll, and the camera is reopened).
        guard let mapped = buffers[checked: Int(buffer.index)] else {
            distrust("buffer index \(buffer.index) of \(buffers.count)")
            return .skipped
        }
        let now = MonotonicClock.now()
        let timestamp: Int64?
        if buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) {
            timestamp = Self.captureTime(seconds: Int64(buffer.timestamp.tv_sec), microseconds: Int64(buffer.timestamp.tv_usec), now: now)
            if timestamp == nil { distrust("capture time \(buffer.timestamp.tv_sec) s \(buffer.timestamp.tv_usec) µs") }
        } else {
            // Driver paranoia: a camera without monotonic stamps gets the time it was dequeued.
            timestamp = now
        }
        let used = min(Int(buffer.bytesused == 0 ? buffer.length : buffer.bytesused), mapped.count)
        let outcome: Next
        if timestamp != nil, !wanted(buffer.sequence) {
            outcome = .unwanted
        } else if let timestamp, let decoder {
            do {
                if let frame = try decoder.decode(UnsafeRawBufferPointer(rebasing: mapped[0..<used]), timestamp: timestamp, sequence: buffer.sequence) {
                    outcome = .frame(frame, dropped: dropped)
                } else {
                    outcome = .skipped
                }
            } catch {
                outcome = .skipped
            }
        } else if let timestamp, used >= frameBytes, info.deviceFormat == .yuyv {
            // The copy out of the buffer is the conversion to 4:2:0.
            let frame = YUYVFrames.frame(mapped.baseAddress!.assumingMemoryBound(to: UInt8.self), pitch: planes[0].stride, size: info.size,
                                         timestamp: timestamp, sequence: buffer.sequence)
            outcome = .frame(frame, dropped: dropped)
        } else if let timestamp, used >= frameBytes {
            let bytes = [UInt8](UnsafeRawBufferPointer(rebasing: mapped[0..<frameBytes]))
            outcome = .frame(VideoFrame(format: info.deliveredFormat, size: info.size, planes: planes, bytes: bytes,
                                        timestamp: timestamp, sequence: buffer.sequence), dropped: dropped)
        } else {
            outcome = .skipped // a short frame (the driver gave less than a picture), or no capture time
        }
        do {
            try device.ioctl(kiosk_VIDIOC_QBUF(), "VIDIOC_QBUF", &buffer)
        } catch {
            return .lost(error.description)
        }
        return outcome
    }

    /// A buffer's `timeval` as a capture time on CLOCK_MONOTONIC in nanoseconds, or nil when it
    /// cannot be one: it does not fit, or it lies more than `maxStampDistance` from `now` (placed
    /// in a take, it would end the take or stretch it by hours).
    static func captureTime(seconds: Int64, microseconds: Int64, now: Int64) -> Int64? {
        guard let stamp = Int64.nanoseconds(seconds: seconds, fraction: microseconds, unit: 1000),
              let distance = stamp.checkedSubtracting(now), (-maxStampDistance...maxStampDistance).contains(distance)
        else { return nil }
        return stamp
    }

    /// Counts a frame dropped for what the driver said, and logs the first few.
    private func distrust(_ what: String) {
        distrusted += 1
        if distrusted <= 3 { Log.info("camera \(device.path): the driver gave \(what); frame dropped") }
    }
}
