/// ISO 8601 / RFC 3339 dates and durations as web pages write them.
public enum ISO8601 {
    /// Parses `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, and `YYYY-MM-DD[T ]hh:mm[:ss[.fff]][Z|±hh[:]mm]`.
    public static func date(_ text: String) -> SpotlightDate? {
        let trimmed = text.trimmingWhitespace()
        let bytes = Array(trimmed.utf8)
        var index = 0
        func number(_ length: Int) -> Int? {
            guard index + length <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<length {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += length
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4) else { return nil }
        var month = 1
        var day = 1
        if expect(UInt8(ascii: "-")) {
            guard let parsedMonth = number(2), (1...12).contains(parsedMonth) else { return nil }
            month = parsedMonth
            if expect(UInt8(ascii: "-")) {
                guard let parsedDay = number(2), (1...31).contains(parsedDay) else { return nil }
                day = parsedDay
            }
        }
        var seconds = 0.0
        var hasTime = false
        var offset: Int?
        if index < bytes.count,
            bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t") || bytes[index] == 0x20
        {
            index += 1
            guard let hour = number(2), hour <= 24, expect(UInt8(ascii: ":")), let minute = number(2), minute < 60
            else { return nil }
            hasTime = true
            seconds = Double(hour * 3600 + minute * 60)
            if expect(UInt8(ascii: ":")) {
                guard let second = number(2), second <= 60 else { return nil }
                seconds += Double(second)
                if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
                    var scale = 0.1
                    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                        seconds += Double(bytes[index] - 48) * scale
                        scale /= 10
                        index += 1
                    }
                }
            }
            if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
                offset = 0
            } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = expect(UInt8(ascii: ":"))
                let minutes = number(2) ?? 0
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard index == bytes.count, day <= daysIn(month: month, year: year) else { return nil }
        if seconds >= 86_400, seconds != 86_400 || !hasTime { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let instant = Double(days) * 86_400 + seconds - Double(offset ?? 0)
        return SpotlightDate(text: trimmed, secondsSince1970: instant, timeZoneOffset: offset, hasTime: hasTime)
    }

    /// The verifier's reading (SD016, OG017): a date as `date(_:)` reads it, but only in the form
    /// the reference gives (`[-]CCYY-MM-DDThh:mm:ss[Z|(+|-)hh:mm]`, with a date alone, reduced
    /// precision and fractions of a second allowed): a `T` between date and time, never a space,
    /// and an offset written `±hh:mm`. The builder stays lenient (`date(_:)`); the verdict on a
    /// form is the same whichever syntax wrote it.
    public static func conformingDate(_ text: String) -> SpotlightDate? {
        let trimmed = text.trimmingWhitespace()
        guard let date = date(trimmed) else { return nil }
        guard date.hasTime else { return date }
        let bytes = Array(trimmed.utf8)
        guard bytes.count > 10, bytes[10] == UInt8(ascii: "T") else { return nil }
        // The zone: `Z`, or `±hh:mm` as the last six bytes; none for a local time.
        let timeStart = 11
        guard let sign = bytes[timeStart...].firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
        else { return date }
        let zone = bytes[sign...]
        guard zone.count == 6, zone[sign + 3] == UInt8(ascii: ":") else { return nil }
        return date
    }

    /// Parses an ISO 8601 duration (`PT1H55M`, `P1DT2H`, `PT90S`, `P2W`) into seconds. Years and
    /// months count 365 and 30 days.
    public static func duration(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace().uppercased()
        guard trimmed.hasPrefix("P"), trimmed.count > 1 else { return nil }
        var total = 0.0
        var inTime = false
        var digits = ""
        var sawComponent = false
        for character in trimmed.dropFirst() {
            if character == "T" {
                inTime = true
                continue
            }
            if character.isNumber || character == "." || character == "," {
                digits.append(character == "," ? "." : character)
                continue
            }
            guard let value = Double(digits) else { return nil }
            digits = ""
            sawComponent = true
            switch (character, inTime) {
            case ("Y", false): total += value * 365 * 86_400
            case ("M", false): total += value * 30 * 86_400
            case ("W", false): total += value * 7 * 86_400
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
        }
        // `P1e400Y`'s digits never reach here, but 400 nines do: an infinite total is no duration.
        return digits.isEmpty && sawComponent && total.isFinite ? total : nil
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
