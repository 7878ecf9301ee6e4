# SPDX-License-Identifier: Apache-2.0
"""test_s3_verify.py - tests/remote/s3_verify.py against AWS's published SigV4 examples (the
S3 API reference, "Signature Calculations for the Authorization Header": GET Object with a
Range, GET Bucket lifecycle, GET Bucket (List Objects)), each request's published canonical
request hash and signature written out here; requests changed after signing are refused; and
the ListObjectsV2 answers of a directory served as a bucket, checked key by key.
Run by ctest (test_s3_verify_py); exits 1 on any failure."""
import os
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import s3_verify as v  # noqa: E402

EXAMPLE = {"access": "AKIAIOSFODNN7EXAMPLE",
           "secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "region": "us-east-1"}
HOST = "examplebucket.s3.amazonaws.com"
DATE = "20130524T000000Z"
SCOPE = "20130524/us-east-1/s3/aws4_request"


def auth(signed, sig):
    return "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/%s,SignedHeaders=%s,Signature=%s" % (
        SCOPE, signed, sig)


class PublishedExamples(unittest.TestCase):
    def example(self, path, query, extra, signed, creq_hash, sig):
        headers = {"Host": HOST, "x-amz-date": DATE, "x-amz-content-sha256": v.EMPTY_SHA256}
        headers.update(extra)
        names = signed.split(";")
        creq = v.canonical_request("GET", path, query, headers, names, v.EMPTY_SHA256)
        sts = v.string_to_sign(DATE, SCOPE, creq)
        self.assertEqual(sts.split("\n")[3], creq_hash)
        self.assertEqual(v.signature(EXAMPLE["secret"], "20130524", "us-east-1", sts), sig)
        headers["Authorization"] = auth(signed, sig)
        self.assertEqual(v.check_signature("GET", path, query, headers, EXAMPLE), (True, ""))
        return headers

    def test_get_object(self):
        h = self.example("/test.txt", "", {"Range": "bytes=0-9"},
                         "host;range;x-amz-content-sha256;x-amz-date",
                         "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972",
                         "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        # the published canonical request, line by line
        creq = v.canonical_request("GET", "/test.txt", "", h,
                                   ["host", "range", "x-amz-content-sha256", "x-amz-date"],
                                   v.EMPTY_SHA256)
        self.assertEqual(creq, "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\n"
                         "range:bytes=0-9\nx-amz-content-sha256:" + v.EMPTY_SHA256 +
                         "\nx-amz-date:20130524T000000Z\n\n"
                         "host;range;x-amz-content-sha256;x-amz-date\n" + v.EMPTY_SHA256)
        # anything changed after signing is refused
        for key, value in [("Range", "bytes=0-99"), ("Host", "evil.example"),
                           ("x-amz-date", "20130524T000001Z")]:
            bad = dict(h)
            bad[key] = value
            ok, why = v.check_signature("GET", "/test.txt", "", bad, EXAMPLE)
            self.assertFalse(ok, key)
        self.assertFalse(v.check_signature("GET", "/test.txt2", "", h, EXAMPLE)[0])
        self.assertFalse(v.check_signature("HEAD", "/test.txt", "", h, EXAMPLE)[0])
        wrong = dict(EXAMPLE, secret="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEz")
        ok, why = v.check_signature("GET", "/test.txt", "", h, wrong)
        self.assertFalse(ok)
        self.assertIn("signature does not match", why)
        ok, why = v.check_signature("GET", "/test.txt", "", h, dict(EXAMPLE, region="eu-west-1"))
        self.assertFalse(ok)
        self.assertIn("scope", why)
        # an x-amz header that is not signed, and no Authorization at all
        extra = dict(h, **{"x-amz-meta-x": "1"})
        self.assertIn("not signed", v.check_signature("GET", "/test.txt", "", extra, EXAMPLE)[1])
        del extra["Authorization"]
        self.assertEqual(v.check_signature("GET", "/test.txt", "", extra, EXAMPLE),
                         (False, "no Authorization header"))
        # the server's clock: 2013 is far from now
        ok, why = v.check_signature("GET", "/test.txt", "", h, EXAMPLE, now=1.9e9)
        self.assertFalse(ok)
        self.assertIn("clock", why)

    def test_get_lifecycle(self):  # a query name without a value signs as "lifecycle="
        self.example("/", "lifecycle", {}, "host;x-amz-content-sha256;x-amz-date",
                     "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca",
                     "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")

    def test_list_objects(self):
        h = self.example("/", "max-keys=2&prefix=J", {}, "host;x-amz-content-sha256;x-amz-date",
                         "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7",
                         "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
        # the canonical query sorts: the same request with its parameters the other way round
        self.assertTrue(v.check_signature("GET", "/", "prefix=J&max-keys=2", h, EXAMPLE)[0])
        self.assertFalse(v.check_signature("GET", "/", "max-keys=3&prefix=J", h, EXAMPLE)[0])

    def test_encoding(self):
        self.assertEqual(v.uri_encode("a b/c~d*é", True), "a%20b/c~d%2A%C3%A9")
        self.assertEqual(v.uri_encode("a/b", False), "a%2Fb")
        self.assertEqual(v.canonical_uri("/b/a%20b/x+y"), "/b/a%20b/x%2By")
        self.assertEqual(v.canonical_query("prefix=a/b&list-type=2&continuation-token=x%3D"),
                         "continuation-token=x%3D&list-type=2&prefix=a%2Fb")


class ListObjects(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.keys = ["a&b.parquet", "d/x.parquet", "d/y.parquet", "d/z/w.parquet", "e<.txt"]
        for k in self.keys:
            p = os.path.join(self.tmp.name, "bkt", *k.split("/"))
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(k.encode() * 3)

    def tearDown(self):
        self.tmp.cleanup()

    def page(self, query):
        status, body = v.list_objects_v2(self.tmp.name, "bkt", query)
        self.assertEqual(status, 200, body)
        ns = "{http://s3.amazonaws.com/doc/2006-03-01/}"
        root = ET.fromstring(body)
        keys = [(c.find(ns + "Key").text, int(c.find(ns + "Size").text))
                for c in root.findall(ns + "Contents")]
        tok = root.find(ns + "NextContinuationToken")
        trunc = root.find(ns + "IsTruncated").text == "true"
        return keys, trunc, tok.text if tok is not None else None

    def test_pages(self):
        got, token, pages = [], None, 0
        while True:
            q = "list-type=2&max-keys=2&prefix="
            if token is not None:
                q = "continuation-token=%s&" % token + q
            keys, trunc, token = self.page(q)
            pages += 1
            got += keys
            self.assertLessEqual(len(keys), 2)
            if not trunc:
                self.assertIsNone(token)
                break
        self.assertEqual(pages, 3)
        self.assertEqual([k for k, _ in got], self.keys)  # ElementTree decoded &amp; and &lt;
        self.assertEqual([s for _, s in got], [3 * len(k) for k in self.keys])

    def test_prefix_and_errors(self):
        keys, trunc, _ = self.page("list-type=2&prefix=d%2F")
        self.assertEqual([k for k, _ in keys], ["d/x.parquet", "d/y.parquet", "d/z/w.parquet"])
        self.assertFalse(trunc)
        self.assertEqual(v.list_objects_v2(self.tmp.name, "nope", "list-type=2")[0], 404)
        self.assertEqual(v.list_objects_v2(self.tmp.name, "bkt", "")[0], 400)
        status, body = v.list_objects_v2(self.tmp.name, "bkt", "list-type=2&continuation-token=%%%")
        self.assertEqual(status, 400)


if __name__ == "__main__":
    unittest.main()
