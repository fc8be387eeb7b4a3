import Contracts
import GRDB
import ServiceKit

/// A book as Kakao answered it, stored once per app under its first ISBN (`isbnKey`; the link
/// for the rare book without one).
struct BookRecord: Sendable, Equatable {
    var id: String
    var appID: String
    var isbnKey: String
    var title: String
    var authors: [String]
    var translators: [String]
    var introduction: String
    var publisher: String
    var publicationDate: String
    var imageURL: String
    var link: String
    var isbns: [String]
    var updatedAt: Int64

    /// Kakao's document; nil for one that names neither an ISBN nor a link (nothing to key it by).
    init?(kakao document: KakaoBookClient.Page.Document, appID: String, at time: Int64) {
        let isbns = (document.isbn ?? "").split(separator: " ").map(String.init)
        guard let key = isbns.first ?? document.url.flatMap({ $0.isEmpty ? nil : "url:" + $0 }) else { return nil }
        self.init(
            id: ObjectID.generate(), appID: appID, isbnKey: String(key.prefix(300)), title: document.title, authors: document.authors ?? [],
            translators: document.translators ?? [], introduction: document.contents ?? "", publisher: document.publisher ?? "",
            publicationDate: document.datetime ?? "", imageURL: document.thumbnail ?? "", link: document.url ?? "", isbns: isbns, updatedAt: time
        )
    }

    init(
        id: String, appID: String, isbnKey: String, title: String, authors: [String], translators: [String], introduction: String,
        publisher: String, publicationDate: String, imageURL: String, link: String, isbns: [String], updatedAt: Int64
    ) {
        (self.id, self.appID, self.isbnKey, self.title, self.authors, self.translators) = (id, appID, isbnKey, title, authors, translators)
        (self.introduction, self.publisher, self.publicationDate, self.imageURL) = (introduction, publisher, publicationDate, imageURL)
        (self.link, self.isbns, self.updatedAt) = (link, isbns, updatedAt)
    }

    init(row: Row) {
        self.init(
            id: row["id"], appID: row["app_id"], isbnKey: row["isbn_key"], title: row["title"], authors: JSONText.strings(row["authors"]) ?? [],
            translators: JSONText.strings(row["translators"]) ?? [], introduction: row["introduction"], publisher: row["publisher"],
            publicationDate: row["publication_date"], imageURL: row["image_url"], link: row["link"], isbns: JSONText.strings(row["isbns"]) ?? [],
            updatedAt: row["updated_at"]
        )
    }

    var answer: QuotehubBook {
        QuotehubBook(
            id: id, title: title, author: authors, translator: translators, introduction: introduction, publisher: publisher,
            publicationDate: publicationDate, bookImageURL: imageURL, bookLink: link, isbn: isbns)
    }
}
