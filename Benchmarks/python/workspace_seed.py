"""Seeds a workspace through the gateway with the workspace (slp) API, as the app would:
MEMBERS users join, the first buys a workspace and invites the others by email, creates channels
until there are CHANNELS, and MESSAGES messages are posted in each channel by MEMBERS_WRITING
members. The reader (the second user) then reads every channel (which joins it).
Prints one JSON line: workspace, channels, general, reader and poster tokens, and `after`
(the createdAt of the message posted half-way, for unread counts)."""
import json
import sys
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

gateway, key = sys.argv[1], sys.argv[2]
members, channels, messages, writing = (int(value) for value in sys.argv[3:7])
PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + bytes(64)


def call(method, path, token=None, body=None, content_type="application/json"):
    headers = {"SeSACKey": key}
    if token:
        headers["Authorization"] = token
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers["Content-Type"] = content_type
    request = urllib.request.Request(gateway + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"null")


def join(index):
    out = call("POST", "/v1/users/join", body={"email": f"m{index}@bench.example", "password": "bench123!", "nickname": f"m{index}"})
    return out["user_id"], out["token"]["accessToken"]


with ThreadPoolExecutor(8) as pool:
    users = list(pool.map(join, range(members)))
owner = users[0][1]
boundary = uuid.uuid4().hex
form = b"".join([
    f'--{boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nbench\r\n'.encode(),
    f'--{boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n\r\n'.encode(),
    f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="c.png"\r\nContent-Type: image/png\r\n\r\n'.encode(), PNG,
    f"\r\n--{boundary}--\r\n".encode(),
])
for attempt in range(40):
    # The signup coins reach the wallet through auth-svc's outbox: E21 until they have.
    try:
        workspace = call("POST", "/v1/workspaces", owner, form, f"multipart/form-data; boundary={boundary}")["workspace_id"]
        break
    except urllib.error.HTTPError as error:
        if b"E21" not in error.read() or attempt == 39:
            raise
        time.sleep(0.25)
with ThreadPoolExecutor(8) as pool:
    list(pool.map(lambda i: call("POST", f"/v1/workspaces/{workspace}/members", owner, {"email": f"m{i}@bench.example"}), range(1, members)))
    list(pool.map(lambda i: call("POST", f"/v1/workspaces/{workspace}/channels", owner, {"name": f"channel {i}"}), range(1, channels)))
channel_ids = [c["channel_id"] for c in call("GET", f"/v1/workspaces/{workspace}/channels", owner)]
general = channel_ids[0]


def post(index):
    channel = channel_ids[index % len(channel_ids)]
    token = users[index % writing][1]
    return call("POST", f"/v1/workspaces/{workspace}/channels/{channel}/chats", token, {"content": f"message {index}"})["createdAt"]


with ThreadPoolExecutor(8) as pool:
    stamps = list(pool.map(post, range(channels * messages)))
reader = users[1][1]
for channel in channel_ids:
    call("GET", f"/v1/workspaces/{workspace}/channels/{channel}/chats", reader)
print(json.dumps({"workspace": workspace, "channels": channel_ids, "general": general, "reader": reader,
                  "poster": users[2][1], "after": sorted(stamps)[len(stamps) // 2]}), flush=True)
