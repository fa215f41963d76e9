import io

from multipart import MultipartParser

import mylib


def test_multipart_file_tuple(client):
    files = {"file": ("name.txt", io.BytesIO(b"<file content>"))}
    response = client.post("http://127.0.0.1:8000/", data={"text": ["abc"]}, files=files)
    assert response.status_code == 200

    boundary = response.request.headers["Content-Type"].split("boundary=")[-1]
    multipart = {}
    for part in MultipartParser(io.BytesIO(response.content), boundary=boundary):
        multipart[part.name] = [part.raw]

    assert multipart["text"] == [b"abc"]
    assert multipart["file"] == [b"<file content>"]
