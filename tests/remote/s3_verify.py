# SPDX-License-Identifier: Apache-2.0
"""s3_verify.py - the test servers' S3: an independent AWS Signature Version 4 check of a
request and a directory served as a bucket by ListObjectsV2. Python standard library only.

Written from the SigV4 specification (canonical request, string to sign, signing key,
signature), not from libcurl's code, so that a request pqt signs through libcurl is verified
by a second implementation; tests/remote/test_s3_verify.py proves this one against AWS's
published examples.

    check_signature(method, path, query, headers, creds, now=None) -> (ok, why)
    list_objects_v2(root_dir, bucket, query) -> (status, xml_bytes)
"""
import base64
import hashlib
import hmac
import os
import time
import urllib.parse
from xml.sax.saxutils import escape

ALGORITHM = "AWS4-HMAC-SHA256"
EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
MAX_SKEW = 15 * 60  # seconds S3 accepts between x-amz-date and its clock


def uri_encode(text, keep_slash):
    """Percent-encode every byte but A-Z a-z 0-9 - . _ ~ (and '/' when keep_slash)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    out = []
    for b in data:
        c = chr(b)
        if c.isascii() and (c.isalnum() or c in "-._~" or (keep_slash and c == "/")):
            out.append(c)
        else:
            out.append("%%%02X" % b)
    return "".join(out)


def canonical_uri(path):
    """S3 encodes the path once: decode what the client sent, encode it by the rule."""
    return uri_encode(urllib.parse.unquote_to_bytes(path or "/"), True)


def canonical_query(query):
    """Parameters decoded, encoded by the rule ('/' too), sorted by name then value; a name
    without '=' has the empty value."""
    pairs = []
    for part in (query or "").split("&"):
        if part == "":
            continue
        name, _, value = part.partition("=")
        name = uri_encode(urllib.parse.unquote_to_bytes(name), False)
        value = uri_encode(urllib.parse.unquote_to_bytes(value), False)
        pairs.append((name, value))
    pairs.sort()
    return "&".join("%s=%s" % p for p in pairs)


def _header_map(headers):
    """Lower-case name -> values joined by ',' (items of a dict, an HTTPMessage or pairs)."""
    items = headers.items() if hasattr(headers, "items") else headers
    out = {}
    for name, value in items:
        key = name.strip().lower()
        value = " ".join(str(value).split())  # trim, and runs of blanks become one
        out[key] = out[key] + "," + value if key in out else value
    return out


def canonical_request(method, path, query, headers, signed, payload_hash):
    hmap = _header_map(headers)
    lines = "".join("%s:%s\n" % (h, hmap.get(h, "")) for h in signed)
    return "\n".join([method.upper(), canonical_uri(path), canonical_query(query), lines,
                      ";".join(signed), payload_hash])


def string_to_sign(amz_date, scope, creq):
    return "\n".join([ALGORITHM, amz_date, scope,
                      hashlib.sha256(creq.encode("utf-8")).hexdigest()])


def signing_key(secret, date, region, service="s3"):
    k = ("AWS4" + secret).encode("utf-8")
    for part in (date, region, service, "aws4_request"):
        k = hmac.new(k, part.encode("utf-8"), hashlib.sha256).digest()
    return k


def signature(secret, date, region, sts, service="s3"):
    key = signing_key(secret, date, region, service)
    return hmac.new(key, sts.encode("utf-8"), hashlib.sha256).hexdigest()


def parse_authorization(value):
    """(access, date, region, service, terminator, signed headers, signature) or a reason."""
    if not value:
        return None, "no Authorization header"
    algo, _, rest = value.strip().partition(" ")
    if algo != ALGORITHM:
        return None, "algorithm %r is not %s" % (algo, ALGORITHM)
    fields = {}
    for part in rest.split(","):
        k, _, v = part.strip().partition("=")
        fields[k] = v
    for need in ("Credential", "SignedHeaders", "Signature"):
        if need not in fields:
            return None, "Authorization has no %s" % need
    cred = fields["Credential"].split("/")
    if len(cred) != 5:
        return None, "Credential %r is not KEY/DATE/REGION/SERVICE/aws4_request" % fields["Credential"]
    return (cred[0], cred[1], cred[2], cred[3], cred[4],
            fields["SignedHeaders"].split(";"), fields["Signature"]), ""


def check_signature(method, path, query, headers, creds, now=None):
    """Verify a GET's SigV4 Authorization header as S3 would.

    creds: dict with access, secret, region and optionally token (a session token the
    request must carry in x-amz-security-token). now: the server's time (seconds since the
    epoch) to check x-amz-date against; None skips that check (published examples).
    Returns (True, "") or (False, why)."""
    hmap = _header_map(headers)
    parsed, why = parse_authorization(hmap.get("authorization"))
    if not parsed:
        return False, why
    access, date, region, service, term, signed, sig = parsed
    if access != creds["access"]:
        return False, "unknown access key %r" % access
    if region != creds.get("region", "us-east-1") or service != "s3" or term != "aws4_request":
        return False, "credential scope %s/%s/%s is not %s/s3/aws4_request" % (
            region, service, term, creds.get("region", "us-east-1"))
    if signed != sorted(signed) or len(set(signed)) != len(signed):
        return False, "SignedHeaders %r not sorted and unique" % ";".join(signed)
    for need in ("host", "x-amz-date", "x-amz-content-sha256"):
        if need not in signed:
            return False, "%s is not signed" % need
    for name in hmap:
        if name.startswith("x-amz-") and name not in signed:
            return False, "header %s is not signed" % name
    for name in signed:
        if name not in hmap:
            return False, "signed header %s is absent" % name
    amz_date = hmap["x-amz-date"]
    try:
        when = time.strptime(amz_date, "%Y%m%dT%H%M%SZ")
    except ValueError:
        return False, "x-amz-date %r is not YYYYMMDDTHHMMSSZ" % amz_date
    if amz_date[:8] != date:
        return False, "x-amz-date %s is not of the credential's day %s" % (amz_date, date)
    if now is not None:
        skew = abs(now - _timegm(when))
        if skew > MAX_SKEW:
            return False, "x-amz-date %s is %d s from the server's clock" % (amz_date, skew)
    payload = hmap["x-amz-content-sha256"]
    if payload != "UNSIGNED-PAYLOAD" and payload != EMPTY_SHA256:
        return False, "x-amz-content-sha256 %r is not the empty body's hash" % payload
    if creds.get("token") and hmap.get("x-amz-security-token") != creds["token"]:
        return False, "x-amz-security-token is not the session token"
    creq = canonical_request(method, path, query, headers, signed, payload)
    scope = "/".join([date, region, "s3", "aws4_request"])
    want = signature(creds["secret"], date, region, string_to_sign(amz_date, scope, creq))
    if not hmac.compare_digest(want, sig):
        return False, "signature does not match (canonical request:\n%s)" % creq
    return True, ""


def _timegm(tm):
    import calendar
    return calendar.timegm(tm)


def error(status, code, message):
    """(status, an S3 <Error> document)."""
    body = ('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>%s</Code><Message>%s</Message>'
            "</Error>" % (escape(code), escape(message)))
    return status, body.encode("utf-8")


def _keys(bucket_dir):
    """Every regular file below bucket_dir as a '/'-separated key, in UTF-8 byte order."""
    keys = []
    for top, dirs, files in os.walk(bucket_dir, followlinks=False):
        for name in files:
            full = os.path.join(top, name)
            if os.path.isfile(full):
                keys.append(os.path.relpath(full, bucket_dir).replace(os.sep, "/"))
    keys.sort(key=lambda k: k.encode("utf-8", "surrogateescape"))
    return keys


def _etag(path):
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return '"%s"' % h.hexdigest()


def list_objects_v2(root_dir, bucket, query):
    """Serve the directory root_dir/bucket as a bucket: a ListObjectsV2 answer for the raw
    query string (list-type=2, prefix, max-keys (at most 1000), continuation-token,
    start-after). Returns (HTTP status, XML bytes); errors are S3's <Error> documents."""
    params = {}
    for part in (query or "").split("&"):
        if part:
            k, _, v = part.partition("=")
            params[urllib.parse.unquote(k)] = urllib.parse.unquote(v)
    if params.get("list-type") != "2":
        return error(400, "InvalidArgument", "only ListObjectsV2 (list-type=2) is served")
    if "delimiter" in params:
        return error(501, "NotImplemented", "this test server lists without a delimiter")
    bucket_dir = os.path.join(root_dir, bucket)
    if not bucket or "/" in bucket or bucket.startswith(".") or not os.path.isdir(bucket_dir):
        return error(404, "NoSuchBucket", "The specified bucket does not exist")
    prefix = params.get("prefix", "")
    try:
        max_keys = int(params.get("max-keys", "1000"))
    except ValueError:
        return error(400, "InvalidArgument", "max-keys is not a number")
    if max_keys < 0:
        return error(400, "InvalidArgument", "max-keys is negative")
    max_keys = min(max_keys, 1000)
    after = params.get("start-after", "")
    token = params.get("continuation-token")
    if token is not None:
        try:
            after = base64.b64decode(token.encode("ascii"), b"-_", validate=True).decode("utf-8")
        except Exception:
            return error(400, "InvalidArgument", "The continuation token provided is incorrect")
    after_b = after.encode("utf-8")
    keys = [k for k in _keys(bucket_dir) if k.startswith(prefix) and k.encode("utf-8") > after_b]
    page, rest = keys[:max_keys], keys[max_keys:]
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n'
           '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
           "<Name>%s</Name><Prefix>%s</Prefix>" % (escape(bucket), escape(prefix)),
           "<KeyCount>%d</KeyCount><MaxKeys>%d</MaxKeys>" % (len(page), max_keys),
           "<IsTruncated>%s</IsTruncated>" % ("true" if rest else "false")]
    if token is not None:
        out.append("<ContinuationToken>%s</ContinuationToken>" % escape(token))
    if rest and page:
        nxt = base64.urlsafe_b64encode(page[-1].encode("utf-8")).decode("ascii")
        out.append("<NextContinuationToken>%s</NextContinuationToken>" % escape(nxt))
    for k in page:
        path = os.path.join(bucket_dir, *k.split("/"))
        out.append("<Contents><Key>%s</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified>"
                   "<ETag>%s</ETag><Size>%d</Size><StorageClass>STANDARD</StorageClass></Contents>"
                   % (escape(k), escape(_etag(path), {'"': "&quot;"}), os.path.getsize(path)))
    out.append("</ListBucketResult>")
    return 200, "".join(out).encode("utf-8")
