import FileStorage
import ServiceKit

/// A record a reader wrote, with files of its own (a story's images, a theme's image).
protocol AuthoredRecord: Sendable {
    var appID: String { get }
    var userID: String { get }
    var files: [String] { get }
}

/// What stories and themes share: read by whoever it is visible to, removed by its author alone,
/// its files going once the store has forgotten it.
protocol AuthoredContent: Sendable {
    associatedtype Record: AuthoredRecord
    associatedtype Answer: Sendable

    /// What the API calls it, for messages ("story", "folder").
    static var noun: String { get }
    var images: FileStore { get }
    /// 400 for a malformed id, 404 for one the reader may not see.
    func visible(_ id: String, to reader: Reader) async throws -> Record
    func render(_ records: [Record], for reader: Reader) async throws -> [Answer]
    /// Removes it from the store.
    func forget(_ record: Record) async throws
}

extension AuthoredContent {
    func read(_ id: String, for reader: Reader) async throws -> Answer {
        try await render([try await visible(id, to: reader)], for: reader)[0]
    }

    func delete(_ id: String, by reader: Reader) async throws {
        let record = try await owned(id, by: reader)
        try await forget(record)
        for path in record.files { await images.remove(publicPath: path, appID: record.appID) }
    }

    /// The reader's own: 401 for a guest, 404 for what it may not see, 445 for another's.
    func owned(_ id: String, by reader: Reader) async throws -> Record {
        let userID = try reader.requireUser()
        let record = try await visible(id, to: reader)
        guard record.userID == userID else { throw ServiceError(.notPermitted, "not your \(Self.noun)") }
        return record
    }
}
