// Package jsts extracts test cases and the other facts of testscan.File from
// JavaScript and TypeScript sources (.js .jsx .mjs .cjs .ts .tsx .mts .cts).
//
// It does not build a syntax tree. A hand-written tokenizer understands strings,
// template literals with nested substitutions, regex literals (told apart from
// division by the previous significant token), comments and, in files that may
// hold JSX, JSX text; the recognizers then work on balanced bracket ranges of that
// token stream. This keeps extraction linear and tolerant: a fragment of a file
// rebuilt from diff hunks, or a file with a syntax error, still yields every test,
// assertion and marker that can be recovered, with File.Partial set.
//
// Test structure follows jest, vitest, mocha, jasmine, node:test and playwright:
// describe/context/suite groups and it/test/specify cases with their modifiers
// (.skip .only .todo .each .skipIf .runIf .concurrent .failing ...), x- and f-
// prefixed forms, node:test options objects and skip calls inside test bodies.
// Assertions cover jest/vitest expect matchers, chai expect/should chains,
// should.js (x.should.*, should(x).*), node:assert and chai assert, the t.*
// assertions of node:test, ava and tap, and the .expect(...) calls of supertest
// request chains (request(app).get('/').expect(200), agents, and variables
// assigned from either).
//
// Assertions outside test case calls (in helper functions, hooks, describe
// bodies, support files) are File.HelperAssertions; those in a test body,
// including helpers defined inside it, belong to the test.
//
// The calls of each test (TestCase.Calls: "f" for f(...), ".m" for x.m(...),
// after those of the setup hooks of the file and the enclosing groups) and of
// each named helper (File.HelperCalls) are read in the same walks; see
// callnames.go for what is left out.
package jsts
