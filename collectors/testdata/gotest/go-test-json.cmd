# Recorded with go1.26.8 linux/amd64 in the module of sample-module.txtar (calc: TestAdd with two
# passing subtests, TestDiv passing, TestSub failing, TestSlow skipped; broken: does not compile,
# so go 1.24+ writes build-output/build-fail events and a fail event with FailedBuild).
go test -json -coverprofile=cover.out ./... > go-test-json.json
