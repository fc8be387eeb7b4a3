import PaymentVerifyService
import ServiceKit

await ServiceMain.run(.paymentVerify, build: PaymentVerifyService.buildApplication)
