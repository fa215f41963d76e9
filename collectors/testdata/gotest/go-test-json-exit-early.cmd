# Recorded with go1.26.8 linux/amd64 in module example.com/exitearly:
#   calc/calc_test.go: TestAdd passes.
#   quit/quit_test.go: TestFirst passes; TestLeaves calls syscall.Exit(0);
#   TestNeverRuns (t.Fatal) comes after it and never runs.
# `go test ./...` prints "ok" for both packages and exits 0; the JSON stream
# has no package result for quit, and test2json credits the "ok" line to
# TestLeaves as a pass.
go test -json ./... > go-test-json-exit-early.json
