import Contracts
import OpenAPIKit

/// `WireSchema`s as OpenAPI schemas: every named object once under `components/schemas`,
/// referred to wherever it is used.
struct SchemaComponents {
    var schemas: OrderedDictionary<OpenAPI.ComponentKey, JSONSchema> = [:]

    mutating func schema(_ wire: WireSchema, required: Bool = true) -> JSONSchema {
        let schema: JSONSchema =
            switch wire {
            case .string: .string
            case .integer: .integer
            case .number: .number
            case .boolean: .boolean
            case .any: .fragment
            case .enumeration(let values): .string(allowedValues: values.map { AnyCodable($0) })
            case .array(let element): .array(items: schema(element))
            case .dictionary(let value): .object(additionalProperties: .b(schema(value)))
            case .reference(let name): .reference(.component(named: name))
            case .object(let name, let properties):
                register(name, properties)
            }
        guard !required else { return schema }
        // An optional key may be absent or null: the apps' decoders take both, and some answers
        // send null (`profileImage` of §8's User).
        switch wire {
        case .any: return schema.optionalSchemaObject()  // null included already
        case .reference, .object: return .any(of: [schema, .null()], core: .init(required: false))
        default: return schema.optionalSchemaObject().nullableSchemaObject()
        }
    }

    private mutating func register(_ name: String, _ properties: [WireSchema.Property]) -> JSONSchema {
        let key = OpenAPI.ComponentKey(rawValue: name)!
        if schemas[key] == nil {
            schemas[key] = .object  // a placeholder while its properties are converted (a type may contain itself)
            var converted: OrderedDictionary<String, JSONSchema> = [:]
            for property in properties { converted[property.key] = schema(property.schema, required: property.required) }
            schemas[key] = .object(properties: converted)
        }
        return .reference(.component(named: name))
    }
}
