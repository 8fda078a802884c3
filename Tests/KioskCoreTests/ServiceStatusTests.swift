// The line `systemctl status` shows for the booth (STATUS=).
import KioskCore
import Testing

@Suite("the service's status line")
struct ServiceStatusTests {
    @Test("each mode in words, the takes since launch and those used, a slow disk kept with its worst sync")
    func lines() {
        var status = ServiceStatus()
        #expect(status.text(mode: .ready, saving: false, cameraAvailable: true, player: false) == "Ready. No take yet.")
        #expect(status.text(mode: .ready, saving: false, cameraAvailable: false, player: false) == "Ready, no camera: retrying every second. No take yet.")
        #expect(status.text(mode: .countdown, saving: false, cameraAvailable: true, player: false) == "Counting down to a take. No take yet.")
        #expect(status.text(mode: .recording, saving: false, cameraAvailable: true, player: false) == "Recording. No take yet.")
        status.takes = 1
        #expect(status.text(mode: .finished, saving: false, cameraAvailable: true, player: false) == "A take in review. 1 take since launch, 0 used.")
        #expect(status.text(mode: .playing, saving: false, cameraAvailable: true, player: false) == "Playing a take in review. 1 take since launch, 0 used.")
        status.takes = 3
        status.used = 2
        status.diskWasSlow(2.04)
        #expect(status.text(mode: .recording, saving: true, cameraAvailable: true, player: false)
            == "Saving a take. 3 takes since launch, 2 used. The disk was slow once (the longest sync 2 s): check it.")
        status.slowSyncGoesOn(7.26)
        status.diskWasSlow(3)
        status.slowSyncGoesOn(2.5)
        #expect(status.text(mode: .ready, saving: false, cameraAvailable: true, player: false)
            == "Ready. 3 takes since launch, 2 used. The disk was slow 2 times (the longest sync 7 s): check it.")
        // `--play`: the file, and no takes.
        #expect(ServiceStatus().text(mode: .playing, saving: false, cameraAvailable: true, player: true) == "Playing a file.")
    }
}
