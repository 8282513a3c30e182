package target

import (
	"fmt"
	"reflect"
	"strings"
)

// Config is the [target] table of a profile: which system answers and how to
// reach it. It lives here so the connector registry can describe its fields;
// profile.Target is an alias of it. Keys are never part of it: APIKeyEnv
// names the environment variable (or keyring entry) that holds the key.
type Config struct {
	Kind      string `toml:"kind"` // a registered kind: see Kinds()
	BaseURL   string `toml:"base_url"`
	APIKeyEnv string `toml:"api_key_env,omitempty"`
	ChatID    string `toml:"chat_id,omitempty"` // RAGFlow assistant id
	Model     string `toml:"model,omitempty"`
	// Generic HTTP: a JSON request template with {{question}} and JSON paths
	// to the answer and the retrieved document list.
	RequestTemplate string `toml:"request_template,omitempty"`
	AnswerPath      string `toml:"answer_path,omitempty"`
	DocsPath        string `toml:"docs_path,omitempty"`
	Concurrency     int    `toml:"concurrency,omitempty"`
	// APIVersion picks a connector's API generation where servers differ
	// (MaxKB "v1" or "v2"); empty: the connector asks the server.
	APIVersion string `toml:"api_version,omitempty"`
	// AllowRedirects follows a redirect to another host; by default it is
	// refused, so questions and guides never go to an address not named here.
	AllowRedirects bool `toml:"allow_redirects,omitempty"`
}

// Get returns the string field whose TOML key is key ("" when there is none),
// so forms built from a Spec's fields read a Config without a switch per kind.
func (c Config) Get(key string) string {
	if f, ok := configField(reflect.ValueOf(&c).Elem(), key); ok {
		return f.String()
	}
	return ""
}

// Set writes the string field whose TOML key is key.
func (c *Config) Set(key, value string) error {
	f, ok := configField(reflect.ValueOf(c).Elem(), key)
	if !ok {
		return fmt.Errorf("%w: no string field %q in the target config", ErrConfig, key)
	}
	f.SetString(value)
	return nil
}

func configField(v reflect.Value, key string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		if name == key && t.Field(i).Type.Kind() == reflect.String {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}
