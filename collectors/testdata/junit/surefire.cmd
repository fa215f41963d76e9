# surefire-ex.CalcTest.xml and surefire-ex.FailTest.xml: the reports
# maven-surefire-plugin 2.22.3 wrote for project 1 of ../maven/record.sh
# (target/surefire-reports/TEST-ex.*.xml; the run's log is
# ../maven/mvn-test.txt). CalcTest: tests="2", 2 passed. FailTest: tests="3"
# failures="1" errors="1" skipped="1".
mvn -B -ntp -o -Dmaven.repo.local=/usr/share/maven-repo -Dmaven.test.failure.ignore=true --fail-at-end test
