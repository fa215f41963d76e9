class Result:
    def __init__(self, stdout_bytes, stderr_bytes=None):
        self.stdout_bytes = stdout_bytes
        self.stderr_bytes = stderr_bytes

    @property
    def stdout(self):
        return self.stdout_bytes.decode()

    @property
    def stderr(self):
        if self.stderr_bytes is None:
            raise TypeError("stderr not separately captured")
        return self.stderr_bytes.decode()


def invoke(out, err, mix_stderr=True):
    if mix_stderr:
        return Result(out + err)
    return Result(out, err)
