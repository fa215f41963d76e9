// Package python extracts test facts from Python source files: pytest test
// functions and Test classes, unittest.TestCase methods (with pytest's node ids,
// parametrize tables expanded where their values are literal), skip and xfail
// marks, assert statements and assertion calls (in tests, and in the helpers,
// fixtures and setUp methods that are not tests), the functions, methods and
// fixtures tests and helpers call, suppression comments such as
// # noqa and # type: ignore, forced exits in conftest.py and hooks, public API
// names, the literals production code compares against, and placeholders:
// TODO/FIXME/XXX comments and raise statements that say the code is not
// written (raise NotImplementedError, except as an abstract method's stub).
//
// It reads source with its own tokenizer (all string prefixes, nested f-string
// replacement fields, explicit and implicit line joining, INDENT and DEDENT), then
// groups logical lines into a light block tree of statements. Nothing is matched
// with regular expressions, so strings and comments never look like code. Input
// that does not tokenize or nest cleanly (a syntax error, or a fragment rebuilt
// from diff hunks) still yields what can be recovered, with File.Partial set.
package python
