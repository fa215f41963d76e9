package java

import "testing"

func TestJreRuntime(t *testing.T) {
	for _, c := range []struct{ annots, want string }{
		{"@EnabledForJreRange(max = JAVA_23)", "<=23"},
		{"@EnabledForJreRange(min = JAVA_11, max = JRE.JAVA_17)", "<=17"},
		{"@EnabledForJreRange(maxVersion = 21)", "<=21"},
		{"@EnabledForJreRange(min = JAVA_11)", ""},
		{"@EnabledOnJre(JAVA_8)", "<=8"},
		{"@EnabledOnJre({JAVA_8, JAVA_11})", "<=11"},
		{"@EnabledOnJre(value = {JRE.JAVA_9, JRE.JAVA_10})", "<=10"},
		{"@EnabledOnJre(versions = {17, 21})", "<=21"},
		{"@EnabledOnJre({JAVA_8, OTHER})", ""},
		{"@DisabledForJreRange(min = JAVA_17)", "<17"},
		{"@DisabledForJreRange(min = JAVA_11, max = JAVA_17)", ""},
		{"@DisabledOnJre(JAVA_8)", ""},
		{"@EnabledOnOs(OS.LINUX) @EnabledForJreRange(max = JAVA_23)", "<=23"},
		{"@EnabledForJreRange(max = JAVA_23) @EnabledOnJre(JAVA_11)", "<=11"},
		{"@EnabledForJreRange(max = JAVA_11) @DisabledForJreRange(min = JAVA_11)", "<11"},
		{"@EnabledIfSystemProperty(named = \"x\", matches = \"y\")", ""},
	} {
		src := "class FooTest {\n    @Test\n    " + c.annots + "\n    void t() { assertEquals(1, f()); }\n}\n"
		f, err := New().Extract("src/test/java/FooTest.java", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Tests) != 1 || f.Tests[0].Skip == nil {
			t.Errorf("%s: no conditional skip read: %+v", c.annots, f.Tests)
			continue
		}
		if got := f.Tests[0].Skip.Runtime; got != c.want {
			t.Errorf("%s: Runtime %q, want %q", c.annots, got, c.want)
		}
	}
}
