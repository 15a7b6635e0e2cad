import Foundation
import Mdoc
import MdocModel
import Testing

@Suite("RFC 3339 dates")
struct RFC3339Tests {
    @Test("tdate values parse to the right instant", arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2022-03-31T22:48:31Z", 1_648_766_911.0),
        ("2000-02-29T12:00:00+01:00", 951_822_000.0),
        ("2025-02-19T23:36:58.210391Z", 1_740_008_218.210391),
    ])
    func parses(text: String, epoch: Double) throws {
        let date = try #require(RFC3339.parseDateTime(text))
        #expect(abs(date.timeIntervalSince1970 - epoch) < 0.000_01)
    }

    @Test("malformed date-times are rejected", arguments: [
        "2022-13-01T00:00:00Z", "2022-02-30T00:00:00Z", "2022-01-01 00:00:00Z", "2022-01-01T00:00:00",
        "2022-01-01T24:00:00Z", "2022-01-01T00:00:00.Z", "2022-01-01T00:00:00+0100", "", "2022-01-01T00:00:00Zjunk",
    ])
    func rejects(text: String) {
        #expect(RFC3339.parseDateTime(text) == nil)
    }

    @Test("format is the inverse of parse for whole seconds")
    func roundTrip() throws {
        for text in ["2022-06-01T00:00:00Z", "1999-12-31T23:59:59Z", "2121-03-07T20:36:14Z"] {
            let date = try #require(RFC3339.parseDateTime(text))
            #expect(RFC3339.format(date) == text)
        }
    }

    @Test("fractions print exactly as written, to the nanosecond, normalized to UTC", arguments: [
        ("2023-03-22T00:00:00.9999Z", "2023-03-22T00:00:00.9999Z"),
        ("2023-03-22T00:00:00.5Z", "2023-03-22T00:00:00.5Z"),
        ("2023-03-22T00:00:00.500Z", "2023-03-22T00:00:00.5Z"),
        ("2023-03-22T00:00:00.000000001Z", "2023-03-22T00:00:00.000000001Z"),
        ("2023-03-22T00:00:00.999999999Z", "2023-03-22T00:00:00.999999999Z"),
        ("2023-03-22T00:00:00.1234567891Z", "2023-03-22T00:00:00.123456789Z"),
        ("2023-03-22T00:00:00.000Z", "2023-03-22T00:00:00Z"),
        ("2023-03-22T01:00:00.25+01:00", "2023-03-22T00:00:00.25Z"),
        ("1969-12-31T23:59:59.75Z", "1969-12-31T23:59:59.75Z"),
    ])
    func fractions(text: String, printed: String) throws {
        let timestamp = try #require(RFC3339.Timestamp(parsing: text))
        #expect(timestamp.description == printed)
    }

    @Test("printing agrees with Foundation's ISO 8601 formatter for whole seconds across three centuries")
    func agreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        // 1900-01-01 ..< 2200-01-01 in ~2000 steps of a prime number of seconds (every field varies), both ends, a leap day.
        let seconds = [-2_208_988_800, 7_258_118_399, 951_782_400] + Array(stride(from: -2_208_988_800, to: 7_258_118_400, by: 4_733_557))
        for second in seconds {
            let printed = RFC3339.Timestamp(seconds: second).description
            #expect(printed == formatter.string(from: Date(timeIntervalSince1970: Double(second))), "\(second)")
        }
    }

    @Test("the first and last four-digit years print in full; a fifth digit widens the year, a year before 0 takes a sign", arguments: [
        (RFC3339.Timestamp(parsing: "0000-01-01T00:00:00Z"), "0000-01-01T00:00:00Z"),
        (RFC3339.Timestamp(parsing: "9999-12-31T23:59:59.999999999Z"), "9999-12-31T23:59:59.999999999Z"),
        (RFC3339.Timestamp(seconds: 253_402_300_800, nanoseconds: 10), "10000-01-01T00:00:00.00000001Z"),
        // One second before year 0000 (proleptic Gregorian): the year takes a sign, as ISO 8601's expanded years do.
        (RFC3339.Timestamp(seconds: -62_167_219_201), "-0001-12-31T23:59:59Z"),
        (RFC3339.Timestamp(seconds: -1, nanoseconds: 500_000_000), "1969-12-31T23:59:59.5Z"),
    ])
    func yearBounds(timestamp: RFC3339.Timestamp?, printed: String) throws {
        #expect(try #require(timestamp).description == printed)
    }

    @Test("the extreme instants an Int holds print without trapping", arguments: [Int.min, Int.min + 1, -86_401, Int.max])
    func extremeSeconds(_ seconds: Int) {
        let printed = RFC3339.Timestamp(seconds: seconds).description
        #expect(printed.hasSuffix("Z"))
        #expect(printed.utf8.count <= 48)
    }

    @Test("a Date prints to the microsecond without rounding into the next second")
    func dateFractions() throws {
        let date = try #require(RFC3339.parseDateTime("2023-03-22T00:00:00.9999Z"))
        #expect(RFC3339.format(date) == "2023-03-22T00:00:00.9999Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1.9999996)) == "1970-01-01T00:00:02Z")
    }

    @Test("full-date")
    func fullDate() {
        #expect(RFC3339.parseFullDate("1976-04-01")! == (1976, 4, 1))
        #expect(RFC3339.parseFullDate("1976-4-01") == nil)
        #expect(RFC3339.parseFullDate("2023-02-29") == nil)
    }
}
