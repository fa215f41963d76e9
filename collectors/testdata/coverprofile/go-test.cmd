# Recorded with go1.26.8 linux/amd64 in the module of ../gotest/sample-module.txtar, the same run as
# ../gotest/go-test-json.json. `go tool cover -func=go-test.out` prints
#   total:					(statements)	38.5%
go test -json -coverprofile=go-test.out ./...
