import HTTPTypes
import NIOHTTP1

extension HTTPFields {
    /// NIO's header list in HTTP types' form, keeping the headers `keep` accepts (a name HTTP
    /// types refuses is dropped).
    package init(_ headers: HTTPHeaders, keeping keep: (String) -> Bool = { _ in true }) {
        self.init()
        reserveCapacity(headers.count)
        for (name, value) in headers where keep(name) {
            if let fieldName = HTTPField.Name(name) { append(HTTPField(name: fieldName, value: value)) }
        }
    }
}
