import MarketService
import ServiceKit

await ServiceMain.run(.market, assemble: MarketAssembly.assemble)
