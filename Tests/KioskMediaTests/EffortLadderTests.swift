// libx264's steps of effort (issue 35): which presets a take may step to, and that a step keeps the
// stream one stream: the new encoder's SPS/PPS byte for byte the take's, or the step refused.
import Foundation
import KioskCore
import Testing
@testable import KioskMedia

@Suite("Effort ladder: libx264's steps that keep the stream one")
struct EffortLadderTests {
    static func settings(_ size: Size, preset: String) -> MovieSettings {
        var settings = MovieSettings(outputPath: "/dev/null", videoSize: size, fps: 30, audio: nil)
        settings.preset = preset
        return settings
    }

    @Test("the configured preset, then superfast when it is slower, then superfast at a CRF 3 higher (under CRF); nothing below superfast")
    func ladder() {
        let size = Size(width: 1280, height: 720)
        #expect(Self.settings(size, preset: "veryfast").effortLadder.map(\.description) == ["veryfast", "superfast", "superfast at crf +3"])
        #expect(Self.settings(size, preset: "medium").effortLadder.map(\.preset) == ["medium", "superfast", "superfast"])
        var byRate = Self.settings(size, preset: "veryfast")
        byRate.bitrate = 2_000_000
        #expect(byRate.effortLadder.map(\.description) == ["veryfast", "superfast"])
        #expect(Self.settings(size, preset: "superfast").effortLadder.map(\.preset) == ["superfast"])
        #expect(Self.settings(size, preset: "ultrafast").effortLadder.map(\.preset) == ["ultrafast"])
        // Effort 0 is today's tuning, option for option.
        let settings = Self.settings(size, preset: "veryfast")
        #expect(settings.videoTuning(effort: 0) == settings.videoTuning())
        #expect(settings.videoTuning(effort: 1).options.first == VideoTuning.Option(name: "preset", value: "superfast"))
        // The CRF step opens as the step before it (its CRF is told to the running encoder), and
        // the steps below the configured one take `steppedThreads` (the writer's 1 under a quota).
        #expect(settings.videoTuning(effort: 2) == settings.videoTuning(effort: 1))
        var quota = settings
        quota.steppedThreads = 1
        #expect(quota.videoTuning(effort: 0).threads == 2 && quota.videoTuning(effort: 1).threads == 1)
    }

    @Test("from veryfast, superfast opens with the same SPS/PPS at each size a booth records; from medium (more reference frames) it is refused", arguments: [
        Size(width: 352, height: 288), Size(width: 1280, height: 720), Size(width: 1920, height: 1080),
    ])
    func sameParameterSets(size: Size) throws {
        let settings = Self.settings(size, preset: "veryfast")
        let encoder = try VideoEncoder(settings: settings, globalHeader: true, failure: InjectedFailure(after: nil))
        #expect(encoder.effortLevels(settings) == 3)
        #expect(!encoder.codec.extradata.isEmpty)
        let fresh = try #require(try encoder.opened(effort: 1, settings: settings, globalHeader: true))
        #expect(fresh.extradata == encoder.codec.extradata)
        // On one thread (a quota under a core), and told a higher CRF: still the same SPS/PPS.
        var single = settings
        single.steppedThreads = 1
        let alone = try #require(try encoder.opened(effort: 1, settings: single, globalHeader: true))
        #expect(alone.extradata == encoder.codec.extradata)
        encoder.use(alone)
        try encoder.setCRF(26)
        #expect(encoder.codec.extradata == fresh.extradata)
        let medium = Self.settings(size, preset: "medium")
        let slower = try VideoEncoder(settings: medium, globalHeader: true, failure: InjectedFailure(after: nil))
        #expect(try slower.opened(effort: 1, settings: medium, globalHeader: true) == nil)
    }
}
