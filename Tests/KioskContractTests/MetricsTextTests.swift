// The metrics file's text (Prometheus' exposition format) from the booth's figures, and its pace:
// each change written, at most once a second, unchanged figures again every ten.
import Testing
@testable import KioskContract

@Suite("MetricsText: the booth's figures for node_exporter")
struct MetricsTextTests {
    @Test("a booth with takes, a microphone and a known disk: every family with HELP, TYPE and its sample, in order")
    func full() {
        var f = BoothFigures()
        f.recorded = 7
        f.used = 4
        f.discarded = 2
        f.shared = 3
        f.framesDropped = 12
        f.cameraUp = true
        f.microphoneLevel = -23
        f.diskSeconds = 5432.123456
        f.hooksPending = 1
        f.lastTake = 1_764_661_321.25
        f.version = "1.2.3"
        #expect(MetricsText.text(f) == """
            # HELP kiosk_build_info The booth's version, as a label; always 1.
            # TYPE kiosk_build_info gauge
            kiosk_build_info{version="1.2.3"} 1
            # HELP kiosk_takes_total Takes recorded (finished with a picture) since the booth started.
            # TYPE kiosk_takes_total counter
            kiosk_takes_total 7
            # HELP kiosk_takes_used_total Takes handed over (Use Video, or an idle reset's use).
            # TYPE kiosk_takes_used_total counter
            kiosk_takes_used_total 4
            # HELP kiosk_takes_discarded_total Takes discarded (Retake, or an idle reset's discard).
            # TYPE kiosk_takes_discarded_total counter
            kiosk_takes_discarded_total 2
            # HELP kiosk_takes_shared_total Takes whose share folder was written (--share-dir).
            # TYPE kiosk_takes_shared_total counter
            kiosk_takes_shared_total 3
            # HELP kiosk_frames_dropped_total Pictures the takes lost (recordingFinished's droppedFrames).
            # TYPE kiosk_frames_dropped_total counter
            kiosk_frames_dropped_total 12
            # HELP kiosk_camera_up 1 while the booth has its camera, 0 while it is lost or missing.
            # TYPE kiosk_camera_up gauge
            kiosk_camera_up 1
            # HELP kiosk_microphone_level_dbfs The microphone's peak over the last 100 ms, in dBFS (-100: silence).
            # TYPE kiosk_microphone_level_dbfs gauge
            kiosk_microphone_level_dbfs -23
            # HELP kiosk_disk_remaining_seconds Seconds of recording the output's disk still holds at the last take's rate, above --min-free-disk.
            # TYPE kiosk_disk_remaining_seconds gauge
            kiosk_disk_remaining_seconds 5432.123
            # HELP kiosk_hooks_pending --on-take hooks waiting or running.
            # TYPE kiosk_hooks_pending gauge
            kiosk_hooks_pending 1
            # HELP kiosk_last_take_timestamp_seconds When the last take finished, in Unix seconds.
            # TYPE kiosk_last_take_timestamp_seconds gauge
            kiosk_last_take_timestamp_seconds 1764661321.25

            """)
    }

    @Test("a fresh booth without a microphone: the figures not known yet (microphone, disk, last take) are left out, the counters are 0")
    func fresh() {
        let text = MetricsText.text(BoothFigures())
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(samples == ["kiosk_build_info{version=\"\(KioskVersion.string)\"} 1", "kiosk_takes_total 0", "kiosk_takes_used_total 0",
                            "kiosk_takes_discarded_total 0", "kiosk_takes_shared_total 0", "kiosk_frames_dropped_total 0",
                            "kiosk_camera_up 0", "kiosk_hooks_pending 0"])
        #expect(!text.contains("kiosk_microphone_level_dbfs") && !text.contains("kiosk_disk_remaining_seconds")
                && !text.contains("kiosk_last_take_timestamp_seconds"))
        #expect(text.hasSuffix("\n"))
    }

    @Test("numbers as Prometheus reads them", arguments: [
        (0.0, "0"), (-100, "-100"), (1.5, "1.5"), (2.0004, "2"), (-0.25, "-0.25"), (1e20, "1e+20"),
        (.nan, "NaN"), (.infinity, "+Inf"), (-.infinity, "-Inf"),
    ] as [(Double, String)])
    func numbers(value: Double, text: String) {
        #expect(MetricsText.number(value) == text)
    }

    @Test("a label's value escapes backslash, quote and newline; HELP escapes backslash and newline", arguments: [
        ("1.0", true, "1.0"), ("a\"b", true, "a\\\"b"), ("a\"b", false, "a\"b"), ("a\\b\nc", true, "a\\\\b\\nc"),
    ] as [(String, Bool, String)])
    func escaping(raw: String, quotes: Bool, escaped: String) {
        #expect(MetricsText.escaped(raw, quotes: quotes) == escaped)
    }

    @Test("the disk's seconds: the free bytes above what is kept free, at the rate; none without a rate", arguments: [
        (Int64(10_000_000), Int64(1_000_000), 100_000.0 as Double?, 90.0 as Double?),
        (500_000, 1_000_000, 100_000, 0),
        (10_000_000, 0, nil, nil),
        (10_000_000, 0, 0, nil),
    ] as [(Int64, Int64, Double?, Double?)])
    func diskSeconds(free: Int64, keep: Int64, rate: Double?, seconds: Double?) {
        #expect(MetricsText.diskSeconds(free: free, keep: keep, bytesPerSecond: rate) == seconds)
    }

    @Test("the pace: the first figures at once; a change at most once a second, written at the first look after; the same figures again after ten seconds")
    func pace() {
        let s: Int64 = 1_000_000_000
        var pace = MetricsPace()
        var f = BoothFigures()
        var written: [Double] = []
        // (time in s, recorded takes): a change at 0.3 and 0.6 waits for 1.0; nothing new until 11.
        let looks: [(Double, Int)] = [(0, 0), (0.3, 1), (0.6, 2), (0.99, 2), (1.0, 2), (1.5, 2), (5, 2), (10.9, 2), (11, 2), (11.2, 3), (12, 3)]
        for (t, takes) in looks {
            f.recorded = takes
            if pace.due(f, now: 5 * s + Int64(t * 1e9)) { written.append(t) }
        }
        #expect(written == [0, 1.0, 11, 12])
    }
}
