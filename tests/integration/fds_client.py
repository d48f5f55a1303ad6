#!/usr/bin/env python3
"""fds_client.py - half-open handshakes against `lit serve` (cli_fds.sh).

    fds_client.py PORT LOG

PORT: a server started with a low open-file limit (ulimit -n 64), on
127.0.0.1; LOG: its standard error. Raw TCP connections that never send a
byte, from loopback addresses only:
1. 20 from 127.0.0.1: the server keeps 8 (handshakes not over, per address)
   and closes the other 12 at once, saying so in the log;
2. the 8 kept are closed by the server when their handshake's time is up
   (5 s: none sooner than 4, nor later than 15), saying so;
3. 100 from 127.0.1.1 to .25 (4 an address: none refused) take every file
   handle: the log says so, once a second at most (no spinning: a handful
   of lines over two seconds);
4. they are closed, and a GET /healthz from 127.0.0.1 is answered 200.
Every wait is for a condition, with a generous deadline. Exit 0 when all
holds, else 1 with what did not.
"""
import re
import select
import socket
import sys
import time

PENDING_MAX = 8
HANDSHAKE_S = 5.0
DEADLINE_S = 60.0


def fail(what):
    print("FAIL: " + what, file=sys.stderr)
    sys.exit(1)


def log_lines(path):
    with open(path, errors="replace") as f:
        return f.read().splitlines()


def total(path, pattern):
    """The sum of the counts the log's lines matching pattern (a group: the
    count) say."""
    return sum(int(m.group(1)) for line in log_lines(path)
               for m in [re.match(pattern, line)] if m)


def until(what, condition, deadline=DEADLINE_S):
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            fail(what)
        time.sleep(0.05)


def open_from(addr, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((addr, 0))
    s.connect(("127.0.0.1", port))
    return s


def closed_by_server(s):
    """Whether the server has closed s (without waiting)."""
    r, _, _ = select.select([s], [], [], 0)
    if not r:
        return False
    try:
        return s.recv(16) == b""
    except OSError:
        return True


REFUSED = r"^serve: refused (\d+) connections? \(the last from 127\.0\.0\.1\): 8 handshakes from one address not over$"
EXPIRED = r"^serve: closed (\d+) connections?: no request in 5000 ms$"
FULL = r"^serve: accept: Too many open files \(errno 24\), (\d+) times?: new connections wait for a free file handle$"


def main():
    port, log = int(sys.argv[1]), sys.argv[2]

    # 1. beyond 8 handshakes from one address: closed at once
    start = time.monotonic()
    socks = [open_from("127.0.0.1", port) for _ in range(20)]
    until("the server closes 12 of 20 half-open connections from one address",
          lambda: sum(closed_by_server(s) for s in socks) >= 12)
    until("the log names the 12 refused",
          lambda: total(log, REFUSED) == 20 - PENDING_MAX)
    kept = [s for s in socks if s.fileno() >= 0 and not closed_by_server(s)]
    early = time.monotonic() - start < HANDSHAKE_S - 1
    if early and len(kept) != PENDING_MAX:
        fail(f"{len(kept)} half-open connections kept from one address, want {PENDING_MAX}")

    # 2. the kept ones: closed when their handshake's time is up
    until("the server closes half-open connections after the handshake's time",
          lambda: all(closed_by_server(s) for s in kept))
    waited = time.monotonic() - start
    if waited < HANDSHAKE_S - 1:
        fail(f"half-open connections closed after {waited:.2f} s, before their time")
    if waited > 3 * HANDSHAKE_S:  # libwebsockets' own timeout: 20 s and more
        fail(f"half-open connections closed after {waited:.2f} s: their time is {HANDSHAKE_S} s")
    until("the log names the connections timed out",
          lambda: total(log, EXPIRED) >= len(kept))
    for s in socks:
        s.close()

    # 3. every file handle taken: the log says so, and does not spin
    many = [open_from(f"127.0.1.{1 + i // 4}", port) for i in range(100)]
    until("the log says the server is out of file handles", lambda: total(log, FULL) > 0)
    before = len(log_lines(log))
    time.sleep(2.0)  # a window to count the lines in, not a wait for work
    grown = len(log_lines(log)) - before
    if grown > 12:
        fail(f"{grown} lines of log in 2 s out of file handles (spinning)")
    if total(log, REFUSED) != 20 - PENDING_MAX:
        fail("connections from 25 addresses, 4 each, were refused")

    # 4. handles free again: a client is served
    for s in many:
        s.close()
    t = time.monotonic()
    c = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE_S)
    c.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    answer = b""
    while True:
        chunk = c.recv(4096)
        if not chunk:
            break
        answer += chunk
    c.close()
    if not answer.startswith(b"HTTP/1.1 200 "):
        fail(f"GET /healthz after the flood: {answer[:80]!r}")
    print(f"ok: 12 refused at once, 8 timed out after {waited:.1f} s, "
          f"{grown} log lines in 2 s out of handles, served {time.monotonic() - t:.2f} s "
          f"after the flood closed")


main()
