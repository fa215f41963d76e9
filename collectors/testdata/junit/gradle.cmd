# gradle-ex.CalcTest.xml and gradle-ex.FailTest.xml: the reports Gradle 4.4.1
# wrote for project 1 of ../gradle/record.sh (build/test-results/test/
# TEST-ex.*.xml; the run's log is ../gradle/gradle-test.txt). Gradle records
# an exception as a <failure>: "5 tests completed, 2 failed, 1 skipped".
gradle --init-script ralph-gate-init.gradle test --continue --console=plain --no-daemon
