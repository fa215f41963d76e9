import io

import mylib


def test_multipart_encode():
    files = {"file": ("name.txt", io.BytesIO(b"<file content>"))}
    request = mylib.Request("POST", "https://example.com/", files=files, boundary="BOUNDARY")
    request.read()

    assert request.headers
    assert request.content
