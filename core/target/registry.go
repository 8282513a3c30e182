package target

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"cubeworkbench/core/text"
)

// Field is one setting of a connector, named by its profile (TOML) key.
type Field struct {
	Key      string    // profile key, e.g. "chat_id"; Config.Get/Set take it
	Label    text.Text // what the form and the messages call it
	Hint     text.Text // where to find the value in the system's own UI
	Required bool
	// Secret marks the credential field: the form takes a key for it (kept
	// in the OS keyring or for the session) and the profile stores only the
	// environment variable or keyring name, never the key.
	Secret bool
	// Multiline fields (request templates) want a text area.
	Multiline bool
}

// Spec describes a connector kind: everything the profile, the CLI and the
// window need to offer and check it. Each connector file registers one.
type Spec struct {
	Kind        string
	Label       text.Text
	Placeholder string // example base URL
	Fields      []Field
	// Retrieves says the system returns its retrieved documents, so Recall@k
	// can be computed (false for a plain chat endpoint).
	Retrieves bool
	// Blame, when set, reads an error the system returned and names the
	// setting it blames (a Field key, e.g. "chat_id" for an assistant the
	// key may not use); why is what to tell the user, zero for the generic
	// "this setting is wrong". Test connection (core/targetcheck) asks the
	// connector's own entry, so a new connector brings its diagnosis with
	// it instead of a case in a switch elsewhere.
	Blame func(e *Error) (field string, why text.Text, ok bool)
	// LLMFailed is what Test connection says when the system's own model
	// failed and said so in its answer (an *Error with CodeLLMError), in
	// the system's own terms; zero: the generic words.
	LLMFailed text.Text
	// Cleanup is what comes out of the system's answers before the judges
	// read them (its citation markers); every answer New's connector
	// returns has been through it. Required: its Why says what the markers
	// are, or why the system has none.
	Cleanup Cleanup
	build   func(c client, cfg Config) (Target, error)
}

// Field returns the spec's field with key.
func (s Spec) Field(key string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

var (
	regMu    sync.RWMutex
	registry = map[string]Spec{}
)

// register adds a connector kind; connector files call it from init.
func register(s Spec, build func(c client, cfg Config) (Target, error)) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[s.Kind]; dup {
		panic("target: kind registered twice: " + s.Kind)
	}
	if strings.TrimSpace(s.Cleanup.Why) == "" {
		panic("target: kind " + s.Kind + " registered without a Cleanup saying what its answers carry")
	}
	s.build = build
	registry[s.Kind] = s
}

// SpecOf returns the spec of a kind.
func SpecOf(kind string) (Spec, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	s, ok := registry[kind]
	return s, ok
}

// Kinds lists the registered kinds, sorted.
func Kinds() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(registry))
	for k := range registry {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Specs lists the registered specs in Kinds order.
func Specs() []Spec {
	var out []Spec
	for _, k := range Kinds() {
		s, _ := SpecOf(k)
		out = append(out, s)
	}
	return out
}

// CheckKind returns a profile problem for an unknown kind ("" when known).
func CheckKind(kind string) string {
	if _, ok := SpecOf(kind); ok {
		return ""
	}
	return fmt.Sprintf("target kind %q (%s)", kind, strings.Join(Kinds(), ", "))
}

// Missing lists the labels of required fields that cfg leaves empty.
func (s Spec) Missing(cfg Config, lang text.Lang) []string {
	var out []string
	for _, f := range s.Fields {
		if f.Required && !f.Secret && strings.TrimSpace(cfg.Get(f.Key)) == "" {
			out = append(out, f.Label.In(lang)+" ("+f.Key+")")
		}
	}
	return out
}

// Common fields, shared by the connectors that have them.
var (
	fieldBaseURL = Field{Key: "base_url", Label: text.New("服务地址", "Base URL"), Required: true}
	fieldKey     = Field{Key: "api_key_env", Label: text.New("API 密钥", "API key"), Secret: true,
		Hint: text.New("保存密钥的环境变量名或钥匙串条目", "the environment variable or keyring entry holding the key")}
)
