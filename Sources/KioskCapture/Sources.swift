// The two kinds of capture device, each with a real implementation and a test twin behind one
// protocol: VideoSource (V4L2Camera, TestPattern) and AudioSource (ALSAMicrophone, TestTone).
import FoundationEssentials
import KioskCore

/// What a video source really delivers, after negotiation with the device.
public struct VideoSourceInfo: Equatable, Sendable {
    /// The device path, or "test".
    public var name: String
    /// What a person calls it: the camera's card name ("HD Webcam C270"), or "Test pattern".
    public var label: String
    public var size: Size
    /// Frames per second the device was set to (may be fractional, e.g. 29.97).
    public var fps: Double
    /// The format the device sends (MJPEG is decoded; frames then arrive as `deliveredFormat`).
    public var deviceFormat: PixelFormat
    /// The format of the frames handed to the sink.
    public var deliveredFormat: PixelFormat

    public init(name: String, label: String? = nil, size: Size, fps: Double, deviceFormat: PixelFormat, deliveredFormat: PixelFormat) {
        self.name = name
        self.label = label ?? name
        self.size = size
        self.fps = fps
        self.deviceFormat = deviceFormat
        self.deliveredFormat = deliveredFormat
    }
}

/// What an audio source really delivers.
public struct AudioSourceInfo: Equatable, Sendable {
    /// The ALSA PCM name, or "test".
    public var name: String
    public var sampleRate: Int
    public var channels: Int

    public init(name: String, sampleRate: Int, channels: Int) {
        self.name = name
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// Something a capture thread tells the UI thread besides data.
public enum CaptureEvent: Equatable, Sendable {
    /// The video device went away (unplugged, ENODEV/EIO, or silent for 2 s).
    case cameraLost(reason: String)
    /// The video device answers again and frames flow.
    case cameraBack(VideoSourceInfo)
    /// The microphone failed; silence is recorded instead and the video goes on.
    case microphoneLost(reason: String)
    case microphoneBack(AudioSourceInfo)
    /// The microphone delivers faster than time passes; it is paced to the clock from now on.
    case microphoneUnreliable(reason: String)
    /// A `camera.*` setting the camera cannot take (it lacks the control, or the value is out of
    /// range); sent each time the camera opens.
    case controlProblem(String)
}

/// A source of video frames running on a thread of its own.
public protocol VideoSource: AnyObject, Sendable {
    /// What is delivered; valid after `start` returned.
    var info: VideoSourceInfo { get }
    /// Frames dropped or lost by the source (sequence gaps, decode errors).
    var droppedFrames: Int { get }
    /// Starts the capture thread. Frames go to `frames` and events to `events`, both called on
    /// the capture thread: they must hand over and return quickly, and never call SDL.
    func start(frames: @escaping @Sendable (VideoFrame) -> Void,
               events: @escaping @Sendable (CaptureEvent) -> Void) throws
    /// The same, asking `wanted` with each picture's number before decoding it: a picture nobody
    /// wants (the take leaves it out while it is short of CPU) costs no decoding and is not sent.
    func start(frames: @escaping @Sendable (VideoFrame) -> Void,
               wanted: @escaping @Sendable (UInt32) -> Bool,
               events: @escaping @Sendable (CaptureEvent) -> Void) throws
    /// Stops the thread and releases the device; returns when the thread has finished.
    func stop()
    /// Camera settings (`camera.*`) for every open from now on, and the camera open now.
    func setControls(_ settings: [CameraControl: CameraControlValue])
    /// Asks the camera to focus now (a tap on the preview), where it can.
    func triggerFocus()
    /// Whether it gives pictures now (a V4L2 camera that could not open, or was lost, does not).
    var isOpen: Bool { get }
}

extension VideoSource {
    /// Sources without controls (the test pattern) take no settings.
    public func setControls(_ settings: [CameraControl: CameraControlValue]) {}
    /// A source whose pictures cost nothing to skip sends each one (the take leaves out what it
    /// does not keep).
    public func start(frames: @escaping @Sendable (VideoFrame) -> Void,
                      wanted: @escaping @Sendable (UInt32) -> Bool,
                      events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        try start(frames: frames, events: events)
    }
    public func triggerFocus() {}
    public var isOpen: Bool { true }
}

/// A source of audio running on a thread of its own.
public protocol AudioSource: AnyObject, Sendable {
    var info: AudioSourceInfo { get }
    /// Overruns (and suspends) recovered since `start`; the time each one lost is covered by
    /// silence of the same length.
    var overruns: Int { get }
    /// Starts the capture thread; the callbacks are called on it (hand over, return quickly).
    func start(chunks: @escaping @Sendable (AudioChunk) -> Void,
               events: @escaping @Sendable (CaptureEvent) -> Void) throws
    /// Stops the thread and releases the device; returns when the thread has finished.
    func stop()
}
