"""A released-app stand-in: python-socketio (the reference Python client) on one chat namespace.

usage: chat_client.py URL NAMESPACE TRANSPORTS [TOKEN] [APP_KEY]
Prints one line per happening for the Swift test to await: "connected <transport>",
"refused <reason>", "chat <transport> <json>" (then disconnects), "done".
"""
import json
import sys

import socketio

url, namespace, transports = sys.argv[1:4]
token = sys.argv[4] if len(sys.argv) > 4 else ""
key = sys.argv[5] if len(sys.argv) > 5 else ""
headers = {}
if key:
    headers["SeSACKey"] = key
if token:
    headers["Authorization"] = token

client = socketio.Client(reconnection=False)


@client.on("connect", namespace=namespace)
def connected():
    print("connected " + client.transport(), flush=True)


@client.on("connect_error", namespace=namespace)
def refused(data):
    print("refused " + json.dumps(data), flush=True)


@client.on("chat", namespace=namespace)
def chat(data):
    print("chat " + client.transport() + " " + json.dumps(data, ensure_ascii=False), flush=True)
    client.disconnect()


try:
    client.connect(url, headers=headers, transports=transports.split(","), namespaces=[namespace], wait_timeout=10)
except socketio.exceptions.ConnectionError as error:
    print("refused " + str(error), flush=True)
    sys.exit(0)
client.wait()
print("done", flush=True)
