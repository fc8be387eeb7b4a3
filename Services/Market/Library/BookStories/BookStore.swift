/// Books Kakao answered, per app.
protocol BookStore: Sendable {
    /// Stores each book (a known first ISBN keeps its id, its fields refreshed) in one
    /// transaction; answers them as stored, in order.
    func upsert(_ books: [BookRecord]) async throws -> [BookRecord]
    func books(ids: [String], appID: String) async throws -> [String: BookRecord]
    /// `count` of the app's books in an order that changes with `day` (today's books).
    func sample(appID: String, day: Int64, count: Int) async throws -> [BookRecord]
}
