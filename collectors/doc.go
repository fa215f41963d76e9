// Package collectors reads the reports that test runners, coverage tools,
// linters and type checkers write, and turns each into a [Result]: test
// outcomes keyed by a stable test id, per-file line and branch coverage,
// diagnostic counts and packages that did not build.
//
// It is ralph-gate's one public package, so that other tools can read the
// same reports the same way. Every format has one [Parser], made by [New] from
// its format name (see [Formats]):
//
//	gotest        go test -json (test2json) streams
//	junit         JUnit XML (jest-junit, vitest, pytest, maven surefire, gotestsum)
//	coverprofile  Go cover profiles (go test -coverprofile)
//	lcov          LCOV tracefiles (c8, nyc, vitest, jest, lcov/geninfo)
//	cobertura     Cobertura XML (coverage.py, istanbul, gocover-cobertura)
//	sarif         SARIF 2.1.0 (eslint, golangci-lint, ruff, CodeQL)
//	checkstyle    checkstyle XML (golangci-lint, eslint)
//	eslint        eslint's JSON formatter
//	golangci      golangci-lint's JSON output
//	tsc           tsc diagnostics, plain (--pretty false) or pretty
//	cargotest     cargo test 2>&1 (libtest's results with cargo's Running lines)
//	maven         mvn test 2>&1 (modules that did not build, forked JVMs that died; read beside Surefire's JUnit XML)
//	gradle        gradle test --console=plain 2>&1 (projects that did not build, test workers that died; read beside Gradle's JUnit XML)
//
// # Reading reports
//
//	p, err := collectors.New("junit")
//	if err != nil { ... }
//	f, err := os.Open("out/a.xml")
//	if err != nil { ... }
//	defer f.Close()
//	res, err := p.Parse("out/a.xml", f)
//
// Parsers stream their input: memory grows with the number of distinct tests
// and covered lines, never with the size of the file (a 100 MB JUnit or LCOV
// file parses in well under the documented budget, see the benchmarks). Lines
// have no length limit below [MaxLineBytes].
//
// Parsers are strict about structure: a truncated or malformed report is an
// error, never a smaller measurement, and every error is a [*ParseError] that
// names the format, the file and where it went wrong, for example
//
//	parse junit out/a.xml: line 12: unexpected EOF inside <testcase>
//
// On error Parse returns a nil Result.
//
// # Performance
//
// BenchmarkJUnit100MB and BenchmarkLCOV100MB generate a 100 MB report once
// (gotestsum-shaped JUnit: 518k test cases with ids of about 100 bytes, 5% of
// them failing or skipped with messages; c8-shaped LCOV: 22.8k files of 400
// lines with function and branch records) and parse it; they report the peak
// heap during a parse and the memory the Result keeps, and fail above
// 100 MiB of heap. On a shared 2-core AMD EPYC VM (go1.26):
//
//	go test -bench . -benchmem -run '^$' ./collectors/
//	BenchmarkJUnit100MB   1.40 s/op   75 MB/s   77 MiB peak heap   40 MiB result
//	BenchmarkLCOV100MB    0.44 s/op  236 MB/s   83 MiB peak heap   43 MiB result
//
// The LCOV result keeps the file's 1.8 million branches packed (about 4
// bytes each): 8 MiB more result and about 5 MiB more peak heap than the
// same parse without branches (51 and 71 MiB, measured side by side on a
// busy machine).
//
// Parsing the same files in a process of its own peaks at 80 MB (JUnit) and
// 71 MB (LCOV) of resident memory (/usr/bin/time -v). encoding/xml's
// tokenizer is about 70% of the JUnit time.
//
// # Measured and not measured
//
// A nil field of a Result means "this report does not measure that", which is
// different from zero: a JUnit file has nil Coverage, an LCOV file has nil
// Tests, and a JUnit file with no test cases has an empty, non-nil Tests map.
// Callers must not read a missing measurement as a pass.
//
// # Merging shards
//
// [Merge] combines the results of several report files, such as the shards of
// a CI matrix: tests are merged by id (one entry per id, the worst outcome
// wins, see [Merge]), coverage per file and line (a line hit in any shard is
// hit) and per branch (a branch taken in any shard is taken), diagnostics are
// summed.
package collectors
