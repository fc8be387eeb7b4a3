import GeoService
import ServiceKit

await ServiceMain.run(.geo, build: GeoService.buildApplication)
