package org.m;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AgentTest {
    @Test
    void runAgent() {
        Agent.Run run = Agent.runAgent("work");
        assertEquals(0, run.exitCode());
        assertEquals("logs/iter-004.log", run.log());
        assertEquals(15, run.tokens());
        String s = Agent.agentSummary(run);
        assertTrue(s.startsWith("the agent finished"));
        assertTrue(s.endsWith(", 15 tokens (log logs/iter-004.log)"));

        run = Agent.runAgent("fail");
        assertEquals(3, run.exitCode());
        assertEquals("logs/iter-005.log", run.log());
    }
}
