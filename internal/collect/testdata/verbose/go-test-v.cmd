# go1.26.8, in a module example.com/v with packages a (pass, fail, skip,
# nested subtests), b (a test printing a forged result line) and c (a test
# file that does not compile):
GOFLAGS=-v go test ./... > go-test-v.txt 2>&1
