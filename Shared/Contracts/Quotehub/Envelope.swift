/// API.md §9's envelope: every answer of a quotehub app, errors included, is
/// `{success, message, data}`; `data` is always present (null when there is nothing).
package struct Envelope<Payload: Codable & Sendable>: Codable, Sendable {
    package var success: Bool
    package var message: String
    package var data: Payload?

    package init(success: Bool = true, message: String = "", data: Payload?) {
        (self.success, self.message, self.data) = (success, message, data)
    }

    enum CodingKeys: String, CodingKey {
        case success, message, data
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encode(message, forKey: .message)
        try container.encode(data, forKey: .data)
    }
}

/// A paginated answer: `data` a list, with its `pagination`. Errors on paginated routes have this
/// shape too (`data: []`): the client decodes the body before it looks at the status.
package struct PageEnvelope<Item: Codable & Sendable>: Codable, Sendable {
    package var success: Bool
    package var message: String
    package var data: [Item]
    package var pagination: Pagination

    package init(success: Bool = true, message: String = "", data: [Item], pagination: Pagination) {
        (self.success, self.message, self.data, self.pagination) = (success, message, data, pagination)
    }
}

/// Exact numbers: `totalItems` counted, `totalPages` = ⌈totalItems / pageSize⌉.
package struct Pagination: Codable, Sendable, Equatable {
    package var currentPage: Int
    package var totalPages: Int
    package var pageSize: Int
    package var totalItems: Int

    package init(currentPage: Int, pageSize: Int, totalItems: Int) {
        (self.currentPage, self.pageSize, self.totalItems) = (currentPage, pageSize, totalItems)
        totalPages = pageSize > 0 ? (totalItems + pageSize - 1) / pageSize : 0
    }
}

/// `data` of an answer that has nothing to say (`null`).
package struct NoPayload: Codable, Sendable, Equatable {
    package init() {}
}
