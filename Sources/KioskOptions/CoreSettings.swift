// What the booth's core reads of a configuration: the settings its rules read (BoothCore.Settings,
// fed again after each reload) and the machine a booth starts with.
import KioskContract
import KioskCore

extension Configuration {
    /// The settings the core's rules read. `autoEncoder`: what `--video-encoder auto` resolved to at
    /// launch; `listensBetweenTakes`: the booth listens to the microphone for the meter between takes.
    public func coreSettings(autoEncoder: VideoEncoderName?, listensBetweenTakes: Bool) -> BoothCore.Settings {
        var settings = BoothCore.Settings(idleTimeout: guest.idleTimeout, idleAction: guest.idleAction, attractAfter: guest.attractAfter,
                           attractSlideshow: guest.attractSlideshow, encoder: video.encoder, autoEncoder: autoEncoder, shareSeconds: share.seconds,
                           shares: share.folder != nil && share.urlTemplate != nil, metrics: service.metricsFile != nil,
                           onTake: service.onTake, hookAttempts: service.hookAttempts, microphone: capture.microphone != .none,
                           listensBetweenTakes: listensBetweenTakes, maxDuration: limits.maxDuration, questions: guest.questions?.lines ?? [],
                           questionOrder: guest.questionOrder, loudness: sound.loudness)
        settings.onDelete = service.onDelete
        return settings
    }

    /// The machine a booth starts with: its take at `outputPath`, the interface in `orientation`,
    /// `cameras` to switch between.
    public func machine(outputPath: String, orientation: Orientation, cameras: Int) -> RecorderMachine {
        var machine = RecorderMachine(session: guest.session, outputPath: outputPath, orientation: orientation, countdown: guest.countdown,
                                      warnRemaining: limits.warnRemaining, cameraCount: cameras, shares: share.folder != nil, trims: guest.trim,
                                      consent: machineSettings.consent)
        (machine.photoButton, machine.boomerangButton, machine.library) = (screen.photoButton, boomerang.button, screen.library)
        return machine
    }
}
