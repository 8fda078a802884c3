// The photo (`--photo-button`, the command `photo`): the camera's next picture at its capture size,
// upright, with the overlay, as a JPEG. The core lets the shutter through one photo at a time and
// counts it out (PhotoWait); the UI thread leaves the photo's maker in the photo slot for the camera's
// thread (PhotoMaker) and flashes the screen with the shutter's sound. What follows the photo (said,
// shared, its hook) is the core's.
import KioskContract
import KioskCore
import KioskMedia

extension Booth {
    /// The core's `.photo(.take)`: the next frame goes to the photo worker as `job` (`written`: this
    /// run's photos so far; `consent`: the one it is taken under); the shutter sounds.
    func takePhoto(orientation: Orientation, job: FileJob, written: Int, consent: Consent?) {
        let turns = DisplayTransform(physical: screen.outputSize, orientation: orientation).cameraQuarterTurns(mount: config.capture.cameraRotation)
        let maker = PhotoMaker(job: job, quarterTurns: turns, overlays: parts.overlays, video: config.video, storage: storage, settings: config.storage,
                               written: written, rules: retention, protected: core.jobs.protectedTakes, consent: consent)
        let (photos, files, inbox) = (shared.photos, shared.files, inbox)
        shared.photoSlot.set { frame in maker.make(frame, photos: photos, files: files, inbox: inbox) }
        parts.audio.play(.shutter)
    }

    /// The core's `.photo(.withdraw)`: no frame took the request in time (the camera stopped or was
    /// lost); unless one took it meanwhile (the photo is then on its way), it is withdrawn and said.
    func withdrawPhoto(_ job: FileJob) {
        guard shared.photoSlot.take() != nil else { return }
        feed(.photo(.failed(job, message: "no picture from the camera within \(PhotoWait.waitLimit / 1_000_000_000) s")))
    }
}
