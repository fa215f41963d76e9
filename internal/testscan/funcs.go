package testscan

import "strings"

// Func is a function of production code, with what the analyzer compares
// between two versions of the same function: how it leaves (Exits: an
// error path turned into a silent empty result, AIWG's LP-018) and the
// branches that answer one literal input with a literal (Branches: special
// cases piled into it, LP-017).
type Func struct {
	// Name is the function's name qualified by what encloses it: Go
	// "Parse" or "Parser.Parse" (receiver type), Python "Parser.parse" or
	// "outer.inner", JavaScript "Parser.parse" (class) or "outer.inner",
	// Java "Parser.parse" or "Outer.Inner.parse" (overloads share it), Rust
	// "parse", "Parser.parse" (impl type) or "io::parse" (as FuncNames).
	Name string
	// Line is the line of the function's header.
	Line int
	// Returns is the result type the function declares, normalized, in a
	// language whose functions declare one (Java, Rust; "" for a Java
	// constructor, a Rust function without `->`, and in the other
	// languages). A result type that changed is an API change the callers
	// see (`Result<Option<T>, ()>` become `Option<T>`), not an error path
	// silenced behind their back.
	Returns string `json:",omitempty"`
	// Exits are the statements that leave the function itself (not a
	// function nested in it), in source order, at most MaxExits: every
	// return, raise and throw of a function that has an error or an empty
	// exit (none otherwise), and a Go function's panics. Two versions are
	// aligned on them.
	Exits []Exit `json:",omitempty"`
	// Branches are the function's branches whose condition compares a
	// variable with a literal and that answer with a literal, in source
	// order, at most MaxBranches.
	Branches []Branch `json:",omitempty"`
}

// MaxExits and MaxBranches bound Func.Exits and Func.Branches.
const (
	MaxExits    = 256
	MaxBranches = 256
)

// ExitKind says how a function leaves.
type ExitKind string

// The kinds of exit.
const (
	// ExitError reports an error: `raise X`, `throw X`, a Go return of an
	// error made there or in the body of `if err != nil`, a Go panic (in
	// any function, whatever it returns), a Rust `Err(..)` returned or
	// ending the body, `Err(..)?`, panic! or bail!.
	ExitError ExitKind = "error"
	// ExitEmpty returns nothing in particular: `return None`, bare
	// `return`, `return []`, `return {}`, `return ""`, `return null`,
	// `return undefined`, a Go return whose error result is nil, Java's
	// `return Optional.empty()` or `Collections.emptyList()`, Rust's
	// `None`, `Ok(())`, `Ok(None)`, `Default::default()`, `Vec::new()`.
	ExitEmpty ExitKind = "empty"
	// ExitOther is any other exit: a value, `raise NotImplementedError`
	// (a stub, not an error path; also an error that names an operation
	// not provided, see DeclinesOperation), todo!(), unreachable!(), `raise StopIteration` (a generator's
	// end), a Go return that passes on what may be nil (`return err` after
	// the checks, `return f()`), a Go bare return with named results.
	ExitOther ExitKind = "other"
)

// Exit is one statement that leaves a function.
type Exit struct {
	Line int
	Kind ExitKind
	// Text is the statement as written, normalized, which is how the exits
	// of two versions are matched.
	Text string
	// Values are, for a Go error or empty exit that returns more than the
	// error, the results before it, normalized (`return 0, err`: "0"): a
	// `return x, nil` replaces an error path when x is a zero value or
	// what the error path returned with its error.
	Values []string `json:",omitempty"`
}

// Branch is a branch of a function that tests a variable against one
// literal and answers with a literal: `if x == 5 { return "five" }`,
// `elif name == "foo": kind = 3`, `case 42: return true`.
type Branch struct {
	Line int
	// Subject is the variable compared, as written (`x`, `req.kind`); for a
	// case clause, the switch's or match's subject.
	Subject string
	// Literal is the literal compared with, normalized; for a case clause
	// of several literals, their texts joined by ", ".
	Literal string
	// Answer is the literal the branch returns or assigns at once.
	Answer string
	// Case is set for a clause of a switch or match statement.
	Case bool `json:",omitempty"`
}

// AddExit appends e to f's exits while they hold fewer than MaxExits.
func (f *Func) AddExit(e Exit) {
	if len(f.Exits) < MaxExits {
		f.Exits = append(f.Exits, e)
	}
}

// AddBranch appends b to f's branches while they hold fewer than
// MaxBranches.
func (f *Func) AddBranch(b Branch) {
	if len(f.Branches) < MaxBranches {
		f.Branches = append(f.Branches, b)
	}
}

// DeclinesOperation reports whether a name says an operation is not
// provided rather than that it failed: Java's
// UnsupportedOperationException, commons-lang's NotImplementedException,
// serde's Unsupported::UnitStruct, ErrorKind::Unsupported. An error exit
// that names one declines a capability, as Python's NotImplementedError
// does, and a body that replaces it provides the capability (serde's
// serialize_unit_struct, once flattened unit structs were supported).
func DeclinesOperation(name string) bool {
	lower := strings.ToLower(name)
	for _, w := range []string{"unsupported", "notsupported", "notimplemented", "unimplemented"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// KeepsExits reports whether the exits of a function are worth keeping: one
// of them is an error or an empty exit. Extractors drop the others' exits.
func KeepsExits(exits []Exit) bool {
	for _, e := range exits {
		if e.Kind == ExitError || e.Kind == ExitEmpty {
			return true
		}
	}
	return false
}
