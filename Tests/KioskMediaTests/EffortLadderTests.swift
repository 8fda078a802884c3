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

    @Test("the configured preset, then superfast when it is slower; nothing below superfast")
    func ladder() {
        let size = Size(width: 1280, height: 720)
        #expect(Self.settings(size, preset: "veryfast").effortLadder.map(\.preset) == ["veryfast", "superfast"])
        #expect(Self.settings(size, preset: "medium").effortLadder.map(\.preset) == ["medium", "superfast"])
        #expect(Self.settings(size, preset: "superfast").effortLadder.map(\.preset) == ["superfast"])
        #expect(Self.settings(size, preset: "ultrafast").effortLadder.map(\.preset) == ["ultrafast"])
        // Effort 0 is today's tuning, option for option.
        let settings = Self.settings(size, preset: "veryfast")
        #expect(settings.videoTuning(effort: 0) == settings.videoTuning())
        #expect(settings.videoTuning(effort: 1).options.first == VideoTuning.Option(name: "preset", value: "superfast"))
    }

    @Test("from veryfast, superfast opens with the same SPS/PPS at each size a booth records; from medium (more reference frames) it is refused", arguments: [
        Size(width: 352, height: 288), Size(width: 1280, height: 720), Size(width: 1920, height: 1080),
    ])
    func sameParameterSets(size: Size) throws {
        let settings = Self.settings(size, preset: "veryfast")
        let encoder = try VideoEncoder(settings: settings, globalHeader: true, failure: InjectedFailure(after: nil))
        #expect(encoder.effortLevels(settings) == 2)
        #expect(!encoder.codec.extradata.isEmpty)
        let fresh = try #require(try encoder.opened(effort: 1, settings: settings, globalHeader: true))
        #expect(fresh.extradata == encoder.codec.extradata)
        let medium = Self.settings(size, preset: "medium")
        let slower = try VideoEncoder(settings: medium, globalHeader: true, failure: InjectedFailure(after: nil))
        #expect(try slower.opened(effort: 1, settings: medium, globalHeader: true) == nil)
    }
}
