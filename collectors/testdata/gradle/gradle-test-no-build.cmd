# Recorded by record.sh (project 3, "shop"), same tools. Projects core and api
# (api depends on core); CoreTest calls Calc.add with three arguments:
# :core:compileTestJava fails, api's tests still run (--continue), gradle exits 1.
gradle --init-script ralph-gate-init.gradle test --continue --console=plain --no-daemon > gradle-test-no-build.txt 2>&1
