// The values the events carry that the booth's rules use too: the buttons' and orientations' names,
// a take's kind and trim, the library's entries, what an idle screen does, a camera as listed. Plain
// data here, below KioskCore; their rules (a button's slot, an orientation's turns, a trim's limits)
// are KioskCore's, as extensions beside the rules that use them.

/// The interface orientation, named as UIKit names it (`ready`, `state`, `orientationChanged`);
/// its turns and the display's transform are KioskCore's (Orientation.swift).
public enum Orientation: String, CaseIterable, Codable, Sendable {
    case portrait
    case portraitUpsideDown = "portrait-upside-down"
    case landscapeLeft = "landscape-left"
    case landscapeRight = "landscape-right"
}

/// The buttons of the screen, named by the stdin command that presses them.
public enum Button: String, CaseIterable, Codable, Sendable {
    case cancel, start, stop, retake, useVideo, playVideo, closePlayer
    /// In ready with more than one camera: the next one.
    case switchCamera
    /// The share screen: back to ready (a loop session) or the end (once).
    case done
    /// `--photo-button`: the shutter beside the record button, in ready and while recording.
    case photo
    /// `--boomerang-button`: in ready, a round button left of the record circle.
    case boomerang
    /// `--library`: in ready, the way to the takes already made (LibraryRoom).
    case openLibrary
    /// The library: from a take's review back to the grid, from the grid back to ready.
    case back
    /// `--consent`: the consent screen's Agree (the countdown, then the take) and No thanks (back to ready).
    case agree, decline
}

/// What a take is: a video, or a boomerang. `recordingStarted` and `recordingFinished` say it as `kind`.
public enum TakeKind: String, Codable, Equatable, Sendable {
    case video, boomerang
}

/// How the finished screen shows the take when not as its last picture: a boomerang loops.
public enum ReviewShown: String, Codable, Equatable, Sendable {
    case looping
}

/// [start, end] in seconds on the take's time line (0: its first picture).
public struct TrimRange: Equatable, Sendable, Codable {
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    public var duration: Double { end - start }
}

/// One take the library shows: its path and its length in seconds.
public struct LibraryEntry: Codable, Equatable, Sendable {
    public var path: String
    public var duration: Double

    public init(path: String, duration: Double) {
        self.path = path
        self.duration = duration
    }
}

/// What an idle finished screen does when its time is up: what a tap on Use Video or Retake would.
public enum IdleAction: String, CaseIterable, Codable, Sendable {
    case use, discard
}

/// A camera as `--list-cameras` prints it.
public struct CameraDescription: Codable, Equatable, Sendable {
    public struct Format: Codable, Equatable, Sendable {
        /// The V4L2 fourcc, e.g. "YUYV", "MJPG".
        public var fourcc: String
        public var description: String
        public var sizes: [SizeRates]

        public init(fourcc: String, description: String, sizes: [SizeRates]) {
            self.fourcc = fourcc
            self.description = description
            self.sizes = sizes
        }
    }

    public struct SizeRates: Codable, Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var fps: [Double]

        public init(width: Int, height: Int, fps: [Double]) {
            self.width = width
            self.height = height
            self.fps = fps
        }
    }

    public var path: String
    public var name: String
    public var driver: String
    public var bus: String
    public var formats: [Format]
    /// Its V4L2 controls with their ranges and defaults (absent when it could not be asked).
    public var controls: [CameraControlDescription]?

    public init(path: String, name: String, driver: String, bus: String, formats: [Format], controls: [CameraControlDescription]? = nil) {
        self.path = path
        self.name = name
        self.driver = driver
        self.bus = bus
        self.formats = formats
        self.controls = controls
    }
}

/// One control of a camera as `--list-cameras` shows it (`VIDIOC_QUERYCTRL`).
public struct CameraControlDescription: Codable, Equatable, Sendable {
    /// The V4L2 control's name, e.g. "Brightness", "Focus, Automatic Continuous".
    public var name: String
    /// The V4L2 control id.
    public var id: UInt32
    /// integer, boolean, menu, button, …
    public var type: String
    public var minimum: Int
    public var maximum: Int
    public var step: Int
    public var `default`: Int
    /// The value now (absent for write-only controls, such as buttons).
    public var value: Int?
    /// For menus: the names of the entries, by index.
    public var menu: [String: String]?
    /// The booth's setting that drives it (`camera.focus`, …), when one does.
    public var setting: String?

    public init(name: String, id: UInt32, type: String, minimum: Int, maximum: Int, step: Int, default: Int,
                value: Int?, menu: [String: String]?, setting: String?) {
        (self.name, self.id, self.type, self.minimum, self.maximum, self.step, self.default, self.value, self.menu, self.setting)
            = (name, id, type, minimum, maximum, step, `default`, value, menu, setting)
    }
}

/// Which hook a try ran: `--on-take`'s for an accepted take, or `--on-delete`'s for a take deleted
/// by `deleteTake` (its tombstone). `hookFinished` says `hook` only for `delete`.
public enum HookKind: String, Codable, Sendable {
    case take, delete
}
