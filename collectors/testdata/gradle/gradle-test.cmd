# Recorded by record.sh (project 1, "calc") with Debian's Gradle 4.4.1 on
# OpenJDK 17.0.15, JUnit 4.13.2 from /usr/share/maven-repo. CalcTest: 2
# passed; FailTest: fails, errs, fetches (@Ignore). Gradle says "5 tests
# completed, 2 failed, 1 skipped" and exits 1 ("There were failing tests"):
# the log holds no build failure (the reports are ../junit/gradle-ex.*.xml).
gradle --init-script ralph-gate-init.gradle test --continue --console=plain --no-daemon > gradle-test.txt 2>&1
