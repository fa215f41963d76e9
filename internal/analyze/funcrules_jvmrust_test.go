package analyze

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// The Java and Rust versions of the cheats and look-alikes of
// TestErrorToNull and TestSpecialCasesAdded.
const (
	javaOld   = "package calc;\n\npublic class Parser {\n    public Integer parse(String s) {\n        int n = Integer.parseInt(s);\n        if (n < 0) {\n            throw new IllegalArgumentException(\"negative\");\n        }\n        return n;\n    }\n}\n"
	javaThrow = "            throw new IllegalArgumentException(\"negative\");\n"
	rustOld   = "pub fn parse(s: &str) -> Result<Option<u32>, Error> {\n    let n: i64 = s.parse()?;\n    if n < 0 {\n        return Err(Error::Negative);\n    }\n    Ok(Some(n as u32))\n}\n"
	rustErr   = "        return Err(Error::Negative);\n"
)

// TestErrorToNullJavaRust: LP-018 in Java (a throw turned into return
// null, an empty Optional or collection, a bare return) and Rust (an
// Err return, an Err tail, panic! or bail! turned into None, Ok(()),
// Ok(None) or a default), one medium error_suppression each, nothing high.
func TestErrorToNullJavaRust(t *testing.T) {
	t.Parallel()
	javaVoid := "package calc;\n\nclass Store {\n    void save(Item it) {\n        if (it == null) {\n            throw new NullPointerException(\"item\");\n        }\n        db.put(it);\n    }\n}\n"
	javaNested := "package calc;\n\nclass Outer {\n    static class Inner {\n        List<String> names(Path p) throws IOException {\n            if (!Files.exists(p)) {\n                throw new FileNotFoundException(p.toString());\n            }\n            return Files.readAllLines(p);\n        }\n    }\n}\n"
	javaOptional := "package calc;\n\nclass Finder {\n    Optional<User> find(String id) {\n        try {\n            return Optional.of(repo.load(id));\n        } catch (SQLException e) {\n            throw new IllegalStateException(e);\n        }\n    }\n}\n"
	rustTail := "pub fn parse(n: i64) -> Result<u32, Error> {\n    if n < 0 {\n        Err(Error::Negative)\n    } else {\n        Ok(n as u32)\n    }\n}\n"
	rustPanic := "impl Parser {\n    pub fn kind(&self, s: &str) -> Option<Kind> {\n        match s {\n            \"a\" => Some(Kind::A),\n            _ => panic!(\"unknown kind {}\", s),\n        }\n    }\n}\n"
	rustBail := "fn load(p: &Path) -> anyhow::Result<()> {\n    if !p.exists() {\n        anyhow::bail!(\"missing {}\", p.display());\n    }\n    read(p)?;\n    Ok(())\n}\n"
	for _, tc := range []struct{ name, path, old, new, fn, was string }{
		{"java null", "src/main/java/calc/Parser.java", javaOld, strings.Replace(javaOld, javaThrow, "            return null;\n", 1), "Parser.parse", "IllegalArgumentException"},
		{"java bare return in a void method", "src/main/java/calc/Store.java", javaVoid, strings.Replace(javaVoid, "throw new NullPointerException(\"item\");", "return;", 1), "Store.save", "NullPointerException"},
		{"java empty list in a nested class", "src/main/java/calc/Outer.java", javaNested, strings.Replace(javaNested, "throw new FileNotFoundException(p.toString());", "return Collections.emptyList();", 1), "Outer.Inner.names", "FileNotFoundException"},
		{"java empty Optional in a catch", "src/main/java/calc/Finder.java", javaOptional, strings.Replace(javaOptional, "throw new IllegalStateException(e);", "return Optional.empty();", 1), "Finder.find", "IllegalStateException"},
		{"rust Err to Ok(None)", "src/parse.rs", rustOld, strings.Replace(rustOld, rustErr, "        return Ok(None);\n", 1), "parse", "Err(Error::Negative)"},
		{"rust Err tail to a default", "src/parse.rs", rustTail, strings.Replace(rustTail, "Err(Error::Negative)", "Ok(Default::default())", 1), "parse", "Err(Error::Negative)"},
		{"rust panic arm to None in a method", "src/kind.rs", rustPanic, strings.Replace(rustPanic, "panic!(\"unknown kind {}\", s)", "None", 1), "Parser.kind", "panic!"},
		{"rust bail to Ok(())", "src/load.rs", rustBail, strings.Replace(rustBail, "anyhow::bail!(\"missing {}\", p.display());", "return Ok(());", 1), "load", "bail!"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := run(mod(tc.path, tc.old, tc.new))
			wantErrorToNull(t, fs, tc.path, tc.fn, tc.was)
		})
	}

	javaHelper := "    static void validate(int n) {\n        if (n < 0) throw new IllegalArgumentException(\"negative\");\n    }\n\n"
	for _, tc := range []struct{ name, path, old, new string }{
		{"java error to a value", "src/main/java/calc/Parser.java", javaOld, strings.Replace(javaOld, javaThrow, "            return defaultValue();\n", 1)},
		{"java throw moved to a helper", "src/main/java/calc/Parser.java", javaOld, strings.Replace(strings.Replace(javaOld, "        if (n < 0) {\n"+javaThrow+"        }\n", "        validate(n);\n", 1), "    public Integer parse(", javaHelper+"    public Integer parse(", 1)},
		{"java early return null, throw kept", "src/main/java/calc/Parser.java", javaOld, strings.Replace(javaOld, "        int n = Integer.parseInt(s);\n", "        if (s == null) {\n            return null;\n        }\n        int n = Integer.parseInt(s);\n", 1)},
		{"java Optional API, old method renamed", "src/main/java/calc/Parser.java", javaOld, "package calc;\n\npublic class Parser {\n    public Optional<Integer> tryParse(String s) {\n        int n = Integer.parseInt(s);\n        if (n < 0) {\n            return Optional.empty();\n        }\n        return Optional.of(n);\n    }\n}\n"},
		{"java lambda's return null", "src/main/java/calc/Parser.java", javaOld, strings.Replace(javaOld, "        return n;\n", "        cache.computeIfAbsent(s, k -> { return null; });\n        return n;\n", 1)},
		{"java anonymous class's return null", "src/main/java/calc/Parser.java", javaOld, strings.Replace(javaOld, "        return n;\n", "        hooks.add(new Supplier<String>() {\n            public String get() { return null; }\n        });\n        return n;\n", 1)},
		{"java return null in a string and a comment", "src/main/java/calc/Parser.java", javaOld, strings.Replace(javaOld, javaThrow, "            // return null;\n            throw new IllegalArgumentException(\"return null;\");\n", 1)},
		{"java in a test file", "src/test/java/calc/ParserTest.java", javaOld, strings.Replace(javaOld, javaThrow, "            return null;\n", 1)},
		{"rust error to a value", "src/parse.rs", rustOld, strings.Replace(rustOld, rustErr, "        return Ok(Some(default_value()));\n", 1)},
		{"rust check moved to a helper", "src/parse.rs", rustOld, "fn validate(n: i64) -> Result<(), Error> {\n    if n < 0 {\n        return Err(Error::Negative);\n    }\n    Ok(())\n}\n\n" + strings.Replace(rustOld, "    if n < 0 {\n"+rustErr+"    }\n", "    validate(n)?;\n", 1)},
		{"rust early Ok(None), Err kept", "src/parse.rs", rustOld, strings.Replace(rustOld, "    let n: i64", "    if s.is_empty() {\n        return Ok(None);\n    }\n    let n: i64", 1)},
		{"rust Err now passed on with ?", "src/parse.rs", rustOld, strings.Replace(rustOld, "    if n < 0 {\n"+rustErr+"    }\n", "    check(n)?;\n", 1)},
		{"rust closure's None", "src/parse.rs", rustOld, strings.Replace(rustOld, "    Ok(Some(n as u32))\n", "    let f = |x: i64| { if x < 0 { return None; } Some(x) };\n    Ok(f(n).map(|v| v as u32))\n", 1)},
		{"rust stub implemented", "src/parse.rs", "pub fn parse(s: &str) -> Option<u32> {\n    todo!()\n}\n", "pub fn parse(s: &str) -> Option<u32> {\n    if s.is_empty() {\n        return None;\n    }\n    s.parse().ok()\n}\n"},
		{"rust renamed", "src/parse.rs", rustOld, strings.Replace(strings.Replace(rustOld, rustErr, "        return Ok(None);\n", 1), "pub fn parse(", "pub fn parse_natural(", 1)},
		{"rust raw string and lifetime", "src/parse.rs", rustOld, strings.Replace(strings.Replace(rustOld, rustErr, "        let _doc = r#\"return Ok(None); }\"#;\n"+rustErr, 1), "pub fn parse(s: &str)", "pub fn parse<'a>(s: &'a str)", 1)},
		{"rust unsupported case now supported, answer rewritten (ripgrep's push_alternate)", "src/glob.rs", "impl Parser {\n    fn push_alternate(&mut self) -> Result<(), Error> {\n        if self.stack.len() > 1 {\n            return Err(self.error(ErrorKind::NestedAlternates));\n        }\n        Ok(self.stack.push(Tokens::default()))\n    }\n}\n", "impl Parser {\n    fn push_alternate(&mut self) -> Result<(), Error> {\n        self.alternates.push(self.branches.len());\n        self.branches.push(Tokens::default());\n        Ok(())\n    }\n}\n"},
		{"java unsupported case now supported, answer rewritten", "src/main/java/calc/Glob.java", "class Glob {\n    Tokens push() {\n        if (stack.size() > 1) {\n            throw new GlobException(\"nested\");\n        }\n        return stack.push(new Tokens());\n    }\n}\n", "class Glob {\n    Tokens push() {\n        branches.push(new Tokens());\n        return null;\n    }\n}\n"},
		{"rust unsupported type now supported (serde's serialize_unit_struct)", "src/ser.rs", "impl Serializer for FlatMapSerializer {\n    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {\n        Err(Self::bad_type(Unsupported::UnitStruct))\n    }\n}\n", "impl Serializer for FlatMapSerializer {\n    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {\n        Ok(())\n    }\n}\n"},
		{"java declined hook now a no-op (as python's NotImplementedError)", "src/main/java/calc/Hooks.java", "class Hooks {\n    void onStart(Context c) {\n        throw new UnsupportedOperationException(\"onStart\");\n    }\n}\n", "class Hooks {\n    void onStart(Context c) {\n        return;\n    }\n}\n"},
		{"rust result type changed, errors reported aside (serde's at_most_one)", "src/attr.rs", "impl<T> VecAttr<T> {\n    fn at_most_one(mut self) -> Result<Option<T>, ()> {\n        if self.values.len() > 1 {\n            self.cx.error_spanned_by(self.first_dup, \"duplicate\");\n            Err(())\n        } else {\n            Ok(self.values.pop())\n        }\n    }\n}\n", "impl<T> VecAttr<T> {\n    fn at_most_one(mut self) -> Option<T> {\n        if self.values.len() > 1 {\n            self.cx.error_spanned_by(self.first_dup, \"duplicate\");\n            None\n        } else {\n            self.values.pop()\n        }\n    }\n}\n"},
		{"java result type now Optional", "src/main/java/calc/Parser.java", javaOld, strings.Replace(strings.Replace(strings.Replace(javaOld, javaThrow, "            return Optional.empty();\n", 1), "public Integer parse(", "public Optional<Integer> parse(", 1), "return n;", "return Optional.of(n);", 1)},
		{"rust in an integration test", "tests/parse.rs", rustOld, strings.Replace(rustOld, rustErr, "        return Ok(None);\n", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, f := range run(mod(tc.path, tc.old, tc.new)) {
				if f.Rule == "error-to-null" || f.Severity >= gate.SeverityHigh {
					t.Errorf("look-alike reported: %+v", f)
				}
			}
		})
	}
}

// TestSpecialCasesAddedJavaRust: LP-017 in Java (if-chains, equals tests,
// a new switch) and Rust (ifs, a new match on a variable); a switch or
// match that was there extended with more arms, named constants and a new
// function's table are no finding.
func TestSpecialCasesAddedJavaRust(t *testing.T) {
	t.Parallel()
	const javaDescribe = "package calc;\n\nclass Names {\n    String describe(int n) {\n        if (n < 0) {\n            return \"negative\";\n        }\n        return String.valueOf(n);\n    }\n}\n"
	const javaAt = "        return String.valueOf(n);\n"
	const rustDescribe = "pub fn describe(n: i32) -> String {\n    if n < 0 {\n        return \"negative\".into();\n    }\n    n.to_string()\n}\n"
	const rustAt = "    n.to_string()\n"
	javaIfs := "        if (n == 5) return \"five\";\n        if (42 == n) { return \"answer\"; }\n        if (\"seven\".equals(name)) return \"7\";\n"
	javaSwitch := "        switch (n) {\n            case 5: return \"five\";\n            case 42:\n                return \"answer\";\n            case 7 -> label = \"seven\";\n        }\n"
	rustIfs := "    if n == 5 {\n        return \"five\".into();\n    }\n    if n == 42 { return String::from(\"answer\"); }\n    if self.name == \"seven\" { return \"7\".into(); }\n    if 8 == n { kind = 'e'; }\n    if n == 9 { return \"nine\"; }\n    if n == 10 { label = \"ten\"; }\n"
	rustMatch := "    let s = match n {\n        5 => \"five\",\n        42 | 43 => \"answer\",\n        7 => { \"seven\" }\n        _ => \"\",\n    };\n"
	for _, tc := range []struct{ name, path, old, new, fn string }{
		{"java ifs", "src/main/java/calc/Names.java", javaDescribe, strings.Replace(javaDescribe, javaAt, javaIfs+javaAt, 1), "Names.describe"},
		{"java new switch", "src/main/java/calc/Names.java", javaDescribe, strings.Replace(javaDescribe, javaAt, javaSwitch+javaAt, 1), "Names.describe"},
		{"rust ifs", "src/describe.rs", rustDescribe, strings.Replace(rustDescribe, rustAt, rustIfs+rustAt, 1), "describe"},
		{"rust new match", "src/describe.rs", rustDescribe, strings.Replace(rustDescribe, rustAt, rustMatch+rustAt, 1), "describe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := run(mod(tc.path, tc.old, tc.new))
			f := findRule(fs, "special-cases-added")
			if f == nil || f.Type != gate.ValidationBypass || f.Severity != gate.SeverityMedium || f.File != tc.path || f.Symbol != tc.fn ||
				!strings.Contains(f.Message, "3 branches") || !strings.Contains(f.Message, tc.fn+" in ") {
				t.Fatalf("want a medium special-cases-added on %s naming %s; got %+v", tc.path, tc.fn, fs)
			}
			noHigh(t, fs)
		})
	}

	javaOldSwitch := strings.Replace(javaDescribe, javaAt, "        switch (n) {\n            case 1: return \"one\";\n        }\n"+javaAt, 1)
	rustOldMatch := "pub fn describe(n: i32) -> &'static str {\n    match n {\n        1 => \"one\",\n        _ => \"many\",\n    }\n}\n"
	rustTokens := "\nfn token(c: char) -> u8 {\n    match c {\n        '+' => 1,\n        '-' => 2,\n        '*' => 3,\n        _ => 0,\n    }\n}\n"
	for _, tc := range []struct {
		name  string
		files []FileChange
	}{
		{"java cases added to a switch that was there", []FileChange{mod("src/main/java/calc/Names.java", javaOldSwitch, strings.Replace(javaOldSwitch, "            case 1:", "            case 5: return \"five\";\n            case 42: return \"answer\";\n            case 7: return \"seven\";\n            case 1:", 1))}},
		{"java named constants", []FileChange{mod("src/main/java/calc/Names.java", javaDescribe, strings.Replace(javaDescribe, javaAt, "        if (n == MAX) return \"max\";\n        if (n == Limits.MIN) return \"min\";\n        if (kind == Kind.INT) return \"int\";\n"+javaAt, 1))}},
		{"java in a test file", []FileChange{mod("src/test/java/calc/NamesTest.java", javaDescribe, strings.Replace(javaDescribe, javaAt, javaIfs+javaAt, 1))}},
		{"rust arms added to a match that was there", []FileChange{mod("src/describe.rs", rustOldMatch, strings.Replace(rustOldMatch, "        1 => \"one\",\n", "        1 => \"one\",\n        2 => \"two\",\n        3 => \"three\",\n        4 => \"four\",\n", 1))}},
		{"rust token match in a new function", []FileChange{mod("src/describe.rs", rustDescribe, rustDescribe+rustTokens)}},
		{"java cast dropped from a switch's subject (jackson-core's _decodeEscaped)", []FileChange{mod("src/main/java/calc/Escapes.java", "class Escapes {\n    char decode(char c) {\n        switch ((int) c) {\n        case 'b':\n            return '\\b';\n        case 't':\n            return '\\t';\n        case 'n':\n            return '\\n';\n        }\n        return c;\n    }\n}\n", "class Escapes {\n    char decode(char c) {\n        switch (c) {\n        case 'b':\n            return '\\b';\n        case 't':\n            return '\\t';\n        case 'n':\n            return '\\n';\n        }\n        return c;\n    }\n}\n")}},
		{"rust conversion dropped from a match's subject", []FileChange{mod("src/escape.rs", "fn decode(c: char) -> char {\n    match c as u8 {\n        98 => '\\x08',\n        116 => '\\t',\n        110 => '\\n',\n        _ => c,\n    }\n}\n", "fn decode(c: u8) -> char {\n    match c {\n        98 => '\\x08',\n        116 => '\\t',\n        110 => '\\n',\n        _ => c as char,\n    }\n}\n")}},
		{"java switch's subject renamed", []FileChange{mod("src/main/java/calc/Escapes.java", "class Escapes {\n    char decode(char c) {\n        switch (c) {\n        case 'b':\n            return '\\b';\n        case 't':\n            return '\\t';\n        case 'n':\n            return '\\n';\n        }\n        return c;\n    }\n}\n", "class Escapes {\n    char decode(char ch) {\n        switch (ch) {\n        case 'b':\n            return '\\b';\n        case 't':\n            return '\\t';\n        case 'n':\n            return '\\n';\n        }\n        return ch;\n    }\n}\n")}},
		{"rust ranges and guards", []FileChange{mod("src/describe.rs", rustDescribe, strings.Replace(rustDescribe, rustAt, "    let s = match n {\n        1..=3 => \"few\",\n        x if x == 4 => \"four\",\n        _ => \"many\",\n    };\n"+rustAt, 1))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, f := range run(tc.files...) {
				if f.Rule == "special-cases-added" || f.Severity >= gate.SeverityHigh {
					t.Errorf("look-alike reported: %+v", f)
				}
			}
		})
	}
}

// TestFuncRulesJavaRustInGit: the Java and Rust rules on changes committed
// to a real repository (gitChange), beside unchanged files and tests: a
// throw turned into return null, literal arms piled into a Rust function
// and a Java method stubbed to a constant are reported; arms added to a
// match that was there and a new getter are not.
func TestFuncRulesJavaRustInGit(t *testing.T) {
	t.Parallel()
	const javaTest = "package calc;\n\nclass ParserTest {\n    @Test void parses() { assertEquals(5, new Parser().parse(\"5\")); }\n}\n"
	const rustOldMatch = "pub fn describe(n: i32) -> &'static str {\n    match n {\n        1 => \"one\",\n        _ => \"many\",\n    }\n}\n"
	base := map[string]string{
		"src/main/java/calc/Parser.java":     javaOld,
		"src/test/java/calc/ParserTest.java": javaTest,
		"src/describe.rs":                    rustDescribe(),
		"src/table.rs":                       rustOldMatch,
		"Cargo.toml":                         "[package]\nname = \"calc\"\n",
	}
	for _, tc := range []struct {
		name string
		head map[string]string
		want []string // rule and symbol of each finding of the three rules
	}{
		{"java throw to null", map[string]string{"src/main/java/calc/Parser.java": strings.Replace(javaOld, javaThrow, "            return null;\n", 1)}, []string{"error-to-null Parser.parse"}},
		{"rust literal arms", map[string]string{"src/describe.rs": strings.Replace(rustDescribe(), "    n.to_string()\n", "    let s = match n {\n        5 => \"five\",\n        42 => \"answer\",\n        7 => \"seven\",\n        _ => \"\",\n    };\n    n.to_string()\n", 1)}, []string{"special-cases-added describe"}},
		{"java stubbed", map[string]string{"src/main/java/calc/Parser.java": "package calc;\n\npublic class Parser {\n    public Integer parse(String s) {\n        return 0;\n    }\n}\n"}, []string{"placeholder-added Parser.parse"}},
		{"rust arms added to a match that was there", map[string]string{"src/table.rs": strings.Replace(rustOldMatch, "        1 => \"one\",\n", "        1 => \"one\",\n        2 => \"two\",\n        3 => \"three\",\n        4 => \"four\",\n", 1)}, nil},
		{"java new getter", map[string]string{"src/main/java/calc/Parser.java": strings.Replace(javaOld, "\n}\n", "\n    public int radix() {\n        return 10;\n    }\n}\n", 1)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, f := range gitChange(t, base, tc.head) {
				if f.Severity >= gate.SeverityHigh {
					t.Errorf("high finding: %+v", f)
				}
				switch f.Rule {
				case "error-to-null", "special-cases-added", "placeholder-added":
					got = append(got, f.Rule+" "+f.Symbol)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// rustDescribe is TestSpecialCasesAddedJavaRust's Rust function.
func rustDescribe() string {
	return "pub fn describe(n: i32) -> String {\n    if n < 0 {\n        return \"negative\".into();\n    }\n    n.to_string()\n}\n"
}
