import SpotlightModel
import Testing

@Suite("ISO 8601 dates and durations")
struct ISO8601Tests {
    struct DateCase: Sendable, CustomTestStringConvertible {
        var text: String
        var seconds: Double
        var offset: Int?
        var hasTime: Bool
        var testDescription: String { text }
    }

    @Test(
        "dates keep their zone; dates without a zone are floating",
        arguments: [
            DateCase(text: "2024-05-01T10:00:00+02:00", seconds: 1_714_550_400, offset: 7200, hasTime: true),
            DateCase(text: "2024-05-01T10:00:00Z", seconds: 1_714_557_600, offset: 0, hasTime: true),
            DateCase(text: "2024-05-01T10:00:00-05:30", seconds: 1_714_577_400, offset: -19_800, hasTime: true),
            DateCase(text: "2024-05-01T10:00+0200", seconds: 1_714_550_400, offset: 7200, hasTime: true),
            DateCase(text: "2024-05-01T10:00:00.250Z", seconds: 1_714_557_600.25, offset: 0, hasTime: true),
            DateCase(text: "2024-05-01 10:00:00", seconds: 1_714_557_600, offset: nil, hasTime: true),
            DateCase(text: "2024-05-01", seconds: 1_714_521_600, offset: nil, hasTime: false),
            DateCase(text: "2024-05", seconds: 1_714_521_600, offset: nil, hasTime: false),
            DateCase(text: "2024", seconds: 1_704_067_200, offset: nil, hasTime: false),
            DateCase(text: "1969-12-31T23:59:59Z", seconds: -1, offset: 0, hasTime: true),
            DateCase(text: "2000-02-29", seconds: 951_782_400, offset: nil, hasTime: false),
            DateCase(text: "  2024-05-01  ", seconds: 1_714_521_600, offset: nil, hasTime: false),
        ])
    func dates(_ testCase: DateCase) throws {
        let date = try #require(ISO8601.date(testCase.text))
        #expect(date.secondsSince1970 == testCase.seconds)
        #expect(date.timeZoneOffset == testCase.offset)
        #expect(date.hasTime == testCase.hasTime)
        #expect(date.text == testCase.text.trimmingCharacters(in: " "))
    }

    @Test(
        "malformed dates are rejected",
        arguments: [
            "", "May 1, 2024", "24-05-01", "2024-13-01", "2024-05-32", "2024-05-01T25:00", "2024-05-01T10:60",
            "2024-05-01T10", "2024-05-01X", "2024/05/01",
        ])
    func malformedDates(_ text: String) {
        #expect(ISO8601.date(text) == nil)
    }

    /// Issue 13 §4: the verifier's one reading (SD016 and OG017 alike) takes the reference's form
    /// only, while the builder keeps reading the lenient forms pages write.
    @Test(
        "the verifier's form: a T before the time and an offset written ±hh:mm",
        arguments: [
            ("2016-04-25T23:37:17Z", true), ("2016-04-25T23:37:17+02:00", true), ("2016-04-25T23:37", true),
            ("2016-04-25T23:37:17.250-05:30", true), ("2016-04-25", true), ("2016-04", true),
            ("2016-04-25 23:37:17", false), ("2016-04-25T23:37:17+0000", false), ("2016-04-25T23:37:17+02", false),
            ("2016-04-25t23:37:17z", false),
        ])
    func conformingDates(text: String, conforms: Bool) {
        #expect(ISO8601.date(text) != nil, "the builder reads every form")
        #expect((ISO8601.conformingDate(text) != nil) == conforms, "\(text)")
    }

    @Test(
        "calendar-invalid dates and hours are rejected",
        arguments: ["2023-02-29", "2024-02-30", "2024-04-31", "2024-05-01T24:30"])
    func calendarInvalidDates(_ text: String) {
        #expect(ISO8601.date(text) == nil)
    }

    @Test(
        "durations in seconds",
        arguments: [
            ("PT1H55M", 6900.0), ("PT90S", 90), ("P1DT2H", 93_600), ("P2W", 1_209_600), ("PT1.5H", 5400),
            ("PT0,5M", 30),
            ("pt1h", 3600), ("P1Y", 31_536_000), ("P1M", 2_592_000), ("PT1M30.5S", 90.5), (" PT2H ", 7200),
        ])
    func durations(_ text: String, _ seconds: Double) {
        #expect(ISO8601.duration(text) == seconds)
    }

    @Test("malformed durations are rejected", arguments: ["", "P", "PT", "1H", "P1H", "PT1H55", "PTXM", "T1H", "P1S"])
    func malformedDurations(_ text: String) {
        #expect(ISO8601.duration(text) == nil)
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var result = Substring(self)
        while result.first == set { result.removeFirst() }
        while result.last == set { result.removeLast() }
        return String(result)
    }
}
