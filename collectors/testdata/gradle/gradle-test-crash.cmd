# Recorded by record.sh (project 5, "crasher"), same tools. ExitTest.b calls
# System.exit(3): the test task fails with "Process 'Gradle Test Executor 1'
# finished with non-zero exit value 3", ExitTest has no report, gradle exits 1.
gradle --init-script ralph-gate-init.gradle test --continue --console=plain --no-daemon > gradle-test-crash.txt 2>&1
