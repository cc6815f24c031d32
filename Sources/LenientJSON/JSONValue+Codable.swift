/// `Codable` for values kept in a typed payload (a page's JSON-LD inside the crawl store's binary
/// record). Each value is an unkeyed container led by its kind, so any coder reads it back without
/// guessing whether `"1"` was a number or a string; an object keeps its members' order.
extension JSONValue: Codable {
    private enum Kind: Int, Codable {
        case null, bool, number, string, array, object
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .null:
            try container.encode(Kind.null)
        case .bool(let value):
            try container.encode(Kind.bool)
            try container.encode(value)
        case .number(let text):
            try container.encode(Kind.number)
            try container.encode(text)
        case .string(let text):
            try container.encode(Kind.string)
            try container.encode(text)
        case .array(let values):
            try container.encode(Kind.array)
            var elements = container.nestedUnkeyedContainer()
            for value in values { try elements.encode(value) }
        case .object(let object):
            try container.encode(Kind.object)
            var members = container.nestedUnkeyedContainer()
            for member in object.members {
                try members.encode(member.key)
                try members.encode(member.value)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        switch try container.decode(Kind.self) {
        case .null:
            self = .null
        case .bool:
            self = .bool(try container.decode(Bool.self))
        case .number:
            self = .number(try container.decode(String.self))
        case .string:
            self = .string(try container.decode(String.self))
        case .array:
            var elements = try container.nestedUnkeyedContainer()
            var values: [JSONValue] = []
            while !elements.isAtEnd { values.append(try elements.decode(JSONValue.self)) }
            self = .array(values)
        case .object:
            var members = try container.nestedUnkeyedContainer()
            var object = JSONObject()
            while !members.isAtEnd {
                let key = try members.decode(String.self)
                object.members.append(JSONObject.Member(key: key, value: try members.decode(JSONValue.self)))
            }
            self = .object(object)
        }
    }
}

extension JSONObject: Codable {
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(self).encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        guard case .object(let object) = try JSONValue(from: decoder) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected a JSON object"))
        }
        self = object
    }
}
