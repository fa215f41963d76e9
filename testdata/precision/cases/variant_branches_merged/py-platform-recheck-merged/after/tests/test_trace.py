from tracekit import frame


def test_frame_points_at_the_call():
    out = frame(58)
    assert "tests/test_trace.py:58:11" in out
