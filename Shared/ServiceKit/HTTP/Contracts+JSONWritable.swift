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

// A quotehub app's story pages (§9): the public page, a reader's, the search.
extension PageEnvelope: JSONWritable where Item: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("data"); writer.array(data)
        writer.key("message"); writer.string(message)
        writer.key("pagination"); pagination.write(to: &writer)
        writer.key("success"); writer.bool(success)
        writer.objectEnd()
    }
}

extension Pagination: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("currentPage"); writer.int(currentPage)
        writer.key("pageSize"); writer.int(pageSize)
        writer.key("totalItems"); writer.int(totalItems)
        writer.key("totalPages"); writer.int(totalPages)
        writer.objectEnd()
    }
}

extension QuotehubStory: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("_id"); writer.string(id)
        writer.key("bookId"); bookId.write(to: &writer)
        if let content { writer.key("content"); writer.string(content) }
        writer.key("createdAt"); writer.string(createdAt)
        writer.key("folderIds"); writer.array(folderIds)
        writer.key("isPublic"); writer.bool(isPublic)
        writer.key("keywords"); writer.array(keywords)
        writer.key("quotes"); writer.array(quotes)
        writer.key("storyImageURLs"); writer.array(storyImageURLs)
        writer.key("updatedAt"); writer.string(updatedAt)
        writer.key("userId"); userId.write(to: &writer)
        writer.objectEnd()
    }
}

extension QuotehubUser: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("_id"); writer.string(id)
        if let blockedUsers { writer.key("blockedUsers"); writer.array(blockedUsers) }
        writer.key("nickname"); writer.string(nickname)
        writer.key("profileImage"); writer.string(profileImage)
        if let statusMessage { writer.key("statusMessage"); writer.string(statusMessage) }
        writer.objectEnd()
    }
}

extension QuotehubBook: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("ISBN"); writer.array(isbn)
        writer.key("_id"); writer.string(id)
        writer.key("author"); writer.array(author)
        writer.key("bookImageURL"); writer.string(bookImageURL)
        writer.key("bookLink"); writer.string(bookLink)
        writer.key("introduction"); writer.string(introduction)
        writer.key("publicationDate"); writer.string(publicationDate)
        writer.key("publisher"); writer.string(publisher)
        writer.key("title"); writer.string(title)
        writer.key("translator"); writer.array(translator)
        writer.objectEnd()
    }
}

extension StoryQuote: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        if let page { writer.key("page"); writer.int(page) }
        writer.key("quote"); writer.string(quote)
        writer.objectEnd()
    }
}
