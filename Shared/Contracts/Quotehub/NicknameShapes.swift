/// `GET /auth/generate-nickname` (API.md §9).
package struct GeneratedNickname: Codable, Sendable, Equatable {
    package var nickname: String

    package init(nickname: String) {
        self.nickname = nickname
    }
}

/// `GET /auth/check-nickname`.
package struct NicknameAvailability: Codable, Sendable, Equatable {
    package var available: Bool

    package init(available: Bool) {
        self.available = available
    }
}
