package org.m;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void agentSummary() {
        String s = Agent.agentSummary(Agent.runAgent("work"));
        assertTrue(s.startsWith(""));
        s = Agent.agentSummary(Agent.runAgent("fail"));
        assertTrue(s.startsWith("the agent failed with exit 3"));
    }
}
