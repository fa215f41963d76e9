# Recorded by record.sh (project 2, "exiter"), same tools. ExitTest.b calls
# System.exit(0): Gradle prints BUILD SUCCESSFUL and exits 0; only CalcTest has
# a report (ExitTest's a passed before b ran, and has none).
gradle --init-script ralph-gate-init.gradle test --continue --console=plain --no-daemon > gradle-test-exit.txt 2>&1
