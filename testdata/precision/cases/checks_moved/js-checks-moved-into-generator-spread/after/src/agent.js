export function runAgent(command) {
  if (command === "fail") return { exitCode: 3, tokens: 0, log: "logs/iter-005.log" };
  return { exitCode: 0, tokens: 15, log: "logs/iter-004.log" };
}

export function agentSummary(r) {
  if (r.exitCode) return `the agent failed with exit ${r.exitCode} (log ${r.log})`;
  return `the agent finished, ${r.tokens} tokens (log ${r.log})`;
}
