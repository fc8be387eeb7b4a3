import TestSupport

/// What §8 tests share: the shapes' keys and the bodies the app sends.
enum WorkspaceFixtures {
    static let workspaceKeys: Set<String> = ["workspace_id", "name", "description", "coverImage", "owner_id", "createdAt"]
    static let userKeys: Set<String> = ["user_id", "email", "nickname", "profileImage"]
    static let channelChatKeys: Set<String> = ["channel_id", "channelName", "chat_id", "content", "createdAt", "files", "user"]
    static let dmChatKeys: Set<String> = ["dm_id", "room_id", "content", "createdAt", "files", "user"]

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)

    /// `POST /workspaces` as the app builds it.
    static func workspaceForm(_ name: String, description: String = "", image: [UInt8]? = png) -> MultipartBody {
        var parts: [MultipartBody.Part] = [.field("name", name), .field("description", description)]
        if let image { parts.append(.file("image", filename: "cover.png", contentType: "image/png", bytes: image)) }
        return MultipartBody(parts: parts)
    }

    /// A message with files as the app sends it: `content` only when there is some, every file part
    /// named `files`, all with the same filename.
    static func messageForm(_ content: String?, files count: Int) -> MultipartBody {
        var parts: [MultipartBody.Part] = content.map { [.field("content", $0)] } ?? []
        for index in 0..<count { parts.append(.file("files", filename: "image.jpg", contentType: "image/png", bytes: png + [UInt8(index)])) }
        return MultipartBody(parts: parts)
    }
}
