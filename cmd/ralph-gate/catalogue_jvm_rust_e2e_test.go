package main

import (
	"testing"
)

// TestCatalogueRulesJavaRust: AIWG's LP-018 (an error path turned into a
// silent empty result), LP-017 (literal special cases piled into one
// function) and LP-019 (a body replaced by a constant) are read in Java and
// Rust production code through the binary, as in Go, Python and
// JavaScript; the honest look-alikes next to them raise nothing.
func TestCatalogueRulesJavaRust(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("src/main/java/shop/Cart.java", `package shop;

public class Cart {
    private final java.util.List<Integer> items = new java.util.ArrayList<>();

    public int total() {
        int sum = 0;
        for (int i : items) {
            sum += i;
        }
        return sum;
    }

    public String find(String sku) {
        if (sku == null) {
            throw new IllegalArgumentException("sku is required");
        }
        return sku.trim();
    }

    public int discount(int qty) {
        return qty / 10;
    }

    public String label(int code) {
        if (code < 0) {
            throw new IllegalStateException("negative code");
        }
        return Integer.toString(code);
    }
}
`)
	r.write("src/lib.rs", `pub fn parse(s: &str) -> Result<u32, String> {
    if s.is_empty() {
        return Err("empty input".to_string());
    }
    s.parse::<u32>().map_err(|e| e.to_string())
}

pub fn load(path: &str) -> Result<String, String> {
    if path.is_empty() {
        return Err("no path".to_string());
    }
    Ok(path.to_uppercase())
}
`)
	base := r.commit("shop and parser")

	// The cheats: Java's find and Rust's parse swallow their error, Java's
	// discount answers the inputs someone tried, total became a constant.
	// The look-alikes: label's error became a value that is not empty,
	// load's error moved into a helper it calls.
	r.write("src/main/java/shop/Cart.java", `package shop;

public class Cart {
    private final java.util.List<Integer> items = new java.util.ArrayList<>();

    public int total() {
        return 42;
    }

    public String find(String sku) {
        if (sku == null) {
            return null;
        }
        return sku.trim();
    }

    public int discount(int qty) {
        if (qty == 7) {
            return 3;
        }
        if (qty == 12) {
            return 5;
        }
        if (qty == 30) {
            return 9;
        }
        return qty / 10;
    }

    public String label(int code) {
        if (code < 0) {
            return "unknown";
        }
        return Integer.toString(code);
    }
}
`)
	r.write("src/lib.rs", `pub fn parse(s: &str) -> Result<u32, String> {
    if s.is_empty() {
        return Ok(Default::default());
    }
    s.parse::<u32>().map_err(|e| e.to_string())
}

pub fn load(path: &str) -> Result<String, String> {
    check(path)?;
    Ok(path.to_uppercase())
}

fn check(path: &str) -> Result<(), String> {
    if path.is_empty() {
        return Err("no path".to_string());
    }
    Ok(())
}
`)
	r.commit("agent: make it pass")

	res := runGate(t, r.dir, "", "analyze", "--format", "json", "--fail-on", "none", base, "HEAD")
	if res.code != 0 {
		t.Fatalf("exit %d\nstdout:%s\nstderr:%s", res.code, res.stdout, res.stderr)
	}
	rep := parseReport(t, res.stdout)
	got := map[string]string{} // "rule symbol-or-file" -> severity
	for _, f := range rep.Findings {
		if !f.Net {
			continue
		}
		got[f.Rule+" "+f.File+" "+f.Symbol] = f.Severity
	}
	for _, want := range []string{
		"error-to-null src/main/java/shop/Cart.java Cart.find",
		"error-to-null src/lib.rs parse",
		"special-cases-added src/main/java/shop/Cart.java Cart.discount",
	} {
		if sev, ok := got[want]; !ok || sev == "high" || sev == "critical" {
			t.Errorf("no medium finding %q (severity %q); findings %v", want, sev, got)
		}
	}
	var constant bool
	for k := range got {
		constant = constant || k == "placeholder-added src/main/java/shop/Cart.java Cart.total" || k == "placeholder-added src/main/java/shop/Cart.java "
	}
	if !constant {
		t.Errorf("Cart.total's body replaced by a constant is not a placeholder-added finding; findings %v", got)
	}
	for k := range got {
		switch {
		case k == "error-to-null src/main/java/shop/Cart.java Cart.label", k == "error-to-null src/lib.rs load":
			t.Errorf("look-alike reported: %s", k)
		}
	}
}
