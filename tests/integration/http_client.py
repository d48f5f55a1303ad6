#!/usr/bin/env python3
"""http_client.py - the HTTP and WebSocket edge of `lit serve` over raw
sockets (tests/integration/cli_http.sh): methods (HEAD, 405 with Allow,
CONNECT), the Host a request names (DNS rebinding), binary frames.

Usage: http_client.py PORT CASE [NAME]
  methods  HEAD is GET's status and headers without the body; every other
           method is 405 with "allow: GET, HEAD" on every path, and closed;
           CONNECT too; a method lws does not know gets an answer and a close
  hosts    the Host of a request and of an upgrade: the loopback's names and
           NAME (a --host-name of the server) are served, any other is 403
           unknown_host, and no WebSocket opens
  binary   a binary frame, whole or the first fragment of a message, closes
           with 1003 "text_only"; a text frame is answered
  none     NAME is not served (a server without --host-name NAME)
  refusals a refused HEAD has no body; a refused upgrade has every answer's
           headers; an HTTP/2 :authority too long to read, or not ours, is
           403 and NAME's is served; an Origin with control bytes is refused
           (cli_http.sh reads the log's line)
  bound    a server listening on ADDR (--bind ADDR; the environment's
           LIT_HTTP_ADDR, where this client connects): Host ADDR:PORT is
           served, NAME is not
  slow     a client with a small receive buffer that does not read while
           bots play a whole game of 8 at a pace of 0 (the frames written at
           once as they are made: net.c's on_flush), then reads: every
           frame comes, in order, seq after seq, every event after the one
           before
  hold     a WebSocket held open until standard input closes

Every wait is on progress: a read of what the server sends, under a deadline
(DEADLINE seconds) far beyond what any machine needs. Prints the failures,
one a line, and exits 1 if there were any.
"""
import base64
import os
import socket
import struct
import sys

DEADLINE = 60
PORT = int(sys.argv[1])
ADDR = os.environ.get("LIT_HTTP_ADDR", "127.0.0.1")
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


def connect():
    s = socket.create_connection((ADDR, PORT), timeout=DEADLINE)
    return s


class Reader:
    """Bytes from a socket, read as they are needed."""

    def __init__(self, sock):
        self.sock, self.buf, self.eof = sock, b"", False

    def fill(self):
        data = self.sock.recv(65536)
        if not data:
            self.eof = True
        self.buf += data
        return bool(data)

    def take(self, n):
        while len(self.buf) < n:
            if not self.fill():
                raise EOFError("closed after %d of %d bytes" % (len(self.buf), n))
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def head(self):
        """An HTTP answer's status line and headers (names lowercased, in
        order), up to the blank line."""
        while b"\r\n\r\n" not in self.buf:
            if not self.fill():
                raise EOFError("closed in the headers: %r" % self.buf[:200])
        block, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = block.decode("latin-1").split("\r\n")
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.append((name.strip().lower(), value.strip()))
        return lines[0], headers

    def closed(self):
        """Whether the server closes the connection, with nothing more sent
        (up to the deadline)."""
        try:
            while self.fill():
                pass
        except socket.timeout:
            return False
        except ConnectionResetError:
            return not self.buf
        return not self.buf


def header(headers, name):
    values = [v for n, v in headers if n == name]
    return values[0] if len(values) == 1 else None


def request(method, path, host="127.0.0.1", extra=""):
    h = "Host: %s\r\n" % host if host is not None else ""
    return ("%s %s HTTP/1.1\r\n%s%s\r\n" % (method, path, h, extra)).encode()


def answer(r, label, head_only=False):
    """Reads one answer; returns (status line, headers, body)."""
    status, headers = r.head()
    n = header(headers, "content-length")
    if n is None:
        fail("%s: no single content-length: %r" % (label, headers))
        return status, headers, b""
    body = b"" if head_only else r.take(int(n))
    return status, headers, body


NOT_ALLOWED = b"method_not_allowed: GET and HEAD only\n"


def check_methods():
    paths = ["/", "/healthz", "/games/BCDFGHJKLMNPQRST.lit", "/nothing-here", "/app.js"]
    # HEAD: GET's status and headers, no body: the next answer on the same
    # connection follows the headers at once
    for path in paths:
        s = connect()
        s.sendall(request("GET", path) + request("HEAD", path) + request("GET", "/healthz"))
        r = Reader(s)
        gstatus, gheaders, gbody = answer(r, "GET " + path)
        hstatus, hheaders = r.head()
        if (hstatus, hheaders) != (gstatus, gheaders):
            fail("HEAD %s: %s %r, GET's: %s %r" % (path, hstatus, hheaders, gstatus, gheaders))
        if header(hheaders, "content-length") != str(len(gbody)):
            fail("HEAD %s: content-length %s, GET's body %d" %
                 (path, header(hheaders, "content-length"), len(gbody)))
        nstatus, _, nbody = answer(r, "GET /healthz after HEAD " + path)
        if nstatus != "HTTP/1.1 200 OK" or not nbody.startswith(b'{"ok":true'):
            fail("HEAD %s: a body followed its headers: %r" % (path, (nstatus + " ").encode() + nbody[:60]))
        s.close()
    # every other method: 405, allow, closed (its body is not read)
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]:
        for path in paths:
            label = "%s %s" % (method, path)
            s = connect()
            s.sendall(request(method, path, extra="Content-Length: 5\r\n") + b"hello")
            r = Reader(s)
            status, headers, body = answer(r, label)
            if status != "HTTP/1.1 405 Method Not Allowed":
                fail("%s: %s" % (label, status))
            if header(headers, "allow") != "GET, HEAD":
                fail("%s: allow %r" % (label, header(headers, "allow")))
            if header(headers, "connection") != "close":
                fail("%s: connection %r" % (label, header(headers, "connection")))
            if body != NOT_ALLOWED:
                fail("%s: body %r" % (label, body))
            if not r.closed():
                fail("%s: not closed after the 405" % label)
            s.close()
    # a request that sends a body, alone or behind another on the same
    # connection (pipelined): the one before it answered, it refused at
    # once (400 for a GET, 405 for another method), the connection closed
    # with its body unread; and the server answers the next connection (a
    # pipelined body had left the loop serving that connection's input for
    # ever, at full CPU, deaf to everything else and to SIGTERM)
    NO_BODY = b"bad_request: a request here sends no body\n"
    bodies = [("GET", "Content-Length: 3\r\n", b"abc"),
              ("GET", "Transfer-Encoding: chunked\r\n", b"3\r\nabc\r\n0\r\n\r\n"),
              ("GET", "Content-Length: 30\r\nTransfer-Encoding: chunked\r\n", b"0\r\n\r\n"),
              ("GET", "Content-Length: 3\r\n", b""),  # a body that never comes
              ("POST", "Content-Length: 3\r\n", b"abc"),
              ("DELETE", "Content-Length: 1\r\n", b"x")]
    for behind in [False, True]:
        for method, extra, data in bodies:
            label = "%s with %s%s" % (method, extra.strip(), " behind a GET" if behind else "")
            s = connect()
            s.sendall((request("GET", "/healthz") if behind else b"") +
                      request(method, "/healthz", extra=extra) + data)
            r = Reader(s)
            try:
                if behind:
                    status, _, body = answer(r, label + ": the first")
                    if status != "HTTP/1.1 200 OK" or not body.startswith(b'{"ok":true'):
                        fail("%s: the first answered %s %r" % (label, status, body[:40]))
                status, headers, body = answer(r, label)
            except (EOFError, socket.timeout) as e:
                fail("%s: no answer (%s)" % (label, e))
                s.close()
                continue
            want = ("HTTP/1.1 400 Bad Request", NO_BODY) if method == "GET" else \
                   ("HTTP/1.1 405 Method Not Allowed", NOT_ALLOWED)
            if (status, body) != want:
                fail("%s: %s %r" % (label, status, body))
            if header(headers, "connection") != "close":
                fail("%s: connection %r" % (label, header(headers, "connection")))
            r.closed() or fail("%s: not closed" % label)
            s.close()
            status, body = http_get("127.0.0.1")
            if status != "HTTP/1.1 200 OK":
                fail("%s: the next connection answered %s" % (label, status))
    # a POST to the WebSocket's path with an upgrade's headers: no WebSocket
    s = connect()
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(request("POST", "/", extra="Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n"
                      "Content-Length: 0\r\n" % key))
    r = Reader(s)
    status, headers, body = answer(r, "POST with an upgrade")
    if status != "HTTP/1.1 405 Method Not Allowed" or header(headers, "allow") != "GET, HEAD" \
       or body != NOT_ALLOWED:
        fail("POST with an upgrade: %s %r %r" % (status, headers, body))
    r.closed() or fail("POST with an upgrade: not closed after the 405")
    s.close()
    # CONNECT: lws makes it a raw socket; answered 405 and closed
    for target in ["127.0.0.1:%d" % PORT, "/"]:
        s = connect()
        s.sendall(("CONNECT %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (target, PORT)).encode())
        r = Reader(s)
        try:
            status, headers, body = answer(r, "CONNECT " + target)
        except (EOFError, socket.timeout) as e:
            fail("CONNECT %s: no answer (%s)" % (target, e))
            continue
        if status != "HTTP/1.1 405 Method Not Allowed" or header(headers, "allow") != "GET, HEAD" \
           or body != NOT_ALLOWED:
            fail("CONNECT %s: %s %r %r" % (target, status, headers, body))
        if not r.closed():
            fail("CONNECT %s: not closed after the 405" % target)
        s.close()
    # a method lws does not know: lws's own 403, closed; never a hang
    for method in ["TRACE", "BREW"]:
        s = connect()
        s.sendall(request(method, "/"))
        r = Reader(s)
        try:
            status, _, _ = answer(r, method)
            if status.split(" ")[1] != "403":
                fail("%s: %s" % (method, status))
            r.closed() or fail("%s: not closed" % method)
        except (EOFError, socket.timeout) as e:
            fail("%s: no answer (%s)" % (method, e))
        s.close()


def http_get(host, path="/healthz"):
    s = connect()
    s.sendall(request("GET", path, host=host))
    status, headers, body = answer(Reader(s), "GET %s (Host %r)" % (path, host))
    s.close()
    return status, body


def upgrade(host, origin=None, path="/"):
    """An upgrade to a WebSocket at path: (status line, reader, socket)."""
    s = connect()
    key = base64.b64encode(os.urandom(16)).decode()
    extra = ("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
             "Sec-WebSocket-Version: 13\r\n" % key)
    if origin:
        extra += "Origin: %s\r\n" % origin
    s.sendall(request("GET", path, host=host, extra=extra))
    r = Reader(s)
    status, headers = r.head()
    if status.startswith("HTTP/1.1 101"):
        return status, r, s
    n = header(headers, "content-length")
    body = r.take(int(n)) if n else b""
    return status + " " + body.decode("latin-1"), r, s


def frame(opcode, payload, fin=True):
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    else:
        head += bytes([0x80 | 126]) + struct.pack(">H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_frame(r):
    """(opcode, payload) of the server's next frame."""
    b0, b1 = r.take(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", r.take(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", r.take(8))[0]
    return b0 & 0x0F, r.take(n)


def read_text(r, label):
    """The next text frame (a JSON object), skipping none."""
    op, payload = read_frame(r)
    if op != 1:
        fail("%s: opcode %d, not a text frame: %r" % (label, op, payload[:80]))
    return payload


def read_close(r, label):
    """The close frame's (code, reason): the next frame (None, a frame that
    is no close)."""
    op, payload = read_frame(r)
    if op != 8:
        return None, "opcode %d: %r" % (op, payload[:80])
    code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
    return code, payload[2:].decode("utf-8", "replace")


def websocket_opens(host, origin, label, path="/"):
    status, r, s = upgrade(host, origin, path)
    if not status.startswith("HTTP/1.1 101"):
        fail("%s: %s" % (label, status))
        s.close()
        return
    welcome = read_text(r, label)
    if b'"type":"welcome"' not in welcome:
        fail("%s: the first frame: %r" % (label, welcome[:80]))
    s.close()


def check_hosts(name):
    port = str(PORT)
    served = ["127.0.0.1", "127.0.0.1:" + port, "localhost", "localhost:" + port,
              "LocalHost:" + port, "[::1]", "[::1]:" + port, name, name.upper() + ":443", None]
    for host in served:
        status, body = http_get(host)
        if status != "HTTP/1.1 200 OK" or not body.startswith(b'{"ok":true'):
            fail("GET /healthz, Host %r: %s %r" % (host, status, body))
    refused = ["evil.example", "evil.example:" + port, "127.0.0.1.evil.example",
               "localhost.evil.example:" + port, "evil.example:" + port + ":1",
               "localhost:http", "[::2]:" + port, "x" + name, "[::1"]
    for host in refused:
        for path in ["/healthz", "/"]:
            status, body = http_get(host, path)
            if status != "HTTP/1.1 403 Forbidden" or body != b"unknown_host\n":
                fail("GET %s, Host %r: %s %r" % (path, host, status, body))
    # the upgrade: a page of evil.example whose name points here
    for host, origin in [("evil.example", "http://evil.example"),
                         ("evil.example:" + port, "http://evil.example:" + port),
                         ("evil.example:" + port, None)]:
        status, r, s = upgrade(host, origin)
        if status != "HTTP/1.1 403 Forbidden unknown_host\n":
            fail("upgrade, Host %r, Origin %r: %r" % (host, origin, status))
        s.close()
    websocket_opens("127.0.0.1:" + port, None, "upgrade, Host 127.0.0.1:PORT")
    websocket_opens("localhost:" + port, "http://localhost:" + port, "upgrade, Host localhost:PORT")
    websocket_opens(name, "https://" + name, "upgrade, Host " + name)
    # the Origin check still holds under a name of ours
    status, r, s = upgrade("127.0.0.1:" + port, "http://evil.example")
    if status != "HTTP/1.1 403 Forbidden cross_origin\n":
        fail("upgrade, Origin evil.example: %r" % status)
    s.close()


def hpack_int(n, prefix):
    """HPACK's integer with a prefix of that many bits (RFC 7541, 5.1)."""
    top = (1 << prefix) - 1
    if n < top:
        return bytes([n])
    out, n = [top], n - top
    while n >= 128:
        out.append(n % 128 + 128)
        n //= 128
    return bytes(out + [n])


def h2_frame(kind, flags, stream, payload):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") \
        + payload


def h2_get(authority):
    """GET /healthz over HTTP/2 (an h2c upgrade) on stream 3 with that
    :authority (each header a literal, no Huffman): the body. libwebsockets
    now and then closes an h2c connection whose preface follows the 101 at
    once, before a frame of its own: such a connection is tried again."""
    for _ in range(50):
        try:
            return h2_get_once(authority)
        except EOFError as e:
            if "after 0 of 9" not in str(e):
                raise
    fail("h2c: every connection closed before a frame")
    return b""


def h2_get_once(authority):
    s = connect()
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
              b"Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n")
    r = Reader(s)
    status, _ = r.head()
    if not status.startswith("HTTP/1.1 101"):
        fail("h2c: the upgrade answered %r" % status)
        return b""
    block = b""
    for name, value in [(":method", "GET"), (":scheme", "http"), (":path", "/healthz"),
                        (":authority", authority)]:
        block += b"\x00" + hpack_int(len(name), 7) + name.encode() + \
            hpack_int(len(value), 7) + value.encode()
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + h2_frame(4, 0, 0, b""))
    sent = False
    body = b""
    while True:
        head = r.take(9)
        if not sent and head[3] == 4:  # the server's SETTINGS: its side is up
            s.sendall(h2_frame(1, 0x5, 3, block))
            sent = True
        n, kind, flags = int.from_bytes(head[:3], "big"), head[3], head[4]
        stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
        payload = r.take(n)
        if stream == 3 and kind == 0:
            body += payload
        if stream == 3 and flags & 1 and kind in (0, 1):
            s.close()
            return body


def check_refusals(name):
    """What a refusal carries and says: a HEAD's refusal has no body (the
    next answer on the connection follows its headers); a refused upgrade
    has every answer's headers; an HTTP/2 :authority too long to read names
    nothing of ours; an Origin refused is logged as printable ASCII only."""
    port = str(PORT)
    s = connect()
    s.sendall(request("HEAD", "/", host="evil.example") +
              request("GET", "/healthz", host="127.0.0.1:" + port))
    r = Reader(s)
    status, headers = r.head()
    if status != "HTTP/1.1 403 Forbidden" or header(headers, "content-length") != "13":
        fail("HEAD, Host evil.example: %s %r" % (status, headers))
    nstatus, _, nbody = answer(r, "GET /healthz after a refused HEAD")
    if nstatus != "HTTP/1.1 200 OK" or not nbody.startswith(b'{"ok":true'):
        fail("a refused HEAD sent its body: %r" % ((nstatus + " ").encode() + nbody[:60]))
    s.close()
    s = connect()
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(request("GET", "/", host="evil.example", extra=(
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
        "Sec-WebSocket-Version: 13\r\n" % key)))
    status, headers = Reader(s).head()
    for h, want in [("x-content-type-options", "nosniff"), ("referrer-policy", "no-referrer")]:
        if header(headers, h) != want:
            fail("a refused upgrade: %s %r, want %r (%s)" % (h, header(headers, h), want, status))
    if not (header(headers, "content-security-policy") or "").startswith("default-src 'none'"):
        fail("a refused upgrade: no content-security-policy: %r" % headers)
    s.close()
    for authority, want in [(name, b'{"ok":true'), ("evil.example", b"unknown_host\n"),
                            ("evil.example" + "x" * 300, b"unknown_host\n")]:
        body = h2_get(authority)
        if not body.startswith(want):
            fail("h2c, :authority %r: %r" % (authority[:20], body[:40]))
    status, r, s = upgrade("127.0.0.1:" + port, "http://a\x1b[31mRED\x07")
    if status != "HTTP/1.1 403 Forbidden cross_origin\n":
        fail("upgrade, an Origin with control bytes: %r" % status)
    s.close()


def check_none(name):
    status, body = http_get(name)
    if status != "HTTP/1.1 403 Forbidden" or body != b"unknown_host\n":
        fail("GET /healthz, Host %r (no --host-name): %s %r" % (name, status, body))
    status, r, s = upgrade(name, "https://" + name)
    if status != "HTTP/1.1 403 Forbidden unknown_host\n":
        fail("upgrade, Host %r (no --host-name): %r" % (name, status))
    s.close()


def check_binary():
    # the WebSocket's routable path (docs/SCALING.md): the same as /
    websocket_opens("127.0.0.1:%d" % PORT, None, "an upgrade at /room/CODE", "/room/BCDFGH")
    lobby = b'{"type":"lobby"}'
    # a whole binary frame, then a binary message's first fragment
    for label, frames in [("binary frame", [frame(2, lobby)]),
                          ("binary fragment", [frame(2, lobby[:5], fin=False)])]:
        status, r, s = upgrade("127.0.0.1:%d" % PORT)
        if not status.startswith("HTTP/1.1 101"):
            fail("%s: %s" % (label, status))
            continue
        read_text(r, label + ": welcome")
        # a text frame is answered
        s.sendall(frame(1, lobby))
        if b'"type":"lobby"' not in read_text(r, label + ": text"):
            fail("%s: a text frame was not answered with the lobby" % label)
        for f in frames:
            s.sendall(f)
        code, reason = read_close(r, label)
        if (code, reason) != (1003, "text_only"):
            fail("%s: closed with %r %r, not 1003 text_only" % (label, code, reason))
        s.close()


def check_bound(name):
    status, body = http_get("%s:%d" % (ADDR, PORT))
    if status != "HTTP/1.1 200 OK" or not body.startswith(b'{"ok":true'):
        fail("GET /healthz, Host %s:PORT (--bind's): %s %r" % (ADDR, status, body))
    websocket_opens("%s:%d" % (ADDR, PORT), None, "upgrade, Host %s:PORT" % ADDR)
    check_none(name)


def check_slow():
    import json
    import time
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.settimeout(DEADLINE)
    s.connect((ADDR, PORT))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(request("GET", "/", host="127.0.0.1:%d" % PORT,
                      extra="Upgrade: websocket\r\nConnection: Upgrade\r\n"
                            "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n" % key))
    r = Reader(s)
    status, _ = r.head()
    if not status.startswith("HTTP/1.1 101"):
        fail("slow: upgrade: %s" % status)
        return

    def send(obj):
        s.sendall(frame(1, json.dumps(obj).encode()))

    def until(kind):
        while True:
            f = json.loads(read_text(r, "slow: waiting for " + kind))
            if f.get("type") == kind:
                return f
            if f.get("type") == "error":
                raise EOFError("an error: %r" % f)

    until("welcome")
    send({"type": "create", "name": "Sly", "players": 8, "bots": "basic", "pace_ms": 0})
    until("joined")
    send({"type": "stand"})
    send({"type": "fill"})
    send({"type": "start"})
    # nothing read while the bots play (a game of 8 basic bots at a pace
    # of 0 takes milliseconds): the frames pile up behind the socket
    time.sleep(2)
    seq, n, frames, over = None, 0, 0, False
    while not over:
        f = json.loads(read_text(r, "slow: after the pause"))
        frames += 1
        kind = f.get("type")
        if kind == "error":
            fail("slow: an error frame: %r" % f)
            return
        if "seq" in f and kind in ("room", "event", "game"):
            if seq is not None and kind != "game" and f["seq"] != seq + 1:
                fail("slow: %s frame's seq %d after %d" % (kind, f["seq"], seq))
                return
            seq = f["seq"]
        if kind == "event":
            if f["event"]["n"] != n + 1:
                fail("slow: event %d after %d" % (f["event"]["n"], n))
                return
            n = f["event"]["n"]
            over = f["state"]["phase"] == "over"
    if n < 50:
        fail("slow: a game of only %d events" % n)
    print("ok slow: %d frames, %d events, in order" % (frames, n))
    s.close()


def check_hold():
    """A WebSocket open until standard input closes (or DEADLINE), for the
    shell to look at the server's side of it."""
    status, r, s = upgrade("127.0.0.1:%d" % PORT)
    if not status.startswith("HTTP/1.1 101"):
        fail("hold: %s" % status)
        return
    read_text(r, "hold: welcome")
    print("open", flush=True)
    sys.stdin.read()
    s.close()


CASES = {"methods": check_methods, "hosts": check_hosts, "none": check_none,
         "refusals": check_refusals,
         "binary": check_binary, "bound": check_bound, "slow": check_slow,
         "hold": check_hold}
if len(sys.argv) < 3 or sys.argv[2] not in CASES:
    sys.exit(__doc__)
try:
    CASES[sys.argv[2]](*sys.argv[3:])
except (OSError, EOFError) as e:  # a timeout is an OSError
    fail("%s: stopped: %s: %s" % (sys.argv[2], type(e).__name__, e))
sys.exit(1 if failures else 0)
