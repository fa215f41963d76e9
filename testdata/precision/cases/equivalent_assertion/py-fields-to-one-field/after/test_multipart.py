import io

import mylib


def test_multipart_file_tuple(client):
    files = {"file": ("name.txt", io.BytesIO(b"<file content>"))}
    response = client.post("http://127.0.0.1:8000/", data={"text": ["abc"]}, files=files)

    assert response.status_code == 200
    assert b"abc" in response.content
