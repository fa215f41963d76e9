import typing

from pkg._content import encode_request


def test_encode():
    files = {"file": ("a.txt", b"<c>")}
    headers, stream = encode_request(data={}, files=files)
    assert isinstance(stream, typing.Iterable)
    content = b"--B\r\n<c>\r\n--B--\r\n"
    assert headers == {"Content-Length": str(len(content))}
    assert content == b"".join(stream)
