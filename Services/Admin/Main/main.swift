import AdminService
import ServiceKit

await ServiceMain.run(.admin, assemble: AdminAssembly.assemble)
