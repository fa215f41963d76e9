package rust

// A Rust source file holds its unit tests in a module of its own,
// `#[cfg(test)] mod tests { .. }`: production code and tests share the
// file. The tamper check runs BASE's tests against HEAD's code, so for such
// a file it needs HEAD's code with BASE's test modules: SpliceTestModules.

// testModule is one top-level inline test module of a file: the bytes from
// its #[cfg(test)] attribute to its closing brace.
type testModule struct {
	name       string
	start, end int
}

// testModules finds the top-level inline modules a file compiles only for
// tests (`#[cfg(test)]`, with any other attributes and a visibility, then
// `mod NAME { .. }`), in order; ok is false when the file does not lex
// cleanly or its braces do not balance.
func testModules(src []byte) (mods []testModule, ok bool) {
	lr := lex(src)
	if lr.broken {
		return nil, false
	}
	toks := lr.toks
	match, ok := matchGroups(toks)
	if !ok {
		return nil, false
	}
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Kind == tkPunct {
			switch t.Text {
			case "{":
				depth++
			case "}":
				depth--
			}
		}
		if depth != 0 || !isCfgTest(toks, i) {
			continue
		}
		// Attributes, then an optional visibility, then mod NAME {.
		j := i
		for j+1 < len(toks) && toks[j].Text == "#" && toks[j+1].Text == "[" && match[j+1] > j+1 {
			j = match[j+1] + 1
		}
		if j < len(toks) && toks[j].Text == "pub" {
			j++
			if j < len(toks) && toks[j].Text == "(" && match[j] > j {
				j = match[j] + 1
			}
		}
		if j+2 >= len(toks) || toks[j].Text != "mod" || toks[j+1].Kind != tkIdent || toks[j+2].Text != "{" || match[j+2] <= j+2 {
			continue
		}
		end := match[j+2]
		mods = append(mods, testModule{name: toks[j+1].Text, start: int(t.Off), end: int(toks[end].Off) + 1})
		i = end // the module's own braces are skipped, depth unchanged
	}
	return mods, true
}

// isCfgTest reports `#[cfg(test)]` at token i.
func isCfgTest(toks []token, i int) bool {
	want := []string{"#", "[", "cfg", "(", "test", ")", "]"}
	if i+len(want) > len(toks) {
		return false
	}
	for k, w := range want {
		if toks[i+k].Text != w {
			return false
		}
	}
	return true
}

// SpliceTestModules returns head with each of its top-level inline test
// modules replaced by base's module of the same name, and base's test
// modules head no longer has appended: HEAD's production code with BASE's
// unit tests. head's own new test modules stay. ok is false when either
// file cannot be read that way, or base has no test module.
func SpliceTestModules(head, base []byte) (out []byte, ok bool) {
	hm, ok1 := testModules(head)
	bm, ok2 := testModules(base)
	if !ok1 || !ok2 || len(bm) == 0 {
		return nil, false
	}
	baseText := map[string][]byte{}
	for _, m := range bm {
		if _, dup := baseText[m.name]; !dup {
			baseText[m.name] = base[m.start:m.end]
		}
	}
	used := map[string]bool{}
	at := 0
	for _, m := range hm {
		out = append(out, head[at:m.start]...)
		if b, ok := baseText[m.name]; ok && !used[m.name] {
			out = append(out, b...)
			used[m.name] = true
		} else {
			out = append(out, head[m.start:m.end]...)
		}
		at = m.end
	}
	out = append(out, head[at:]...)
	for _, m := range bm {
		if !used[m.name] {
			used[m.name] = true
			out = append(out, '\n')
			out = append(out, baseText[m.name]...)
			out = append(out, '\n')
		}
	}
	return out, true
}

// TestModulesDiffer reports whether two versions of a file differ in their
// top-level inline test modules (their text, or which there are); false
// when either cannot be read.
func TestModulesDiffer(a, b []byte) bool {
	am, ok1 := testModules(a)
	bm, ok2 := testModules(b)
	if !ok1 || !ok2 || len(am) == 0 && len(bm) == 0 {
		return false
	}
	if len(am) != len(bm) {
		return true
	}
	for i := range am {
		if am[i].name != bm[i].name || string(a[am[i].start:am[i].end]) != string(b[bm[i].start:bm[i].end]) {
			return true
		}
	}
	return false
}
