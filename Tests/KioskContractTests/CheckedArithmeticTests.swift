// Table tests for the checked and saturating arithmetic used on numbers from files and drivers.
import Testing
import KioskContract

@Suite("Checked arithmetic")
struct CheckedArithmeticTests {
    static let max = Int64.max, min = Int64.min

    /// a, b, a + b (nil: does not fit), a − b (nil: does not fit)
    static let sums: [(Int64, Int64, Int64?, Int64?)] = [
        (1, 2, 3, -1),
        (max, 1, nil, max - 1),
        (max, -1, max - 1, nil),
        (min, -1, nil, min + 1),
        (min, 1, min + 1, nil),
        (min, min, nil, 0),
        (max, min, -1, nil),
        (0, min, min, nil),
        (9_223_372_036_854_000_000, 33_333_333, nil, 9_223_372_036_820_666_667),
    ]

    @Test("adding and subtracting: the sum when it fits; nil, or the end of the range, when it does not", arguments: sums)
    func addSubtract(a: Int64, b: Int64, sum: Int64?, difference: Int64?) {
        #expect(a.checkedAdding(b) == sum)
        #expect(a.checkedSubtracting(b) == difference)
        #expect(a.saturatingAdding(b) == sum ?? (b < 0 ? Self.min : Self.max))
        #expect(a.saturatingSubtracting(b) == difference ?? (b < 0 ? Self.max : Self.min))
    }

    static let products: [(Int64, Int64, Int64?)] = [
        (3, -4, -12),
        (max / 2, 2, max - 1),
        (max / 2 + 1, 2, nil),
        (min, -1, nil),
        (min / 2, 2, min),
        (-(max / 2) - 2, 2, nil),
        (9_223_372_037, 1_000_000_000, nil),
    ]

    @Test("multiplying: nil when the product does not fit", arguments: products)
    func multiply(a: Int64, b: Int64, product: Int64?) {
        #expect(a.checkedMultiplied(by: b) == product)
    }

    /// seconds, fraction, unit, nanoseconds
    static let stamps: [(Int64, Int64, Int64, Int64?)] = [
        (12, 345_678, 1000, 12_345_678_000),
        (0, 999_999, 1000, 999_999_000),
        (0, 1_000_000, 1000, nil),
        (0, -1, 1000, nil),
        (5, 999_999_999, 1, 5_999_999_999),
        (9_223_372_036, 854_775, 1000, 9_223_372_036_854_775_000),
        (9_223_372_036, 854_776, 1000, nil),
        (9_223_372_037, 0, 1, nil),
        (-9_223_372_036, 0, 1, -9_223_372_036_000_000_000),
        (min, 0, 1, nil),
    ]

    @Test("a driver's timeval or timespec in nanoseconds: nil when it does not fit or the fraction is no fraction", arguments: stamps)
    func nanoseconds(seconds: Int64, fraction: Int64, unit: Int64, expected: Int64?) {
        #expect(Int64.nanoseconds(seconds: seconds, fraction: fraction, unit: unit) == expected)
    }

    @Test("an index a driver gives: the element, or nil outside the array")
    func checkedIndex() {
        let buffers = ["a", "b", "c", "d"]
        #expect(buffers[checked: 0] == "a" && buffers[checked: 3] == "d")
        #expect(buffers[checked: 4] == nil && buffers[checked: -1] == nil && buffers[checked: Int(UInt32.max)] == nil)
        #expect(buffers[1...][checked: 0] == nil && buffers[1...][checked: 1] == "b")
    }
}
