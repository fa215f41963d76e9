from loop.agent import run_agent


def test_run():
    run = run_agent("work")
    assert run.exit_code == 0
    assert run.log == "logs/iter-004.log"
    assert run.tokens == 15

    run = run_agent("fail")
    assert run.exit_code == 3
    assert run.log == "logs/iter-005.log"
