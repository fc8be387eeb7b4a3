import Contracts

/// Regions → API.md's reverse-geocoding answer (the 10-digit code the apps expect: the legal
/// code and `00`).
enum RegionRenderer {
    static func answer(_ region: Region) -> ReverseGeocodeAnswer {
        ReverseGeocodeAnswer(region1: region.sido, region2: region.sigungu, region3: region.dong, code: region.code + "00")
    }
}
