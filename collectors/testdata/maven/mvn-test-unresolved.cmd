# Recorded by record.sh (project 4, "lost"), same tools. The pom depends on
# com.example:missing:1.0, which no repository here holds: dependency
# resolution fails before anything compiles, and mvn exits 1.
mvn -B -ntp -o -Dmaven.repo.local=/usr/share/maven-repo -Dmaven.test.failure.ignore=true --fail-at-end test > mvn-test-unresolved.txt 2>&1
