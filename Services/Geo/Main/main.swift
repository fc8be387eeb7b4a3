import GeoService
import ServiceKit

await ServiceMain.run(.geo, assemble: GeoAssembly.assemble)
