import { describe, expect, it } from "vitest";
import { runAgent } from "../src/agent.js";

describe("runAgent", () => {
  it("runs the agent", () => {
    let run = runAgent("work");
    expect(run.exitCode).toBe(0);
    expect(run.log).toBe("logs/iter-004.log");
    expect(run.tokens).toBe(15);

    run = runAgent("fail");
    expect(run.exitCode).toBe(3);
    expect(run.log).toBe("logs/iter-005.log");
  });
});
