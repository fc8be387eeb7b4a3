/// `PUT /profile` as JSON (API.md §9); the multipart form has the same fields plus `profileImage`.
package struct ProfileEdit: Codable, Sendable {
    package var nickname: String?
    package var statusMessage: String?

    package init(nickname: String? = nil, statusMessage: String? = nil) {
        (self.nickname, self.statusMessage) = (nickname, statusMessage)
    }
}
