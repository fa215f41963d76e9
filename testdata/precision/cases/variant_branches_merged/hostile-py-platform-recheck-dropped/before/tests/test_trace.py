import sys

from tracekit import frame


def test_frame_points_at_the_call():
    out = frame(58)
    assert "tests/test_trace.py:58:10" in out
    if sys.platform == "win32":
        assert "tests/test_trace.py:58:14" in out
