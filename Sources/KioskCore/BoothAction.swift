// What the booth carries out of the machine's actions: every `RecorderAction` but the four the core
// keeps (the camera switch, which it runs with `.tryCamera`; the countdown's and the share screen's
// clocks, which it starts at its turn; the exit, which waits for the outstanding work), and the photo
// as the core lets it through (one at a time, with its file job: PhotoWait). A type of its own, so
// that no action reaches the booth that the booth would have to refuse.

/// One of the machine's actions for the booth (`BoothCore.Effect.machine`).
public enum BoothAction: Equatable, Sendable {
    case startCamera
    case stopCamera
    case discardTake
    case handOverTake
    case trimTake(TrimRange)
    case shareTake
    /// The shutter: the core counted the photo out as `job` (its outcome brings it back).
    case takePhoto(orientation: Orientation, job: FileJob)
    case startRecording(orientation: Orientation)
    case stopRecording(StopReason)
    case playSound(Sound)
    case startPlayback(path: String)
    case setPlaybackPaused(Bool)
    case seekPlayback(to: Double)
    case stopPlayback
    case applyOrientation(Orientation)
    case applyConfiguration(Configuration)
    case listLibrary
    case releaseLibrary
    case emit(KioskEvent)

    /// The booth's part of `action`; nil for the four the core keeps and for the photo, which the
    /// core makes itself (`RecorderAction` says what each one means).
    init?(_ action: RecorderAction) {
        switch action {
        case .switchCamera, .startShareClock, .startCountdownClock, .exit, .takePhoto: return nil
        case .startCamera: self = .startCamera
        case .stopCamera: self = .stopCamera
        case .discardTake: self = .discardTake
        case .handOverTake: self = .handOverTake
        case let .trimTake(range): self = .trimTake(range)
        case .shareTake: self = .shareTake
        case let .startRecording(orientation): self = .startRecording(orientation: orientation)
        case let .stopRecording(reason): self = .stopRecording(reason)
        case let .playSound(sound): self = .playSound(sound)
        case let .startPlayback(path): self = .startPlayback(path: path)
        case let .setPlaybackPaused(paused): self = .setPlaybackPaused(paused)
        case let .seekPlayback(to): self = .seekPlayback(to: to)
        case .stopPlayback: self = .stopPlayback
        case let .applyOrientation(orientation): self = .applyOrientation(orientation)
        case let .applyConfiguration(configuration): self = .applyConfiguration(configuration)
        case .listLibrary: self = .listLibrary
        case .releaseLibrary: self = .releaseLibrary
        case let .emit(event): self = .emit(event)
        }
    }
}
