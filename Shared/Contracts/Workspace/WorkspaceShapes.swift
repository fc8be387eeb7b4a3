/// API.md §8's workspace shapes. Keys the section gives as "string or null" are always encoded
/// (null when unset); keys marked optional are left out when unset.

/// **Workspace**: `description` null when none, `coverImage` never null.
package struct WorkspaceAnswer: Codable, Sendable, Equatable {
    package var workspaceID: String
    package var name: String
    package var description: String?
    package var coverImage: String
    package var ownerID: String
    package var createdAt: String

    package init(workspaceID: String, name: String, description: String?, coverImage: String, ownerID: String, createdAt: String) {
        (self.workspaceID, self.name, self.description, self.coverImage, self.ownerID, self.createdAt) =
            (workspaceID, name, description, coverImage, ownerID, createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case workspaceID = "workspace_id"
        case ownerID = "owner_id"
        case name, description, coverImage, createdAt
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(workspaceID, forKey: .workspaceID)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(coverImage, forKey: .coverImage)
        try container.encode(ownerID, forKey: .ownerID)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// `GET /workspaces/{wid}`: the workspace with its channels and members.
package typealias WorkspaceDetail = Merged<WorkspaceAnswer, WorkspaceContents>

package struct WorkspaceContents: Codable, Sendable, Equatable {
    package var channels: [ChannelAnswer]
    package var workspaceMembers: [SlpUser]

    package init(channels: [ChannelAnswer], workspaceMembers: [SlpUser]) {
        (self.channels, self.workspaceMembers) = (channels, workspaceMembers)
    }
}

/// **Channel**.
package struct ChannelAnswer: Codable, Sendable, Equatable {
    package var channelID: String
    package var name: String
    package var description: String?
    package var coverImage: String?
    package var ownerID: String
    package var createdAt: String

    package init(channelID: String, name: String, description: String?, coverImage: String?, ownerID: String, createdAt: String) {
        (self.channelID, self.name, self.description, self.coverImage, self.ownerID, self.createdAt) =
            (channelID, name, description, coverImage, ownerID, createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case channelID = "channel_id"
        case ownerID = "owner_id"
        case name, description, coverImage, createdAt
    }
}

/// `GET /workspaces/{wid}/channels/{cid}`: the channel with its members.
package typealias ChannelDetail = Merged<ChannelAnswer, ChannelMembers>

package struct ChannelMembers: Codable, Sendable, Equatable {
    package var channelMembers: [SlpUser]

    package init(channelMembers: [SlpUser]) {
        self.channelMembers = channelMembers
    }
}

/// **ChannelChat**: `content` null when only files were sent; `files` always present.
package struct ChannelChatAnswer: Codable, Sendable, Equatable {
    package var channelID: String
    package var channelName: String
    package var chatID: String
    package var content: String?
    package var createdAt: String
    package var files: [String]
    package var user: SlpUser

    package init(channelID: String, channelName: String, chatID: String, content: String?, createdAt: String, files: [String], user: SlpUser) {
        (self.channelID, self.channelName, self.chatID, self.content, self.createdAt, self.files, self.user) =
            (channelID, channelName, chatID, content, createdAt, files, user)
    }

    enum CodingKeys: String, CodingKey {
        case channelID = "channel_id"
        case chatID = "chat_id"
        case channelName, content, createdAt, files, user
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channelID, forKey: .channelID)
        try container.encode(channelName, forKey: .channelName)
        try container.encode(chatID, forKey: .chatID)
        try container.encode(content, forKey: .content)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(files, forKey: .files)
        try container.encode(user, forKey: .user)
    }
}

/// **DMRoom**: `user` is the other person.
package struct DMRoomAnswer: Codable, Sendable, Equatable {
    package var roomID: String
    package var createdAt: String
    package var user: SlpUser

    package init(roomID: String, createdAt: String, user: SlpUser) {
        (self.roomID, self.createdAt, self.user) = (roomID, createdAt, user)
    }

    enum CodingKeys: String, CodingKey {
        case roomID = "room_id"
        case createdAt, user
    }
}

/// **DMChat**: `content` left out when only files were sent.
package struct DMChatAnswer: Codable, Sendable, Equatable {
    package var dmID: String
    package var roomID: String
    package var content: String?
    package var createdAt: String
    package var files: [String]
    package var user: SlpUser

    package init(dmID: String, roomID: String, content: String?, createdAt: String, files: [String], user: SlpUser) {
        (self.dmID, self.roomID, self.content, self.createdAt, self.files, self.user) = (dmID, roomID, content, createdAt, files, user)
    }

    enum CodingKeys: String, CodingKey {
        case dmID = "dm_id"
        case roomID = "room_id"
        case content, createdAt, files, user
    }
}

/// **Unreads**: `channel_id` and `name` for channels only.
package struct UnreadsAnswer: Codable, Sendable, Equatable {
    package var roomID: String
    package var channelID: String?
    package var name: String?
    package var count: Int

    package init(roomID: String, channelID: String? = nil, name: String? = nil, count: Int) {
        (self.roomID, self.channelID, self.name, self.count) = (roomID, channelID, name, count)
    }

    enum CodingKeys: String, CodingKey {
        case roomID = "room_id"
        case channelID = "channel_id"
        case name, count
    }
}
