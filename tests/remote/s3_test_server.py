# SPDX-License-Identifier: Apache-2.0
"""s3_test_server.py - a minimal S3 on 127.0.0.1 for pqt's S3 tests: ROOT/BUCKET/KEY files,
path-style GET of objects (Range: bytes=A-B, A-, -N) and ListObjectsV2 (GET /BUCKET?list-type=2),
every signed request verified by s3_verify.check_signature. Python standard library only.

    python3 tests/remote/s3_test_server.py --root DIR [--s3 ACCESS:SECRET[:REGION[:TOKEN]]]...
                                           [--public] [--log FILE] [--bucket-region B:R]...

Prints the port it listens on (one line), then serves until killed. A request without an
Authorization header is answered only with --public (else 403 AccessDenied); a signed one must
verify against the credentials of its access key (else 403 SignatureDoesNotMatch). --log
appends one JSON line per request: method, path, query, auth (an Authorization header came),
ok, why, status. The HTTP helper's tests/remote/http_server.py takes over this role with its
own --s3 flag; this server stays as the S3 tests' own."""
import argparse
import json
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import s3_verify  # noqa: E402


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    cfg = None
    lock = threading.Lock()

    def log_message(self, fmt, *args):  # quiet: the JSON log is the record
        pass

    def record(self, status, auth, ok, why):
        if not self.cfg.log:
            return
        path, _, query = self.path.partition("?")
        line = json.dumps({"method": self.command, "path": path, "query": query, "auth": auth,
                           "ok": ok, "why": why, "status": status})
        with self.lock, open(self.cfg.log, "a") as f:
            f.write(line + "\n")

    def answer(self, status, body, ctype="application/xml", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, val in extra:
            self.send_header(k, val)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def authorize(self, path, query):
        """(an Authorization header came, the request may be served, why not)."""
        auth = self.headers.get("Authorization")
        if auth is None:
            if self.cfg.public:
                return False, True, ""
            return False, False, "AccessDenied"
        access = auth.split("Credential=", 1)[-1].split("/", 1)[0]
        creds = self.cfg.creds.get(access)
        if creds is None:
            return True, False, "InvalidAccessKeyId: unknown access key %r" % access
        ok, why = s3_verify.check_signature(self.command, path, query, self.headers, creds,
                                            now=time.time())
        return True, ok, "" if ok else "SignatureDoesNotMatch: " + why

    def wrong_region(self, path):
        """S3's answer to a request for a bucket of another region (--bucket-region), or None:
        301 unsigned, 400 AuthorizationHeaderMalformed signed, both naming the region in
        x-amz-bucket-region."""
        bucket = urllib.parse.unquote(path).lstrip("/").split("/", 1)[0]
        region = self.cfg.bucket_regions.get(bucket)
        auth = self.headers.get("Authorization")
        asked = auth.split("Credential=", 1)[-1].split("/")[2] if auth and "/" in auth else None
        if region is None or asked == region:
            return None
        if auth is None:
            status, body = s3_verify._error(301, "PermanentRedirect", "use the bucket's endpoint")
        else:
            status, body = s3_verify._error(400, "AuthorizationHeaderMalformed",
                                            "the region '%s' is wrong; expecting '%s'" % (asked, region))
        return status, body, auth is not None

    def do_GET(self):
        path, _, query = self.path.partition("?")
        moved = self.wrong_region(path)
        if moved:
            status, body, auth = moved
            self.record(status, auth, False, "wrong region")
            return self.answer(status, body, extra=[("x-amz-bucket-region",
                                                     self.cfg.bucket_regions[path.split("/")[1]])])
        auth, ok, why = self.authorize(path, query)
        if not ok:
            code = why.split(":", 1)[0]
            status, body = s3_verify._error(403, code, why)
            self.record(status, auth, False, why)
            return self.answer(status, body)
        parts = urllib.parse.unquote(path).lstrip("/").split("/", 1)
        bucket = parts[0]
        if len(parts) == 1 or parts[1] == "":
            status, body = s3_verify.list_objects_v2(self.cfg.root, bucket, query)
            self.record(status, auth, True, "")
            return self.answer(status, body)
        self.serve_object(bucket, parts[1], auth)

    do_HEAD = do_GET

    def serve_object(self, bucket, key, auth):
        full = os.path.realpath(os.path.join(self.cfg.root, bucket, *key.split("/")))
        inside = full.startswith(os.path.realpath(self.cfg.root) + os.sep)
        if not inside or ".." in key.split("/") or not os.path.isfile(full):
            status, body = s3_verify._error(404, "NoSuchKey", "The specified key does not exist.")
            self.record(status, auth, True, "")
            return self.answer(status, body)
        with open(full, "rb") as f:
            data = f.read()
        rng = self.headers.get("Range")
        status, extra = 200, []
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            n = len(data)
            lo, hi = (n - int(b), n - 1) if a == "" else (int(a), int(b) if b else n - 1)
            lo, hi = max(lo, 0), min(hi, n - 1)
            if lo > hi:
                status, body = s3_verify._error(416, "InvalidRange", "range not satisfiable")
                self.record(status, auth, True, "")
                return self.answer(status, body)
            extra = [("Content-Range", "bytes %d-%d/%d" % (lo, hi, n))]
            data, status = data[lo:hi + 1], 206
        self.record(status, auth, True, "")
        self.answer(status, data, "application/octet-stream", extra + [("ETag", '"e"')])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--s3", action="append", default=[],
                    help="ACCESS:SECRET[:REGION[:TOKEN]], may repeat")
    ap.add_argument("--public", action="store_true", help="answer unsigned requests too")
    ap.add_argument("--log")
    ap.add_argument("--bucket-region", action="append", default=[],
                    help="BUCKET:REGION, the region requests for BUCKET must be signed for")
    cfg = ap.parse_args()
    cfg.creds = {}
    for spec in cfg.s3:
        f = spec.split(":")
        cfg.creds[f[0]] = {"access": f[0], "secret": f[1],
                           "region": f[2] if len(f) > 2 and f[2] else "us-east-1",
                           "token": f[3] if len(f) > 3 else None}
    cfg.bucket_regions = dict(spec.split(":", 1) for spec in cfg.bucket_region)
    Handler.cfg = cfg
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
