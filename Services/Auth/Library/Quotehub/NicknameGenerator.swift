import ServiceKit

/// Nicknames QuoteHub offers a new reader: a readable Korean adjective and noun ("조용한고래"),
/// free in the app; after a few taken draws a number is added ("조용한고래27").
struct NicknameGenerator: Sendable {
    let users: any UserStore
    var random: @Sendable (Int) -> Int = { Int.random(in: 0..<$0) }

    static let adjectives = [
        "조용한", "푸른", "따뜻한", "느긋한", "반짝이는", "용감한", "다정한", "수줍은", "명랑한", "차분한",
        "부지런한", "엉뚱한", "포근한", "씩씩한", "지혜로운", "상냥한", "신비한", "싱그러운", "고요한", "활기찬",
    ]
    static let nouns = [
        "고래", "여우", "다람쥐", "부엉이", "고양이", "책벌레", "나무", "구름", "별빛", "바람",
        "수달", "펭귄", "사슴", "참새", "달팽이", "해바라기", "등대", "연필", "책갈피", "도서관",
    ]
    /// API.md §9: 2–12 characters.
    static let length = 2...12

    func generate(appID: String) async throws -> String {
        for attempt in 0..<20 {
            var nickname = Self.adjectives[random(Self.adjectives.count)] + Self.nouns[random(Self.nouns.count)]
            if attempt >= 5 { nickname += String(10 + random(90)) }
            if Self.length.contains(nickname.count), try await !users.isNickTaken(nickname, appID: appID) { return nickname }
        }
        throw ServiceError(.internalError, "no free nickname found")
    }

    /// A nickname a reader may choose: trimmed, 2–12 characters.
    static func check(_ nickname: String?) throws -> String {
        let trimmed = (nickname ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard length.contains(trimmed.count) else { throw ServiceError.badRequest("닉네임은 2~12자여야 합니다.") }
        return trimmed
    }
}
