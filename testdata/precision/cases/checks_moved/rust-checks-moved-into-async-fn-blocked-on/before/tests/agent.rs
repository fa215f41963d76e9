use m::{agent_summary, run_agent};

#[test]
fn run_agent_works() {
    let run = run_agent("work");
    assert_eq!(run.exit_code, 0);
    assert_eq!(run.log, "logs/iter-004.log");
    assert_eq!(run.tokens, 15);
    let s = agent_summary(&run);
    assert!(s.starts_with("the agent finished"));
    assert!(s.ends_with(", 15 tokens (log logs/iter-004.log)"));

    let run = run_agent("fail");
    assert_eq!(run.exit_code, 3);
    assert_eq!(run.log, "logs/iter-005.log");
}
