import AuthService
import ChatService
import Contracts
import GeoService
import Gateway
import MarketService
import PaymentVerifyService
import PushService
import ServiceKit

/// How to build each process; `glint serve <name>` runs one of these in its own process.
public enum ServiceCatalog {
    public static func builder(for service: ServiceName) -> ServiceMain.Builder {
        switch service {
        case .gateway: GatewayService.buildApplication
        case .auth: AuthService.buildApplication
        case .chat: ChatService.buildApplication
        case .market: MarketService.buildApplication
        case .geo: GeoService.buildApplication
        case .paymentVerify: PaymentVerifyService.buildApplication
        case .push: PushService.buildApplication
        }
    }
}

extension ServiceCatalog {
    /// Every environment variable a service process reads (README table and compose file are
    /// checked against this).
    public static func variables(for service: ServiceName) -> [ConfigVariable] {
        switch service {
        case .gateway: CommonSettings.all + GatewaySettings.all
        case .auth: CommonSettings.all + AuthSettings.all
        case .market: CommonSettings.all + MarketSettings.all
        case .chat: CommonSettings.all + ChatSettings.all
        case .geo: CommonSettings.all + GeoSettings.all
        case .paymentVerify: CommonSettings.all + PaymentSettings.all
        case .push: CommonSettings.all + PushSettings.all
        }
    }
}
