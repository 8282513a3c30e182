package ui

import (
	"bytes"
	"cubeworkbench/core/result"
	"fmt"
	"reflect"
	"sort"

	"github.com/BurntSushi/toml"

	"cubeworkbench/core/profile"
)

// windowDefault is the profile a window starts from: the default profile
// with both offline baseline judges (lexical and semantic), so that a first
// Evaluate works anywhere and shows judges side by side, as cubectl demo does.
func windowDefault() profile.Profile {
	p := profile.Default()
	p.Judges = []profile.Endpoint{{Name: result.LexicalJudge, Lexical: true}, {Name: result.SemanticJudge, Semantic: true}}
	return p
}

// profileChanges is the TOML of the keys of p that differ from the window's
// default: what the preferences keep, so that a default changed in a later
// version reaches every user who never changed that key. Tables compare key
// by key; arrays (dimensions, judges) as a whole. A default array the user
// emptied is written empty, so that it stays empty.
func profileChanges(p profile.Profile) ([]byte, error) {
	cur, err := tomlTree(p)
	if err != nil {
		return nil, err
	}
	def, err := tomlTree(windowDefault())
	if err != nil {
		return nil, err
	}
	changes := diffTree(cur, def)
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(changes); err != nil {
		return nil, fmt.Errorf("ui: profile: %w", err)
	}
	return buf.Bytes(), nil
}

// profileFromChanges is the window's default with the stored changes over
// it. A full profile stored by an earlier version reads the same way.
func profileFromChanges(text []byte) (profile.Profile, error) {
	var changes map[string]any
	if _, err := toml.Decode(string(text), &changes); err != nil {
		return profile.Profile{}, fmt.Errorf("ui: stored profile: %w", err)
	}
	def, err := tomlTree(windowDefault())
	if err != nil {
		return profile.Profile{}, err
	}
	merged := mergeTree(def, changes)
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(merged); err != nil {
		return profile.Profile{}, fmt.Errorf("ui: stored profile: %w", err)
	}
	return profile.Parse(buf.Bytes())
}

// tomlTree is p as the generic tree its TOML decodes to.
func tomlTree(p profile.Profile) (map[string]any, error) {
	text, err := p.Encode()
	if err != nil {
		return nil, err
	}
	var tree map[string]any
	if _, err := toml.Decode(string(text), &tree); err != nil {
		return nil, fmt.Errorf("ui: profile: %w", err)
	}
	return tree, nil
}

func diffTree(cur, def map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range cur {
		d, had := def[k]
		switch {
		case !had:
			out[k] = v
		case isTable(v) && isTable(d):
			if sub := diffTree(v.(map[string]any), d.(map[string]any)); len(sub) > 0 {
				out[k] = sub
			}
		case !reflect.DeepEqual(v, d):
			out[k] = v
		}
	}
	for _, k := range sortedKeys(def) {
		if _, has := cur[k]; !has && reflect.ValueOf(def[k]).Kind() == reflect.Slice {
			out[k] = []any{}
		}
	}
	return out
}

func mergeTree(def, changes map[string]any) map[string]any {
	out := make(map[string]any, len(def))
	for k, v := range def {
		out[k] = v
	}
	for k, v := range changes {
		if isTable(v) && isTable(out[k]) {
			out[k] = mergeTree(out[k].(map[string]any), v.(map[string]any))
			continue
		}
		out[k] = v // an emptied array stays empty
	}
	return out
}

func isTable(v any) bool { _, ok := v.(map[string]any); return ok }

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
