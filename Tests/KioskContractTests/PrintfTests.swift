// String(printf:), which stands in for Foundation's String(format:) in the booth: the same text for
// the formats the booth writes, and no cut at the buffer's edge.
import Foundation
import Testing
import KioskContract

@Suite("String(printf:): Foundation's String(format:) for the booth's numbers")
struct PrintfTests {
    @Test("the same text as String(format:)", arguments: [
        ("%.1f", 2.25), ("%.1f", 0.05), ("%.2f", 0.333), ("%g", 33.333333), ("%g", 66.7), ("%.0f ms", 12.5), ("%.1f ms", 0.0049),
    ] as [(String, Double)])
    func sameAsFoundation(format: String, value: Double) {
        #expect(String(printf: format, value) == String(format: format, value))
    }

    @Test("integers, and a text longer than the first buffer")
    func integersAndLong() {
        #expect(String(printf: "%ld%% over the last second", 42) == "42% over the last second")
        let long = String(repeating: "x", count: 400)
        #expect(String(printf: long + " %.1f", 1.5) == long + " 1.5")
    }
}
