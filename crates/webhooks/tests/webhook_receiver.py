"""A webhook receiver that verifies every delivery with the official `standardwebhooks`
package (PyPI), so the gateway's signatures are checked by code we did not write.

Usage: webhook_receiver.py <whsec_secret>. Prints `{"port": N}` once listening, then one JSON
line per delivery: {"verified": bool, "error"?: str, "id", "type", "data"?}.
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

webhook = Webhook(sys.argv[1])


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        headers = {key.lower(): value for key, value in self.headers.items()}
        line = {"id": headers.get("webhook-id")}
        try:
            payload = webhook.verify(body, headers)
            line.update(verified=True, type=payload["type"], data=payload["data"],
                        timestamp=payload["timestamp"])
            self.send_response(200)
        except WebhookVerificationError as error:
            line.update(verified=False, error=str(error))
            self.send_response(401)
        self.end_headers()
        self.wfile.write(b"ok")
        print(json.dumps(line), flush=True)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Handler)
print(json.dumps({"port": server.server_address[1]}), flush=True)
server.serve_forever()
