#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""pqt's own test server for reading Parquet over HTTP (docs/remote.md, TESTING.md).

Serves a directory on 127.0.0.1 with Range support (a-b, a-, suffix -n; keep-alive, so one
connection carries many requests; several ranges in one header are answered 200 with the
whole file, as a server may), logs every request as one JSON line before answering it, and
injects faults on demand. It prints "PORT <n>" once it listens.

    http_server.py --root DIR --log FILE [--port 0] [--s3 ACCESS:SECRET[:REGION[:TOKEN]]]...
                   [--public] [--bucket-region BUCKET:REGION]...

With --s3 the root's folders are buckets, addressed path style (/BUCKET/KEY), and the server
is S3 as far as pqt needs it (tests/remote/s3_verify.py): every request's SigV4 signature is
checked against the credentials of its access key (403 and an S3 <Error> document otherwise;
a request without Authorization is served only with --public), GET /BUCKET?list-type=2 is a
ListObjectsV2 page, and a bucket given a region by --bucket-region answers a request signed
for another region as S3 does (301 unsigned, 400 signed, x-amz-bucket-region). Each log line
then also says whether the request was signed ("auth"), verified ("ok") and why not ("why").
The faults below apply to S3 requests too (listings included), after the signature check.

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
        rec.update(getattr(self, "s3_log", {}))
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

    def s3_check(self, url):
        """The S3 checks before anything is served: the bucket's region, then the signature.
        False when the refusal was sent."""
        s3 = self.server.s3
        auth = self.headers.get("Authorization")
        self.s3_log = {"auth": auth is not None, "ok": False, "why": ""}
        bucket = urllib.parse.unquote(url.path).lstrip("/").split("/", 1)[0]
        region = self.server.bucket_regions.get(bucket)
        cred = auth.split("Credential=", 1)[-1].split("/") if auth else []
        asked = cred[2] if len(cred) > 2 else None
        if region is not None and asked != region:
            self.s3_log["why"] = "wrong region"
            if auth is None:
                status, body = s3.error(301, "PermanentRedirect", "use the bucket's endpoint")
            else:
                status, body = s3.error(400, "AuthorizationHeaderMalformed",
                                        "the region '%s' is wrong; expecting '%s'" % (asked, region))
            self.send_xml(status, body, [("x-amz-bucket-region", region)])
            return False
        if auth is None:
            why = "" if self.server.public else "AccessDenied: an anonymous request"
        elif cred[0] not in self.server.s3_creds:
            why = "InvalidAccessKeyId: unknown access key %r" % cred[0]
        else:
            ok, why = s3.check_signature(self.command, url.path, url.query, self.headers,
                                         self.server.s3_creds[cred[0]], now=time.time())
            why = "" if ok else "SignatureDoesNotMatch: " + why
        self.s3_log.update(ok=not why, why=why)
        if why:
            self.send_xml(*s3.error(403, why.split(":", 1)[0], why))
            return False
        return True

    def send_xml(self, status, body, extra=()):
        self.log_json(status, sent=len(body))
        self.send_response(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

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
        s3 = self.server.s3
        if s3 is not None and not self.s3_check(url):
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
        parts = urllib.parse.unquote(path).lstrip("/").split("/", 1)
        if s3 is not None and (len(parts) == 1 or parts[1] == ""):  # a bucket: its listing
            self.send_xml(*s3.list_objects_v2(self.server.root, parts[0], url.query))
            return
        local = os.path.join(self.server.root, urllib.parse.unquote(path).lstrip("/"))
        real = os.path.normpath(local)  # symbolic links inside the root are followed
        if not real.startswith(self.server.root + os.sep) or not os.path.isfile(real):
            if s3 is not None:
                self.send_xml(*s3.error(404, "NoSuchKey", "The specified key does not exist."))
            else:
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
    ap.add_argument("--s3", action="append", default=[],
                    help="ACCESS:SECRET[:REGION[:TOKEN]] (may repeat): be S3, verify SigV4")
    ap.add_argument("--public", action="store_true", help="--s3: serve unsigned requests too")
    ap.add_argument("--bucket-region", action="append", default=[],
                    help="BUCKET:REGION: --s3 requests for BUCKET must be signed for REGION")
    a = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    srv.daemon_threads = True
    srv.root = os.path.abspath(a.root)
    srv.log = open(a.log, "a")
    srv.log_lock = threading.Lock()
    srv.s3 = None
    srv.public = a.public
    srv.bucket_regions = dict(spec.split(":", 1) for spec in a.bucket_region)
    srv.s3_creds = {}
    if a.s3:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import s3_verify  # beside this file: the independent SigV4 check and the listing
        srv.s3 = s3_verify
        for spec in a.s3:
            f = spec.split(":")
            srv.s3_creds[f[0]] = {"access": f[0], "secret": f[1] if len(f) > 1 else "",
                                  "region": f[2] if len(f) > 2 and f[2] else "us-east-1",
                                  "token": f[3] if len(f) > 3 else None}
    print("PORT %d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
