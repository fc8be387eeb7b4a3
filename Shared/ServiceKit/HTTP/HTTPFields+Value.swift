import HTTPTypes

extension HTTPFields {
    /// `self[name]` without its cost when the field comes once, as the internal headers and
    /// `Authorization` do: the subscript looks every field up, then joins the values it found
    /// through generic lazy sequences into a new string, six times per request in every service's
    /// middleware. A repeated field is answered as the subscript answers it (joined).
    package func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
