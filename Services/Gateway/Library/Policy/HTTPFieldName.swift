import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    /// `SeSACKey` (also sent as `SesacKey`; header names are case-insensitive).
    static let sesacKey = HTTPField.Name("SeSACKey")!
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
}
