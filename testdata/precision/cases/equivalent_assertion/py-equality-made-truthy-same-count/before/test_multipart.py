import io

from mylib._content import encode_request


def test_multipart_encode():
    files = {"file": ("name.txt", io.BytesIO(b"<file content>"))}
    headers, stream = encode_request(files=files, boundary="BOUNDARY")

    content = (
        b'--BOUNDARY\r\nContent-Disposition: form-data; name="file"; filename="name.txt"\r\n'
        b"Content-Type: text/plain\r\n\r\n<file content>\r\n--BOUNDARY--\r\n"
    )
    assert headers == {"Content-Length": str(len(content))}
    assert content == b"".join(stream)
