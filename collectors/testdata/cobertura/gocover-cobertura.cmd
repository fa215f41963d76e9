# Recorded with github.com/boumenot/gocover-cobertura v1.3.0 (built against golang.org/x/tools v0.34.0,
# since v1.3.0's own x/tools v0.8.0 does not build with Go 1.26), go1.26.8, in the module of
# ../gotest/sample-module.txtar, from the profile of ../coverprofile/go-test.out.
gocover-cobertura < go-test.out > gocover-cobertura.xml
