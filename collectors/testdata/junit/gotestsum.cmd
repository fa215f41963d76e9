# Recorded with gotestsum v1.12.3 (go install gotest.tools/gotestsum@v1.12.3), go1.26.8, in the
# module of ../gotest/sample-module.txtar. The package that does not build is written as a
# TestMain failure with an empty classname.
gotestsum --junitfile gotestsum.xml --jsonfile gotestsum.json -- -coverprofile=cover2.out ./...
