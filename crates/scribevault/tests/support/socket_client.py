"""A second Socket.IO client library (python-socketio) for the Rust end-to-end tests.

Usage: python3 socket_client.py <url> <userId> <token>
Connects over WebSocket, sends testMessage with an ack, prints JSON lines like the node client.
"""
import json
import sys

import socketio


def emit(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


url, user_id, token = sys.argv[1:4]
client = socketio.Client(reconnection=False)


@client.event
def connect():
    emit({"kind": "connect", "id": client.sid})


@client.event
def connect_error(data):
    emit({"kind": "connect_error", "message": (data or {}).get("message") if isinstance(data, dict) else str(data)})


@client.on("*")
def any_event(name, data):
    emit({"kind": "event", "name": name, "data": data})


try:
    client.connect(url, transports=["websocket"], auth={"userId": user_id, "token": token}, wait_timeout=10)
except socketio.exceptions.ConnectionError as error:
    emit({"kind": "connect_error", "message": str(error)})
    sys.exit(0)
reply = client.call("testMessage", {"message": "from python"}, timeout=10)
emit({"kind": "ack", "data": reply})
client.sleep(0.5)
client.disconnect()
