// KioskEnvironment: each KIOSK_* variable read as the libraries used to read it themselves, and its
// meaning when unset (the end-to-end tests set the variables on a real recorder).
import Testing
import KioskSystem

@Suite("KioskEnvironment")
struct KioskEnvironmentTests {
    @Test("unset: the system's own folders, no override, nothing switched on")
    func unset() {
        let none = KioskEnvironment([:])
        #expect(none == KioskEnvironment())
        #expect(none.assets == nil && none.videoDriver == nil)
        #expect(!none.clockTrusted && !none.testEncoders && !none.stats)
        #expect(none.videoDeviceFolder == "/dev" && none.inputFolder == "/dev/input" && none.renderFolder == "/dev/dri")
    }

    @Test("set: folders as given, switches only at exactly 1, an empty KIOSK_ASSETS as unset")
    func set() {
        let set = KioskEnvironment([
            "KIOSK_ASSETS": "/opt/assets", "KIOSK_CLOCK_TRUSTED": "1", "KIOSK_VIDEO_DEVICE_DIR": "/tmp/v", "KIOSK_INPUT_DIR": "/tmp/i",
            "KIOSK_DRI_DIR": "/tmp/d", "KIOSK_TEST_ENCODERS": "1", "KIOSK_STATS": "1", "SDL_VIDEODRIVER": "dummy",
        ])
        #expect(set.assets == "/opt/assets" && set.videoDriver == "dummy")
        #expect(set.clockTrusted && set.testEncoders && set.stats)
        #expect(set.videoDeviceFolder == "/tmp/v" && set.inputFolder == "/tmp/i" && set.renderFolder == "/tmp/d")
        let other = KioskEnvironment(["KIOSK_ASSETS": "", "KIOSK_CLOCK_TRUSTED": "yes", "KIOSK_TEST_ENCODERS": "0", "KIOSK_STATS": "true"])
        #expect(other.assets == nil && !other.clockTrusted && !other.testEncoders && !other.stats)
    }

    @Test("KIOSK_TEST_SLOW_KEY: milliseconds as nanoseconds, at most 10 s; unset, negative or not a number: 0")
    func slowKey() {
        #expect(KioskEnvironment().slowKey == 0)
        #expect(KioskEnvironment(["KIOSK_TEST_SLOW_KEY": "40"]).slowKey == 40_000_000)
        #expect(KioskEnvironment(["KIOSK_TEST_SLOW_KEY": "99999"]).slowKey == 10_000_000_000)
        #expect(KioskEnvironment(["KIOSK_TEST_SLOW_KEY": "-5"]).slowKey == 0 && KioskEnvironment(["KIOSK_TEST_SLOW_KEY": "slow"]).slowKey == 0)
    }
}
