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

// A profile (API.md §1), every app's profile screen, and the ids of the user's posts market-svc
// answers for it: `JSONEncoder` was 6.4% of auth-svc's CPU on a profile (Benchmarks/README, session 46).

extension ProfileAnswer: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("birthDay"); writer.string(birthDay)
        writer.key("description"); writer.string(description)
        writer.key("email"); writer.string(email)
        writer.key("followers"); writer.array(followers)
        writer.key("following"); writer.array(following)
        writer.key("gender"); writer.string(gender)
        writer.key("hashTags"); writer.array(hashTags)
        writer.key("info1"); writer.string(info1)
        writer.key("info2"); writer.string(info2)
        writer.key("info3"); writer.string(info3)
        writer.key("info4"); writer.string(info4)
        writer.key("info5"); writer.string(info5)
        writer.key("introduction"); writer.string(introduction)
        writer.key("name"); writer.string(name)
        writer.key("nick"); writer.string(nick)
        writer.key("phoneNum"); writer.string(phoneNum)
        writer.key("posts"); writer.array(posts)
        if let profileImage { writer.key("profileImage"); writer.string(profileImage) }
        writer.key("user_id"); writer.string(userID)
        writer.objectEnd()
    }
}

extension UserIDList: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("user_ids"); writer.array(userIDs)
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

/// A filter's page: the summary's keys and its own in one object, as its `encode(to:)` writes them.
extension FilterDetail: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("buyer_count"); writer.int(summary.buyerCount)
        writer.key("category"); writer.string(summary.category)
        writer.key("comments"); writer.array(comments)
        writer.key("createdAt"); writer.string(summary.createdAt)
        writer.key("creator"); summary.creator.write(to: &writer)
        writer.key("description"); writer.string(summary.description)
        writer.key("files"); writer.array(summary.files)
        writer.key("filterValues"); filterValues.write(to: &writer)
        writer.key("filter_id"); writer.string(summary.filterID)
        writer.key("is_downloaded"); writer.bool(isDownloaded)
        writer.key("is_liked"); writer.bool(summary.isLiked)
        writer.key("like_count"); writer.int(summary.likeCount)
        if let photoMetadata { writer.key("photoMetadata"); photoMetadata.write(to: &writer) }
        writer.key("price"); writer.int(price)
        writer.key("title"); writer.string(summary.title)
        writer.key("updatedAt"); writer.string(summary.updatedAt)
        writer.objectEnd()
    }
}

extension FilterValues: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        if let blackPoint { writer.key("black_point"); writer.double(blackPoint) }
        if let blur { writer.key("blur"); writer.double(blur) }
        if let brightness { writer.key("brightness"); writer.double(brightness) }
        if let contrast { writer.key("contrast"); writer.double(contrast) }
        if let exposure { writer.key("exposure"); writer.double(exposure) }
        if let highlights { writer.key("highlights"); writer.double(highlights) }
        if let noiseReduction { writer.key("noise_reduction"); writer.double(noiseReduction) }
        if let saturation { writer.key("saturation"); writer.double(saturation) }
        if let shadows { writer.key("shadows"); writer.double(shadows) }
        if let sharpness { writer.key("sharpness"); writer.double(sharpness) }
        if let temperature { writer.key("temperature"); writer.double(temperature) }
        if let vignette { writer.key("vignette"); writer.double(vignette) }
        writer.objectEnd()
    }
}

extension PhotoMetadata: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.objectStart()
        if let aperture { writer.key("aperture"); writer.double(aperture) }
        if let camera { writer.key("camera"); writer.string(camera) }
        if let dateTimeOriginal { writer.key("date_time_original"); writer.string(dateTimeOriginal) }
        if let fileSize { writer.key("file_size"); writer.int(fileSize) }
        if let focalLength { writer.key("focal_length"); writer.double(focalLength) }
        if let format { writer.key("format"); writer.string(format) }
        if let iso { writer.key("iso"); writer.int(iso) }
        if let latitude { writer.key("latitude"); writer.double(latitude) }
        if let lensInfo { writer.key("lens_info"); writer.string(lensInfo) }
        if let longitude { writer.key("longitude"); writer.double(longitude) }
        if let pixelHeight { writer.key("pixel_height"); writer.int(pixelHeight) }
        if let pixelWidth { writer.key("pixel_width"); writer.int(pixelWidth) }
        if let shutterSpeed { writer.key("shutter_speed"); writer.string(shutterSpeed) }
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
