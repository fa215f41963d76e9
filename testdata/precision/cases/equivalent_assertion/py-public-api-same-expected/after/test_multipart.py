import io

import mylib


def test_multipart_encode():
    files = {"file": ("name.txt", io.BytesIO(b"<file content>"))}
    request = mylib.Request("POST", "https://example.com/", files=files, boundary="BOUNDARY")
    request.read()

    assert request.headers == {"Content-Length": str(len(request.content))}
    assert request.content == (
        b'--BOUNDARY\r\nContent-Disposition: form-data; name="file"; filename="name.txt"\r\n'
        b"Content-Type: text/plain\r\n\r\n<file content>\r\n--BOUNDARY--\r\n"
    )
