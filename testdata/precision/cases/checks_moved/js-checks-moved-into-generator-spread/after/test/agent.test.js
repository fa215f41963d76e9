import { describe, expect, it } from "vitest";
import { agentSummary, runAgent } from "../src/agent.js";

describe("runAgent", () => {
  it("runs the agent", () => {
    let run = runAgent("work");
    expect(run.exitCode).toBe(0);
    expect(run.log).toBe("logs/iter-004.log");
    expect(run.tokens).toBe(15);
    const s = agentSummary(run);
    function* check() {
      expect(s.startsWith("the agent finished")).toBe(true);
      yield 1;
      expect(s.endsWith(", 15 tokens (log logs/iter-004.log)")).toBe(true);
    }
    expect([...check()]).toEqual([1]);

    run = runAgent("fail");
    expect(run.exitCode).toBe(3);
    expect(run.log).toBe("logs/iter-005.log");
  });
});
