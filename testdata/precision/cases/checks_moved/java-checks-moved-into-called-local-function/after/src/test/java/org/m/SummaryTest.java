package org.m;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class SummaryTest {
    @Test
    void agentSummary() {
        String s = Agent.agentSummary(Agent.runAgent("work"));
        final String t = s;
        Executable check = () -> {
            assertTrue(t.startsWith("the agent finished"));
            assertTrue(t.endsWith(", 15 tokens (log logs/iter-004.log)"));
        };
        assertAll(check);
        s = Agent.agentSummary(Agent.runAgent("fail"));
        assertTrue(s.startsWith("the agent failed with exit 3"));
    }
}
