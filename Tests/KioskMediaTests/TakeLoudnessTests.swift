// A take's loudness at its hand-over (TakeLoudness, `--loudness`) on takes made by ffmpeg: one that
// R128's gating cannot measure (shorter than one 400 ms block), and claps the AAC encoder carries
// over the ceiling. ffmpeg's ebur128 is the judge.
import Foundation
import Testing
@testable import KioskMedia
import KioskTestSupport

@Suite("TakeLoudness: a take too short for R128's gating; the file written measured, and written again while over the ceiling")
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
        let leveling = done
        #expect(leveling.result == .leveled || leveling.result == .limited, "left as it was: \(leveling)")
        #expect(after <= -1, "true peak \(after) dBTP")
        #expect(leveling.gain < 0 && abs((leveling.reached ?? 0) - -16) <= 1, "\(leveling)")
    }

    @Test("a take of noise with full-scale claps, the limiter started at -0.5 dBFS (where the encoder's overshoot carries the claps over -1 dBTP): written as it is with no rewrite, over the ceiling; with rewrites, at most -1 dBTP by ffmpeg's ebur128 and still at -16 ± 1 LUFS")
    func rewrittenUnderTheCeiling() throws {
        let folder = scratch("loudness-ceiling")
        let take = folder.appendingPathComponent("take.mov").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=30:d=3",
                                   "-f", "lavfi", "-i", "anoisesrc=color=pink:seed=3:amplitude=0.2:duration=3",
                                   "-f", "lavfi", "-i", "aevalsrc=exprs='if(lt(mod(t,1),0.005),sgn(sin(2*PI*1700*t)),0)':s=48000:d=3",
                                   "-filter_complex", "[1][2]amix=inputs=2:normalize=0,pan=stereo|c0=c0|c1=c0[a]", "-map", "0:v", "-map", "[a]",
                                   "-c:v", "mpeg4", "-c:a", "aac", "-shortest", take])
        try #require(made.status == 0, "\(made.stderr)")
        let once = folder.appendingPathComponent("once.mov").path, held = folder.appendingPathComponent("held.mov").path
        let unchecked = try TakeLoudness.prepare(take, to: -16, into: once, limit: -0.5, rewrites: 0)
        let checked = try TakeLoudness.prepare(take, to: -16, into: held, limit: -0.5)
        let (over, under) = (try Self.truePeak(once), try Self.truePeak(held))
        print("claps: written once at \(over) dBTP, rewritten to \(under) dBTP; \(unchecked); \(checked)")
        #expect(over > -1, "the limiter at -0.5 dBFS did not carry the claps over the ceiling: \(over) dBTP")
        #expect(under <= -1, "true peak \(under) dBTP")
        #expect(checked.limited && abs((checked.reached ?? 0) - -16) <= 1, "\(checked)")
    }
}
