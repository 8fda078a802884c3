// A take's loudness at its hand-over (TakeLoudness, `--loudness`) on a take made by ffmpeg that
// R128's gating cannot measure: shorter than one 400 ms block. ffmpeg's ebur128 is the judge.
import Foundation
import Testing
@testable import KioskMedia
import KioskTestSupport

@Suite("TakeLoudness: a take too short for R128's gating")
struct TakeLoudnessTests {
    /// ffmpeg's ebur128 true peak (dBTP) of `path`'s sound.
    static func truePeak(_ path: String) throws -> Double {
        let run = try runProgram(["ffmpeg", "-hide_banner", "-nostats", "-i", path, "-map", "0:a:0", "-af", "ebur128=peak=true", "-f", "null", "-"])
        try #require(run.status == 0, "\(run.stderr)")
        let summary = run.stderr.components(separatedBy: "Summary:").last ?? ""
        let line = try #require(summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Peak:") }, "\(summary)")
        return try #require(line.split(separator: " ").compactMap { Double($0) }.first, "\(line)")
    }

    @Test("a 0.2 s take of a full-scale square wave (over 0 dBTP after its AAC encoder): leveled to -16 LUFS all the same, its true peak at most -1 dBTP by ffmpeg's ebur128")
    func tooShortForGating() throws {
        let take = scratch("loudness-short").appendingPathComponent("take.mov").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=30:d=0.2",
                                   "-f", "lavfi", "-i", "aevalsrc=exprs='sgn(sin(2*PI*997*t))':s=48000:d=0.2",
                                   "-ac", "2", "-c:v", "mpeg4", "-c:a", "aac", "-shortest", take])
        try #require(made.status == 0, "\(made.stderr)")
        let before = try Self.truePeak(take)
        let done = try TakeLoudness.level(take, to: -16)
        let after = try Self.truePeak(take)
        print("short take: \(before) dBTP before, \(after) dBTP after; \(String(describing: done))")
        #expect(before > -1, "the take made is over the ceiling: \(before) dBTP")
        let leveling = try #require(done, "left as it was")
        #expect(after <= -1, "true peak \(after) dBTP")
        #expect(leveling.gain < 0 && abs((leveling.result ?? 0) - -16) <= 1, "\(leveling)")
    }
}
