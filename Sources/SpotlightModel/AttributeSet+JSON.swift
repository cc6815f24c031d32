public import LenientJSON
import URLNormalization

extension AttributeSet {
    /// Core Spotlight property names; absent and empty fields are left out. Dates are written as
    /// the page wrote them (zone kept).
    public var json: JSONObject {
        var object = JSONObject()
        func put(_ key: String, _ value: String?) { if let value { object.append(key, .string(value)) } }
        func put(_ key: String, _ value: Double?) { if let value { object.append(key, JSONValue(value)) } }
        func put(_ key: String, _ value: Int?) { if let value { object.append(key, JSONValue(value)) } }
        func put(_ key: String, _ value: Bool?) { if let value { object.append(key, .bool(value)) } }
        func put(_ key: String, _ value: [String]) {
            if !value.isEmpty { object.append(key, .array(value.map(JSONValue.string))) }
        }
        func put(_ key: String, _ value: SpotlightDate?) { if let value { object.append(key, .string(value.text)) } }
        put("title", title)
        put("displayName", displayName)
        put("alternateNames", alternateNames)
        put("contentDescription", contentDescription)
        put("thumbnailURL", thumbnailURL)
        put("contentURL", contentURL)
        put("url", url)
        put("relatedUniqueIdentifier", relatedUniqueIdentifier)
        put("weakRelatedUniqueIdentifier", weakRelatedUniqueIdentifier)
        put("domainIdentifier", domainIdentifier)
        put("contentType", contentType)
        put("keywords", keywords)
        put("rankingHint", rankingHint)
        put("identifier", identifier)
        put("rating", rating)
        put("ratingDescription", ratingDescription)
        put("phoneNumbers", phoneNumbers)
        put("emailAddresses", emailAddresses)
        put("supportsPhoneCall", supportsPhoneCall)
        put("supportsNavigation", supportsNavigation)
        put("latitude", latitude)
        put("longitude", longitude)
        put("altitude", altitude)
        put("namedLocation", namedLocation)
        put("thoroughfare", thoroughfare)
        put("subThoroughfare", subThoroughfare)
        put("city", city)
        put("stateOrProvince", stateOrProvince)
        put("postalCode", postalCode)
        put("country", country)
        put("fullyFormattedAddress", fullyFormattedAddress)
        put("startDate", startDate)
        put("endDate", endDate)
        put("contentCreationDate", contentCreationDate)
        put("contentModificationDate", contentModificationDate)
        put("authorNames", authorNames)
        put("publishers", publishers)
        put("contributors", contributors)
        put("organizations", organizations)
        put("languages", languages)
        put("genre", genre)
        put("director", director)
        put("performers", performers)
        put("duration", duration)
        put("headline", headline)
        put("pixelWidth", pixelWidth)
        put("pixelHeight", pixelHeight)
        if !customAttributes.isEmpty {
            object.append(
                "customAttributes",
                .object(JSONObject(customAttributes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return object
    }
}

extension PageAttributes {
    /// Characters of a value the provenance shows: it says where a value came from, and the whole
    /// chosen value is the attribute set's (issue 17 §2.10: a 9 MB description was stored and
    /// reported once more in the provenance).
    public static let provenanceValueLength = 1_024

    /// The provenance of each chosen value and the conflicting values that lost (values longer than
    /// `provenanceValueLength` shortened).
    public var provenanceJSON: JSONValue {
        .array(
            provenance.map { entry in
                var object = JSONObject()
                object.append("field", .string(entry.field))
                object.append("value", .string(entry.chosen.value.abbreviated(toScalars: Self.provenanceValueLength)))
                object.append("source", .string(entry.chosen.source.source))
                object.append("line", JSONValue(entry.chosen.source.line))
                if !entry.conflicting.isEmpty {
                    object.append(
                        "conflicting",
                        .array(
                            entry.conflicting.map {
                                [
                                    "value": .string($0.value.abbreviated(toScalars: Self.provenanceValueLength)),
                                    "source": .string($0.source.source),
                                    "line": JSONValue($0.source.line),
                                ]
                            }))
                }
                return .object(object)
            })
    }

    public var deepLinksJSON: JSONValue {
        .array(
            deepLinks.map {
                ["url": .string($0.url), "source": .string($0.source.source), "line": JSONValue($0.source.line)]
            })
    }

    public var appStoreIDsJSON: JSONValue {
        .array(
            appStoreIDs.map {
                ["id": .string($0.url), "source": .string($0.source.source), "line": JSONValue($0.source.line)]
            })
    }
}
