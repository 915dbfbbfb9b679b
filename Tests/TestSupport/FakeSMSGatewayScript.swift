/// The fake gateway's program: a small Python HTTP server speaking Twilio's Messages API wire
/// format (`POST /2010-04-01/Accounts/{sid}/Messages.json`, form-encoded `To`, `From`, `Body`,
/// Basic auth, JSON error bodies with `code`, `message`, `more_info`, `status`), plus a webhook
/// receiver that checks the HMAC signature with Python's own `hmac` module, and `/_control`,
/// `/_stats` for the test. Like Twilio it calls a message's `StatusCallback` URL back with the
/// delivery status (`delivered`, or `undelivered` with error 30003 for numbers set undeliverable)
/// and can send an inbound text to a webhook (`/_inbound`), both form-encoded and signed with
/// `X-Twilio-Signature` (HMAC-SHA1 of the URL and the sorted parameters, keyed with the auth
/// token). Python's `http.server` keeps it dependency-free.
enum FakeSMSGatewayScript {
    static let source = #"""
        import base64, hashlib, hmac, json, ssl, sys, threading, time, urllib.parse, urllib.request
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        PORT, SID, TOKEN, SECRET = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].encode()
        lock = threading.Lock()
        release = threading.Event()
        state = {"fail_next": 0, "fail_status": 500, "fail_until": 0.0, "hold": [], "requests": {}, "accepted": {},
                 "bodies": {}, "times": {}, "held": 0, "hooks": [], "order": [], "undeliverable": [],
                 "callbacks": [], "idempotent": False, "slow": {}, "answered": {}, "keys": {}, "replayed": 0}

        def twilio_signature(url, params):
            data = url + "".join(k + params[k] for k in sorted(params))
            return base64.b64encode(hmac.new(TOKEN.encode(), data.encode(), hashlib.sha1).digest()).decode()

        def signed_post(url, params):
            data = urllib.parse.urlencode(params).encode()
            request = urllib.request.Request(url, data=data, method="POST", headers={
                "Content-Type": "application/x-www-form-urlencoded", "User-Agent": "TwilioProxy/1.1",
                "X-Twilio-Signature": twilio_signature(url, params)})
            context = ssl._create_unverified_context() if url.startswith("https:") else None
            try:
                with urllib.request.urlopen(request, timeout=10, context=context) as response:
                    return response.status, response.read().decode()
            except urllib.error.HTTPError as e:
                return e.code, e.read().decode()
            except Exception as e:
                return 0, str(e)

        def call_back(url, sid, to, sender):
            with lock:
                bad = to in state["undeliverable"]
            params = {"AccountSid": SID, "ApiVersion": "2010-04-01", "From": sender, "MessageSid": sid,
                      "MessageStatus": "undelivered" if bad else "delivered", "SmsSid": sid,
                      "SmsStatus": "undelivered" if bad else "delivered", "To": to}
            if bad:
                params["ErrorCode"] = "30003"
            status, _ = signed_post(url, params)
            with lock:
                state["callbacks"].append({"url": url, "to": to, "status": params["MessageStatus"], "http": status})

        def error(status, code, message):
            return status, {"code": code, "message": message,
                            "more_info": "https://www.twilio.com/docs/errors/%d" % code, "status": status}

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args):
                pass

            def reply(self, status, payload):
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client went away (killed mid-request)

            def body(self):
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def do_GET(self):
                if self.path == "/_stats":
                    with lock:
                        return self.reply(200, {k: state[k] for k in ("requests", "accepted", "bodies", "times", "held", "hooks", "order", "callbacks", "keys", "replayed")})
                self.reply(*error(404, 20404, "The requested resource was not found"))

            def do_POST(self):
                raw = self.body()
                if self.path == "/_control":
                    command = json.loads(raw)
                    with lock:
                        for key in ("fail_next", "fail_status", "hold", "undeliverable", "idempotent", "slow"):
                            if key in command:
                                state[key] = command[key]
                        if "fail_for" in command:
                            state["fail_until"] = time.time() + command["fail_for"]
                    if command.get("release"):
                        release.set()
                    return self.reply(200, {"ok": True})
                if self.path == "/_inbound":
                    command = json.loads(raw)
                    params = {"AccountSid": SID, "ApiVersion": "2010-04-01", "Body": command["body"],
                              "From": command["from"], "MessageSid": "SM%032x" % int(time.time() * 1e6),
                              "NumMedia": "0", "NumSegments": "1", "SmsStatus": "received",
                              "To": command.get("to", "+15125550100")}
                    status, text = signed_post(command["url"], params)
                    return self.reply(200, {"status": status, "body": text})
                if self.path == "/hook":
                    expected = "sha256=" + hmac.new(SECRET, raw, hashlib.sha256).hexdigest()
                    valid = hmac.compare_digest(expected, self.headers.get("X-SafeWalk-Signature-256", ""))
                    with lock:
                        state["hooks"].append({"valid": valid, "escalation": self.headers.get("X-SafeWalk-Escalation"),
                                               "body": json.loads(raw)})
                    return self.reply(200 if valid else 401, {"ok": valid})
                if self.path != "/2010-04-01/Accounts/%s/Messages.json" % SID:
                    return self.reply(*error(404, 20404, "The requested resource was not found"))
                auth = self.headers.get("Authorization", "")
                if auth != "Basic " + base64.b64encode(("%s:%s" % (SID, TOKEN)).encode()).decode():
                    return self.reply(*error(401, 20003, "Authenticate"))
                if not self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
                    return self.reply(*error(400, 21609, "Invalid Content-Type"))
                form = urllib.parse.parse_qs(raw.decode(), keep_blank_values=True)
                to, body = form.get("To", [""])[0], form.get("Body", [""])[0]
                key = self.headers.get("Idempotency-Key")
                with lock:
                    state["requests"][to] = state["requests"].get(to, 0) + 1
                    state["keys"].setdefault(to, []).append(key)
                    # When told to honour keys (the IETF draft's Idempotency-Key): a repeat gets the first answer and sends nothing.
                    replay = state["answered"].get(key) if state["idempotent"] and key else None
                    if replay:
                        state["replayed"] += 1
                    state["order"].append(to)
                    held = to in state["hold"] and not replay
                    failing = not replay and (state["fail_next"] > 0 or time.time() < state["fail_until"])
                    if failing and state["fail_next"] > 0:
                        state["fail_next"] -= 1
                    if held:
                        state["held"] += 1
                if replay:
                    return self.reply(*replay)
                if held:
                    release.wait()
                    return self.reply(*error(503, 20503, "Service unavailable"))
                if failing:
                    return self.reply(*error(state["fail_status"], 20500, "An internal server error has occurred"))
                if not to.startswith("+") or not to[1:].isdigit() or not 8 <= len(to) <= 16:
                    return self.reply(*error(400, 21211, "The 'To' number %s is not a valid phone number." % to))
                if not body:
                    return self.reply(*error(400, 21602, "Message body is required."))
                with lock:
                    state["accepted"][to] = state["accepted"].get(to, 0) + 1
                    state["bodies"].setdefault(to, []).append(body)
                    state["times"].setdefault(to, []).append(time.time())
                    n = sum(state["accepted"].values())
                    answer = (201, {"sid": "SM%032d" % n, "account_sid": SID, "to": to, "from": form.get("From", [""])[0],
                                    "body": body, "status": "queued", "num_segments": "1", "error_code": None,
                                    "error_message": None, "api_version": "2010-04-01"})
                    if key:
                        state["answered"][key] = answer
                    slow = state["slow"].pop(to, 0)  # once: the next text to that number
                callback = form.get("StatusCallback", [""])[0]
                if callback:
                    threading.Thread(target=call_back, daemon=True,
                                     args=(callback, "SM%032d" % n, to, form.get("From", [""])[0])).start()
                if slow:
                    time.sleep(slow)  # taken, but answered late: the client may have given up
                self.reply(*answer)

        ThreadingHTTPServer.daemon_threads = True
        ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
        """#
}
