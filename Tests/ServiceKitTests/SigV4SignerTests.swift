import FileStorage
import Foundation
import XCTest

/// Our S3 signing against AWS's published examples ("Signature Calculations for the
/// Authorization Header" and "Authenticating Requests: Using Query Parameters"), byte for byte:
/// the same key, bucket, object and moment must give the same canonical request and signature.
final class SigV4SignerTests: XCTestCase {
    static let signer = SigV4Signer(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
    static let moment = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    func testTheGetObjectExampleWithARange() {
        let request = SigV4Signer.Request(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", headers: [("Range", "bytes=0-9")])
        let headers = Self.signer.headers(for: request, payloadHash: SigV4Signer.emptyPayloadHash, at: Self.moment)
        XCTAssertEqual(SigV4Signer.emptyPayloadHash, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var signed = request
        signed.headers += [("x-amz-content-sha256", SigV4Signer.emptyPayloadHash), ("x-amz-date", "20130524T000000Z")]
        XCTAssertEqual(
            Self.signer.canonicalRequest(signed, payloadHash: SigV4Signer.emptyPayloadHash).0,
            """
            GET
            /test.txt

            host:examplebucket.s3.amazonaws.com
            range:bytes=0-9
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;range;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
        XCTAssertEqual(
            headers.first { $0.0 == "Authorization" }?.1,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        XCTAssertEqual(headers.first { $0.0 == "x-amz-date" }?.1, "20130524T000000Z")
    }

    func testThePresignedURLExample() {
        let query = Self.signer.presignedQuery(
            for: SigV4Signer.Request(method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt"), expires: 86_400, at: Self.moment)
        XCTAssertEqual(
            "https://examplebucket.s3.amazonaws.com/test.txt?" + query,
            "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z"
                + "&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    func testKeysAndQueriesAreEncodedAsS3Expects() {
        XCTAssertEqual(SigV4Signer.encode("market/app 1/posts/a+b.jpg", keepSlash: true), "market/app%201/posts/a%2Bb.jpg")
        XCTAssertEqual(SigV4Signer.encode("a/b~c"), "a%2Fb~c")
        XCTAssertEqual(SigV4Signer.canonicalQuery([("prefix", "x/"), ("list-type", "2"), ("max-keys", "10")]), "list-type=2&max-keys=10&prefix=x%2F")
        XCTAssertEqual(SigV4Signer.encode("한"), "%ED%95%9C")
        let url = S3BucketURL("http://127.0.0.1:9000/glint")
        XCTAssertEqual(url?.origin, "http://127.0.0.1:9000")
        XCTAssertEqual(url?.host, "127.0.0.1:9000")
        XCTAssertEqual(url?.path(of: "auth/app/profiles/x.png"), "/glint/auth/app/profiles/x.png")
        for bad in ["ftp://h/b", "http://h", "http://h/", "http://h/a/b", "not a url"] { XCTAssertNil(S3BucketURL(bad), bad) }
    }
}
