// What the recorder's machine shows (RecorderMachine.swift): the screen's view model, the visible
// buttons and the timer derived from its state, and the `state` event that reports it.
import KioskContract
import KioskScreenText

/// What the screen shows, derived from the state.
public struct ViewModel: Equatable, Sendable {
    public var mode: Mode
    public var timer: String
    /// The visible buttons, by their command names, in the contract's order.
    public var buttons: [Button]
    /// The bottom panel's dark background (hidden while recording, as in the seed).
    public var bottomPanelBackground: Bool
    /// The last captured frame stays on screen instead of the live preview.
    public var frozenFrame: Bool
    /// A note for the guest, e.g. that the camera is missing (the words come from the strings table).
    public var message: ScreenText?
    /// Playback position as a fraction 0…1 (playing mode only).
    public var progress: Double?
    public var paused: Bool
    /// The countdown's number (countdown mode only).
    public var countdown: Int?
    /// Near a take's limit: the part of the warning time still left (1 → 0); the timer counts
    /// down in red and a ring around Stop empties with it. nil otherwise.
    public var remainingFraction: Double?
    /// The words at the top of the picture: the operator's prompt, the guestbook's question.
    var top = TopWords()
    /// The operator's words for the guest (`--prompt`), shown at the top of the picture in ready.
    public var prompt: String? {
        get { top.prompt }
        set { top.prompt = newValue }
    }
    /// The guestbook's question (`--questions`): large in ready (under the prompt) and the
    /// countdown, in the top panel's band while recording.
    public var question: (text: String, large: Bool)? {
        get { top.question }
        set { top.question = newValue }
    }
    /// The attract screen (ready, untouched for `--attract-after`): where the record button's pulse
    /// is in its cycle, 0…1. nil otherwise.
    public var attract: Double?
    /// The microphone's meter (ready, countdown, recording): the level now and the peak of the last
    /// 1.5 s, dBFS. nil without a microphone.
    public var microphoneLevel: (now: Double, peak: Double)?
    /// While recording: the microphone has heard nothing for 3 s.
    public var microphoneSilent = false
    /// The camera just switched to, by name, shown for a moment (ready).
    public var cameraName: String?
    /// A tap's focus box: where (canvas pixels) and how far its 1 s animation is (0…1).
    public var focusBox: (center: Point, progress: Double)?
    /// The share screen (sharing mode): the take's address for its QR code (nil while its folder
    /// is written), and the booth's Wi-Fi to join first (a `WIFI:` payload) when it has one.
    public var share: ShareScreen?
    /// A photo was just taken: the white flash over the screen, its opacity (1 → 0).
    public var flash: Double?
    /// `--trim`, in finished after a successful take: the trimmer over the take's pictures.
    public var trimmer: TrimmerView?
    /// `--library`: its takes (nil while listed) and the picked one's review (library mode only).
    public var library: LibraryRoom?
    /// `--consent`: the consent screen's switches (consent mode only), and its text (`--consent`'s file
    /// as ConsentText reads it; the booth's, BoothCore.ViewFacts), over the picture.
    public var consent: ConsentSwitches? {
        get { top.consent }
        set { top.consent = newValue }
    }
    public var consentText: [ConsentText.Block] {
        get { top.consentText }
        set { top.consentText = newValue }
    }

    public static func == (a: ViewModel, b: ViewModel) -> Bool {
        a.mode == b.mode && a.timer == b.timer && a.buttons == b.buttons && a.bottomPanelBackground == b.bottomPanelBackground
            && a.frozenFrame == b.frozenFrame && a.message == b.message && a.progress == b.progress && a.paused == b.paused
            && a.countdown == b.countdown && a.remainingFraction == b.remainingFraction && a.top == b.top
            && a.attract == b.attract && a.microphoneLevel?.now == b.microphoneLevel?.now
            && a.microphoneLevel?.peak == b.microphoneLevel?.peak && a.microphoneSilent == b.microphoneSilent
            && a.cameraName == b.cameraName && a.focusBox?.center == b.focusBox?.center && a.focusBox?.progress == b.focusBox?.progress
            && a.share == b.share && a.flash == b.flash && a.trimmer == b.trimmer && a.library == b.library 
    }
}

/// What the trimmer shows: the take's length and the part kept (the whole take until a trim is set).
public struct TrimmerView: Equatable, Sendable {
    public var duration: Double
    public var range: TrimRange

    public init(duration: Double, range: TrimRange) {
        (self.duration, self.range) = (duration, range)
    }
}

/// The words over the picture: the operator's prompt (`--prompt`) and the guestbook's question
/// (`--questions`), under it; or the consent screen's text and switches (`--consent`).
struct TopWords: Equatable, Sendable {
    var prompt: String?
    var question: (text: String, large: Bool)?
    var consent: ConsentSwitches?
    var consentText: [ConsentText.Block] = []

    static func == (a: TopWords, b: TopWords) -> Bool {
        a.prompt == b.prompt && a.question?.text == b.question?.text && a.question?.large == b.question?.large
            && a.consent == b.consent && a.consentText == b.consentText
    }
}

/// What the share screen shows.
public struct ShareScreen: Equatable, Sendable {
    /// The take's address (its QR code); nil while the share folder is written.
    public var url: String?
    /// `--share-wifi-ssid`: a `WIFI:` payload (`WiFiPayload`) for a first QR code that joins the booth's hotspot.
    public var wifi: String?
    /// A photo's share screen: its captions say photo, not video.
    public var photo: Bool

    public init(url: String?, wifi: String? = nil, photo: Bool = false) {
        self.url = url
        self.wifi = wifi
        self.photo = photo
    }
}

/// The buttons a booth adds (`RecorderMachine.extras`), as configured.
public struct ExtraButtons: Equatable, Sendable {
    /// `--photo-button`: the shutter beside the record button in ready and while recording.
    public var photo = false
    /// `--boomerang-button`: the Boomerang button beside the record button in ready.
    public var boomerang = false
    /// `--library`: the Library button in ready (LibraryRoom).
    public var library = false
    /// `--consent`: the consent screen before each take (RecorderMachine+Consent).
    public var consent: ConsentOffer?

    public init() {}
}

extension RecorderMachine {
    public var photoButton: Bool {
        get { extras.photo }
        set { extras.photo = newValue }
    }
    public var boomerangButton: Bool {
        get { extras.boomerang }
        set { extras.boomerang = newValue }
    }
    public var library: Bool {
        get { extras.library }
        set { extras.library = newValue }
    }

    public var visibleButtons: [Button] {
        if exiting && mode != .recording { return [] }
        switch state {
        case .ready:
            // The switch stays while the camera is missing: another one may be there.
            if cameraSwitching { return [.cancel] }
            let switchable: [Button] = cameraCount > 1 && !inBackground ? [.switchCamera] : []
            let live = cameraAvailable && !inBackground
            return (live ? [.cancel, .start] : [.cancel]) + (live && boomerangButton ? [.boomerang] : []) + switchable
                + (live && photoButton ? [.photo] : [])
                + (library && !inBackground ? [.openLibrary] : [])
        case .countdown:
            return [.cancel]
        case let .recording(r):
            guard r.stopRequested == nil && r.confirmed else { return [] }
            return cameraAvailable && photoButton ? [.stop, .photo] : [.stop]
        case let .finished(take):
            return take.success ? [.retake, .useVideo, .playVideo] : [.retake, .playVideo]
        case .playing:
            return [.closePlayer]
        case .sharing:
            return [.done]
        case let .library(room):
            return room.buttons(session: session)
        case .closed:
            return []
        case .consent:
            return [.decline, .agree]
        }
    }

    public var timerText: String {
        switch state {
        case .ready, .countdown: TimerText.format(seconds: 0)
        // Near a limit the timer counts down what is left, rounded up (00:01 until the very end).
        case let .recording(r) where timeWarning: TimerText.format(seconds: (r.remaining ?? 0).rounded(.up))
        case let .recording(r): TimerText.format(seconds: r.elapsed)
        // The take's length, to the nearest second (a 2.97 s take under a 3 s limit reads 00:03).
        case let .finished(take): TimerText.format(seconds: take.duration.rounded())
        case let .playing(p): TimerText.playback(position: p.position, duration: p.duration)
        case .sharing, .closed, .consent: TimerText.format(seconds: 0)
        case let .library(room): TimerText.format(seconds: (room.picked?.duration ?? 0).rounded())
        }
    }

    /// Whether the take is near its end: under `warnRemaining` seconds left, not yet stopping.
    public var timeWarning: Bool {
        guard case let .recording(r) = state, r.confirmed, r.stopRequested == nil, let left = r.remaining else { return false }
        return warnRemaining > 0 && left < warnRemaining
    }

    public var viewModel: ViewModel {
        if case let .playing(p) = state {
            var model = ViewModel.playback(position: p.position, duration: p.duration, paused: p.paused)
            model.buttons = visibleButtons // none once the process is on its way out
            return model
        }
        var message: ScreenText? = mode == .closed ? .backSoon : nil
        if !cameraAvailable && mode.live {
            message = .cameraUnavailable
        }
        var model = ViewModel(
            mode: mode, timer: timerText, buttons: visibleButtons,
            bottomPanelBackground: mode != .recording && mode != .closed,
            frozenFrame: mode == .finished && reviewLoop == nil,
            message: message,
            progress: nil, paused: false,
            countdown: { if case let .countdown(n) = state { n } else { nil } }(),
            remainingFraction: timeWarning ? { if case let .recording(r) = state { min(max((r.remaining ?? 0) / warnRemaining, 0), 1) } else { nil } }() : nil,
            attract: nil,
            share: { if case let .sharing(link) = state { ShareScreen(url: link?.url, photo: link?.photo != nil) } else { nil } }(),
            trimmer: trimmerView,
            library: { if case let .library(room) = state { room } else { nil } }())
        model.consent = consentSwitches
        return model
    }

    /// The trimmer on the finished screen (`--trim`, a successful take, not on the way out).
    public var trimmerView: TrimmerView? {
        guard trims, !exiting, case let .finished(take) = state, take.success, take.kind == .video else { return nil }
        return TrimmerView(duration: take.duration, range: trim ?? TrimRange(start: 0, end: take.duration))
    }

    public var stateEvent: KioskEvent {
        .state(mode: mode.rawValue, timer: timerText, buttons: visibleButtons, orientation: orientation,
               remaining: { if case let .recording(r) = state { r.remaining } else { nil } }(),
               trim: mode == .finished ? trim : nil,
               library: { if case let .library(room) = state { room.entries ?? [] } else { nil } }(),
               libraryLeftOut: { if case let .library(room) = state, room.leftOut > 0 { room.leftOut } else { nil } }(),
               review: reviewLoop != nil ? .looping : nil)
    }
}
