"""A fake SMS gateway for the compose smoke test, speaking Twilio's Messages API wire format:
POST /2010-04-01/Accounts/{sid}/Messages.json, Basic auth (SID, auth token), form-encoded To,
From and Body, JSON answers (201 with the message, or an error with Twilio's code). Like Twilio it
refuses a message without From (error 21603), so a notifier that lost SAFEWALK_SMS_TEMPLATE fails.
Each accepted message is appended as one JSON line to /tmp/messages.jsonl, which the smoke test
reads. The same wire format as Tests/TestSupport/FakeSMSGatewayScript.swift (which runs on the
host's loopback for the Swift tests); this one listens on the compose network and keeps From.
    python3 fake_twilio.py PORT SID TOKEN
"""
import base64, json, sys, threading, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, SID, TOKEN = int(sys.argv[1]), sys.argv[2], sys.argv[3]
LOG = "/tmp/messages.jsonl"
lock = threading.Lock()
count = 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        print("[fake-sms] " + fmt % args, flush=True)

    def reply(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def error(self, status, code, message):
        print("[fake-sms] refused %d %d: %s" % (status, code, message), flush=True)
        self.reply(status, {"code": code, "message": message, "status": status,
                            "more_info": "https://www.twilio.com/docs/errors/%d" % code})

    def do_GET(self):
        if self.path == "/_health":
            return self.reply(200, {"ok": True})
        self.error(404, 20404, "The requested resource was not found")

    def do_POST(self):
        global count
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path != "/2010-04-01/Accounts/%s/Messages.json" % SID:
            return self.error(404, 20404, "The requested resource was not found")
        expected = "Basic " + base64.b64encode(("%s:%s" % (SID, TOKEN)).encode()).decode()
        if self.headers.get("Authorization", "") != expected:
            return self.error(401, 20003, "Authenticate")
        if not self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            return self.error(400, 21609, "Invalid Content-Type")
        form = urllib.parse.parse_qs(raw.decode(), keep_blank_values=True)
        to, sender, body = (form.get(k, [""])[0] for k in ("To", "From", "Body"))
        print("[fake-sms] To=%r From=%r Body=%r" % (to, sender, body), flush=True)
        if not to.startswith("+") or not to[1:].isdigit() or not 8 <= len(to) <= 16:
            return self.error(400, 21211, "The 'To' number %s is not a valid phone number." % to)
        if not sender:
            return self.error(400, 21603, "A 'From' phone number is required.")
        if not body:
            return self.error(400, 21602, "Message body is required.")
        with lock:
            count += 1
            sid = "SM%032d" % count
            with open(LOG, "a") as log:
                log.write(json.dumps({"sid": sid, "to": to, "from": sender, "body": body}) + "\n")
        self.reply(201, {"sid": sid, "account_sid": SID, "to": to, "from": sender, "body": body,
                         "status": "queued", "num_segments": "1", "error_code": None,
                         "error_message": None, "api_version": "2010-04-01"})


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("0.0.0.0", PORT), Handler).serve_forever()
