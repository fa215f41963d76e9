package config

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// DefaultMaxStopBlocks is how many times in a row the guard's Stop hook sends
// an agent back to work before it lets the agent stop and leaves the rest to
// a human.
const DefaultMaxStopBlocks = 3

// Guard configures the agent hooks (ralph-gate guard):
//
//	guard:
//	  max_stop_blocks: 3   # Stop blocks in a row while stop_hook_active, then let through
type Guard struct {
	// MaxStopBlocks bounds the Stop hook's blocks in a row in one agent
	// session, every block counted (nil: DefaultMaxStopBlocks; 0: never
	// block).
	MaxStopBlocks *int `yaml:"max_stop_blocks"`
}

// StopBlocks returns MaxStopBlocks or its default.
func (g Guard) StopBlocks() int {
	if g.MaxStopBlocks == nil {
		return DefaultMaxStopBlocks
	}
	return *g.MaxStopBlocks
}

// UnmarshalYAML reads and validates the section, naming the line of a bad
// value: the section validates itself so that Parse needs no change.
func (g *Guard) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: guard: want a mapping (guard: {max_stop_blocks: 3})", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "max_stop_blocks":
			var m int
			if err := v.Decode(&m); err != nil || v.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: guard: max_stop_blocks: want a whole number, not %q", v.Line, v.Value)
			}
			if m < 0 || m > 100 {
				return fmt.Errorf("line %d: guard: max_stop_blocks must be between 0 and 100, not %d", v.Line, m)
			}
			g.MaxStopBlocks = &m
		default:
			return fmt.Errorf("line %d: guard: unknown key %q (known: max_stop_blocks)", k.Line, k.Value)
		}
	}
	return nil
}
