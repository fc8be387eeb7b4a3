"""Signs an operator in for the console benchmark and chooses its password.

usage: console_session.py GATEWAY_URL EMAIL PASSWORD TOTP_SECRET
Prints the session cookie's value (glint_admin=…) on one line.
"""
import base64
import hashlib
import hmac
import json
import struct
import sys
import time
import urllib.request


def totp(secret):
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(time.time()) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def call(url, body, cookie=None, csrf=None):
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    if csrf:
        headers["X-CSRF-Token"] = csrf
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.headers.get("Set-Cookie"), json.load(answer)


gateway, email, password, secret = sys.argv[1:5]
set_cookie, session = call(gateway + "/admin/api/session", {"email": email, "password": password, "code": totp(secret)})
cookie = set_cookie.split(";")[0]
call(gateway + "/admin/api/session/password", {"currentPassword": password, "newPassword": "bench console password"}, cookie,
     session["csrfToken"])
print(cookie)
