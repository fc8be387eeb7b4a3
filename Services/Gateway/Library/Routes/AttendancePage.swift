import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit

/// `GET /event-application` (API.md §7): the attendance page. Inside the app's WKWebView the
/// button asks the app (`click_attendance_button`), the app calls `requestAttendance(token)`,
/// the page posts the attendance and reports `complete_attendance` with `{attendanceCount}`. In
/// a plain browser the page shows a token field and does the same by itself. A second attendance
/// the same day (409) shows the already-attended state and disables the button.
enum AttendancePage {
    static func response(appKey: String?) -> Response {
        // The key is an app identifier, not a secret; it is embedded JSON-escaped, with `<`
        // escaped too so no value can close the script element.
        let keyLiteral = String(decoding: (try? JSONEncoder().encode(appKey ?? "")) ?? Data("\"\"".utf8), as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c")
        let html = template.replacingOccurrences(of: "__APP_KEY__", with: keyLiteral)
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'",
            ],
            body: .init(byteBuffer: .init(string: html))
        )
    }

    private static let template = """
        <!doctype html>
        <html lang="ko">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>출석 체크</title>
        <style>
        body { font-family: -apple-system, sans-serif; margin: 0; padding: 32px 20px; text-align: center; background: #111; color: #eee; }
        button { font-size: 18px; padding: 14px 28px; border: 0; border-radius: 12px; background: #f5c542; color: #111; }
        input { width: 100%; max-width: 420px; padding: 10px; margin: 8px 0; box-sizing: border-box; }
        #manual { display: none; margin-top: 24px; }
        #result { margin-top: 24px; font-size: 18px; min-height: 1.5em; }
        #result.attended { color: #9ad; }
        button:disabled { background: #555; color: #aaa; }
        </style>
        </head>
        <body>
        <h1>출석 체크</h1>
        <p>매일 출석하고 기록을 이어가세요.</p>
        <button id="attend" type="button">출석하기</button>
        <div id="manual">
          <input id="key" placeholder="SeSACKey">
          <input id="token" placeholder="access token">
        </div>
        <div id="result" role="status"></div>
        <script>
        (function () {
          var appKey = __APP_KEY__;
          var handlers = window.webkit && window.webkit.messageHandlers;
          var bridged = !!(handlers && handlers.click_attendance_button);
          var result = document.getElementById('result');
          if (!bridged) {
            document.getElementById('manual').style.display = 'block';
            if (appKey) { document.getElementById('key').style.display = 'none'; }
          }
          window.requestAttendance = function (token) {
            var key = appKey || document.getElementById('key').value;
            result.textContent = '…';
            return fetch('/v1/users/attendance', { method: 'POST', headers: { 'SeSACKey': key, 'Authorization': token } })
              .then(function (response) {
                return response.text().then(function (text) {
                  var body = {};
                  try { body = text ? JSON.parse(text) : {}; } catch (e) {}
                  if (response.status === 409) {
                    var already = new Error('오늘은 이미 출석했어요. 내일 다시 만나요!');
                    already.attended = true;
                    throw already;
                  }
                  if (!response.ok) { throw new Error(body.message || ('출석하지 못했습니다 (' + response.status + ')')); }
                  return body;
                });
              })
              .then(function (body) {
                result.textContent = body.attendanceCount + '번째 출석 완료!';
                result.className = 'done';
                if (handlers && handlers.complete_attendance) {
                  handlers.complete_attendance.postMessage({ attendanceCount: body.attendanceCount });
                }
                return body;
              })
              .catch(function (error) {
                result.textContent = error.message;
                result.className = error.attended ? 'attended' : 'failed';
                if (error.attended) { document.getElementById('attend').disabled = true; }
              });
          };
          document.getElementById('attend').addEventListener('click', function () {
            if (bridged) { handlers.click_attendance_button.postMessage('click'); }
            else { window.requestAttendance(document.getElementById('token').value); }
          });
        })();
        </script>
        </body>
        </html>
        """
}
