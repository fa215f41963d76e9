package aiwgschema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

//go:embed schemas/*.yaml
var files embed.FS

// Schema files.
const (
	LoopState        = "loop-state.yaml"
	Persistence      = "persistence-extension.yaml"
	LoopRegistry     = "loop-registry.yaml"
	MultiRegistry    = "multi-loop-registry.yaml"
	IterationAnalyis = "iteration-analytics.yaml"
)

var (
	once     sync.Once
	compiled map[string]*jsonschema.Schema
	loadErr  error
)

// targets are the schemas compiled, by name: a file, or a file and a JSON
// pointer into it.
var targets = map[string]struct{ file, pointer string }{
	LoopState:        {LoopState, ""},
	Persistence:      {Persistence, ""},
	LoopRegistry:     {LoopRegistry, ""},
	MultiRegistry:    {MultiRegistry, ""},
	IterationAnalyis: {IterationAnalyis, "/loop_analytics"},
}

func load() {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, name := range []string{LoopState, Persistence, LoopRegistry, MultiRegistry, IterationAnalyis} {
		doc, err := readYAML(name)
		if err != nil {
			loadErr = err
			return
		}
		if err := c.AddResource(url(name), doc); err != nil {
			loadErr = fmt.Errorf("schema %s: %w", name, err)
			return
		}
	}
	compiled = map[string]*jsonschema.Schema{}
	for name, t := range targets {
		loc := url(t.file)
		if t.pointer != "" {
			loc += "#" + t.pointer
		}
		s, err := c.Compile(loc)
		if err != nil {
			loadErr = fmt.Errorf("compile schema %s: %w", name, err)
			return
		}
		compiled[name] = s
	}
}

func url(name string) string { return "https://aiwg.invalid/schemas/" + name }

// readYAML reads a schema file into the JSON values the validator wants, with
// nullable rewritten.
func readYAML(name string) (any, error) {
	data, err := files.ReadFile("schemas/" + name)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	v, err := value(&doc)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	v = nullable(v)
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(js))
}

// value converts a YAML node to plain values. A mapping key given twice keeps
// its last value, as most YAML readers do: persistence-extension.yaml repeats
// its top-level description.
func value(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return value(n.Content[0])
	case yaml.AliasNode:
		return value(n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := value(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := value(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, fmt.Errorf("line %d: %w", n.Line, err)
	}
	return v, nil
}

// nullable rewrites `nullable: true` into JSON Schema: the type gains "null"
// and an enum gains null. A nullable value without a type allows anything
// already.
func nullable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = nullable(e)
		}
		// examples is an annotation that must be an array; two schemas
		// give an object of named examples at the top, which the
		// metaschema rejects.
		if _, ok := x["examples"].([]any); !ok {
			delete(x, "examples")
		}
		if n, ok := x["nullable"].(bool); ok && n {
			switch t := x["type"].(type) {
			case string:
				x["type"] = []any{t, "null"}
			case []any:
				x["type"] = append(t, "null")
			}
			if enum, ok := x["enum"].([]any); ok {
				x["enum"] = append(enum, nil)
			}
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = nullable(e)
		}
		return x
	}
	return v
}

// Validate validates a JSON document against the named schemas (all of
// them). The error names the schema and the failing value's location.
func Validate(data []byte, schemas ...string) error {
	once.Do(load)
	if loadErr != nil {
		return loadErr
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	for _, name := range schemas {
		s, ok := compiled[name]
		if !ok {
			return fmt.Errorf("unknown schema %q", name)
		}
		if err := s.Validate(inst); err != nil {
			return fmt.Errorf("against %s: %v", name, err)
		}
	}
	return nil
}

// ValidateState validates a state.json against loop-state.yaml and
// persistence-extension.yaml (whose properties extend the same object).
func ValidateState(data []byte) error { return Validate(data, LoopState, Persistence) }

// ValidateRegistry validates a registry.json against both registry schemas.
func ValidateRegistry(data []byte) error { return Validate(data, LoopRegistry, MultiRegistry) }

// ValidateAnalytics validates an analytics.json against iteration-analytics.yaml's
// loop_analytics.
func ValidateAnalytics(data []byte) error { return Validate(data, IterationAnalyis) }
