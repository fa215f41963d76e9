pub struct Run {
    pub exit_code: i32,
    pub tokens: u32,
    pub log: String,
}

pub fn run_agent(command: &str) -> Run {
    if command == "fail" {
        return Run { exit_code: 3, tokens: 0, log: "logs/iter-005.log".into() };
    }
    Run { exit_code: 0, tokens: 15, log: "logs/iter-004.log".into() }
}

pub fn agent_summary(r: &Run) -> String {
    if r.exit_code != 0 {
        return format!("the agent failed with exit {} (log {})", r.exit_code, r.log);
    }
    format!("the agent finished, {} tokens (log {})", r.tokens, r.log)
}
