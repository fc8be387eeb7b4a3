/// `GET /v1/geo/reverse` (API.md §4): the legal (법정) 읍·면·동 at a point, in Kakao's "B" shape.
package struct ReverseGeocodeAnswer: Codable, Sendable, Equatable {
    package var regionType: String
    /// 시도, 시군구, 읍면동.
    package var region1: String
    package var region2: String
    package var region3: String
    /// The 10-digit 법정동 code.
    package var code: String
    package var addressName: String

    package init(region1: String, region2: String, region3: String, code: String) {
        regionType = "B"
        (self.region1, self.region2, self.region3, self.code) = (region1, region2, region3, code)
        addressName = [region1, region2, region3].filter { !$0.isEmpty }.joined(separator: " ")
    }

    enum CodingKeys: String, CodingKey {
        case regionType = "region_type"
        case region1 = "region_1depth_name"
        case region2 = "region_2depth_name"
        case region3 = "region_3depth_name"
        case code
        case addressName = "address_name"
    }
}
