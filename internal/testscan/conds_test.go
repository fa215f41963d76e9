package testscan

import "testing"

// TestNeverLoops: loops over an empty literal, counted below zero or on a
// constant that never holds, in each language's spelling; and loops that
// run, which must not read as such.
func TestNeverLoops(t *testing.T) {
	for cond, want := range map[string]bool{
		"range []int{}":                                  true,
		"range [0]string{}":                              true,
		"for i := 0; i<0; i++":                           true,
		"for _ in [ ] :":                                 true,
		"for k , v in dict ( ) :":                        true,
		"while 0 :":                                      true,
		"for ( const row of [ ] )":                       true,
		"for ( let i = 0 i < 0 i ++ )":                   true,
		"for _ in 0 .. 0":                                true,
		"while false":                                    true,
		"for ( int i = 0 ; i < 0 ; i ++ )":               true,
		"for ( String s : Collections . emptyList ( ) )": true,
		"for ( int x : new int [ 0 ] )":                  true,
		"range rows":                                     false,
		"range []int{1}":                                 false,
		"for i := 0; i<len(rows); i++":                   false,
		"for i := 0; j<0; i++":                           false,
		"for row in rows :":                              false,
		"for ( const row of rows )":                      false,
		"for _ in 0 .. 3":                                false,
		"while ( true )":                                 false,
		"for ( String s : List . of ( \"a\" ) )":         false,
		"if false":                                       false,
		"":                                               false,
	} {
		if got := NeverLoops(cond); got != want {
			t.Errorf("NeverLoops(%q) = %v, want %v", cond, got, want)
		}
		if want && !NeverHolds(cond) {
			t.Errorf("NeverHolds(%q) = false for a loop that never runs", cond)
		}
	}
}

// FuzzNeverHolds: any text is read without a panic, and a loop that never
// runs is a condition that never holds.
func FuzzNeverHolds(f *testing.F) {
	for _, s := range []string{"if 1 == 2", "if false && x.y(z)[0] > -1", "if -", "if ((1", "elif not 'a' == 'b':", "for _ in [ ] :", "range []int{}", "while ( false )", "for ( let i = 0 i < 0 i ++ )", "if (false)", "for(", "while", "range{", "for i := 0; i<-1;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cond string) {
		if NeverLoops(cond) && !NeverHolds(cond) {
			t.Fatalf("%q: a loop that never runs, but a condition that holds", cond)
		}
	})
}

// TestNeverHoldsFolds: conditions made of literals that fold to false
// never hold; one with a name, a call or an unknown part does not, unless
// a false operand decides it.
func TestNeverHoldsFolds(t *testing.T) {
	for _, c := range []struct {
		cond string
		want bool
	}{
		{"if 1 == 2", true},
		{"if (1 === 2)", true},
		{"if 'a' == 'b':", true},
		{"if false && run.Tokens>0", true},
		{"if False and s:", true},
		{"if s and False:", true},
		{"if not True:", true},
		{"if !(1 < 2)", true},
		{"if 0 > 1", true},
		{"if None is not None:", true},
		{"if x := f(); 1 != 1", true},
		{"if 1 == 1", false},
		{"if true || x", false},
		{"if x == 2", false},
		{"if false || x", false},
		{"if f() == \"a\"", false},
		{"if \"a\\n\" == \"b\"", false},
		{"if 1 == \"1\"", false},
		{"if (1 == 2", false},
		{"if len(x) == 0", false},
		{"if __name__ == \"__main__\":", true},
		{"if __name__ != '__main__':", false},
		{"if typing.TYPE_CHECKING:", true},
		{"if TYPE_CHECKING and x:", true},
		{"if typing.TYPE_CHECKING():", false},
	} {
		if got := NeverHolds(c.cond); got != c.want {
			t.Errorf("NeverHolds(%q) = %v, want %v", c.cond, got, c.want)
		}
	}
}
