package org.m;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void agentSummary() {
        String s = Agent.agentSummary(Agent.runAgent("work"));
        if (1 > 2) {
            assertTrue(s.startsWith("the agent finished"));
            assertTrue(s.endsWith(", 15 tokens (log logs/iter-004.log)"));
        }
        s = Agent.agentSummary(Agent.runAgent("fail"));
        assertTrue(s.startsWith("the agent failed with exit 3"));
    }
}
