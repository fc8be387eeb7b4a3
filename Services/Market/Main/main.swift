import MarketService
import ServiceKit

await ServiceMain.run(.market, build: MarketService.buildApplication)
