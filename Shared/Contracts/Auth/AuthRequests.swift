package struct EmailValidationRequest: Codable, Sendable {
    package var email: String

    package init(email: String) {
        self.email = email
    }
}

package struct JoinRequest: Codable, Sendable {
    package var email: String
    package var password: String
    package var nick: String
    package var phoneNum: String?
    package var birthDay: String?
    package var gender: String?
    package var info1: String?
    package var info2: String?
    package var info3: String?
    package var info4: String?
    package var info5: String?
    package var deviceToken: String?

    package init(
        email: String, password: String, nick: String, phoneNum: String? = nil, birthDay: String? = nil, gender: String? = nil,
        deviceToken: String? = nil
    ) {
        self.email = email
        self.password = password
        self.nick = nick
        self.phoneNum = phoneNum
        self.birthDay = birthDay
        self.gender = gender
        self.deviceToken = deviceToken
    }
}

package struct LoginRequest: Codable, Sendable {
    package var email: String
    package var password: String
    package var deviceToken: String?

    package init(email: String, password: String, deviceToken: String? = nil) {
        self.email = email
        self.password = password
        self.deviceToken = deviceToken
    }
}

package struct AppleLoginRequest: Codable, Sendable {
    package var idToken: String
    package var nick: String?
    package var deviceToken: String?

    package init(idToken: String, nick: String? = nil, deviceToken: String? = nil) {
        self.idToken = idToken
        self.nick = nick
        self.deviceToken = deviceToken
    }
}

package struct KakaoLoginRequest: Codable, Sendable {
    package var oauthToken: String
    package var deviceToken: String?

    package init(oauthToken: String, deviceToken: String? = nil) {
        self.oauthToken = oauthToken
        self.deviceToken = deviceToken
    }
}
