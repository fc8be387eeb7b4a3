"""A released-app stand-in: python-socketio (the reference Python client) on one chat namespace.

usage: chat_client.py URL NAMESPACE TRANSPORTS [TOKEN] [APP_KEY] [EVENT] [COUNT]
Sends only the headers given (none at all, as Freeworkers does, when both are empty). Prints one
line per happening for the Swift test to await: "connected <transport>", "refused <reason>",
"<EVENT> <transport> <json>" (EVENT defaults to "chat"; after COUNT of them, 1 by default, it
disconnects), "done".

The asyncio client, not the threaded one: the threaded client hands each Engine.IO message to a
thread of its own, so two events arriving together could be printed out of the order the server
sent them; the asyncio client runs each handler in arrival order, as the apps' clients do.
"""
import asyncio
import json
import sys

import socketio

url, namespace, transports = sys.argv[1:4]
token = sys.argv[4] if len(sys.argv) > 4 else ""
key = sys.argv[5] if len(sys.argv) > 5 else ""
event = sys.argv[6] if len(sys.argv) > 6 else "chat"
count = int(sys.argv[7]) if len(sys.argv) > 7 else 1
received_count = 0
headers = {}
if key:
    headers["SeSACKey"] = key
if token:
    headers["Authorization"] = token

client = socketio.AsyncClient(reconnection=False)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


@client.on("connect", namespace=namespace)
def connected():
    say("connected " + client.transport())


@client.on("connect_error", namespace=namespace)
def refused(data):
    say("refused " + json.dumps(data))


async def received(data):
    global received_count
    say(event + " " + client.transport() + " " + json.dumps(data, ensure_ascii=False))
    received_count += 1
    if received_count == count:
        await client.disconnect()


client.on(event, received, namespace=namespace)


async def main():
    try:
        await client.connect(url, headers=headers, transports=transports.split(","), namespaces=[namespace], wait_timeout=10)
    except socketio.exceptions.ConnectionError as error:
        say("refused " + str(error))
        return
    await client.wait()
    say("done")


asyncio.run(main())
