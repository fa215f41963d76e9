import sys
import pytest
from loop.agent import agent_summary, run_agent


def test_run_agent():
    skip_slow()
    run = run_agent("work")
    assert run.exit_code == 0
    assert run.log == "logs/iter-004.log"
    assert run.tokens == 15
    s = agent_summary(run)
    assert s.startswith("the agent finished")
    assert s.endswith(", 15 tokens (log logs/iter-004.log)")

    run = run_agent("fail")
    assert run.exit_code == 3
    assert run.log == "logs/iter-005.log"


def skip_slow():
    if sys.platform == "win32":
        pytest.skip("no fork on Windows")
