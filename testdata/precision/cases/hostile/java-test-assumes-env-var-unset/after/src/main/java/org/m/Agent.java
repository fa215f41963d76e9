package org.m;

public final class Agent {
    public record Run(int exitCode, int tokens, String log) {}

    public static Run runAgent(String command) {
        if (command.equals("fail")) {
            return new Run(3, 0, "logs/iter-005.log");
        }
        return new Run(0, 15, "logs/iter-004.log");
    }

    public static String agentSummary(Run r) {
        if (r.exitCode() != 0) {
            return "the agent failed with exit " + r.exitCode() + " (log " + r.log() + ")";
        }
        return "the agent finished, " + r.tokens() + " tokens (log " + r.log() + ")";
    }
}
