"""python-socketio as a long-lived client for the Rust end-to-end tests, like socket-client.cjs.

Usage: python3 socket_listener.py <url> <userId> <token> <transports>
<transports> is comma-separated (`polling`, `websocket`, or both). Prints one JSON object per
line: connect (with the transport in use), connect_error, event, ack. Reads commands from
stdin, one JSON object per line: {"emit": name, "data": ..., "ack": bool}; disconnects and
exits when stdin closes.
"""
import json
import sys
import threading

import socketio

url, user_id, token, transports = sys.argv[1:5]
client = socketio.Client(reconnection=False)
lock = threading.Lock()


def emit(value):
    with lock:
        sys.stdout.write(json.dumps(value) + "\n")
        sys.stdout.flush()


@client.event
def connect():
    emit({"kind": "connect", "id": client.sid, "transport": client.transport()})


@client.event
def connect_error(data):
    message = data.get("message") if isinstance(data, dict) else str(data)
    emit({"kind": "connect_error", "message": message})


@client.on("*")
def any_event(name, data):
    emit({"kind": "event", "name": name, "data": data})


try:
    client.connect(
        url,
        transports=transports.split(","),
        auth={"userId": user_id, "token": token},
        wait_timeout=10,
    )
except socketio.exceptions.ConnectionError as error:
    emit({"kind": "connect_error", "message": str(error)})
    sys.exit(0)

for line in sys.stdin:
    if not line.strip():
        continue
    command = json.loads(line)
    if command.get("ack"):
        reply = client.call(command["emit"], command.get("data"), timeout=10)
        emit({"kind": "ack", "data": reply})
    else:
        client.emit(command["emit"], command.get("data"))
client.disconnect()
