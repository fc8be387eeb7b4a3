/// `FilterValues` of API.md §2: all optional numbers, each within its range.
package struct FilterValues: Codable, Sendable, Equatable {
    package var brightness: Double?
    package var exposure: Double?
    package var contrast: Double?
    package var saturation: Double?
    package var sharpness: Double?
    package var blur: Double?
    package var vignette: Double?
    package var noiseReduction: Double?
    package var highlights: Double?
    package var shadows: Double?
    package var temperature: Double?
    package var blackPoint: Double?

    package init(brightness: Double? = nil, exposure: Double? = nil, contrast: Double? = nil, saturation: Double? = nil, temperature: Double? = nil) {
        self.brightness = brightness
        self.exposure = exposure
        self.contrast = contrast
        self.saturation = saturation
        self.temperature = temperature
    }

    enum CodingKeys: String, CodingKey {
        case brightness, exposure, contrast, saturation, sharpness, blur, vignette, highlights, shadows, temperature
        case noiseReduction = "noise_reduction"
        case blackPoint = "black_point"
    }

    /// Every set value within API.md's range, or the name of the first one that is not.
    package var outOfRange: String? {
        let checks: [(String, Double?, ClosedRange<Double>)] = [
            ("brightness", brightness, -1...1), ("exposure", exposure, -10...10), ("contrast", contrast, 0...4),
            ("saturation", saturation, 0...2), ("sharpness", sharpness, 0...1), ("blur", blur, 0...100),
            ("vignette", vignette, 0...2), ("noise_reduction", noiseReduction, 0...1), ("highlights", highlights, -1...1),
            ("shadows", shadows, -1...1), ("temperature", temperature, 2000...10000), ("black_point", blackPoint, 0...1),
        ]
        return checks.first { _, value, range in value.map { !$0.isFinite || !range.contains($0) } ?? false }?.0
    }
}

/// `PhotoMetadata` of API.md §2 (all optional).
package struct PhotoMetadata: Codable, Sendable, Equatable {
    package var camera: String?
    package var lensInfo: String?
    package var focalLength: Double?
    package var aperture: Double?
    package var iso: Int?
    package var shutterSpeed: String?
    package var pixelWidth: Int?
    package var pixelHeight: Int?
    package var fileSize: Int?
    package var format: String?
    package var dateTimeOriginal: String?
    package var latitude: Double?
    package var longitude: Double?

    package init(camera: String? = nil, iso: Int? = nil) {
        self.camera = camera
        self.iso = iso
    }

    enum CodingKeys: String, CodingKey {
        case camera, aperture, iso, format, latitude, longitude
        case lensInfo = "lens_info"
        case focalLength = "focal_length"
        case shutterSpeed = "shutter_speed"
        case pixelWidth = "pixel_width"
        case pixelHeight = "pixel_height"
        case fileSize = "file_size"
        case dateTimeOriginal = "date_time_original"
    }
}

/// `FilterSummary` of API.md §2.
package struct FilterSummary: Codable, Sendable, Equatable {
    package var filterID: String
    package var category: String
    package var title: String
    package var description: String
    package var files: [String]
    package var creator: UserInfo
    package var isLiked: Bool
    package var likeCount: Int
    package var buyerCount: Int
    package var createdAt: String
    package var updatedAt: String

    package init(
        filterID: String, category: String, title: String, description: String, files: [String], creator: UserInfo,
        isLiked: Bool, likeCount: Int, buyerCount: Int, createdAt: String, updatedAt: String
    ) {
        self.filterID = filterID
        self.category = category
        self.title = title
        self.description = description
        self.files = files
        self.creator = creator
        self.isLiked = isLiked
        self.likeCount = likeCount
        self.buyerCount = buyerCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case filterID = "filter_id"
        case category, title, description, files, creator, createdAt, updatedAt
        case isLiked = "is_liked"
        case likeCount = "like_count"
        case buyerCount = "buyer_count"
    }
}

/// `FilterDetail`: the summary plus price, values, metadata, purchase state and comments.
package struct FilterDetail: Codable, Sendable, Equatable {
    package var summary: FilterSummary
    package var price: Int
    package var photoMetadata: PhotoMetadata?
    package var filterValues: FilterValues
    package var isDownloaded: Bool
    package var comments: [CommentAnswer]

    package init(
        summary: FilterSummary, price: Int, photoMetadata: PhotoMetadata?, filterValues: FilterValues, isDownloaded: Bool, comments: [CommentAnswer]
    ) {
        self.summary = summary
        self.price = price
        self.photoMetadata = photoMetadata
        self.filterValues = filterValues
        self.isDownloaded = isDownloaded
        self.comments = comments
    }

    enum CodingKeys: String, CodingKey {
        case price, photoMetadata, filterValues, comments
        case isDownloaded = "is_downloaded"
    }

    package init(from decoder: any Decoder) throws {
        summary = try FilterSummary(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        price = try container.decode(Int.self, forKey: .price)
        photoMetadata = try container.decodeIfPresent(PhotoMetadata.self, forKey: .photoMetadata)
        filterValues = try container.decode(FilterValues.self, forKey: .filterValues)
        isDownloaded = try container.decode(Bool.self, forKey: .isDownloaded)
        comments = try container.decode([CommentAnswer].self, forKey: .comments)
    }

    package func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(price, forKey: .price)
        try container.encodeIfPresent(photoMetadata, forKey: .photoMetadata)
        try container.encode(filterValues, forKey: .filterValues)
        try container.encode(isDownloaded, forKey: .isDownloaded)
        try container.encode(comments, forKey: .comments)
    }
}

/// `POST /v1/filters` (snake_case keys in the request) and `PUT` (all optional there).
package struct FilterRequest: Codable, Sendable {
    package var category: String?
    package var title: String?
    package var price: Int?
    package var description: String?
    package var files: [String]?
    package var photoMetadata: PhotoMetadata?
    package var filterValues: FilterValues?

    package init(
        category: String?, title: String?, price: Int?, description: String?, files: [String]?, photoMetadata: PhotoMetadata? = nil,
        filterValues: FilterValues?
    ) {
        self.category = category
        self.title = title
        self.price = price
        self.description = description
        self.files = files
        self.photoMetadata = photoMetadata
        self.filterValues = filterValues
    }

    enum CodingKeys: String, CodingKey {
        case category, title, price, description, files
        case photoMetadata = "photo_metadata"
        case filterValues = "filter_values"
    }
}
