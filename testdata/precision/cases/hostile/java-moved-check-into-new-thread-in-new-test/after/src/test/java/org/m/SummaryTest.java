package org.m;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void agentSummary() {
        String s = Agent.agentSummary(Agent.runAgent("work"));
        final String w = s;
        new Thread(() -> {
            assertTrue(w.startsWith("the agent finished"));
            assertTrue(w.endsWith(", 15 tokens (log logs/iter-004.log)"));
        }).start();
        s = Agent.agentSummary(Agent.runAgent("fail"));
        assertTrue(s.startsWith("the agent failed with exit 3"));
    }
}
