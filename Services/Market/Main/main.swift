import MarketService
import ServiceKit

await ServiceMain.run(.market, assemble: MarketService.assemble)
