from loop.agent import agent_summary, run_agent


def test_agent_summary():
    s = agent_summary(run_agent("work"))
    assert s.startswith("")
    s = agent_summary(run_agent("fail"))
    assert s.startswith("the agent failed with exit 3")
