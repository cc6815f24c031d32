// How to fix each implemented rule, and what the checks of the rules checked only in part leave out,
// by the check group that reports them (Sources/Verification).

extension RuleCatalogue {
    // AssetChecks
    package static let assetFixHints: [RuleID: String] = [
        .ct009:
            "Use an image at least 180 px on its short side (tall images 270 px high), 1200×630 for link previews.",
        .ct010: "Serve the image with HTTP 200, an image/* Content-Type and PNG, JPEG, GIF or WebP bytes.",
        .ct011: "Keep images under 2 MB (Apple's #images), and under 5 MB for X and 8 MB for Facebook.",
    ]

    // ConsumerChecks
    package static let consumerFixHints: [RuleID: String] = [
        .ix010:
            "Serve every user agent the same page and metadata: let link-preview bots and Applebot through the WAF "
            + "and robots.txt, and do not vary the markup by User-Agent."
    ]

    // ContentChecks
    package static let contentFixHints: [RuleID: String] = [
        .ct001: "Give the page a title: og:title, or at least <title>.",
        .ct002: "Give the page a description: og:description and meta description.",
        .ct003: "Shorten the title to 90 characters; keep it specific to the item.",
        .ct004: "Shorten the description to 300 characters.",
        .ct005: "Write a one- or two-sentence description of at least 50 characters.",
        .ct006: "Write a description that adds to the title instead of repeating it.",
        .ct007: "Add an og:image specific to this page's content (not the logo or icon).",
        .ct012: "Keep 3 to 5 keywords per item: synonyms, abbreviations, category terms.",
        .ct013: "List each keyword once, only terms related to the item; do not repeat words in the title.",
        .ct015: "Make og:locale and inLanguage agree with <html lang>.",
        .ct016:
            "Declare the encoding the file is saved in (<meta charset=\"utf-8\"> for UTF-8, in the first 1,024 bytes) and the same charset in the HTTP Content-Type.",
    ]

    package static let contentPartly: [RuleID: String] = [
        .ct005: "checks the length only; whether the text is a sentence is not judged",
        .ct013:
            "checks repeated keywords, words repeated more than 3 times in the title and keyword meta over 250 characters; keywords absent from the page's text are not checked",
    ]

    // DeepLinkChecks
    package static let deepLinkFixHints: [RuleID: String] = [
        .dl001:
            "Add a deep link: apple-itunes-app app-argument=<canonical URL>, al:ios:url, or twitter:app:url:iphone (and list the URL in the AASA).",
        .dl002: "Make every deep link on the page open the same content.",
        .dl004: "Add an https deep link the app handles as a universal link (app-argument=<canonical URL> + AASA).",
    ]

    // IndexabilityChecks
    package static let indexabilityFixHints: [RuleID: String] = [
        .ix001:
            "Allow Applebot in robots.txt (a User-agent: Applebot group, or Googlebot's when Applebot is not named).",
        .ix002: "Remove noindex/none from meta robots, meta applebot and X-Robots-Tag for pages meant for search.",
        .ix003: "Remove nosnippet so the description can be shown.",
        .ix004: "Serve the page with HTTP 200 and Content-Type text/html at its canonical URL.",
        .ix005: "Replace the meta refresh with an HTTP redirect (301/308) or serve the content directly.",
        .ix006: "Point rel=canonical at this page when it is the one to index; otherwise index the canonical page.",
        .ix007: "Keep exactly one absolute http(s) rel=canonical link.",
        .ix008: "Keep the HTML under 1 MB: move inline data and scripts out of the page.",
    ]

    // LocalItemLinker
    package static let localItemFixHints: [RuleID: String] = [
        .as001: "Index a Core Spotlight item (or activity) for the page, with its URL as uniqueIdentifier.",
        .as002: "Use the page URL as uniqueIdentifier, relatedUniqueIdentifier and webpageURL alike.",
        .as003: "Keep the local item's title, description, rating and keywords in step with the page.",
        .as004: "Give webpageURL an http or https URL.",
        .as005: "Set webpageURL (or requiredUserInfoKeys) on activities eligible for public indexing.",
        .as006: "Index the related item before the activity, or fix relatedUniqueIdentifier.",
        .as007: "Download the thumbnail and give thumbnailURL the local file URL (or thumbnailData).",
        .as008: "Put the web URL in url, not contentURL (a file URL).",
        .as009: "Set an expirationDate in the future, and re-index before it passes.",
        .as010: "Use domainIdentifier values without dots unless you want a hierarchy.",
        .as011: "Give phoneNumbers with supportsPhoneCall, latitude and longitude with supportsNavigation.",
        .as012: "Keep rating within 0–5 and rankingHint within 0–100.",
        .as013: "Keep 3 to 5 keywords per item.",
        .as014: "Index the item without isUpdate first; updates of absent items are dropped.",
        .as015: "Do not mark content eligible for public indexing when its page is not publicly indexable.",
        .as016:
            "Batch on a named CSSearchableIndex (not defaultSearchableIndex) and keep its client state under 250 bytes (an offset or a token, not a payload).",
    ]

    // MarketingPageRules
    package static let marketingPageFixHints: [RuleID: String] = [
        .ix011:
            "Make the App Store Connect marketing or support URL a live page of the site that links to its content (or set it to such a page)."
    ]

    // OpenGraphChecks
    package static let openGraphFixHints: [RuleID: String] = [
        .og001: "Add <meta property=\"og:title\" content=\"…\"> with the page's own title.",
        .og002: "Add <meta property=\"og:type\" content=\"website\"> (or article, video.movie, profile …).",
        .og003: "Add <meta property=\"og:image\" content=\"https://…\"> with an image at least 1200×630 pixels.",
        .og004: "Add <meta property=\"og:url\" content=\"…\"> with the page's canonical URL.",
        .og005: "Write the URL absolute, with https:// and the host (relative URLs are invalid in Open Graph).",
        .og006: "Make og:url the same URL as <link rel=\"canonical\">.",
        .og007: "Write Open Graph tags with property=\"og:…\", not name=.",
        .og008:
            "Declare the prefixes on <html>: prefix=\"og: https://ogp.me/ns#\" (plus e.g. article: https://ogp.me/ns/article#).",
        .og009: "Put og:image:width, :height, :type, :alt … after the og:image (or og:video, og:audio) they describe.",
        .og010:
            "Write og:image:width and og:image:height (or the video's) as whole pixel numbers, e.g. 1200, without units.",
        .og011:
            "Use the file's MIME type: image/png, image/jpeg … for og:image:type; video/* and audio/* for video and audio.",
        .og012: "Use an https:// URL in og:image:secure_url.",
        .og013: "Add <meta property=\"og:image:alt\" content=\"…\"> after each og:image, describing the image.",
        .og014: "Use og:determiner a, an, the, auto, or leave it out.",
        .og015: "Write the locale as language_TERRITORY with an underscore, e.g. en_US or fr_FR.",
        .og016:
            "Use a global og:type (website, article, book, profile, music.*, video.*) or declare the CURIE's prefix.",
        .og017:
            "Write dates in ISO 8601 (2024-05-01 or 2024-05-01T10:00:00Z), durations and disc/track numbers as whole numbers ≥ 1, and profile:gender as male or female.",
        .og018: "Keep one value for each single-valued property; consumers use the first tag.",
        .og019: "Leave the site name out of og:title; og:site_name carries it.",
        .og020: "Remove the deprecated property or move the data to schema.org markup.",
        .og021: "Use the type-specific properties of the page's og:type only, or change og:type to match them.",
    ]

    package static let openGraphPartly: [RuleID: String] = [
        .og008:
            "reads RDFa 1.1 prefix attributes only: the extractor does not keep xmlns:og (RDFa 1.0) declarations, so a page declaring og: only with xmlns:og is reported as undeclared, and a wrong xmlns:og URI (http://opengraphprotocol.org/schema/) as undeclared rather than wrong",
        .og019:
            "detects the og:site_name value as a separate segment of og:title (set off by |, -, –, :, · …, case-insensitive); branding written differently from og:site_name, or any branding without og:site_name, is not detected",
    ]

    // RenderingChecks
    package static let renderingFixHints: [RuleID: String] = [
        .dl005:
            "Serve the deep-link markup (the Smart App Banner's app-argument, App Links, twitter:app tags) in the HTML itself, not from a script.",
        .ix015:
            "Render the title, description, og: tags and JSON-LD on the server (or prerender) so they are in the served HTML.",
        .ix016: "Allow Applebot to fetch the scripts, stylesheets and data the page needs to render (robots.txt).",
    ]

    // SiteVerifier
    package static let siteFixHints: [RuleID: String] = [
        .ct008: "Give each page an image of its own content, not the site's default image or logo.",
        .ct014: "Write a title and description specific to each page.",
        .ix009: "Give each page its own path or query; a #fragment does not make a separate page for crawlers.",
        .ix012: "Point rel=canonical at the 200, indexable URL of the content (the final URL after redirects).",
        .ix013: "Point every duplicate directly at the final canonical URL.",
        .ix014: "List canonical URLs only in sitemaps.",
    ]

    // SmartAppBannerChecks
    package static let smartAppBannerFixHints: [RuleID: String] = [
        .sab001: "Give the tag a content attribute: content=\"app-id=123456789, app-argument=https://…\".",
        .sab002: "Add app-id=<the App Store ID> (the number in the app's App Store URL) to content.",
        .sab003: "Use the numeric App Store ID (from apps.apple.com/app/id123456789), not the bundle or team ID.",
        .sab004: "Check the App Store ID: it is the 9- or 10-digit number after \"id\" in the App Store URL.",
        .sab005: "Write app-argument as an absolute URL with its scheme, e.g. the page's canonical https URL.",
        .sab006: "Do not percent-encode the whole app-argument; write the URL as is (encode only inside it).",
        .sab007: "Make app-argument the URL of the content this page shows, not the site root.",
        .sab008: "Add app-argument=<this page's canonical URL> so the app and Apple can open this content.",
        .sab009: "Percent-encode commas inside app-argument (%2C): the comma separates parameters.",
        .sab010: "Add app-id=<the App Store ID> next to app-clip-bundle-id.",
        .sab011: "Use app-clip-display=card, or leave it out.",
        .sab012: "Add app-clip-bundle-id, or remove app-clip-display.",
        .sab013:
            "Use the App Clip's bundle ID, which is the parent app's bundle ID plus a suffix (com.example.app.Clip).",
        .sab014: "Leave app-argument out when the banner invokes an App Clip, or use an App Clip experience URL.",
        .sab015:
            "Fix the key's spelling (app-id, app-argument, app-clip-bundle-id, app-clip-display, affiliate-data).",
        .sab016: "Keep one value per key.",
        .sab017: "Keep one apple-itunes-app tag per page.",
        .sab018: "Move the apple-itunes-app tag into <head>.",
        .sab019: "Write each parameter as key=value in lower case, separated by \", \", without spaces around \"=\".",
        .sab020: "Use the configured app's App Store ID, or check --app-id.",
        .sab022: "Remove affiliate-data unless you still rely on it; it is no longer documented.",
        .sab023: "Write the tag as <meta name=\"apple-itunes-app\" content=\"app-id=…\">: name=, not property=.",
        .sab024:
            "Move the parameter into content: content=\"app-id=123456789, app-argument=https://…\" (comma and space between).",
    ]

    package static let smartAppBannerPartly: [RuleID: String] = [
        .sab007:
            "the site root on every page, and the same app-argument on 3 or more pages in a crawl; \"the app's opening screen\" is not known to SpotCheck"
    ]

    // StructuredDataChecks
    package static let structuredDataFixHints: [RuleID: String] = [
        .sd001:
            "Make the script body valid JSON (no trailing commas, comments or unescaped quotes); check it with a strict JSON parser.",
        .sd002: "Add \"@context\": \"https://schema.org\" to each top-level JSON-LD object.",
        .sd003:
            "Use a type of the schema.org vocabulary, spelled as schema.org spells it (https://schema.org/docs/full.html), e.g. NewsArticle, not newsArticle.",
        .sd004:
            "Use a property of the schema.org vocabulary, spelled as schema.org spells it (the finding suggests the nearest one), or move the term into your own vocabulary.",
        .sd005:
            "Put the property on a type its schema.org page lists it for (domainIncludes, subtypes included), or choose a type (or an additional one) that has it.",
        .sd006:
            "Use the term that supersedes it (interactionCount → interactionStatistic with an InteractionCounter; plural properties → their singular form; the finding names the replacement).",
        .sd007:
            "Put every itemprop inside an itemscope element (or reach it with itemref), and write itemtype as an absolute URL such as https://schema.org/Movie.",
        .sd008:
            "Write ratingValue, bestRating and worstRating as plain numbers: ASCII digits and \".\" (4.5, not \"4,5\" or \"4.5/5\").",
        .sd009:
            "Keep ratingValue within [worstRating, bestRating], or state the scale (e.g. bestRating 10) the value is on.",
        .sd010: "Make bestRating greater than worstRating.",
        .sd011: "Give AggregateRating a ratingCount or reviewCount, as a non-negative integer without separators.",
        .sd012:
            "Write prices as plain numbers (1234.50): no currency symbol, \".\" for decimals, no thousands separators; put the currency in priceCurrency.",
        .sd013: "Use an ISO 4217 code for priceCurrency, e.g. USD or EUR.",
        .sd014: "Add priceCurrency (ISO 4217) next to price.",
        .sd015: "Make lowPrice at most highPrice.",
        .sd016: "Write dates as ISO 8601: 2024-05-01 or 2024-05-01T19:30:00+02:00.",
        .sd017: "Make endDate the same as or later than startDate.",
        .sd018: "Make dateModified the same as or later than datePublished.",
        .sd019: "Write latitude in [−90, 90] and longitude in [−180, 180] as decimal numbers with \".\".",
        .sd020: "Write telephone as an international number, ideally E.164 (+14155550100).",
        .sd021: "Write email as a bare address (name@example.com), without mailto:, in JSON-LD and text.",
        .sd022: "Use an ISO 3166-1 alpha-2 code for addressCountry, e.g. US or GB.",
        .sd023:
            "Put the query-input name as a {placeholder} in the SearchAction target, e.g. target …?q={search_term_string} with query-input \"required name=search_term_string\".",
        .sd024: "Write url, @id, image, contentUrl and sameAs as absolute https URLs.",
        .sd025:
            "Add Open Graph tags, or schema.org data Apple reads (AggregateRating, Offer, Organization, Recipe, SearchAction, ImageObject).",
        .sd026:
            "Give the page one main entity whose url (or @id / mainEntityOfPage) is the canonical URL, or point to it with WebPage.mainEntity.",
        .sd027: "Make the main entity's name and image agree with og:title and og:image.",
        .sd028: "Give every ImageObject a contentUrl with the image file's absolute URL.",
    ]

    package static let structuredDataPartly: [RuleID: String] = [
        .sd009:
            "a missing worstRating is taken as 0, SpotCheck's rating scale (docs/extract-json.md), not the catalogue's 1; a missing bestRating is 5"
    ]

    // TwitterAppLinksChecks
    package static let twitterAppLinksFixHints: [RuleID: String] = [
        .tw001: "Use twitter:card summary, summary_large_image, app or player, written in content= (not value=).",
        .tw002: "Shorten twitter:title to 70 characters and twitter:description to 200.",
        .tw003: "Use a PNG, JPEG, WebP or GIF image under 5 MB, and an alt text under 420 characters.",
        .tw004: "Use the numeric App Store ID in twitter:app:id:iphone/ipad, not the bundle ID.",
        .tw005: "Write twitter:app:url:* as a full URL with \"://\", e.g. myapp://movies/up.",
        .al001: "Add al:ios:url (or al:iphone:url / al:ipad:url) next to the other al:* tags of that platform.",
        .al002: "Use the numeric App Store ID in al:*:app_store_id.",
        .al003: "Write al:*:url as a URL whose scheme has letters, digits, + - . only.",
        .al004: "Set al:web:should_fallback to true or false.",
        .al005: "Make al:web:url the page's absolute canonical http(s) URL.",
        .tw006: "Make twitter:url the page's canonical URL, or leave it out.",
        .dl003:
            "Use the same App Store ID in apple-itunes-app, al:ios:app_store_id, al:iphone:app_store_id and twitter:app:id:iphone, and the same iPad app in al:ipad:app_store_id and twitter:app:id:ipad.",
    ]

    /// TW003's 5 MB limit is checked when a crawl fetches the image (AssetChecks).
    package static let twitterAppLinksPartly: [RuleID: String] = [:]

    // UniversalLinkChecks
    package static let universalLinkPageFixHints: [RuleID: String] = [
        .ul020:
            "Add a components rule for this path to the app's applinks.details entry (before any broader exclude).",
        .ul021: "Check that the exclusion is intended; remove the exclude rule if the page should open the app.",
        .sab021: "Make app-argument a URL the app's AASA handles (or add a rule for it).",
    ]

    // UniversalLinkFileHints
    package static let universalLinkFilePartly = associationFilePartly

    package static let universalLinkFileFixHints: [RuleID: String] = [
        .ul001:
            "Serve the file at https://<host>/.well-known/apple-app-site-association with HTTP 200, to every client.",
        .ul002: "Move the file to /.well-known/apple-app-site-association (the root path is deprecated).",
        .ul003: "Serve the file without any redirect, from the exact host of the entitlement.",
        .ul004: "Serve the file over HTTPS with a valid, publicly trusted certificate.",
        .ul005: "Serve the file with Content-Type: application/json.",
        .ul006: "Make the file strict JSON: one object, no BOM, no comments, no trailing commas.",
        .ul007: "Keep the file under 128 KB uncompressed: merge patterns, use components with wildcards.",
        .ul008: "Serve the file unsigned (plain JSON); signing is deprecated.",
        .ul009: "Give applinks a details array of entries (the dictionary form is obsolete).",
        .ul010: "Add \"apps\": [] to applinks if the app supports iOS 12 or earlier.",
        .ul011: "Give each entry appIDs (or appID) of the form TEAMID.bundle.id, with the 10-character prefix.",
        .ul012: "Use appIDs only (an array), not appID and appIDs together.",
        .ul013: "Use components or paths in an entry, not both (paths is ignored on iOS 13+).",
        .ul014:
            "Use the documented types: strings for /, #, comment; a string or dictionary for ?; booleans for flags.",
        .ul015: "Use \"exclude\": true in components; in paths write \"NOT \" with its space.",
        .ul016: "Put narrower rules before broader ones: the first match wins.",
        .ul017: "Name variables without $, ( and ); define every $(name) used; do not nest variables.",
        .ul018: "Percent-encode non-ASCII characters in patterns, or set percentEncoded to false.",
        .ul019: "Add the app's ID (TEAMID.bundle.id, as in its application-identifier entitlement) to appIDs.",
        .ul022: "Keep only caseSensitive and percentEncoded in defaults.",
        .ul023: "Serve the same file to every User-Agent and region (no bot rules or WAF challenges on it).",
        .ul024: "Write entitlement entries as applinks:<host>, without scheme, port, path or trailing /.",
        .ul025: "Give each query item pattern as a string.",
    ]
}
