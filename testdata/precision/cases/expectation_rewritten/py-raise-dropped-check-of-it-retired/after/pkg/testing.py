class Result:
    def __init__(self, stdout_bytes, stderr_bytes):
        self.stdout_bytes = stdout_bytes
        self.stderr_bytes = stderr_bytes

    @property
    def stdout(self):
        return self.stdout_bytes.decode()

    @property
    def stderr(self):
        return self.stderr_bytes.decode()


def invoke(out, err):
    return Result(out, err)
