import Contracts

// The hottest answers, keys in sorted order; `JSONCoding.encode` uses these for them. The feed (API.md §2):

extension PostAnswer: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("buyers"); writer.array(buyers)
        writer.key("category"); writer.string(category)
        writer.key("comments"); writer.array(comments)
        writer.key("content"); writer.string(content)
        writer.key("content1"); writer.string(content1)
        writer.key("content2"); writer.string(content2)
        writer.key("content3"); writer.string(content3)
        writer.key("content4"); writer.string(content4)
        writer.key("content5"); writer.string(content5)
        writer.key("createdAt"); writer.string(createdAt)
        writer.key("creator"); creator.write(to: &writer)
        if let distance { writer.key("distance"); writer.double(distance) }
        writer.key("files"); writer.array(files)
        writer.key("geolocation"); geolocation.write(to: &writer)
        writer.key("hashTags"); writer.array(hashTags)
        writer.key("is_public"); writer.bool(isPublic)
        writer.key("likes"); writer.array(likes)
        writer.key("likes2"); writer.array(likes2)
        writer.key("post_id"); writer.string(postID)
        writer.key("price"); writer.int(price)
        if let productID { writer.key("product_id"); writer.string(productID) }
        writer.key("title"); writer.string(title)
        writer.key("updatedAt"); writer.string(updatedAt)
        writer.objectEnd()
    }
}

extension CommentAnswer: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("comment_id"); writer.string(commentID)
        writer.key("content"); writer.string(content)
        writer.key("createdAt"); writer.string(createdAt)
        writer.key("creator"); creator.write(to: &writer)
        if let replies { writer.key("replies"); writer.array(replies) }
        writer.objectEnd()
    }
}

extension UserInfo: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("nick"); writer.string(nick)
        if let profileImage { writer.key("profileImage"); writer.string(profileImage) }
        writer.key("user_id"); writer.string(userID)
        writer.objectEnd()
    }
}

extension Geolocation: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("latitude"); writer.double(latitude)
        writer.key("longitude"); writer.double(longitude)
        writer.objectEnd()
    }
}

extension CursorPage: JSONWritable where Element: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("data"); writer.array(data)
        writer.key("next_cursor"); writer.string(nextCursor)
        writer.objectEnd()
    }
}

extension DataList: JSONWritable where Element: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("data"); writer.array(data)
        writer.objectEnd()
    }
}

// Token renewal (API.md §1), every app's most frequent write.
extension TokenPair: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("accessToken"); writer.string(accessToken)
        writer.key("refreshToken"); writer.string(refreshToken)
        writer.objectEnd()
    }
}

// Filter lists (§2) and chat lists (§3).
extension FilterSummary: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("buyer_count"); writer.int(buyerCount)
        writer.key("category"); writer.string(category)
        writer.key("createdAt"); writer.string(createdAt)
        writer.key("creator"); creator.write(to: &writer)
        writer.key("description"); writer.string(description)
        writer.key("files"); writer.array(files)
        writer.key("filter_id"); writer.string(filterID)
        writer.key("is_liked"); writer.bool(isLiked)
        writer.key("like_count"); writer.int(likeCount)
        writer.key("title"); writer.string(title)
        writer.key("updatedAt"); writer.string(updatedAt)
        writer.objectEnd()
    }
}

extension ChatAnswer: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("chat_id"); writer.string(chatID)
        writer.key("content"); writer.string(content)
        writer.key("createdAt"); writer.string(createdAt)
        writer.key("files"); writer.array(files)
        writer.key("room_id"); writer.string(roomID)
        writer.key("sender"); sender.write(to: &writer)
        writer.key("updatedAt"); writer.string(updatedAt)
        writer.objectEnd()
    }
}

extension ChatRoomAnswer: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("createdAt"); writer.string(createdAt)
        if let lastChat { writer.key("lastChat"); lastChat.write(to: &writer) }
        writer.key("participants"); writer.array(participants)
        writer.key("room_id"); writer.string(roomID)
        writer.key("updatedAt"); writer.string(updatedAt)
        writer.objectEnd()
    }
}

// chat-svc's push event, written into the outbox with every message.
extension ChatMessageEvent: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("app_id"); writer.string(appID)
        writer.key("chat_id"); writer.string(chatID)
        writer.key("content"); writer.string(content)
        writer.key("created_at"); writer.string(createdAt)
        writer.key("files"); writer.array(files)
        writer.key("present"); writer.array(present)
        writer.key("recipients"); writer.array(recipients)
        writer.key("room_id"); writer.string(roomID)
        writer.key("sender_id"); writer.string(senderID)
        writer.key("sender_nick"); writer.string(senderNick)
        writer.objectEnd()
    }
}
