/// Code lists the structured-data rules compare with (SD013, SD022, SD006).
enum StructuredDataCodes {
    /// ISO 3166-1 alpha-2: the 249 codes of the tz database's `iso3166.tab` (SD022).
    static let countries: Set<String> = Set(
        """
        AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
        BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE
        EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM
        HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC
        LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
        NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
        SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO
        TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// ISO 4217 alphabetic codes in use (list one), with the funds, precious-metal and testing
    /// `X` codes (SD013).
    static let currencies: Set<String> = Set(
        """
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN
        BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD
        FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS
        KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN
        MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR
        SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD
        USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU
        XTS XUA XXX YER ZAR ZMW ZWG ZWL
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// Superseded schema.org properties and their replacements (SD006, partly): the one the
    /// reference names (`interactionCount`) and the plural properties schema.org retired in favour of
    /// singular ones. Not the full `supersededBy` list of schema.ttl, which is not available here.
    static let supersededProperties: [String: String] = [
        "interactionCount": "interactionStatistic",
        "actors": "actor", "directors": "director", "employees": "employee", "founders": "founder",
        "members": "member", "musicGroupMember": "member", "reviews": "review", "awards": "award",
        "events": "event", "contactPoints": "contactPoint", "albums": "album", "tracks": "track",
        "photos": "photo", "maps": "hasMap", "map": "hasMap", "encodings": "encoding", "episodes": "episode",
        "seasons": "containsSeason", "season": "containsSeason", "colleagues": "colleague", "siblings": "sibling",
        "parents": "parent",
    ]
}
