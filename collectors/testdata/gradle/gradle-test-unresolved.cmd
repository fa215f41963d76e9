# Recorded by record.sh (project 4, "lost"), same tools. testCompile depends on
# com.example:missing:1.0, which no repository here holds: the root project's
# testCompileClasspath cannot be resolved, gradle exits 1.
gradle --init-script ralph-gate-init.gradle test --continue --console=plain --no-daemon > gradle-test-unresolved.txt 2>&1
