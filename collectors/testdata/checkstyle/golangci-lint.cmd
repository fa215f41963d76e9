# Recorded with golangci-lint v2.6.2 (go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.6.2)
# in the module of ../gotest/sample-module.txtar, with its .golangci.yml:
#   version: "2"
#   severity: {default: error, rules: [{linters: [staticcheck], severity: warning}]}
# calc/calc.go has an unchecked f.Close() (errcheck, error) and strings.ToLower(a) == strings.ToLower(b)
# (staticcheck SA6005, warning).
golangci-lint run --show-stats=false --output.json.path=golangci-lint.json --output.checkstyle.path=../checkstyle/golangci-lint.xml --output.sarif.path=../sarif/golangci-lint.sarif ./calc/
# golangci-lint-stdout.json: the same run writing to stdout, where v2 appends its issue summary after the JSON:
golangci-lint run --output.json.path=stdout --output.text.path=stderr ./calc/ > golangci-lint-stdout.json
# golangci-lint-typecheck.json: the whole module, where broken/ does not compile:
golangci-lint run --output.json.path=stdout --show-stats=false ./... > golangci-lint-typecheck.json
