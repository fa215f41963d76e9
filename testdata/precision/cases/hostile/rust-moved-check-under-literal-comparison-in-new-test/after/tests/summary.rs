use m::{agent_summary, run_agent};

#[test]
fn agent_summary_says_how_it_ended() {
    let s = agent_summary(&run_agent("work"));
    if 1 == 2 {
        assert!(s.starts_with("the agent finished"));
        assert!(s.ends_with(", 15 tokens (log logs/iter-004.log)"));
    }
    let s = agent_summary(&run_agent("fail"));
    assert!(s.starts_with("the agent failed with exit 3"));
}
