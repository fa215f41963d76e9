import io

import mylib


def test_multipart_file_tuple(client):
    files = {"file": ("name.txt", io.BytesIO(b"<file content>"))}
    response = client.post("http://127.0.0.1:8000/", data={"text": ["abc"]}, files=files)
    boundary = response.request.headers["Content-Type"].split("boundary=")[-1].encode()

    assert response.status_code == 200
    assert response.content == b"".join(
        [
            b"--" + boundary + b"\r\n",
            b'Content-Disposition: form-data; name="text"\r\n\r\nabc\r\n',
            b"--" + boundary + b"\r\n",
            b'Content-Disposition: form-data; name="file"; filename="name.txt"\r\n',
            b"Content-Type: text/plain\r\n\r\n<file content>\r\n",
            b"--" + boundary + b"--\r\n",
        ]
    )
