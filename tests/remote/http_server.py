#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""pqt's own test server for reading Parquet over HTTP (docs/remote.md, TESTING.md).

Serves a directory on 127.0.0.1 with Range support (a-b, a-, suffix -n; keep-alive, so one
connection carries many requests; several ranges in one header are answered 200 with the
whole file, as a server may), logs every request as one JSON line before answering it, and
injects faults on demand. It prints "PORT <n>" once it listens.

    http_server.py --root DIR --log FILE [--port 0] [--s3 ACCESS:SECRET[:REGION]]

Faults are set through the control URL /_control?key=value&...; counts apply to the next
requests for files (control requests are not counted or logged):
    latency_ms=N           every answer waits N ms first
    fail503=K              the next K requests answer 503
    reset=K                the next K requests are closed without an answer
    short=K                the next K answers send half their body, then close
    ignore_range=0|1       answer 200 with the whole file to every request
    etag_change_after=K    after K more requests every file reports another ETag
    clear=1                all of the above off (the log is kept)
"""
import argparse
import email.utils
import json
import os
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE_LOCK = threading.Lock()
STATE = {}


def clear_state():
    STATE.update(latency_ms=0, fail503=0, reset=0, short=0, ignore_range=0,
                 etag_change_after=-1, etag_gen=0)


clear_state()


def take(key):
    """Consume one unit of fault `key`; True when this request gets it."""
    if STATE[key] > 0:
        STATE[key] -= 1
        return True
    return False


def parse_range(header, size):
    """(first, last) inclusive, None for no usable single range, 'bad' when unsatisfiable."""
    if not header or not header.startswith("bytes=") or "," in header:
        return None
    spec = header[6:].strip()
    first, _, last = spec.partition("-")
    try:
        if first == "":
            n = int(last)
            if n <= 0:
                return "bad"
            return (max(0, size - n), size - 1) if size > 0 else "bad"
        a = int(first)
        b = int(last) if last else size - 1
    except ValueError:
        return None
    if a >= size or b < a:
        return "bad"
    return (a, min(b, size - 1))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "pqt-test"

    def log_message(self, fmt, *args):  # the JSON log replaces stderr lines
        pass

    def log_json(self, status, first=None, last=None, sent=0, fault=None):
        """One line per request, written before the answer: bytes is what the body carries
        (a client that stops reading early receives less)."""
        rec = {"t": round(time.time(), 6), "method": self.command, "path": self.path,
               "range": self.headers.get("Range"), "status": status, "first": first,
               "last": last, "bytes": sent, "fault": fault}
        with self.server.log_lock:
            self.server.log.write(json.dumps(rec) + "\n")
            self.server.log.flush()

    def do_HEAD(self):
        self.serve(head=True)

    def do_GET(self):
        self.serve(head=False)

    def control(self, query):
        q = urllib.parse.parse_qs(query)
        with STATE_LOCK:
            if "clear" in q:
                clear_state()
            for k, v in q.items():
                if k in STATE and k != "etag_gen":
                    STATE[k] = int(v[0])
            body = json.dumps(STATE).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def s3_route(self, url):
        """Path-style S3 through tests/remote/s3_verify.py: a listing answered here, or the
        file path to serve (None when the answer was sent)."""
        s3 = self.server.s3
        query = url.query
        ok, why = s3.check_signature(self.command, url.path, query, dict(self.headers.items()),
                                     self.server.s3_creds)
        if not ok:
            self.send_error_body(403, why)
            return None
        parts = url.path.lstrip("/").split("/", 1)
        if "list-type=2" in query:
            status, xml = s3.list_objects_v2(self.server.root, parts[0], query)
            self.log_json(status, sent=len(xml))
            self.send_response(status)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(xml)))
            self.end_headers()
            self.wfile.write(xml)
            return None
        return url.path

    def send_error_body(self, status, text):
        body = (text + "\n").encode()
        self.log_json(status, sent=len(body))
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def serve(self, head):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/_control":
            self.control(url.query)
            return
        path = url.path
        if self.server.s3 is not None:
            path = self.s3_route(url)
            if path is None:
                return
        with STATE_LOCK:
            latency = STATE["latency_ms"]
            fault = ("503" if take("fail503") else "reset" if take("reset")
                     else "short" if take("short") else None)
            ignore = STATE["ignore_range"]
            if STATE["etag_change_after"] == 0:
                STATE["etag_gen"] += 1
                STATE["etag_change_after"] = -1
            elif STATE["etag_change_after"] > 0:
                STATE["etag_change_after"] -= 1
            gen = STATE["etag_gen"]
        if latency:
            time.sleep(latency / 1000.0)
        if fault == "reset":
            self.log_json(None, fault="reset")
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if fault == "503":
            self.send_error_body(503, "injected 503")
            return
        local = os.path.join(self.server.root, urllib.parse.unquote(path).lstrip("/"))
        real = os.path.normpath(local)  # symbolic links inside the root are followed
        if not real.startswith(self.server.root + os.sep) or not os.path.isfile(real):
            self.send_error_body(404, "not found")
            return
        st = os.stat(real)
        size = st.st_size
        rng = None if ignore else parse_range(self.headers.get("Range"), size)
        if rng == "bad":
            self.log_json(416)
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % size)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        first, last = rng if rng else (0, size - 1)
        n = last - first + 1 if size else 0
        todo = n // 2 if fault == "short" else n
        # logged before the answer, so a client that has it finds its line in the log
        self.log_json(206 if rng else 200, first, last, todo if not head else 0, fault)
        self.send_response(206 if rng else 200)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", '"%x-%x-%d"' % (size, st.st_mtime_ns, gen))
        self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
        if rng:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, size))
        self.send_header("Content-Length", str(n))
        self.end_headers()
        sent = 0
        if not head and n:
            try:
                with open(real, "rb") as f:
                    f.seek(first)
                    while sent < todo:
                        chunk = f.read(min(1 << 16, todo - sent))
                        if not chunk:
                            break
                        self.wfile.write(chunk)
                        sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading (it had what it wanted)
            if fault == "short":
                self.close_connection = True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--s3", help="ACCESS:SECRET[:REGION]: verify SigV4 (s3_verify.py)")
    a = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    srv.daemon_threads = True
    srv.root = os.path.abspath(a.root)
    srv.log = open(a.log, "a")
    srv.log_lock = threading.Lock()
    srv.s3 = None
    if a.s3:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        try:
            import s3_verify  # written beside this file for the S3 reader
        except ImportError as e:
            sys.exit("--s3: tests/remote/s3_verify.py is not importable: %s" % e)
        parts = a.s3.split(":")
        srv.s3 = s3_verify
        srv.s3_creds = {"access": parts[0], "secret": parts[1] if len(parts) > 1 else "",
                        "region": parts[2] if len(parts) > 2 else "us-east-1"}
    print("PORT %d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
