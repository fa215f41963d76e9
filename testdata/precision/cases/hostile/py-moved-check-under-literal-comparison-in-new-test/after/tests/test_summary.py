from loop.agent import agent_summary, run_agent


def test_agent_summary():
    s = agent_summary(run_agent("work"))
    if 1 == 2:
        assert s.startswith("the agent finished")
        assert s.endswith(", 15 tokens (log logs/iter-004.log)")
    s = agent_summary(run_agent("fail"))
    assert s.startswith("the agent failed with exit 3")
