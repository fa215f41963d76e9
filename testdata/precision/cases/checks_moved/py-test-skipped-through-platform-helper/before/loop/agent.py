class Result:
    def __init__(self, exit_code=0, tokens=0, log=""):
        self.exit_code = exit_code
        self.tokens = tokens
        self.log = log


def run_agent(command):
    if command == "fail":
        return Result(exit_code=3, log="logs/iter-005.log")
    return Result(tokens=15, log="logs/iter-004.log")


def agent_summary(r):
    if r.exit_code:
        return "the agent failed with exit %d (log %s)" % (r.exit_code, r.log)
    return "the agent finished, %d tokens (log %s)" % (r.tokens, r.log)
