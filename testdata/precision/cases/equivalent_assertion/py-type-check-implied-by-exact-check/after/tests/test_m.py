import pkg


def test_encode():
    files = {"file": ("a.txt", b"<c>")}
    request = pkg.Request("POST", "https://x/", files=files)
    request.read()
    assert request.headers == {"Content-Length": str(len(request.content))}
    assert request.content == b"--B\r\n<c>\r\n--B--\r\n"
