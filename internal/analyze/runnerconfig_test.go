package analyze

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSSelection(t *testing.T) {
	cfg := "import { defaultExclude } from 'vitest/config'\n// exclude: ['nope']\nconst serial = [\n  'test/git.test.ts',\n]\nexport default {\n  test: { projects: [\n    { test: { exclude: [...defaultExclude, ...serial, '**/fixtures/**'] } },\n    { test: { include: serial } },\n  ] },\n}\n"
	sel, err := readJSSelection([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{"...defaultExclude": true, "test/git.test.ts": true, "**/fixtures/**": true}, sel.exclude); diff != "" {
		t.Errorf("exclude (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"test/git.test.ts": true}, sel.include); diff != "" {
		t.Errorf("include (-want +got):\n%s", diff)
	}
}

func TestPomTestPatterns(t *testing.T) {
	pom := `<project><build><plugins>
  <plugin><artifactId>spotless-maven-plugin</artifactId><configuration><java><excludes><exclude>src/test/A.java</exclude></excludes></java></configuration></plugin>
  <plugin><artifactId>maven-surefire-plugin</artifactId><configuration><excludes><exclude>**/SlowTest.java</exclude></excludes></configuration></plugin>
  <plugin><artifactId>maven-compiler-plugin</artifactId><configuration><testExcludes><testExclude>**/Old*.java</testExclude></testExcludes></configuration></plugin>
</plugins></build></project>`
	got, err := pomTestPatterns([]byte(pom))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]string{"exclude": {"**/SlowTest.java", "**/Old*.java"}}, got); diff != "" {
		t.Errorf("patterns (-want +got):\n%s", diff)
	}
}
