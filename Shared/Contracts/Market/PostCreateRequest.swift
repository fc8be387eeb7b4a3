/// `POST /v1/posts` body.
public struct PostCreateRequest: Codable, Sendable {
    public var category: String
    public var title: String
    public var price: Int?
    public var content: String
    public var content1: String?
    public var content2: String?
    public var content3: String?
    public var content4: String?
    public var content5: String?
    public var files: [String]?
    public var longitude: Double?
    public var latitude: Double?
    public var isPublic: Bool?

    public init(category: String, title: String, price: Int? = nil, content: String, files: [String]? = nil,
                longitude: Double? = nil, latitude: Double? = nil, isPublic: Bool? = nil) {
        self.category = category
        self.title = title
        self.price = price
        self.content = content
        self.files = files
        self.longitude = longitude
        self.latitude = latitude
        self.isPublic = isPublic
    }

    enum CodingKeys: String, CodingKey {
        case category, title, price, content, content1, content2, content3, content4, content5, files, longitude, latitude
        case isPublic = "is_public"
    }
}
