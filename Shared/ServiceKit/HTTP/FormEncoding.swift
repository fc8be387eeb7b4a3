import Foundation

/// `application/x-www-form-urlencoded` bodies (OAuth token endpoints): every byte but the
/// unreserved ones percent-encoded, pairs joined by `&`.
package enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Keys sorted, so a body is the same for the same form.
    package static func encode(_ form: [String: String]) -> String {
        form.sorted { $0.key < $1.key }.map { escape($0.key) + "=" + escape($0.value) }.joined(separator: "&")
    }

    package static func decode(_ body: String) -> [String: String] {
        var form: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let unescape = { (text: Substring) in String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            form[unescape(parts[0])] = parts.count > 1 ? unescape(parts[1]) : ""
        }
        return form
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
