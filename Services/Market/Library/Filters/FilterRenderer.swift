import Contracts
import ServiceKit

/// Filters as API.md §2 shapes them.
enum FilterRenderer {
    static func summary(_ record: FilterRecord, people: [String: UserInfoFull], stats: FilterStats) -> FilterSummary {
        FilterSummary(
            filterID: record.id, category: record.category, title: record.title, description: record.description, files: record.fileList,
            creator: people.info(record.creatorID),
            isLiked: stats.liked.contains(record.id), likeCount: stats.likes[record.id] ?? 0, buyerCount: stats.buyers[record.id] ?? 0,
            createdAt: GlintDate.string(fromMilliseconds: record.createdAt), updatedAt: GlintDate.string(fromMilliseconds: record.updatedAt)
        )
    }

    /// The buyer's view of a bought filter (`GET /v1/orders`).
    static func ordered(_ record: FilterRecord, creator: UserInfoFull) -> PaidOrderItem.Filter {
        .init(
            id: record.id, category: record.category, title: record.title, description: record.description, files: record.fileList,
            price: record.price, creator: creator, filterValues: record.values,
            createdAt: GlintDate.string(fromMilliseconds: record.createdAt), updatedAt: GlintDate.string(fromMilliseconds: record.updatedAt))
    }

    /// `GET /v1/filters/today-filter`: the introduction is the description's first line.
    static func today(_ record: FilterRecord) -> TodayFilterAnswer {
        TodayFilterAnswer(
            filterID: record.id, title: record.title,
            introduction: record.description.split(separator: "\n").first.map { String($0.prefix(100)) } ?? "",
            description: record.description, files: record.fileList,
            createdAt: GlintDate.string(fromMilliseconds: record.createdAt), updatedAt: GlintDate.string(fromMilliseconds: record.updatedAt)
        )
    }
}
