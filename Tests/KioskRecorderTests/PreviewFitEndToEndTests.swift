// `--preview-fit` through the binary: the booth's own screenshot shows the test pattern covering
// the screen by default, and whole with black bars beside it with `--preview-fit fit`.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("the preview's fit, end to end", .serialized)
struct PreviewFitEndToEndTests {
    @Test("--preview-fit fit: the whole 352x288 picture, black bars beside it; by default it covers the screen (its white left bar at the edge)")
    func previewFit() throws {
        let folder = try testFolder("preview-fit")
        // The 352x288 pattern fitted to 800x480 is 587 wide: 106 pixels of bar on each side.
        // Right of the microphone's meter (x 13 to 26 at 800x480), which shows the tone's level.
        let leftBar = Rect(x: 35, y: 150, width: 60, height: 180)
        let pictureEdge = Rect(x: 115, y: 150, width: 20, height: 180)
        for fit in [nil, "fill", "fit"] {
            let name = fit ?? "default"
            let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("\(name).mov").path]
                                        + (fit.map { ["--preview-fit", $0] } ?? []))
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            // The first pictures may still be on their way: shoot until the preview shows what this
            // fit should (the checks below then judge the last shot).
            var bar = (mean: 0.0, white: 0), edge = bar, shots = 0
            _ = eventually(10) {
                shots += 1
                guard let shot = try? PromptEndToEndTests.shot(r, folder.appendingPathComponent("\(name)-\(shots).bmp").path)
                else { return false }
                (bar, edge) = (shot.measure(leftBar), shot.measure(pictureEdge))
                return fit == "fit" ? bar.mean < 8 && edge.mean > 150 : bar.mean > 150
            }
            if fit == "fit" {
                #expect(bar.mean < 8, "\(name): black beside the picture, \(bar.mean)")
                #expect(edge.mean > 150, "\(name): the picture's white left bar just inside, \(edge.mean)")
            } else {
                #expect(bar.mean > 150, "\(name): the picture's white bar at the screen's edge, \(bar.mean)")
            }
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
        let bad = try run(booth + ["--preview-fit", "stretch"])
        #expect(bad.status == 2 && bad.stderr.contains("--preview-fit"), "\(bad.stderr)")
    }
}
