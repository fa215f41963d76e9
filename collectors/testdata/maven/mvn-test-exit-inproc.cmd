# Recorded by record.sh (project 5, "inproc"), same tools: exiter's tests
# with surefire's forkCount 0, so they run inside Maven's own JVM.
# ExitTest.b's System.exit(0) ends mvn itself with status 0 right after
# "Running ex.ExitTest": no results for it, no "Results:", no BUILD line.
mvn -B -ntp -o -Dmaven.repo.local=/usr/share/maven-repo -Dmaven.test.failure.ignore=true --fail-at-end test > mvn-test-exit-inproc.txt 2>&1
