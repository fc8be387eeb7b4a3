public struct EmailValidationRequest: Codable, Sendable {
    public var email: String

    public init(email: String) {
        self.email = email
    }
}

public struct JoinRequest: Codable, Sendable {
    public var email: String
    public var password: String
    public var nick: String
    public var phoneNum: String?
    public var birthDay: String?
    public var gender: String?
    public var info1: String?
    public var info2: String?
    public var info3: String?
    public var info4: String?
    public var info5: String?
    public var deviceToken: String?

    public init(email: String, password: String, nick: String, phoneNum: String? = nil, birthDay: String? = nil, gender: String? = nil, deviceToken: String? = nil) {
        self.email = email
        self.password = password
        self.nick = nick
        self.phoneNum = phoneNum
        self.birthDay = birthDay
        self.gender = gender
        self.deviceToken = deviceToken
    }
}

public struct LoginRequest: Codable, Sendable {
    public var email: String
    public var password: String
    public var deviceToken: String?

    public init(email: String, password: String, deviceToken: String? = nil) {
        self.email = email
        self.password = password
        self.deviceToken = deviceToken
    }
}

public struct AppleLoginRequest: Codable, Sendable {
    public var idToken: String
    public var nick: String?
    public var deviceToken: String?

    public init(idToken: String, nick: String? = nil, deviceToken: String? = nil) {
        self.idToken = idToken
        self.nick = nick
        self.deviceToken = deviceToken
    }
}

public struct KakaoLoginRequest: Codable, Sendable {
    public var oauthToken: String
    public var deviceToken: String?

    public init(oauthToken: String, deviceToken: String? = nil) {
        self.oauthToken = oauthToken
        self.deviceToken = deviceToken
    }
}
