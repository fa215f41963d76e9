def frame(line):
    return f"tests/test_trace.py:{line}:10"
